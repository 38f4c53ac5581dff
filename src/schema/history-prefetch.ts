/**
 * `session(id:) { history(...) { ... } }` in one statement: when the session's selection needs only its own columns
 * and names one `history` field (no fragment, no directive, literal or variable arguments), the `session` resolver
 * reads the row and that page together (readableWithHistoryPage) and hands the page to the history field, which
 * then answers it without a second read. Any other shape takes the ordinary path: the row, then the page.
 */
import type { FieldNode, GraphQLResolveInfo, SelectionSetNode, ValueNode } from 'graphql';
import type { HistoryPage } from '../sessions/history-page.js';
import type { PageArgs } from '../sessions/paging.js';
import { columnTier, isMessageColumn, type MessageColumn } from '../store/rows.js';

const PREFETCHED = Symbol('prefetched history page');

interface Prefetched {
  [PREFETCHED]?: { field: FieldNode; page: HistoryPage };
}

const ARGUMENTS = new Set(['first', 'after', 'last', 'before']);

function argumentValue(node: ValueNode, variables: Record<string, unknown>): { value: unknown } | null {
  if (node.kind === 'Variable') return { value: variables[node.name.value] ?? null };
  if (node.kind === 'IntValue') return { value: Number.parseInt(node.value, 10) };
  if (node.kind === 'StringValue') return { value: node.value };
  if (node.kind === 'NullValue') return { value: null };
  return null;
}

/** Message fields answered from no column of their own (`id` is the key, which every row read carries). */
const KEY_FIELDS = new Set(['id', 'archived', '__typename']);

/** The fields of a selection set, or null when it holds a fragment (then its fields are not known here). */
function fieldsOf(set: SelectionSetNode | undefined): FieldNode[] | null {
  const fields: FieldNode[] = [];
  for (const selection of set?.selections ?? []) {
    if (selection.kind !== 'Field') return null;
    fields.push(selection);
  }
  return fields;
}

/** Per `history` field node: a document is parsed once and reused (Yoga's and the fast path's caches). */
const tierOf = new WeakMap<FieldNode, ReadonlySet<MessageColumn> | null>();

/**
 * The message columns a `history` selection reads, as one of columnTier's sets: the fields under
 * `edges { node { … } }`, each a column of its own name (`id` and `archived` come with every row). Null (read them
 * all) for anything else: a fragment at any level, a field that is not a column.
 */
export function selectedMessageColumns(history: FieldNode): ReadonlySet<MessageColumn> | null {
  let tier = tierOf.get(history);
  if (tier === undefined) {
    const named = namedMessageColumns(history);
    tier = named && columnTier(named);
    tierOf.set(history, tier);
  }
  return tier;
}

function namedMessageColumns(history: FieldNode): Set<MessageColumn> | null {
  const columns = new Set<MessageColumn>();
  for (const field of fieldsOf(history.selectionSet) ?? [null]) {
    if (!field) return null;
    if (field.name.value !== 'edges') continue;
    for (const edgeField of fieldsOf(field.selectionSet) ?? [null]) {
      if (!edgeField) return null;
      if (edgeField.name.value !== 'node') continue;
      for (const nodeField of fieldsOf(edgeField.selectionSet) ?? [null]) {
        const name = nodeField?.name.value ?? '';
        if (isMessageColumn(name)) columns.add(name);
        else if (!KEY_FIELDS.has(name)) return null;
      }
    }
  }
  return columns;
}

/** The one `history` field under this `session` field and its arguments, or null when it is not the plain shape. */
export function plainHistorySelection(info: GraphQLResolveInfo): { field: FieldNode; args: PageArgs } | null {
  if (info.fieldNodes.length !== 1) return null;
  let found: FieldNode | null = null;
  for (const selection of info.fieldNodes[0]!.selectionSet?.selections ?? []) {
    if (selection.kind !== 'Field') return null;
    if (selection.name.value !== 'history') continue;
    if (found || selection.directives?.length) return null;
    found = selection;
  }
  if (!found) return null;
  const args: Record<string, unknown> = {};
  for (const arg of found.arguments ?? []) {
    const value = ARGUMENTS.has(arg.name.value) ? argumentValue(arg.value, info.variableValues) : null;
    if (!value) return null;
    args[arg.name.value] = value.value;
  }
  return { field: found, args: args as PageArgs };
}

/** The session row, carrying the page its history field answers. */
export function withPrefetchedHistory<T extends object>(row: T, field: FieldNode, page: HistoryPage): T {
  return Object.assign(row, { [PREFETCHED]: { field, page } });
}

/** The page the `session` resolver read for this very history field, if it did. */
export function prefetchedHistory(row: object, info: GraphQLResolveInfo): HistoryPage | undefined {
  const prefetched = (row as Prefetched)[PREFETCHED];
  return prefetched && info.fieldNodes[0] === prefetched.field ? prefetched.page : undefined;
}
