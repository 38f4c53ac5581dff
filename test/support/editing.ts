/** Helpers for the editing tests: build conversations fast and check the history invariants. */
import { expect } from 'vitest';
import type { NewMessage } from '../../src/domain/types.js';
import {
  SupportEditingCheckpointDocument,
  SupportEditingCreateSessionDocument,
  SupportEditingForkDocument,
  SupportEditingMarkDocument,
  SupportEditingRedoDocument,
  SupportEditingRevertDocument,
  SupportEditingRewindDocument,
  type SupportEditingStateQuery,
  SupportEditingStateDocument,
  SupportEditingSwitchDocument,
  SupportEditingUndoDocument,
} from '../generated/graphql.js';
import type { TestContext } from './harness.js';

export const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;

export async function newSession(t: TestContext, name: string | null = 'Chat'): Promise<{ id: string; raw: string }> {
  const r = await t.gql(SupportEditingCreateSessionDocument, { n: name });
  const id = r.data!.createSession.id;
  return { id, raw: rawId(id) };
}

/** Appends `turns` user/assistant pairs labelled `${prefix}${i}`. */
export async function appendTurns(t: TestContext, raw: string, turns: number, prefix = 'q'): Promise<void> {
  const rows: NewMessage[] = [];
  for (let i = 0; i < turns; i++) {
    rows.push({ role: 'user', content: `${prefix}${i}` }, { role: 'assistant', content: `answer to ${prefix}${i}` });
  }
  await t.app.store.append(raw, rows);
}

/** The session state the editing tests check (test/operations/support-editing.graphql). */
export const STATE = SupportEditingStateDocument;

/** A session as STATE selects it. */
export type EditingState = NonNullable<SupportEditingStateQuery['session']>;

export async function state(t: TestContext, id: string): Promise<EditingState> {
  const r = await t.gql(STATE, { id });
  expect(r.errors).toBeUndefined();
  return r.data!.session!;
}

export const contents = (s: { history: { edges: { node: { content: string } }[] } }): string[] =>
  s.history.edges.map((e) => e.node.content);

/**
 * display_index dense 0..display_count-1 in order of sequence, counters match
 * the rows: what history paging and appends rely on.
 */
export async function expectInvariants(t: TestContext, raw: string): Promise<void> {
  const rows = await t.app.store.allMessages(raw);
  const session = (await t.app.store.get(raw))!;
  const display = rows.filter((m) => m.isDisplay);
  expect(display.map((m) => m.displayIndex)).toEqual(display.map((_, i) => i));
  expect(rows.filter((m) => !m.isDisplay).every((m) => m.displayIndex === null)).toBe(true);
  expect(session.displayCount).toBe(display.length);
  expect(session.nextSequence).toBe(rows.length === 0 ? 0 : rows.at(-1)!.sequenceNumber + 1);
  const seqs = rows.map((m) => m.sequenceNumber);
  expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  expect(new Set(seqs).size).toBe(seqs.length);
}

/** The history edits, as typed documents. */
export const M = {
  undo: SupportEditingUndoDocument,
  redo: SupportEditingRedoDocument,
  revert: SupportEditingRevertDocument,
  mark: SupportEditingMarkDocument,
  switch: SupportEditingSwitchDocument,
  checkpoint: SupportEditingCheckpointDocument,
  rewind: SupportEditingRewindDocument,
  fork: SupportEditingForkDocument,
};
