import { describe, expect, it } from 'vitest';
import {
  emptyRedoStack,
  HistoryEditError,
  markCheckpoint,
  planRewind,
  popRedo,
  pushUndo,
  REDO_STACK_MAX,
  revertRange,
  undoLastTurnRange,
  type Checkpoint,
  type RedoStack,
} from '../../src/domain/history-edits.js';
import { makeMessage, type ChatMessage, type Role } from '../../src/domain/types.js';

const T0 = new Date('2024-06-01T10:00:00.000Z');
const msg = (sequenceNumber: number, role: Role, content: string, extra: Partial<ChatMessage> = {}) =>
  makeMessage({ role, content, sequenceNumber, createdAt: T0, ...extra });

function expectCode(fn: () => unknown, code: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HistoryEditError);
    expect((e as HistoryEditError).code).toBe(code);
    return;
  }
  throw new Error('expected a HistoryEditError');
}

const active = [
  msg(0, 'user', 'first'),
  msg(1, 'assistant', 'one'),
  msg(2, 'user', 'second'),
  msg(3, 'assistant', 'calling', { toolCalls: [{ id: 'c1', name: 'read', arguments: {} }] }),
  msg(4, 'tool', 'file body', { toolCallId: 'c1' }),
  msg(5, 'user', 'the job finished', { isAgentNote: true }),
  msg(6, 'assistant', 'two'),
];

describe('undoLastTurnRange', () => {
  it('removes from the last real user message to the end, skipping agent notes', () => {
    const r = undoLastTurnRange(active)!;
    expect(r.fromSequence).toBe(2);
    expect(r.cutAfterSequence).toBe(1);
    expect(r.removed.map((m) => m.sequenceNumber)).toEqual([2, 3, 4, 5, 6]);
  });

  it('does not treat a summary carrier as a user turn', () => {
    const withSummary = [msg(0, 'user', 'summary', { isSummary: true }), msg(1, 'assistant', 'x')];
    expect(undoLastTurnRange(withSummary)).toBeNull();
  });

  it('returns null when there is nothing to undo', () => {
    expect(undoLastTurnRange([])).toBeNull();
    expect(undoLastTurnRange([msg(0, 'user', 'note', { isAgentNote: true })])).toBeNull();
  });

  it('the first turn cuts after -1', () => {
    expect(undoLastTurnRange(active.slice(0, 2))!.cutAfterSequence).toBe(-1);
  });
});

describe('revertRange', () => {
  it('removes everything after the given message', () => {
    const r = revertRange(active, 3);
    expect(r.cutAfterSequence).toBe(3);
    expect(r.removed.map((m) => m.sequenceNumber)).toEqual([4, 5, 6]);
    expect(revertRange(active, 6).removed).toEqual([]);
  });

  it('rejects a sequence number that is not in the history', () => {
    expectCode(() => revertRange(active, 99), 'BAD_USER_INPUT');
    expectCode(() => revertRange(active, -1), 'BAD_USER_INPUT');
    expectCode(() => revertRange(active, 1.5), 'BAD_USER_INPUT');
  });
});

