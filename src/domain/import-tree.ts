/**
 * A message tree from another app's export → the active path and stored
 * branches, as the branch tree keeps them. Shared by the ChatGPT and Claude
 * imports: the path root → `current` becomes the active path; every other
 * leaf's path a branch from the last message it shares with the active path.
 */
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

export function importTree(tree: ImportTree): { messages: ChatMessage[]; branches: StoredBranch[]; current: string } {
  const { ids } = tree;
  const known = new Set(ids);
  const parent = (id: string): string | null => {
    const p = tree.parentOf(id);
    return p != null && known.has(p) ? p : null;
  };
  const children = new Map<string, string[]>();
  for (const id of ids) children.set(id, []);
  for (const id of ids) {
    for (const c of tree.childrenOf?.(id) ?? []) {
      if (known.has(c) && !children.get(id)!.includes(c)) children.get(id)!.push(c);
    }
    const p = parent(id);
    if (p != null && !children.get(p)!.includes(id)) children.get(p)!.push(id);
  }
  const leaves = ids.filter((id) => children.get(id)!.length === 0);
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

  const branches: StoredBranch[] = [];
  const seen = new Set<string>();
  for (const leaf of order) {
    if (children.get(leaf)!.length > 0 || leaf === current || seqAtNode.has(leaf)) continue;
    const path = pathTo(leaf);
    let shared = -1;
    while (shared + 1 < path.length && seqAtNode.has(path[shared + 1]!)) shared++;
    const baseSequence = shared >= 0 ? seqAtNode.get(path[shared]!)! : -1;
    const suffix: ChatMessage[] = [];
    for (const id of path.slice(shared + 1)) {
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
