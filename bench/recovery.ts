/**
 * Crash recovery time (issue "One core", item 5; docs/reliability.md). Two servers (src/main.ts in child
 * processes, default TURN_STALE_MS and PARTIAL_FLUSH_MS) on one PostgreSQL database; in each run a turn runs on
 * A, A dies by kill -9, and the time from the kill to the turn's end (read from the database every 5 ms) is
 * recorded. Two kill points:
 *   - mid-answer: the first chunk checkpointed, then the kill a random 0–1 s later (any phase of the heartbeat);
 *   - right after the final save: the kill as soon as the answer's row is seen (the turn then ends COMPLETED);
 *     a run whose turn ended before the kill landed is counted, not timed.
 * Then on PGlite (one process per data directory): kill -9 mid-answer, restart, and whether the turn had ended
 * when the new process logged `listening` (ready).
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/recovery.ts
 *   RUNS=5 npx tsx bench/recovery.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  TurnRecoveryCreateSessionDocument,
  TurnRecoverySendDocument,
  TurnRecoveryTurnDocument,
} from '../test/generated/graphql.js';
import { type ChildServer, startChildServer } from '../test/support/child-server.js';
import { createServerDatabase } from '../test/support/durability.js';
import { gate, startFakeProvider } from '../test/support/fake-provider.js';
import { percentile } from './lib.js';

const RUNS = Number(process.env.RUNS ?? 10);
const CREATE = TurnRecoveryCreateSessionDocument;
const SEND = TurnRecoverySendDocument;
const TURN = TurnRecoveryTurnDocument;
const ACTIVE = new Set(['RUNNING', 'WAITING_FOR_TOOL']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, everyMs = 5, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await sleep(everyMs);
  }
}

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length === 0) return `${label.padEnd(44)} (no timed run)`;
  const f = (n: number) => `${(n / 1000).toFixed(2)} s`;
  return `${label.padEnd(44)} n ${String(sorted.length).padStart(2)}   min ${f(sorted[0]!)}   median ${f(
    percentile(sorted, 50),
  )}   max ${f(sorted.at(-1)!)}`;
}

async function onPostgres(serverUrl: string, fakeUrl: string, fake: Awaited<ReturnType<typeof startFakeProvider>>) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recovery-'));
  const db = await createServerDatabase(serverUrl);
  const env = (name: string) => ({
    DATABASE_URL: db.url,
    INSTANCE_ID: name,
    SESSION_FILES_DIR: join(dir, `files-${name}`),
    OLLAMA_HOST: fakeUrl,
  });
  const client = new pg.Client({ connectionString: db.url });
  let a: ChildServer | null = null;
  let b: ChildServer | null = null;
  const mid: number[] = [];
  const final: number[] = [];
  let finalMissed = 0;
  const status = async (turnId: string) =>
    (await client.query<{ status: string }>('SELECT status FROM turns WHERE id = $1', [turnId])).rows[0]!.status;
  try {
    a = await startChildServer(env('bench-a'), { timeoutMs: 180_000 });
    b = await startChildServer(env('bench-b'), { timeoutMs: 180_000 });
    await client.connect();
    for (let run = 0; run < 2 * RUNS; run++) {
      const afterFinalSave = run >= RUNS;
      const sessionId = (await b.gql(CREATE, {})).data!.createSession.id;
      const held = gate();
      if (afterFinalSave) fake.enqueue({ text: ['The whole ', 'answer'] });
      else fake.enqueue({ text: ['The first half ', 'and the rest'], hold: held.promise, holdBeforeChunk: 1 });
      const sent = await a.gql(SEND, { input: { sessionId, content: `run ${run}` } });
      if (sent.errors) throw new Error(JSON.stringify(sent.errors));
      const raw = await until(
        () =>
          client.query<{ id: string; partial_text: string }>(
            `SELECT id, partial_text FROM turns ORDER BY started_at DESC LIMIT 1`,
          ),
        (r) => r.rows.length > 0,
      );
      const turnId = raw.rows[0]!.id;
      let killedAt: number;
      if (afterFinalSave) {
        // The answer's row takes the turn's id: kill the moment it is there.
        await until(
          () => client.query('SELECT 1 FROM session_messages WHERE message_id = $1', [turnId]),
          (r) => (r.rowCount ?? 0) > 0,
          1,
        );
        killedAt = performance.now();
        a.kill('SIGKILL');
      } else {
        await until(
          () => client.query<{ partial_text: string }>('SELECT partial_text FROM turns WHERE id = $1', [turnId]),
          (r) => r.rows[0]?.partial_text === 'The first half ',
          20,
        );
        await sleep(Math.random() * 1_000);
        killedAt = performance.now();
        a.kill('SIGKILL');
      }
      await a.exited;
      held.open();
      if (afterFinalSave && !ACTIVE.has(await status(turnId))) finalMissed++;
      else {
        const ended = await until(
          () => status(turnId),
          (s) => !ACTIVE.has(s),
        );
        const elapsed = performance.now() - killedAt;
        (afterFinalSave ? final : mid).push(elapsed);
        const expected = afterFinalSave ? 'COMPLETED' : 'INTERRUPTED';
        if (ended !== expected) throw new Error(`run ${run}: the turn ended ${ended}, not ${expected}`);
      }
      a = await startChildServer(env('bench-a'), { timeoutMs: 180_000 });
    }
  } finally {
    a?.kill('SIGKILL');
    b?.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    await client.end().catch(() => undefined);
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(summary('PostgreSQL, kill -9 mid-answer → ended', mid));
  const missed = `(${finalMissed} of ${RUNS} ended before the kill landed)`;
  console.log(`${summary('PostgreSQL, kill -9 after the final save → ended', final)}   ${missed}`);
  return { mid, final, finalMissed };
}

async function onPglite(fakeUrl: string, fake: Awaited<ReturnType<typeof startFakeProvider>>) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recovery-pglite-'));
  const env = { DATA_DIR: join(dir, 'data'), SESSION_FILES_DIR: join(dir, 'files'), OLLAMA_HOST: fakeUrl };
  let server = await startChildServer(env, { timeoutMs: 180_000 });
  let endedAtReady = 0;
  const runs = Math.min(RUNS, 5);
  try {
    for (let run = 0; run < runs; run++) {
      const sessionId = (await server.gql(CREATE, {})).data!.createSession.id;
      const held = gate();
      fake.enqueue({ text: ['The first half ', 'and the rest'], hold: held.promise, holdBeforeChunk: 1 });
      const sent = await server.gql(SEND, { input: { sessionId, content: `run ${run}` } });
      const turnId = sent.data!.sendMessage.turn!.id;
      await until(
        () => server.gql(TURN, { id: turnId }),
        (r) => r.data?.turn?.status === 'RUNNING',
        20,
      );
      server.kill('SIGKILL');
      await server.exited;
      held.open();
      server = await startChildServer(env, { timeoutMs: 180_000 });
      // Ready is the `listening` line: the first request after it.
      const { data } = await server.gql(TURN, { id: turnId });
      if (!ACTIVE.has(data!.turn!.status)) endedAtReady++;
    }
  } finally {
    server.kill('SIGKILL');
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${'PGlite, kill -9 mid-answer, restart'.padEnd(44)} ended when ready: ${endedAtReady} of ${runs}`);
}

async function main() {
  const fake = await startFakeProvider();
  try {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) await onPostgres(serverUrl, fake.url, fake);
    else console.log('PostgreSQL: skipped (set TEST_DATABASE_URL)');
    if (process.env.DATABASES !== 'postgres') await onPglite(fake.url, fake);
  } finally {
    await fake.stop();
  }
}

await main();
