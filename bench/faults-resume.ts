/**
 * Resume across a restart: 500 disconnect/resume cycles of one client while
 * turns stream, with a kill -9 of the server (mid-turn) halfway and a
 * restart on the same embedded data directory. Prints what the client
 * received (gaps, duplicates, fragments without their TurnStarted), the time
 * from the new process listening to the interrupted turn's end, and to the
 * first accepted sendMessage.
 *
 *   npx tsx bench/faults-resume.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { type ChildServer, startChildServer } from '../test/support/child-server.js';
import { startFakeProvider } from '../test/support/fake-provider.js';

const CYCLES = 500;
const CHUNKS = 40;
const EVENTS = `subscription($sessionId: ID!, $after: String) {
  sessionEvents(sessionId: $sessionId, after: $after) {
    __typename eventId
    ... on EventsReset { reason }
    ... on TurnStarted { turn { id } }
    ... on TextDelta { turnId text }
    ... on TurnEnded { turn { id } }
    ... on TurnFailed { turn { id } code }
  }
}`;
const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) { turn { id } } }`;

interface Tally {
  received: number;
  duplicates: number;
  gaps: number;
  orphanFragments: number;
  resets: string[];
  interrupted: number;
  turnsEnded: number;
  errors: number;
}

export async function runFaultsResumeBench(): Promise<Tally & { recoveryMs: number; firstSendMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-resume-'));
  const fake = await startFakeProvider();
  let turnNo = 0;
  // every turn streams numbered chunks, so a gap or a repeat is visible in the text
  fake.responder = () => ({ text: Array.from({ length: CHUNKS }, (_, i) => `t${turnNo}c${i} `), chunkDelayMs: 20 });
  const env = {
    DATA_DIR: join(dir, 'data'),
    SESSION_FILES_DIR: join(dir, 'files'),
    OLLAMA_HOST: fake.url,
    PARTIAL_FLUSH_MS: '100',
    LOG_LEVEL: 'info',
  };
  let server: ChildServer = await startChildServer(env, { timeoutMs: 300_000 });
  const gql = (query: string, variables: object = {}) => server.gql(query, variables as Record<string, unknown>);
  const created = await server.gql<{ createSession: { id: string } }>(`mutation { createSession(input: {}) { id } }`);
  const sessionId = created.data!.createSession.id;

  const tally: Tally = {
    received: 0,
    duplicates: 0,
    gaps: 0,
    orphanFragments: 0,
    resets: [],
    interrupted: 0,
    turnsEnded: 0,
    errors: 0,
  };
  const seenIds = new Set<string>();
  const started = new Set<string>();
  const nextChunk = new Map<string, number>();
  let after: string | null = null;
  let turnRunning = false;

  const apply = (e: any) => {
    tally.received++;
    if (e.__typename === 'EventsReset') {
      tally.resets.push(e.reason);
      after = e.eventId;
      return;
    }
    if (seenIds.has(e.eventId)) tally.duplicates++;
    seenIds.add(e.eventId);
    after = e.eventId;
    if (e.__typename === 'TurnStarted') {
      started.add(e.turn.id);
      nextChunk.set(e.turn.id, 0);
    } else if (e.__typename === 'TextDelta') {
      if (!started.has(e.turnId)) return void tally.orphanFragments++;
      const index = Number(/c(\d+) $/.exec(e.text)![1]);
      const expected = nextChunk.get(e.turnId)!;
      if (index > expected) tally.gaps += index - expected;
      if (index < expected) tally.duplicates++;
      nextChunk.set(e.turnId, Math.max(expected, index + 1));
    } else if (e.__typename === 'TurnEnded') {
      tally.turnsEnded++;
      if (started.has(e.turn.id) && nextChunk.get(e.turn.id) !== CHUNKS)
        tally.gaps += CHUNKS - (nextChunk.get(e.turn.id) ?? 0);
      turnRunning = false;
    } else if (e.__typename === 'TurnFailed') {
      if (e.code === 'INTERRUPTED') tally.interrupted++;
      turnRunning = false;
    }
  };

  /** One connection: resume from `after`, take a few events (or give up after a moment), disconnect. */
  const cycle = (take: number) =>
    new Promise<void>((resolve) => {
      const client = createClient({
        url: `${server.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
      });
      let got = 0;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        void client.dispose();
        resolve();
      };
      const timer = setTimeout(finish, 5_000);
      client.subscribe(
        { query: EVENTS, variables: { sessionId, after } },
        {
          next: (value) => {
            if (finished) return;
            if (value.errors) tally.errors++;
            if (!value.data) return;
            apply(value.data.sessionEvents);
            if (++got >= take) finish();
          },
          error: () => {
            tally.errors++;
            finish();
          },
          complete: finish,
        },
      );
    });
  const keepTurnsGoing = async () => {
    if (turnRunning) return;
    const sent = await gql(SEND, { input: { sessionId, content: `turn ${++turnNo}` } });
    if (!sent.errors) turnRunning = true;
  };

  // A first cursor: a subscription that has seen one event (renames until it does), so no turn starts unseen.
  await new Promise<void>((resolve) => {
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    let done = false;
    client.subscribe(
      { query: EVENTS, variables: { sessionId, after: null } },
      {
        next: (value) => {
          if (done || !value.data) return;
          done = true;
          after = (value.data.sessionEvents as { eventId: string }).eventId;
          void client.dispose();
          resolve();
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    void (async () => {
      for (let i = 0; !done; i++) {
        await gql(`mutation($id: ID!, $name: String!) { renameSession(id: $id, name: $name) { id } }`, {
          id: sessionId,
          name: `bench ${i}`,
        });
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
  });
  for (let i = 0; i < CYCLES / 2; i++) {
    await keepTurnsGoing();
    await cycle(1 + (i % 7));
  }
  // kill -9 mid-turn: accepted, or CONFLICT with the one still running, either way a turn is streaming now
  await gql(SEND, { input: { sessionId, content: `turn ${++turnNo}` } });
  server.kill('SIGKILL');
  await server.exited;
  turnRunning = false;
  const spawned = Date.now();
  server = await startChildServer(env, { timeoutMs: 300_000 });
  const listeningAt = JSON.parse(server.lines.find((l) => l.includes('"listening"'))!).time as number;
  const listenedSeen = Date.now();
  // first accepted sendMessage, tried at once
  let firstSendMs = NaN;
  for (;;) {
    const sent = await gql(SEND, { input: { sessionId, content: `turn ${++turnNo}` } });
    if (!sent.errors) {
      firstSendMs = Date.now() - listenedSeen;
      turnRunning = true;
      break;
    }
  }
  for (let i = 0; i < CYCLES / 2; i++) {
    await cycle(1 + (i % 7));
    await keepTurnsGoing();
  }
  // the interrupted turn's end as the new process logged it, against its listening line
  const ended = server.lines.map((l) => l.includes('turn.interrupted') && JSON.parse(l)).find(Boolean) as
    | { time: number }
    | undefined;
  const recoveryMs = ended ? ended.time - listeningAt : NaN;
  console.log(
    `resume across a kill -9 and restart: ${CYCLES} disconnect/resume cycles, ${turnNo} turns of ${CHUNKS} chunks`,
  );
  console.log(
    `  events received ${tally.received}; duplicates ${tally.duplicates};` +
      ` gaps ${tally.gaps}; fragments without TurnStarted ${tally.orphanFragments};` +
      ` subscription errors ${tally.errors}`,
  );
  console.log(
    `  resets ${JSON.stringify(tally.resets)};` +
      ` interrupted turn ends received ${tally.interrupted}; turns ended ${tally.turnsEnded}`,
  );
  console.log(`  restart: spawn → listening ${listenedSeen - spawned} ms`);
  console.log(
    `  listening → interrupted turn ended ${recoveryMs} ms (negative: ended before the listening line, goal ≤ 1000 ms)`,
  );
  console.log(`  listening → first accepted sendMessage ${firstSendMs} ms (first try)`);
  server.kill('SIGKILL');
  await server.exited;
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
  return { ...tally, recoveryMs, firstSendMs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runFaultsResumeBench().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
