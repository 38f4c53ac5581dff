/**
 * Editing against the rest of the system: compressed history (summaries and
 * demoted rows), archived rows, running turns (CONFLICT, races), and the
 * repeat guard end to end through the fake provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMessage } from '../src/domain/types.js';
import {
  EditingConsistencyCancelTurnDocument,
  EditingConsistencyHistoryPageDocument,
  type EditingConsistencySendMutation,
  EditingConsistencySendDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  eventually,
  type GqlResult,
  isEvent,
  SESSION_EVENTS,
  type ServerContext,
} from './support/harness.js';
import { appendTurns, contents, expectInvariants, M, newSession, state } from './support/editing.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, repeatLineLimit: 5 });
});
afterAll(() => t.close());

const SEND = EditingConsistencySendDocument;
/** The part of a session's metadata the repeat guard writes. */
type StreamRules = { streamRules?: { fired: string[] } };
const ctxSeqs = async (raw: string) => (await t.app.store.context(raw)).map((m) => m.sequenceNumber);

/**
 * q0..q3 (seq 0..7), compressed: 0..3 demoted, summary S (seq 8, context only)
 * and a marker (seq 9), then q4 (seq 10, 11). `covered` adds the coverage
 * metadata compression records.
 */
type Coverage = 'range' | 'exact' | 'none';
async function compressed(covered: Coverage) {
  const s = await newSession(t);
  await appendTurns(t, s.raw, 4);
  const summary: NewMessage = {
    role: 'user',
    content: '[summary of q0, q1]',
    isSummary: true,
    isDisplay: false,
    metadata: {
      breadcrumbs: [],
      contextOrder: 3.5,
      ...(covered === 'range' && { covers: [0, 3] }),
      ...(covered === 'exact' && { coveredSequences: [0, 1, 2, 3] }),
    },
  };
  await t.app.store.setContextFlag(s.raw, [0, 1, 2, 3], false);
  await t.app.store.append(s.raw, [
    summary,
    { role: 'system', content: 'Context compressed', isCompression: true, isContext: false },
  ]);
  await t.app.db.prisma.memoryChunk.create({
    data: {
      sessionId: s.raw,
      content: 'q0 … q1 verbatim',
      contentHash: 'c1',
      turnStart: 0,
      turnEnd: 3,
      firstAt: new Date(),
      lastAt: new Date(),
    },
  });
  await appendTurns(t, s.raw, 1, 'later');
  return s;
}

describe(`editing compressed history (${dbKind})`, () => {
  for (const covered of ['range', 'exact', 'none'] as const) {
    it(`removing a summary re-promotes what it covered; redo demotes it again (coverage: ${covered})`, async () => {
      const { id, raw } = await compressed(covered);
      expect(await ctxSeqs(raw)).toEqual([8, 4, 5, 6, 7, 10, 11]);
      await t.gql(M.undo, { id }); // removes later0 only: the summary stays
      expect(await ctxSeqs(raw)).toEqual([8, 4, 5, 6, 7]);
      await t.gql(M.undo, { id }); // removes q3 (seq 6…9) including the summary and the marker
      const s = await state(t, id);
      expect(contents(s)).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1', 'q2', 'answer to q2']);
      // the context is the display history again: no summary describes removed rows, nothing is lost
      expect(s.context.map((m) => m.content)).toEqual(contents(s));
      expect(await t.app.db.prisma.memoryChunk.count({ where: { sessionId: raw } })).toBe(1);
      await expectInvariants(t, raw);

      await t.gql(M.redo, { id });
      expect(await ctxSeqs(raw)).toEqual([8, 4, 5, 6, 7]);
      await t.gql(M.redo, { id });
      expect(await ctxSeqs(raw)).toEqual([8, 4, 5, 6, 7, 10, 11]);
      await expectInvariants(t, raw);
    });
  }

  it('removing a context copy of a shortened tool result brings its original back', async () => {
    const { id, raw } = await newSession(t);
    await t.app.store.append(raw, [
      { role: 'user', content: 'q0' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: {} }] },
      { role: 'tool', content: 'x'.repeat(5000), toolCallId: 'c1', isContext: false },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'q1' },
      {
        role: 'tool',
        content: 'xxx…[shortened]',
        toolCallId: 'c1',
        isDisplay: false,
        metadata: { contextCopyOf: 2, contextOrder: 2 },
      },
    ]);
    expect(await ctxSeqs(raw)).toEqual([0, 1, 5, 3, 4]);
    await t.gql(M.undo, { id });
    expect(await ctxSeqs(raw)).toEqual([0, 1, 2, 3]);
  });

  it('rows demoted for other reasons (plans, records kept from the model) stay out of the context', async () => {
    const { id, raw } = await newSession(t);
    await t.app.store.append(raw, [
      { role: 'user', content: 'q0' },
      { role: 'assistant', content: 'plan', isPlan: true, isContext: false },
      { role: 'system', content: 'audit', isContext: false, metadata: { source: 'audit_log' } },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: '[summary]', isSummary: true, isDisplay: false },
      { role: 'user', content: 'q1' },
    ]);
    await t.gql(M.revert, { id, s: 3 });
    expect(await ctxSeqs(raw)).toEqual([0, 3]);
  });

  it(
    'a branch switch away from a compressed path restores ' + 'the raw rows; switching back demotes them again',
    async () => {
      const { id, raw } = await newSession(t);
      await appendTurns(t, raw, 1);
      await t.gql(M.mark, { id, n: 'short' });
      await appendTurns(t, raw, 2, 'x');
      await t.app.store.setContextFlag(raw, [0, 1, 2, 3], false);
      await t.app.store.append(raw, [
        {
          role: 'user',
          content: '[summary]',
          isSummary: true,
          isDisplay: false,
          metadata: { coveredSequences: [0, 1, 2, 3] },
        },
      ]);
      expect(await ctxSeqs(raw)).toEqual([4, 5, 6]);
      await t.gql(M.switch, { id, b: 'short' });
      expect(await ctxSeqs(raw)).toEqual([0, 1]);
      await t.gql(M.switch, { id, b: 'branch 1' });
      expect(await ctxSeqs(raw)).toEqual([4, 5, 6]);
      await expectInvariants(t, raw);
    },
  );
});

