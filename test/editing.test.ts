/**
 * History editing over GraphQL on a real database: undo / redo /
 * revert, branches and tree, checkpoint / rewind, fork, edit stats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createTestApp, dbKind, type TestContext } from './support/harness.js';
import { appendTurns, contents, expectInvariants, M, newSession, state } from './support/editing.js';
import { EditingHistoryLastDocument } from './generated/graphql.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe(`undo / redo / revert (${dbKind})`, () => {
  it('undo removes the last user turn to the end from both buffers; an agent note is not a turn', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 3);
    await t.app.store.append(raw, [
      { role: 'user', content: 'note', isAgentNote: true, isDisplay: false, metadata: { kind: 'recovery_hint' } },
    ]);
    const r = await t.gql(M.undo, { id });
    expect(r.errors).toBeUndefined();
    const s = await state(t, id);
    expect(contents(s)).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1']);
    expect(s.context.map((m) => m.content)).toEqual(contents(s));
    await expectInvariants(t, raw);
  });

  it('redo puts the undone rows back with fresh dense display indexes; redo stack empties (CONFLICT)', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 3);
    await t.gql(M.undo, { id });
    await t.gql(M.undo, { id });
    expect(contents(await state(t, id))).toEqual(['q0', 'answer to q0']);
    expect((await t.gql(M.redo, { id })).errors).toBeUndefined();
    expect(contents(await state(t, id))).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1']);
    expect((await t.gql(M.redo, { id })).errors).toBeUndefined();
    const s = await state(t, id);
    expect(contents(s)).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1', 'q2', 'answer to q2']);
    expect(s.history.edges.map((e) => e.node.sequenceNumber)).toEqual([0, 1, 2, 3, 4, 5]);
    await expectInvariants(t, raw);
    const again = await t.gql(M.redo, { id });
    expect(codeOf(again)).toBe('CONFLICT');
    expect(again.errors![0]!.message).toMatch(/Nothing to redo/);
  });

  it('a new message after an undo clears redo', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 2);
    await t.gql(M.undo, { id });
    await t.app.store.append(raw, [{ role: 'user', content: 'new direction' }]);
    expect(codeOf(await t.gql(M.redo, { id }))).toBe('CONFLICT');
    await t.gql(M.undo, { id }); // removes "new direction"
    // the stale segment was dropped: the old turn cannot come back through the new cut
    await t.gql(M.redo, { id });
    expect(contents(await state(t, id))).toEqual(['q0', 'answer to q0', 'new direction']);
    expect(codeOf(await t.gql(M.redo, { id }))).toBe('CONFLICT');
    await expectInvariants(t, raw);
  });

  it('undo on an empty session is BAD_USER_INPUT and changes nothing', async () => {
    const { id, raw } = await newSession(t);
    const r = await t.gql(M.undo, { id });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/Nothing to undo/);
    await t.app.store.append(raw, [{ role: 'user', content: 'only a note', isAgentNote: true }]);
    expect(codeOf(await t.gql(M.undo, { id }))).toBe('BAD_USER_INPUT');
    expect((await t.app.store.allMessages(raw)).length).toBe(1);
  });

  it('revert removes everything after a message; out of range is BAD_USER_INPUT with nothing changed', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 3);
    for (const s of [6, 99, -1]) {
      const r = await t.gql(M.revert, { id, s });
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.message).toContain(`sequenceNumber ${s}`);
    }
    expect((await state(t, id)).displayMessageCount).toBe(6);
    await t.gql(M.revert, { id, s: 2 });
    expect(contents(await state(t, id))).toEqual(['q0', 'answer to q0', 'q1']);
    await expectInvariants(t, raw);
    await t.gql(M.redo, { id });
    expect((await state(t, id)).displayMessageCount).toBe(6);
    // reverting to the last message is a no-op
    expect((await t.gql(M.revert, { id, s: 5 })).errors).toBeUndefined();
    expect((await state(t, id)).displayMessageCount).toBe(6);
  });

  it('a malformed or foreign id is refused', async () => {
    expect(codeOf(await t.gql(M.undo, { id: 'nope' }))).toBe('BAD_USER_INPUT');
    const ghost = Buffer.from('Session:00000000-0000-4000-8000-000000000000').toString('base64');
    expect(codeOf(await t.gql(M.undo, { id: ghost }))).toBe('NOT_FOUND');
  });
});

describe(`branches and tree (${dbKind})`, () => {
  it('marks, switches (old path kept as a branch), lists the tree active path first', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 2, 'a');
    const mark = await t.gql(M.mark, { id });
    expect(mark.data!.markBranch).toMatchObject({ name: 'branch 1', messageCount: 4 });
    expect(codeOf(await t.gql(M.mark, { id, n: 'branch 1' }))).toBe('CONFLICT');
    await appendTurns(t, raw, 2, 'b');
    expect((await state(t, id)).branches).toEqual([expect.objectContaining({ name: 'branch 1', messageCount: 4 })]);

    const sw = await t.gql(M.switch, { id, b: 'branch 1' });
    expect(sw.errors).toBeUndefined();
    let s = await state(t, id);
    expect(contents(s)).toEqual(['a0', 'answer to a0', 'a1', 'answer to a1']);
    expect(s.branches.map((b) => [b.name, b.messageCount])).toEqual([['branch 2', 8]]);
    await expectInvariants(t, raw);

    await appendTurns(t, raw, 1, 'c');
    s = await state(t, id);
    expect(s.tree.map((r) => [r.label, r.depth, r.active, r.branch])).toEqual([
      ['a0', 0, true, null],
      ['a1', 0, true, null],
      ['c0', 0, true, null],
      ['b0', 1, false, 'branch 2'],
      ['b1', 1, false, 'branch 2'],
    ]);

    await t.gql(M.switch, { id, b: 'branch 2' });
    s = await state(t, id);
    expect(contents(s)).toEqual([
      'a0',
      'answer to a0',
      'a1',
      'answer to a1',
      'b0',
      'answer to b0',
      'b1',
      'answer to b1',
    ]);
    expect(s.context.map((m) => m.content)).toEqual(contents(s));
    expect(s.branches.map((b) => b.name)).toEqual(['branch 1']);
    expect(s.tree.filter((r) => r.depth === 1).map((r) => r.label)).toEqual(['c0']);
    await expectInvariants(t, raw);
    // history paging over the switched path, from the end, stays dense
    const last = await t.gql(EditingHistoryLastDocument, { id });
    expect(last.data!.session!.history.edges.map((e) => [e.displayIndex, e.node.content])).toEqual([
      [5, 'answer to b0'],
      [6, 'b1'],
      [7, 'answer to b1'],
    ]);
  });

  it('switching to the active path is a no-op; unknown branch is NOT_FOUND; empty session cannot mark', async () => {
    const { id, raw } = await newSession(t);
    expect(codeOf(await t.gql(M.mark, { id }))).toBe('BAD_USER_INPUT');
    await appendTurns(t, raw, 2);
    await t.gql(M.mark, { id, n: 'here' });
    const before = await t.app.store.allMessages(raw);
    expect((await t.gql(M.switch, { id, b: 'here' })).errors).toBeUndefined();
    expect(await t.app.store.allMessages(raw)).toEqual(before);
    const r = await t.gql(M.switch, { id, b: 'nope' });
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(r.errors![0]!.message).toContain('"nope"');
    expect(codeOf(await t.gql(M.mark, { id, n: 'x'.repeat(81) }))).toBe('BAD_USER_INPUT');
  });

  it('undo below a branch point keeps the branch whole (it copies the rows it shared)', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 3);
    await t.gql(M.mark, { id, n: 'full' });
    await t.gql(M.revert, { id, s: 1 });
    const s = await state(t, id);
    expect(s.branches).toEqual([expect.objectContaining({ name: 'full', messageCount: 6 })]);
    await t.gql(M.switch, { id, b: 'full' });
    expect((await state(t, id)).displayMessageCount).toBe(6);
    await expectInvariants(t, raw);
  });
});

describe(`checkpoint and rewind (${dbKind})`, () => {
  it('collapses everything after the checkpoint into the report; a second rewind is CONFLICT', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 1);
    expect(codeOf(await t.gql(M.rewind, { id, r: 'found it' }))).toBe('CONFLICT');
    expect(codeOf(await t.gql(M.checkpoint, { id, g: '  ' }))).toBe('BAD_USER_INPUT');
    const cp = await t.gql(M.checkpoint, { id, g: 'find the bug' });
    expect(cp.data!.markCheckpoint).toMatchObject({ goal: 'find the bug', afterSequenceNumber: 1 });
    await appendTurns(t, raw, 3, 'explore');
    expect((await state(t, id)).checkpoint).toMatchObject({ goal: 'find the bug', afterSequenceNumber: 1 });
    expect(codeOf(await t.gql(M.rewind, { id, r: '   ' }))).toBe('BAD_USER_INPUT');

    expect((await t.gql(M.rewind, { id, r: 'the bug is in parse()' })).errors).toBeUndefined();
    const s = await state(t, id);
    expect(s.checkpoint).toBeNull();
    expect(contents(s).slice(0, 2)).toEqual(['q0', 'answer to q0']);
    expect(s.history.edges).toHaveLength(3);
    const note = s.history.edges[2].node;
    expect(note).toMatchObject({ role: 'USER', isAgentNote: true });
    expect(note.content).toContain('the bug is in parse()');
    expect(s.context.map((m) => m.content).at(-1)).toContain('find the bug');
    await expectInvariants(t, raw);

    const again = await t.gql(M.rewind, { id, r: 'more' });
    expect(codeOf(again)).toBe('CONFLICT');
    expect(again.errors![0]!.message).toMatch(/mark a new checkpoint/);
    // the report is not a user turn: undo removes the real turn before it
    await t.gql(M.undo, { id });
    expect(contents(await state(t, id))).toEqual([]);
  });

  it('an undo that cuts before the checkpoint drops it', async () => {
    const { id, raw } = await newSession(t);
    await appendTurns(t, raw, 2);
    await t.gql(M.checkpoint, { id, g: 'goal' });
    await t.gql(M.undo, { id });
    expect((await state(t, id)).checkpoint).toBeNull();
  });
});

describe(`fork (${dbKind})`, () => {
  it('copies the conversation under a new id that diverges independently', async () => {
    const { id, raw } = await newSession(t, 'Plans');
    await appendTurns(t, raw, 3);
    await t.app.store.archiveOldMessages(raw, 2);
    await t.app.store.setContextFlag(raw, [0, 1], false);
    await t.gql(M.mark, { id, n: 'keep' });
    await t.gql(M.checkpoint, { id, g: 'g' });
    await t.app.db.prisma.session.update({
      where: { id: raw },
      data: { usage: { promptTokens: 500, completionTokens: 9 } },
    });
    await t.app.db.prisma.memoryChunk.create({
      data: {
        sessionId: raw,
        content: 'q0',
        contentHash: 'h0',
        turnStart: 0,
        turnEnd: 1,
        firstAt: new Date(),
        lastAt: new Date(),
      },
    });

    const r = await t.gql(M.fork, { id });
    expect(r.errors).toBeUndefined();
    const fork = r.data!.forkSession;
    expect(fork.id).not.toBe(id);
    expect(fork).toMatchObject({ name: 'Plans (fork)', usage: { promptTokens: 0 }, displayMessageCount: 6 });
    const [a, b] = [await state(t, id), await state(t, fork.id)];
    expect(contents(b)).toEqual(contents(a));
    expect(b.context).toEqual(a.context);
    expect(b.branches.map((x) => x.name)).toEqual(['keep']);
    expect(b.checkpoint).toEqual(a.checkpoint);
    const forkRaw = Buffer.from(fork.id, 'base64').toString().split(':')[1]!;
    expect((await t.app.store.getArchivedMessages(forkRaw)).map((m) => m.content)).toEqual(['q0', 'answer to q0']);
    expect(await t.app.db.prisma.memoryChunk.count({ where: { sessionId: forkRaw } })).toBe(1);
    await expectInvariants(t, forkRaw);

    await t.gql(M.undo, { id: fork.id });
    expect((await state(t, fork.id)).displayMessageCount).toBe(4);
    expect((await state(t, id)).displayMessageCount).toBe(6);
    const forkOfFork = await t.gql(M.fork, { id: fork.id });
    expect(forkOfFork.data!.forkSession.name).toBe('Plans (fork 2)');
  });
});

describe(`edit stats (${dbKind})`, () => {
  it(
    'counts write / edit / apply_patch results matched ' + 'to their calls by id, rebuilt from the transcript',
    async () => {
      const { id, raw } = await newSession(t);
      await t.app.store.append(raw, [
        { role: 'user', content: 'edit files' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: 'one\ntwo\nthree\n' } },
            { id: 'c2', name: 'edit', arguments: { old_string: 'x\ny', new_string: 'z' } },
            { id: 'c3', name: 'apply_patch', arguments: { patch: '--- a/f\n+++ b/f\n+new\n-old\n-old2\n' } },
            { id: 'c4', name: 'read_file', arguments: { path: 'a.txt' } },
          ],
        },
        { role: 'tool', content: 'ok', toolCallId: 'c2' },
        { role: 'tool', content: 'ok', toolCallId: 'c1' },
        { role: 'tool', content: 'Error: no such file', toolCallId: 'c3', metadata: { isError: true } },
        { role: 'tool', content: 'one\ntwo', toolCallId: 'c4' },
      ]);
      expect((await state(t, id)).editStats).toEqual({ linesAdded: 4, linesRemoved: 2 });
      await t.app.store.append(raw, [
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'apply_patch', arguments: { patch: '+a\n+b\n-c\n' } }],
        },
        { role: 'tool', content: 'ok', toolCallId: 'c1' },
      ]);
      expect((await state(t, id)).editStats).toEqual({ linesAdded: 6, linesRemoved: 3 });
      await t.gql(M.revert, { id, s: 5 });
      expect((await state(t, id)).editStats).toEqual({ linesAdded: 4, linesRemoved: 2 });
    },
  );
});
