import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultsIdempotencyCreateSessionDocument, FaultsIdempotencySendDocument } from './generated/graphql.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());

const SEND = FaultsIdempotencySendDocument;
const rawId = (id: string) => Buffer.from(id, 'base64').toString().split(':')[1]!;

async function newSession() {
  const r = await t.http(FaultsIdempotencyCreateSessionDocument, {});
  return r.data!.createSession.id;
}

describe(`idempotency under races (${dbKind})`, () => {
  it('20 parallel sendMessage calls with one key all get the same turn and store one user message', async () => {
    const sessionId = await newSession();
    // A slow answer keeps the winning turn active while the others arrive (the CONFLICT window).
    t.fake.enqueue({ text: ['one ', 'answer'], chunkDelayMs: 200 });
    const input = { sessionId, content: 'once', idempotencyKey: 'twenty' };
    const results = await Promise.all(Array.from({ length: 20 }, () => t.http(SEND, { input })));
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    const ids = new Set(results.map((r) => r.data!.sendMessage.turn.id));
    expect(ids.size).toBe(1);
    expect(new Set(results.map((r) => r.data!.sendMessage.userMessage.sequenceNumber)).size).toBe(1);
    await eventually(
      () => t.app.db.prisma.turn.count({ where: { status: { in: ['RUNNING', 'WAITING_FOR_TOOL'] } } }),
      (n) => n === 0,
      30_000,
    );
    const messages = await t.app.store.allMessages(rawId(sessionId));
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(await t.app.db.prisma.turn.count({ where: { sessionId: rawId(sessionId) } })).toBe(1);
  });

  it('a key sent again after its turn ended still answers that turn, and 20 racing after it too', async () => {
    const sessionId = await newSession();
    const input = { sessionId, content: 'again', idempotencyKey: 'after-end' };
    const first = await t.http(SEND, { input });
    const turnId = first.data!.sendMessage.turn.id;
    await eventually(
      () => t.app.db.prisma.turn.count({ where: { status: { in: ['RUNNING', 'WAITING_FOR_TOOL'] } } }),
      (n) => n === 0,
      30_000,
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => t.http(SEND, { input })));
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    expect(new Set(results.map((r) => r.data!.sendMessage.turn.id))).toEqual(new Set([turnId]));
    expect((await t.app.store.allMessages(rawId(sessionId))).filter((m) => m.role === 'user')).toHaveLength(1);
  });
});