describe(`editing archived history (${dbKind})`, () => {
  it('revert into the archive, redo back into the hot table, paging stays dense', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 10);
    await t.app.store.archiveOldMessages(raw, 12);
    await t.gql(M.revert, { id, s: 7 });
    expect((await t.app.store.getArchivedMessages(raw)).map((m) => m.sequenceNumber)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await t.app.db.prisma.sessionMessage.count({ where: { sessionId: raw } })).toBe(0);
    await expectInvariants(t, raw);
    await t.gql(M.redo, { id });
    const s = await state(t, id);
    expect(s.history.edges.map((e) => e.displayIndex)).toEqual([...Array(20).keys()]);
    expect(contents(s).at(-1)).toBe('answer to q9');
    await expectInvariants(t, raw);
    const page = await t.gql(EditingConsistencyHistoryPageDocument, {
      id,
      after: Buffer.from('m:6').toString('base64url'),
    });
    expect(page.data!.session!.history.edges.map((e) => e.node.content)).toEqual([
      'answer to q3',
      'q4',
      'answer to q4',
    ]);
  });
});

describe(`edits and running turns (${dbKind})`, () => {
  it('every edit is CONFLICT while a turn runs, and nothing changes', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 2);
    await t.gql(M.mark, { id, n: 'b' });
    await t.gql(M.checkpoint, { id, g: 'g' });
    // long enough to outlast the checks on a loaded machine; cancelled afterwards
    t.fake.enqueue({ text: Array(60).fill('slow '), chunkDelayMs: 500 });
    const sent = await t.http(SEND, { input: { sessionId: id, content: 'go' } });
    expect(sent.errors).toBeUndefined();
    const before = await t.app.store.allMessages(raw);
    const edits: [string, () => Promise<GqlResult<unknown>>][] = [
      ['undo', () => t.http(M.undo, { id })],
      ['redo', () => t.http(M.redo, { id })],
      ['revert', () => t.http(M.revert, { id, s: 1 })],
      ['mark', () => t.http(M.mark, { id, n: 'c' })],
      ['switch', () => t.http(M.switch, { id, b: 'b' })],
      ['checkpoint', () => t.http(M.checkpoint, { id, g: 'h' })],
      ['rewind', () => t.http(M.rewind, { id, r: 'r' })],
      ['fork', () => t.http(M.fork, { id })],
    ];
    for (const [edit, run] of edits) {
      const r = await run();
      expect(codeOf(r), edit).toBe('CONFLICT');
      expect(r.errors![0]!.message).toMatch(/turn is running/);
    }
    expect((await t.app.store.allMessages(raw)).slice(0, before.length)).toEqual(before);
    await t.http(EditingConsistencyCancelTurnDocument, { id: sent.data!.sendMessage.turn.id });
    await eventually(
      () => t.app.turns.activeTurn(raw),
      (x) => x === null,
    );
    expect((await t.http(M.undo, { id })).errors).toBeUndefined();
    expect(contents(await state(t, id))).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1']);
  });

  it('sendMessage waits for an edit holding the session lock, then runs after it', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 1);
    const { EditStore } = await import('../src/store/edits.js');
    const edits = new EditStore(t.app.store);
    let sent: Promise<GqlResult<EditingConsistencySendMutation>> | null = null;
    let settled = false;
    await t.app.store.transaction(async (tx) => {
      await edits.lockSession(tx, raw);
      expect(await edits.hasActiveTurn(tx, raw)).toBe(false);
      t.fake.enqueue({ text: 'after the edit' });
      sent = t.http(SEND, { input: { sessionId: id, content: 'racing' } }).finally(() => (settled = true));
      // On a server, wait until the send's backend is waiting on this transaction's row lock (an event, not a
      // pause). The embedded database has one connection, which this transaction holds: the send cannot run a
      // statement until it commits.
      const LOCK_WAITS =
        'SELECT count(*)::int AS n FROM pg_stat_activity ' +
        "WHERE datname = current_database() AND wait_event_type = 'Lock'";
      if (dbKind === 'postgres') {
        await eventually(
          () => t.app.db.raw.query<{ n: number }>(LOCK_WAITS),
          (rows) => (rows[0]?.n ?? 0) > 0,
        );
      }
      expect(settled).toBe(false);
      await edits.deleteAfter(tx, raw, -1);
    });
    expect((await sent!).errors).toBeUndefined();
    await eventually(
      () => t.app.turns.activeTurn(raw),
      (x) => x === null,
    );
    expect(contents(await state(t, id))).toEqual(['racing', 'after the edit']);
    await expectInvariants(t, raw);
  });

  it('undo racing sendMessage: they serialize, the history stays consistent', async () => {
    for (let round = 0; round < 4; round++) {
      const { id, raw } = await newSession(t);
      await appendTurns(t, raw, 3);
      t.fake.enqueue({ text: 'reply' });
      const [sent, undone] = await Promise.all([
        t.http(SEND, { input: { sessionId: id, content: `race ${round}` } }),
        t.http(M.undo, { id }),
      ]);
      expect(sent.errors).toBeUndefined();
      await eventually(
        () => t.app.turns.activeTurn(raw),
        (x) => x === null,
      );
      const c = contents(await state(t, id));
      if (undone.errors) {
        // the turn got in first: the undo saw it running
        expect(codeOf(undone)).toBe('CONFLICT');
        expect(c).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1', 'q2', 'answer to q2', `race ${round}`, 'reply']);
      } else {
        // the undo got in first: it removed q2, the new turn follows it
        expect(c).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1', `race ${round}`, 'reply']);
      }
      await expectInvariants(t, raw);
    }
  });
});

