/**
 * A message tree from another app's export → the active path and stored
 * branches, as the branch tree keeps them. Shared by the ChatGPT and Claude
 * imports: the path root → `current` becomes the active path; every other
 * leaf's path a branch from the last message it shares with the active path.
 */
import type { z } from 'zod';
import { heuristicTitle, type TitleSource } from './titles.js';
import type { StoredBranch } from './tree.js';
import type { ChatMessage } from './types.js';

export interface ImportTree {
  /** every node id, in the export's order */
  ids: string[];
  /** the parent of a node; null/undefined (or an id not in `ids`) for a root */
  parentOf(id: string): string | null | undefined;
  /** children in the export's order (parent links are added after these) */
  childrenOf?(id: string): readonly string[];
  /** the leaf of the active path; null: the last leaf */
  current: string | null;
  /** the message a node becomes, or null for nodes that show nothing */
  convert(id: string): ChatMessage | null;
  /** raises the import's own error (BAD_USER_INPUT) */
  fail(message: string): never;
}

/** Branches (leaves off the active path) one imported conversation may have. */
export const MAX_IMPORT_BRANCHES = 1000;
/** Messages all of a conversation's branches may hold of their own, together. */
export const MAX_IMPORT_BRANCH_NODES = 200_000;

export function importTree(tree: ImportTree): { messages: ChatMessage[]; branches: StoredBranch[]; current: string } {
  const { ids } = tree;
  const known = new Set(ids);
  const parent = (id: string): string | null => {
    const p = tree.parentOf(id);
    return p != null && known.has(p) ? p : null;
  };
  // children in first-seen order (an array), with a set beside it so each add is O(1)
  const children = new Map<string, string[]>();
  const childSets = new Map<string, Set<string>>();
  for (const id of ids) {
    children.set(id, []);
    childSets.set(id, new Set());
  }
  const addChild = (of: string, c: string) => {
    if (childSets.get(of)!.has(c)) return;
    childSets.get(of)!.add(c);
    children.get(of)!.push(c);
  };
  for (const id of ids) {
    for (const c of tree.childrenOf?.(id) ?? []) if (known.has(c)) addChild(id, c);
    const p = parent(id);
    if (p != null) addChild(p, id);
  }
  const leaves = ids.filter((id) => children.get(id)!.length === 0);
  if (leaves.length > MAX_IMPORT_BRANCHES) {
    tree.fail(`${leaves.length} branches (leaves); at most ${MAX_IMPORT_BRANCHES} per conversation are imported`);
  }
  const current = tree.current ?? leaves[leaves.length - 1];
  if (current === undefined || !known.has(current)) tree.fail(`current node ${current} is not in the conversation`);

  const pathTo = (leaf: string): string[] => {
    const out: string[] = [];
    const seen = new Set<string>();
    let cur: string | null = leaf;
    while (cur != null) {
      if (seen.has(cur)) tree.fail(`the parent links of node ${cur} form a cycle`);
      seen.add(cur);
      out.push(cur);
      const p = tree.parentOf(cur);
      if (p != null && !known.has(p)) tree.fail(`node ${p} is referenced but missing`);
      cur = p ?? null;
    }
    return out.reverse();
  };

  const activeIds = pathTo(current);
  const messages: ChatMessage[] = [];
  const seqAtNode = new Map<string, number>(); // last active seq at or before each active node
  for (const id of activeIds) {
    const m = tree.convert(id);
    if (m) messages.push({ ...m, sequenceNumber: messages.length });
    seqAtNode.set(id, messages.length - 1);
  }

  // leaves in depth-first order of the tree, so branch numbering follows the UI
  const roots = ids.filter((id) => parent(id) == null);
  const order: string[] = [];
  const stack = [...roots].reverse();
  const visited = new Set<string>();
  while (stack.length) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    stack.push(...[...children.get(id)!].reverse());
  }

  // A leaf's own path: from it up to (not including) the last node it shares with the active path, walked only
  // that far (a comb of many leaves off a deep path stays linear), root first.
  const ownPath = (leaf: string): { anchor: string | null; path: string[] } => {
    const out: string[] = [];
    const visited = new Set<string>();
    let cur: string | null = leaf;
    while (cur != null && !seqAtNode.has(cur)) {
      if (visited.has(cur)) tree.fail(`the parent links of node ${cur} form a cycle`);
      visited.add(cur);
      out.push(cur);
      const p = tree.parentOf(cur);
      if (p != null && !known.has(p)) tree.fail(`node ${p} is referenced but missing`);
      cur = p ?? null;
    }
    return { anchor: cur, path: out.reverse() };
  };

  let budget = MAX_IMPORT_BRANCH_NODES;
  const branches: StoredBranch[] = [];
  const seen = new Set<string>();
  for (const leaf of order) {
    if (children.get(leaf)!.length > 0 || leaf === current || seqAtNode.has(leaf)) continue;
    const { anchor, path } = ownPath(leaf);
    const baseSequence = anchor != null ? seqAtNode.get(anchor)! : -1;
    budget -= path.length;
    if (budget < 0) tree.fail(`its branches hold more than ${MAX_IMPORT_BRANCH_NODES} messages of their own`);
    const suffix: ChatMessage[] = [];
    for (const id of path) {
      const m = tree.convert(id);
      if (m) suffix.push({ ...m, sequenceNumber: baseSequence + 1 + suffix.length });
    }
    if (suffix.length === 0) continue; // nothing of its own to keep
    const key = `${baseSequence}|${suffix.map((m) => `${m.role}:${m.content}`).join('\u0000')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    branches.push({ name: `branch ${branches.length + 1}`, baseSequence, suffix, createdAt: suffix[0]!.createdAt });
  }
  return { messages, branches, current };
}

/** The first problems of a failed schema parse, as one line each names the path: for an import's error message. */
export function parseProblems(error: z.ZodError, max = 5): string {
  return error.issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** An imported conversation's title: its own name, else a heuristic from the first user message, else none. */
export function importedTitle(
  name: string | null | undefined,
  messages: readonly ChatMessage[],
): { title: string | null; titleSource: TitleSource } {
  const own = name?.trim() || null;
  if (own) return { title: own, titleSource: 'IMPORTED' };
  const first = messages.find((m) => m.role === 'user');
  const title = first ? heuristicTitle(first.content) : null;
  return { title, titleSource: title ? 'HEURISTIC' : 'DEFAULT' };
}