describe('redo stack', () => {
  it('redo restores exactly what undo removed, newest first', () => {
    let stack = emptyRedoStack();
    let cur = active;
    const u1 = undoLastTurnRange(cur)!;
    stack = pushUndo(stack, u1);
    cur = cur.filter((m) => m.sequenceNumber <= u1.cutAfterSequence);
    const u2 = undoLastTurnRange(cur)!;
    stack = pushUndo(stack, u2);
    cur = cur.filter((m) => m.sequenceNumber <= u2.cutAfterSequence);
    expect(cur).toEqual([]);

    const r1 = popRedo(stack, cur);
    expect(r1.restore).toEqual(active.slice(0, 2));
    cur = [...cur, ...r1.restore];
    const r2 = popRedo(r1.stack, cur);
    expect(r2.restore).toEqual(active.slice(2));
    expect([...cur, ...r2.restore]).toEqual(active);
    expectCode(() => popRedo(r2.stack, active), 'CONFLICT');
  });

  it('is JSON-serializable', () => {
    const stack = pushUndo(emptyRedoStack(), undoLastTurnRange(active)!);
    const copy = JSON.parse(JSON.stringify(stack)) as RedoStack;
    expect(popRedo(copy, active.slice(0, 2)).restore).toEqual(active.slice(2));
  });

  it('refuses a stale segment when the history changed since the undo', () => {
    const stack = pushUndo(emptyRedoStack(), undoLastTurnRange(active)!);
    expectCode(() => popRedo(stack, active.slice(0, 1)), 'CONFLICT');
  });

  it('stays small', () => {
    let stack = emptyRedoStack();
    for (let i = 0; i < REDO_STACK_MAX + 5; i++)
      stack = pushUndo(stack, { cutAfterSequence: i, removed: [msg(i + 1, 'user', 'x')] });
    expect(stack.segments).toHaveLength(REDO_STACK_MAX);
    expect(stack.segments[REDO_STACK_MAX - 1].afterSequence).toBe(REDO_STACK_MAX + 4);
    expect(pushUndo(stack, { cutAfterSequence: 3, removed: [] })).toBe(stack);
  });
});

describe('checkpoint / rewind', () => {
  it('marks a checkpoint after the last message', () => {
    expect(markCheckpoint(active, '  try the cache idea ', T0)).toEqual({
      goal: 'try the cache idea',
      afterSequenceNumber: 6,
      createdAt: T0,
    });
    expect(markCheckpoint([], 'start', T0).afterSequenceNumber).toBe(-1);
    expectCode(() => markCheckpoint(active, '   '), 'BAD_USER_INPUT');
  });

  it('rewind collapses everything after the checkpoint into a clearly marked report note', () => {
    const cp: Checkpoint = { goal: 'explore caching', afterSequenceNumber: 1, createdAt: T0 };
    const plan = planRewind(active, cp, null, 'Caching does not help: the bottleneck is the DB lock.');
    expect(plan.deleteAfterSequence).toBe(1);
    expect(plan.removed.map((m) => m.sequenceNumber)).toEqual([2, 3, 4, 5, 6]);
    expect(plan.reportMessage.role).toBe('user');
    expect(plan.reportMessage.isAgentNote).toBe(true);
    expect(plan.reportMessage.content).toContain('[rewound to checkpoint: explore caching]');
    expect(plan.reportMessage.content).toContain('the bottleneck is the DB lock');
    expect(plan.checkpoint).toBeNull();
    expect(plan.lastRewindReport).toBe('Caching does not help: the bottleneck is the DB lock.');
  });

  it('is a CONFLICT without an active checkpoint, including a second rewind', () => {
    expectCode(() => planRewind(active, null, null, 'r'), 'CONFLICT');
    const cp: Checkpoint = { goal: 'g', afterSequenceNumber: 1, createdAt: T0 };
    const first = planRewind(active, cp, null, 'found it');
    expectCode(() => planRewind(active, first.checkpoint, first.lastRewindReport, 'again'), 'CONFLICT');
  });

  it('treats a checkpoint whose report is already in the history as consumed', () => {
    const cp: Checkpoint = { goal: 'g', afterSequenceNumber: 1, createdAt: T0 };
    const first = planRewind(active, cp, null, 'found it');
    const after = [...active.slice(0, 2), makeMessage({ ...first.reportMessage, sequenceNumber: 2, createdAt: T0 })];
    expectCode(() => planRewind(after, cp, first.lastRewindReport, 'again'), 'CONFLICT');
    // a new checkpoint makes rewinding possible again
    const cp2 = markCheckpoint(after, 'next', new Date(T0.getTime() + 1000));
    expect(planRewind(after, cp2, first.lastRewindReport, 'ok').deleteAfterSequence).toBe(2);
  });

  it('needs a report', () => {
    expectCode(
      () => planRewind(active, { goal: 'g', afterSequenceNumber: 1, createdAt: T0 }, null, '  '),
      'BAD_USER_INPUT',
    );
  });
});
