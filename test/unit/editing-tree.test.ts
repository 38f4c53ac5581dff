import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  branchFromJson,
  branchPath,
  branchToJson,
  BranchError,
  compactBranch,
  defaultBranchName,
  markBranch,
  messageKey,
  onActiveTruncated,
  planSwitch,
  type SwitchPlan,
  treeRows,
  type StoredBranch,
} from '../../src/domain/tree.js';
import { makeMessage, type ChatMessage, type Role } from '../../src/domain/types.js';

const T0 = new Date('2024-06-01T10:00:00.000Z');
const msg = (sequenceNumber: number, role: Role, content: string, extra: Partial<ChatMessage> = {}) =>
  makeMessage({ role, content, sequenceNumber, createdAt: T0, ...extra });

/** user/assistant pairs: u0,a0,u1,a1… with seq 0.. */
function conversation(turns: string[], startSeq = 0): ChatMessage[] {
  const out: ChatMessage[] = [];
  let s = startSeq;
  for (const t of turns) {
    out.push(msg(s++, 'user', t));
    out.push(msg(s++, 'assistant', `answer to ${t}`));
  }
  return out;
}

const keys = (ms: readonly ChatMessage[]) => ms.map(messageKey);

/** The rows and branches after a switch plan, as EditingService.switchBranch writes them. */
function applySwitch(
  active: readonly ChatMessage[],
  branches: readonly StoredBranch[],
  plan: SwitchPlan,
): { active: ChatMessage[]; branches: StoredBranch[] } {
  if (plan.noop) return { active: [...active], branches: [...branches] };
  const newActive = [...active.filter((m) => m.sequenceNumber <= plan.deleteAfterSequence), ...plan.insert];
  const rebased = new Map(plan.rebased.map((b) => [b.name, b]));
  const newBranches = branches.filter((b) => b.name !== plan.removeBranch).map((b) => rebased.get(b.name) ?? b);
  if (plan.keepOldAs) newBranches.push(plan.keepOldAs);
  return { active: newActive, branches: newBranches };
}

function expectBranchError(fn: () => unknown, code: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BranchError);
    expect((e as BranchError).code).toBe(code);
    return;
  }
  throw new Error('expected a BranchError');
}

describe('defaultBranchName / markBranch', () => {
  it('picks the first free branch N', () => {
    expect(defaultBranchName([])).toBe('branch 1');
    expect(defaultBranchName(['branch 1', 'branch 3'])).toBe('branch 2');
  });

  it('marks the current point: base = last sequence, no own messages', () => {
    const active = conversation(['a', 'b']);
    const b = markBranch(active, [], undefined, T0);
    expect(b).toEqual({ name: 'branch 1', baseSequence: 3, suffix: [], createdAt: T0 });
    expect(markBranch(active, [b], '  my   idea ').name).toBe('my idea');
  });

  it('rejects a duplicate name and an empty session', () => {
    const active = conversation(['a']);
    const b = markBranch(active, [], 'x');
    expectBranchError(() => markBranch(active, [b], 'x'), 'CONFLICT');
    expectBranchError(() => markBranch([], [], 'y'), 'BAD_USER_INPUT');
  });
});

describe('branchPath', () => {
  it('is the active prefix up to baseSequence followed by the suffix', () => {
    const active = conversation(['a', 'b', 'c']);
    const branch: StoredBranch = {
      name: 'alt',
      baseSequence: 1,
      suffix: [msg(2, 'user', 'B'), msg(3, 'assistant', 'ans B')],
      createdAt: T0,
    };
    expect(branchPath(active, branch).map((m) => m.content)).toEqual(['a', 'answer to a', 'B', 'ans B']);
    expect(branchPath(active, branch)).toHaveLength(4);
    expect(branchPath(active, { ...branch, baseSequence: -1, suffix: [] })).toHaveLength(0);
  });
});