describe(`repeat guard end to end (${dbKind})`, () => {
  it('stops a looping stream with an agent note and records the rule once per session', async () => {
    const { id, raw } = await newSession(t);
    const line = 'I will now check the configuration file again.\n';
    const run = async (content: string) => {
      // from the newest event on: what is published before the socket is live is replayed (no sleep)
      const last = (await t.app.bus.replay(raw, '0')).at(-1)?.eventId;
      const sub = t.subscribe(SESSION_EVENTS, last ? { sessionId: id, after: last } : { sessionId: id });
      if (!last) await t.listening(id);
      t.fake.enqueue({ text: Array(20).fill(line) });
      expect((await t.http(SEND, { input: { sessionId: id, content } })).errors).toBeUndefined();
      const events = await sub.waitFor((es) =>
        es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
      );
      sub.dispose();
      return events;
    };
    const first = await run('loop please');
    expect(first.find(isEvent('TurnEnded'))!.turn.status).toBe('COMPLETED');
    let rows = await t.app.store.allMessages(raw);
    const reply = rows.find((m) => m.role === 'assistant')!;
    expect(reply.content.split('\n').filter(Boolean)).toHaveLength(6); // stopped on the 6th repeat (limit 5)
    const note = rows.at(-1)!;
    expect(note).toMatchObject({
      role: 'user',
      isAgentNote: true,
      metadata: { kind: 'stream_rule', rule: 'repeat_line', count: 6 },
    });
    expect(note.content).toMatch(/stream stopped: the reply repeated the same line 6 times/);
    let session = (await t.app.store.get(raw))!;
    expect((session.metadata as StreamRules).streamRules).toEqual({ fired: ['repeat_line'] });

    // the note is not the user's turn: undo removes the real turn with its note
    await t.http(M.undo, { id });
    expect(await t.app.store.allMessages(raw)).toEqual([]);

    await run('loop again');
    rows = await t.app.store.allMessages(raw);
    expect(
      rows
        .find((m) => m.role === 'assistant')!
        .content.split('\n')
        .filter(Boolean),
    ).toHaveLength(20);
    expect(rows.some((m) => m.isAgentNote)).toBe(false);
    session = (await t.app.store.get(raw))!;
    expect((session.metadata as StreamRules).streamRules).toEqual({ fired: ['repeat_line'] });

    // a fork is a new session: its rules may fire again
    const fork = await t.http(M.fork, { id });
    const forkRaw = Buffer.from(fork.data!.forkSession.id, 'base64').toString().split(':')[1]!;
    expect(((await t.app.store.get(forkRaw))!.metadata as StreamRules).streamRules).toBeUndefined();
  });
});
