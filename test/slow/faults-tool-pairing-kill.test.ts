/**
 * kill -9 during a client tool wait, with the real server in a child process
 * on an on-disk embedded database: after the restart the session's next turn
 * on an OpenAI profile (whose API refuses an unanswered tool call) completes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_RESULT_SERVER_STOPPED } from '../../src/turns/tool-pairing.js';
import {
  FaultsToolPairingKillContextDocument,
  FaultsToolPairingKillCreateSessionDocument,
  FaultsToolPairingKillProfilesDocument,
  FaultsToolPairingKillSendDocument,
  FaultsToolPairingKillTurnDocument,
  FaultsToolPairingKillUpsertProfileDocument,
} from '../generated/graphql.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { openaiRequest, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { eventually } from '../support/harness.js';

let fake: FakeProvider;
let dir: string;
let server: ChildServer | null = null;
const env = () => ({
  DATA_DIR: join(dir, 'db'),
  SESSION_FILES_DIR: join(dir, 'files'),
  OPENAI_BASE_URL: `${fake.url}/v1`,
  PARTIAL_FLUSH_MS: '100',
});

beforeAll(async () => {
  fake = await startFakeProvider();
  dir = await mkdtemp(join(tmpdir(), 'toolpair-kill-'));
});
afterAll(async () => {
  server?.kill('SIGKILL');
  await server?.exited;
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

const until = <T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 120_000) => eventually(fn, ok, timeoutMs);

const TURN = FaultsToolPairingKillTurnDocument;
const SEND = FaultsToolPairingKillSendDocument;

describe('kill -9 during a client tool wait (child process, embedded database)', () => {
  it('the restarted server answers the open call and the next OpenAI turn completes', async () => {
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    await server.gql(FaultsToolPairingKillUpsertProfileDocument, {});
    const profileId = (await server.gql(FaultsToolPairingKillProfilesDocument, {})).data!.profiles.find(
      (p) => p.key === 'oai',
    )!.id;
    const sessionId = (await server.gql(FaultsToolPairingKillCreateSessionDocument, { p: profileId })).data!
      .createSession.id;
    fake.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' }, id: 'call_killed' }] });
    const sent = await server.gql(SEND, {
      input: {
        sessionId,
        content: 'Weather in Oslo?',
        clientTools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
      },
    });
    const turnId = sent.data!.sendMessage.turn.id;
    await until(
      () => server!.gql(TURN, { id: turnId }),
      (r) => r.data?.turn?.status === 'WAITING_FOR_TOOL',
    );

    server.kill('SIGKILL');
    await server.exited;
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    // Recovery finds the dead process's turn once its heartbeat is stale.
    await until(
      () => server!.gql(TURN, { id: turnId }),
      (r) => r.data?.turn?.status === 'INTERRUPTED',
    );
    const context = await server.gql(FaultsToolPairingKillContextDocument, { id: sessionId });
    expect(context.data!.session!.context.filter((m) => m.role === 'TOOL')).toEqual([
      { role: 'TOOL', content: TOOL_RESULT_SERVER_STOPPED, toolCallId: 'call_killed' },
    ]);

    fake.enqueue({ text: 'Back after the restart.' });
    const next = await server.gql(SEND, { input: { sessionId, content: 'Hello again?' } });
    expect(next.errors).toBeUndefined();
    const ended = await until(
      () => server!.gql(TURN, { id: next.data!.sendMessage.turn.id }),
      (r) => r.data?.turn?.status !== 'RUNNING' && r.data?.turn?.status !== 'WAITING_FOR_TOOL',
    );
    expect(ended.data!.turn!.status, JSON.stringify(fake.rejections.map((r) => r.message))).toBe('COMPLETED');
    expect(fake.rejections).toEqual([]);
    const last = openaiRequest(fake.requests.at(-1));
    expect(last.messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_killed', content: TOOL_RESULT_SERVER_STOPPED },
    ]);
  }, 600_000);
});
