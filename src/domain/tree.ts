/**
 * Branches: every path of a conversation other than the active one, stored as
 * "the active path up to `baseSequence`, then my own `suffix`". Pure planning:
 * the store applies the plans and writes only the rows that change.
 *
 * Invariant kept by every function here: no branch ever loses a message. When
 * active rows a branch still shares are removed (switch, undo, revert, rewind),
 * the branch first takes a copy of them into its suffix.
 */
import { isRealUserMessage, shortenAtWord } from './titles.js';
import type { ChatMessage } from './types.js';
import type { ErrorCode } from './error-codes.js';

export interface StoredBranch {
  name: string;
  /** last sequenceNumber shared with the active path when it diverged (-1 = nothing shared) */
  baseSequence: number;
  /** the branch's own messages after baseSequence */
  suffix: ChatMessage[];
  createdAt: Date;
}

/** GraphQL `TreeRow`. */
export interface TreeRow {
  label: string;
  depth: number;
  active: boolean;
  branch: string | null;
  sequenceNumber: number;
}

/** GraphQL `Branch`. */
export interface BranchSummary {
  name: string;
  messageCount: number;
  createdAt: Date;
}

export type BranchErrorCode = typeof ErrorCode.NOT_FOUND | typeof ErrorCode.CONFLICT | typeof ErrorCode.BAD_USER_INPUT;

export class BranchError extends Error {
  constructor(
    readonly code: BranchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BranchError';
  }
}

export const BRANCH_NAME_MAX_CHARS = 80;
export const TREE_LABEL_MAX_CHARS = 60;

/** Identity of a message across copies: the same row copied into a branch compares equal. */
export function messageKey(m: ChatMessage): string {
  return `${m.sequenceNumber}\u0000${m.role}\u0000${m.toolCallId ?? ''}\u0000${m.content}`;
}

function lastSequence(active: readonly ChatMessage[]): number {
  return active.length === 0 ? -1 : active[active.length - 1].sequenceNumber;
}

/** A user turn in the tree: not an agent note, summary or context-only row. */
export function isTreeUserTurn(m: ChatMessage): boolean {
  return isRealUserMessage(m) && m.isDisplay;
}