describe('treeRows', () => {
  it('lists the active user turns first, then each branch own turns at depth 1', () => {
    const active = conversation(['first question', 'second question']);
    const branches: StoredBranch[] = [
      {
        name: 'late',
        baseSequence: 1,
        suffix: [msg(2, 'user', 'other second'), msg(3, 'assistant', 'x')],
        createdAt: T0,
      },
      {
        name: 'early',
        baseSequence: -1,
        suffix: [msg(0, 'user', 'a different start'), msg(1, 'assistant', 'y')],
        createdAt: T0,
      },
    ];
    expect(treeRows(active, branches)).toEqual([
      { label: 'first question', depth: 0, active: true, branch: null, sequenceNumber: 0 },
      { label: 'second question', depth: 0, active: true, branch: null, sequenceNumber: 2 },
      { label: 'a different start', depth: 1, active: false, branch: 'early', sequenceNumber: 0 },
      { label: 'other second', depth: 1, active: false, branch: 'late', sequenceNumber: 2 },
    ]);
  });

  it('does not count agent notes or summaries as user turns', () => {
    const active = [
      msg(0, 'user', 'real turn'),
      msg(1, 'user', 'reminder from the agent', { isAgentNote: true }),
      msg(2, 'user', 'summary carrier', { isSummary: true }),
      msg(3, 'assistant', 'ok'),
    ];
    expect(treeRows(active, []).map((r) => r.label)).toEqual(['real turn']);
  });

  it('shortens labels to about 60 characters', () => {
    const long = 'word '.repeat(40);
    const [row] = treeRows([msg(0, 'user', long)], []);
    expect(Array.from(row.label).length).toBeLessThanOrEqual(60);
    expect(row.label.endsWith('…')).toBe(true);
  });

  it('shows a branch without own user turns (a mark, an alternative reply) at its fork point', () => {
    const active = conversation(['q1', 'q2']);
    const mark = markBranch(active.slice(0, 2), [], 'mark');
    const regen: StoredBranch = {
      name: 'regen',
      baseSequence: 2,
      suffix: [msg(3, 'assistant', 'another answer')],
      createdAt: T0,
    };
    const rows = treeRows(active, [mark, regen]);
    expect(rows.slice(2)).toEqual([
      { label: 'q1', depth: 1, active: false, branch: 'mark', sequenceNumber: 0 },
      { label: 'q2', depth: 1, active: false, branch: 'regen', sequenceNumber: 2 },
    ]);
  });

  it('does not repeat rows a branch shares with the active path', () => {
    const active = conversation(['q1', 'q2']);
    // the branch copied q2 into its suffix (undo) and it came back (redo)
    const b: StoredBranch = {
      name: 'b',
      baseSequence: 1,
      suffix: [active[2], active[3], msg(4, 'user', 'q3 alt')],
      createdAt: T0,
    };
    expect(
      treeRows(active, [b])
        .filter((r) => r.branch === 'b')
        .map((r) => r.label),
    ).toEqual(['q3 alt']);
    expect(compactBranch(active, b)).toEqual({ ...b, baseSequence: 3, suffix: [b.suffix[2]] });
  });
});

describe('planSwitch', () => {
  it('is a noop when the target already is the active path', () => {
    const active = conversation(['a']);
    const b = markBranch(active, [], 'here');
    expect(planSwitch(active, [b], 'here')).toEqual({ noop: true });
  });

  it('throws NOT_FOUND for an unknown branch', () => {
    expectBranchError(() => planSwitch(conversation(['a']), [], 'nope'), 'NOT_FOUND');
  });

  it('replaces only the differing tail and keeps the old tail as a branch', () => {
    const active = conversation(['a', 'b', 'c']); // seq 0..5
    const target: StoredBranch = {
      name: 'alt',
      baseSequence: 1,
      suffix: [msg(2, 'user', 'B'), msg(3, 'assistant', 'ans B')],
      createdAt: T0,
    };
    const plan = planSwitch(active, [target], 'alt', { now: T0 });
    if (plan.noop) throw new Error('expected a plan');
    expect(plan.deleteAfterSequence).toBe(1);
    expect(plan.insert).toEqual(target.suffix);
    expect(plan.removeBranch).toBe('alt');
    expect(plan.keepOldAs).toEqual({ name: 'branch 1', baseSequence: 1, suffix: active.slice(2), createdAt: T0 });
    const after = applySwitch(active, [target], plan);
    expect(keys(after.active)).toEqual(keys(branchPath(active, target)));
    expect(keys(branchPath(after.active, after.branches[0]))).toEqual(keys(active));
  });

  it('keeps rows the target shares with the active path (writes only what changed)', () => {
    const active = conversation(['a', 'b']); // 0..3
    // branch that was rebased to -1 but whose suffix starts with the same rows
    const target: StoredBranch = {
      name: 't',
      baseSequence: -1,
      suffix: [active[0], active[1], msg(2, 'user', 'X')],
      createdAt: T0,
    };
    const plan = planSwitch(active, [target], 't');
    if (plan.noop) throw new Error('expected a plan');
    expect(plan.deleteAfterSequence).toBe(1);
    expect(plan.insert.map((m) => m.content)).toEqual(['X']);
  });

  it('does not keep the old path when another branch already holds all of it', () => {
    const active = conversation(['a', 'b', 'c']);
    const atEnd = markBranch(active, [], 'end');
    const early = markBranch(active.slice(0, 2), [atEnd], 'early');
    const plan = planSwitch(active, [atEnd, early], 'early');
    if (plan.noop) throw new Error('expected a plan');
    expect(plan.keepOldAs).toBeNull();
    // "end" shared rows that are being removed: it is rebased and still holds the whole old path
    expect(plan.rebased).toHaveLength(1);
    const after = applySwitch(active, [atEnd, early], plan);
    expect(after.branches.map((b) => b.name)).toEqual(['end']);
    expect(keys(branchPath(after.active, after.branches[0]))).toEqual(keys(active));
  });

  it('keeps nothing when the target extends the active path', () => {
    const active = conversation(['a']);
    const longer: StoredBranch = { name: 'longer', baseSequence: 1, suffix: [msg(2, 'user', 'more')], createdAt: T0 };
    const plan = planSwitch(active, [longer], 'longer');
    if (plan.noop) throw new Error('expected a plan');
    expect(plan.keepOldAs).toBeNull();
    expect(plan.deleteAfterSequence).toBe(1);
  });

  it('uses keepName for the old path when given and free', () => {
    const active = conversation(['a', 'b']);
    const t = markBranch(active.slice(0, 2), [], 't');
    const plan = planSwitch(active, [t], 't', { keepName: 'main' });
    if (plan.noop) throw new Error('expected a plan');
    expect(plan.keepOldAs?.name).toBe('main');
  });
});

