/** Helpers for the editing tests: build conversations fast and check the history invariants. */
import { expect } from 'vitest';
import type { NewMessage } from '../../src/domain/types.js';
import type { TestContext } from './harness.js';

export const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;

export async function newSession(t: TestContext, name: string | null = 'Chat'): Promise<{ id: string; raw: string }> {
  const r = await t.gql(`mutation($n: String) { createSession(input: { name: $n }) { id } }`, { n: name });
  const id = r.data.createSession.id as string;
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

export const STATE = `query($id: ID!) { session(id: $id) {
  name displayMessageCount usage { promptTokens completionTokens }
  history(first: 100) { totalCount edges { displayIndex node { sequenceNumber role content isAgentNote } } }
  context { sequenceNumber content isSummary }
  branches { name messageCount createdAt }
  tree { label depth active branch sequenceNumber }
  checkpoint { goal afterSequenceNumber createdAt }
  editStats { linesAdded linesRemoved }
} }`;

export async function state(t: TestContext, id: string) {
  const r = await t.gql(STATE, { id });
  expect(r.errors).toBeUndefined();
  return r.data.session;
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

export const M = {
  undo: `mutation($id: ID!) { undoLastTurn(id: $id) { id displayMessageCount } }`,
  redo: `mutation($id: ID!) { redo(id: $id) { id displayMessageCount } }`,
  revert: `mutation($id: ID!, $s: Int!) { revertSession(id: $id, sequenceNumber: $s) { id displayMessageCount } }`,
  mark: `mutation($id: ID!, $n: String) { markBranch(id: $id, name: $n) { name messageCount createdAt } }`,
  switch: `mutation($id: ID!, $b: String!) { switchBranch(id: $id, branch: $b) { id displayMessageCount } }`,
  checkpoint:
    'mutation($id: ID!, $g: String!) { markCheckpoint(id: ' + '$id, goal: $g) { goal afterSequenceNumber createdAt } }',
  rewind: `mutation($id: ID!, $r: String!) { rewindSession(id: $id, report: $r) { id displayMessageCount } }`,
  fork:
    'mutation($id: ID!) { forkSession(id: $id) { id name ' +
    'titleSource usage { promptTokens } displayMessageCount } }',
};