/** The first free `branch N` (N ≥ 1) among the existing names. */
export function defaultBranchName(existing: Iterable<string | StoredBranch>): string {
  const taken = new Set<string>();
  for (const e of existing) taken.add(typeof e === 'string' ? e : e.name);
  for (let n = 1; ; n++) {
    const name = `branch ${n}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * Mark the current point under `name` (or `branch N`). The new branch shares
 * the whole active path and has no messages of its own yet.
 */
export function markBranch(
  active: readonly ChatMessage[],
  branches: readonly StoredBranch[],
  name?: string | null,
  now: Date = new Date(),
): StoredBranch {
  if (active.length === 0) throw new BranchError('BAD_USER_INPUT', 'Cannot mark a branch in an empty session');
  const requested = name == null ? '' : name.trim().replace(/\s+/g, ' ');
  if (Array.from(requested).length > BRANCH_NAME_MAX_CHARS) {
    throw new BranchError('BAD_USER_INPUT', `Branch name is longer than ${BRANCH_NAME_MAX_CHARS} characters`);
  }
  const finalName = requested || defaultBranchName(branches);
  if (branches.some((b) => b.name === finalName)) {
    throw new BranchError('CONFLICT', `A branch named "${finalName}" already exists`);
  }
  return { name: finalName, baseSequence: lastSequence(active), suffix: [], createdAt: now };
}

/** The active rows a branch shares (sequenceNumber ≤ baseSequence). */
function sharedPrefix(active: readonly ChatMessage[], baseSequence: number): ChatMessage[] {
  // active is ordered: find the cut with a binary search
  let lo = 0;
  let hi = active.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (active[mid].sequenceNumber <= baseSequence) lo = mid + 1;
    else hi = mid;
  }
  return active.slice(0, lo);
}

/** Full message list of a branch: the shared active prefix, then its own suffix. */
export function branchPath(active: readonly ChatMessage[], branch: StoredBranch): ChatMessage[] {
  return [...sharedPrefix(active, branch.baseSequence), ...branch.suffix];
}

/**
 * Where a branch really leaves the active path: rows at the start of its
 * suffix that equal the active rows after its base (e.g. restored by redo) are
 * shared, not its own.
 */
export function divergence(
  active: readonly ChatMessage[],
  branch: StoredBranch,
): { baseSequence: number; own: ChatMessage[] } {
  const after = active.slice(sharedPrefix(active, branch.baseSequence).length);
  let i = 0;
  while (i < after.length && i < branch.suffix.length && messageKey(after[i]) === messageKey(branch.suffix[i])) i++;
  return {
    baseSequence: i === 0 ? branch.baseSequence : after[i - 1].sequenceNumber,
    own: branch.suffix.slice(i),
  };
}

/** The branch with its shared rows moved out of the suffix (fewer stored copies). */
export function compactBranch(active: readonly ChatMessage[], branch: StoredBranch): StoredBranch {
  const d = divergence(active, branch);
  if (d.own.length === branch.suffix.length) return branch;
  return { ...branch, baseSequence: d.baseSequence, suffix: d.own };
}

function treeLabel(m: ChatMessage | undefined): string {
  if (!m) return '(start)';
  const text = m.content.replace(/\s+/g, ' ').trim();
  if (text === '') return m.images.length > 0 ? '(image)' : '(empty)';
  return shortenAtWord(text, TREE_LABEL_MAX_CHARS);
}

/**
 * The conversation as a tree of user turns, active path first (depth 0), then
 * each branch's own user turns (depth 1, hanging under its fork point),
 * branches ordered by fork point then creation. A branch with no user turn of
 * its own (a mark, or an alternative reply) shows one row: the user turn it
 * forks from.
 */
export function treeRows(active: readonly ChatMessage[], branches: readonly StoredBranch[]): TreeRow[] {
  const rows: TreeRow[] = [];
  for (const m of active) {
    if (isTreeUserTurn(m)) {
      rows.push({ label: treeLabel(m), depth: 0, active: true, branch: null, sequenceNumber: m.sequenceNumber });
    }
  }
  const forks = branches
    .map((b, index) => ({ b, index, d: divergence(active, b) }))
    .sort(
      (x, y) =>
        x.d.baseSequence - y.d.baseSequence || x.b.createdAt.getTime() - y.b.createdAt.getTime() || x.index - y.index,
    );
  for (const { b, d } of forks) {
    const turns = d.own.filter(isTreeUserTurn);
    if (turns.length > 0) {
      for (const m of turns) {
        rows.push({ label: treeLabel(m), depth: 1, active: false, branch: b.name, sequenceNumber: m.sequenceNumber });
      }
      continue;
    }
    // last user turn on the path up to the fork point
    const path = [...sharedPrefix(active, d.baseSequence), ...d.own];
    let at: ChatMessage | undefined;
    for (const m of path) if (isTreeUserTurn(m)) at = m;
    rows.push({
      label: treeLabel(at),
      depth: 1,
      active: false,
      branch: b.name,
      sequenceNumber: at ? at.sequenceNumber : d.baseSequence,
    });
  }
  return rows;
}

/**
 * Branches after the active path loses every row after `cutAfterSequence`
 * (undo, revert, rewind, switch). A branch that still shares removed rows
 * (baseSequence > cut) copies them into its suffix and moves its base to the
 * cut. `removedRows` are the active rows being removed. Unchanged branches are
 * returned as the same objects, so `result[i] !== branches[i]` marks a write.
 */
export function onActiveTruncated(
  branches: readonly StoredBranch[],
  cutAfterSequence: number,
  removedRows: readonly ChatMessage[],
): StoredBranch[] {
  return branches.map((b) => {
    if (b.baseSequence <= cutAfterSequence) return b;
    const captured = removedRows.filter(
      (m) => m.sequenceNumber > cutAfterSequence && m.sequenceNumber <= b.baseSequence,
    );
    return { ...b, baseSequence: cutAfterSequence, suffix: [...captured, ...b.suffix] };
  });
}

export type SwitchPlan =
  | { noop: true }
  | {
      noop: false;
      /** delete active rows with sequenceNumber > this */
      deleteAfterSequence: number;
      /** rows to append after the cut, in order; their sequenceNumbers are > deleteAfterSequence */
      insert: ChatMessage[];
      /** the old active rows after the cut, kept as a branch; null when nothing is lost without it */
      keepOldAs: StoredBranch | null;
      /** the target: it is the active path now */
      removeBranch: string;
      /** other branches that shared removed rows, rebased onto the cut (write these) */
      rebased: StoredBranch[];
    };

function startsWith(path: readonly ChatMessage[], prefix: readonly ChatMessage[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (messageKey(path[i]) !== messageKey(prefix[i])) return false;
  return true;
}

/**
 * Plan making `targetName` the active path. Rows the target shares with the
 * active path stay in place; only the differing tail is deleted and replaced.
 * The old tail is kept as a branch (`keepName` or `branch N`) unless another
 * stored path already holds the whole old active path.
 */
export function planSwitch(
  active: readonly ChatMessage[],
  branches: readonly StoredBranch[],
  targetName: string,
  opts: { keepName?: string; now?: Date } = {},
): SwitchPlan {
  const target = branches.find((b) => b.name === targetName);
  if (!target) throw new BranchError('NOT_FOUND', `No branch named "${targetName}"`);

  const { baseSequence, own } = divergence(active, target);
  const removed = active.slice(sharedPrefix(active, baseSequence).length);
  if (own.length === 0 && removed.length === 0) return { noop: true };

  // Make sure the inserted rows sort after the cut even if a stored suffix was renumbered badly.
  let next = baseSequence;
  const insert = own.map((m) => {
    const seq = m.sequenceNumber > next ? m.sequenceNumber : next + 1;
    next = seq;
    return seq === m.sequenceNumber ? m : { ...m, sequenceNumber: seq };
  });

  const others = branches.filter((b) => b !== target);
  const heldElsewhere = removed.length === 0 || others.some((b) => startsWith(branchPath(active, b), active));
  const after = onActiveTruncated(others, baseSequence, removed);
  const rebased = after.filter((b, i) => b !== others[i]);

  let keepOldAs: StoredBranch | null = null;
  if (!heldElsewhere) {
    const taken = branches.map((b) => b.name);
    const keepName =
      opts.keepName && !others.some((b) => b.name === opts.keepName) ? opts.keepName : defaultBranchName(taken);
    keepOldAs = { name: keepName, baseSequence, suffix: removed, createdAt: opts.now ?? new Date() };
  }
  return { noop: false, deleteAfterSequence: baseSequence, insert, keepOldAs, removeBranch: target.name, rebased };
}

// ---- JSON form (redo stack, export, a JSON column) ----

export type ChatMessageJson = Omit<ChatMessage, 'createdAt'> & { createdAt: string };
export interface StoredBranchJson {
  name: string;
  baseSequence: number;
  suffix: ChatMessageJson[];
  createdAt: string;
}

export function messageToJson(m: ChatMessage): ChatMessageJson {
  return { ...m, createdAt: m.createdAt.toISOString() };
}

export function messageFromJson(j: ChatMessageJson): ChatMessage {
  return { ...j, createdAt: new Date(j.createdAt) };
}

export function branchToJson(b: StoredBranch): StoredBranchJson {
  return {
    name: b.name,
    baseSequence: b.baseSequence,
    suffix: b.suffix.map(messageToJson),
    createdAt: b.createdAt.toISOString(),
  };
}

export function branchFromJson(j: StoredBranchJson): StoredBranch {
  return {
    name: j.name,
    baseSequence: j.baseSequence,
    suffix: j.suffix.map(messageFromJson),
    createdAt: new Date(j.createdAt),
  };
}

// ---- siblings (edit / regenerate) ----

/** GraphQL `MessageSiblings`: where a message stands among the alternatives at its position. */
export interface SiblingInfo {
  /** 0-based, oldest first */
  index: number;
  /** 1 when there is no alternative */
  count: number;
}

/** One alternative at a position: the active row, or the branches whose own first row is that message. */
export interface Sibling {
  key: string;
  createdAt: Date;
  /** null: the active row itself */
  branches: StoredBranch[] | null;
}

/**
 * The alternatives at the active row `sequenceNumber`: the row itself and
 * every branch that leaves the active path right before it (its divergence
 * point is the row's parent) with a different first message. Branches whose
 * first own message is the same (by `messageKey`) are one alternative.
 * Oldest first (by the first message's creation time, then key). `window`
 * must hold every active row after the oldest branch base (switchBranch's
 * window); null when the row is not in it (then it has no sibling).
 */
export function siblingsAt(
  window: readonly ChatMessage[],
  branches: readonly StoredBranch[],
  sequenceNumber: number,
): { siblings: Sibling[]; index: number } | null {
  const at = window.findIndex((m) => m.sequenceNumber === sequenceNumber);
  if (at < 0) return null;
  const row = window[at]!;
  const groups = new Map<string, Sibling>();
  for (const b of branches) {
    const d = divergence(window, b);
    if (d.own.length === 0) continue;
    // the active child of the prefix this branch keeps: the first active row after its divergence point
    const child = window.find((m) => m.sequenceNumber > d.baseSequence);
    if (child?.sequenceNumber !== sequenceNumber) continue;
    const first = d.own[0]!;
    const key = messageKey(first);
    const group = groups.get(key);
    if (group) {
      group.branches!.push(b);
      if (first.createdAt < group.createdAt) group.createdAt = first.createdAt;
    } else groups.set(key, { key, createdAt: first.createdAt, branches: [b] });
  }
  const self: Sibling = { key: messageKey(row), createdAt: row.createdAt, branches: null };
  const siblings = [self, ...groups.values()].sort(
    (x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0),
  );
  return { siblings, index: siblings.indexOf(self) };
}

/** The branch to switch to for a sibling: the one whose path ends with the newest message (its newest leaf). */
export function newestLeaf(branches: readonly StoredBranch[]): StoredBranch {
  const leafTime = (b: StoredBranch) => (b.suffix.at(-1)?.createdAt ?? b.createdAt).getTime();
  return branches.reduce((best, b) =>
    leafTime(b) > leafTime(best) || (leafTime(b) === leafTime(best) && b.createdAt > best.createdAt) ? b : best,
  );
}

/**
 * Plan cutting the active path after `cut` so a new alternative can grow
 * there (edit, regenerate): the removed rows become a branch unless another
 * branch already holds the whole active path; branches that shared removed
 * rows are rebased onto the cut. `window` holds every active row after
 * min(cut, oldest branch base).
 */
export function planCut(
  window: readonly ChatMessage[],
  branches: readonly StoredBranch[],
  cut: number,
  now: Date = new Date(),
): { removed: ChatMessage[]; keepOldAs: StoredBranch | null; rebased: StoredBranch[] } {
  const removed = window.filter((m) => m.sequenceNumber > cut);
  const last = lastSequence(window);
  const heldElsewhere = removed.length === 0 || branches.some((b) => divergence(window, b).baseSequence >= last);
  const after = onActiveTruncated(branches, cut, removed);
  const rebased = after.filter((b, i) => b !== branches[i]);
  const keepOldAs = heldElsewhere
    ? null
    : { name: defaultBranchName(branches), baseSequence: cut, suffix: removed, createdAt: now };
  return { removed, keepOldAs, rebased };
}