describe('onActiveTruncated', () => {
  it('lets a branch that shared removed rows capture them, so it loses nothing', () => {
    const active = conversation(['a', 'b', 'c']); // 0..5
    const mid: StoredBranch = { name: 'mid', baseSequence: 3, suffix: [msg(4, 'user', 'C alt')], createdAt: T0 };
    const early: StoredBranch = { name: 'early', baseSequence: 0, suffix: [], createdAt: T0 };
    const before = branchPath(active, mid);
    const removed = active.slice(2);
    const out = onActiveTruncated([mid, early], 1, removed);
    expect(out[0]).toEqual({ ...mid, baseSequence: 1, suffix: [active[2], active[3], mid.suffix[0]] });
    expect(out[1]).toBe(early); // untouched → same object, no write
    expect(keys(branchPath(active.slice(0, 2), out[0]))).toEqual(keys(before));
  });
});

describe('JSON form', () => {
  it('round-trips a branch', () => {
    const b: StoredBranch = {
      name: 'x',
      baseSequence: 0,
      suffix: [msg(1, 'assistant', 'hi', { toolCalls: [{ id: 'c', name: 'f', arguments: { a: 1 } }] })],
      createdAt: T0,
    };
    expect(branchFromJson(JSON.parse(JSON.stringify(branchToJson(b))))).toEqual(b);
  });
});

describe('no path is ever lost (property)', () => {
  type Op = { kind: 'say'; text: string } | { kind: 'mark' } | { kind: 'switch'; pick: number } | { kind: 'undo' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('say' as const), text: fc.constantFrom('p', 'q', 'r') }),
    fc.record({ kind: fc.constant('mark' as const) }),
    fc.record({ kind: fc.constant('switch' as const), pick: fc.nat(10) }),
    fc.record({ kind: fc.constant('undo' as const) }),
  );

  it('switch and mark keep every path; undo keeps every branch path', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.boolean(), (ops, reuseSeq) => {
        let active: ChatMessage[] = [];
        let branches: StoredBranch[] = [];
        let nextSeq = 0;
        const isPrefix = (p: string[], q: string[]) => p.length <= q.length && p.every((k, i) => q[i] === k);
        for (const o of ops) {
          const beforeActive = keys(active);
          const beforeBranches = branches.map((b) => keys(branchPath(active, b)));
          if (o.kind === 'say') {
            // the store may number after the current last row: sequence numbers get reused across paths
            if (reuseSeq) nextSeq = active.length > 0 ? active[active.length - 1].sequenceNumber + 1 : 0;
            active = [...active, msg(nextSeq++, 'user', o.text), msg(nextSeq++, 'assistant', `re ${o.text}`)];
            // appending never changes a branch path
            expect(branches.map((b) => keys(branchPath(active, b)))).toEqual(beforeBranches);
            continue;
          }
          if (o.kind === 'mark') {
            if (active.length > 0) branches = [...branches, markBranch(active, branches)];
          } else if (o.kind === 'switch') {
            if (branches.length === 0) continue;
            const plan = planSwitch(active, branches, branches[o.pick % branches.length].name);
            ({ active, branches } = applySwitch(active, branches, plan));
          } else {
            const cut = active.length - 2;
            if (cut < 0) continue;
            const cutSeq = cut === 0 ? -1 : active[cut - 1].sequenceNumber;
            branches = onActiveTruncated(branches, cutSeq, active.slice(cut));
            active = active.slice(0, cut);
            // the undone turn itself goes to the redo stack; every branch keeps its exact path
            expect(branches.map((b) => keys(branchPath(active, b)))).toEqual(beforeBranches);
            continue;
          }
          const now = [keys(active), ...branches.map((b) => keys(branchPath(active, b)))];
          for (const p of [beforeActive, ...beforeBranches]) {
            expect(now.some((q) => isPrefix(p, q))).toBe(true);
          }
          expect(new Set(branches.map((b) => b.name)).size).toBe(branches.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
