import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChatGptImportError, parseChatGptExport } from '../../src/domain/chatgpt-import.js';
import { branchPath, planSwitch, treeRows } from '../../src/domain/tree.js';

const fixture = readFileSync(new URL('../fixtures/chatgpt-conversations.json', import.meta.url), 'utf8');

describe('parseChatGptExport', () => {
  const [edited, regenerated] = parseChatGptExport(fixture);

  it('imports the path root → current_node as the active path, skipping system and hidden nodes', () => {
    expect(edited.messages.map((m) => [m.sequenceNumber, m.role, m.content])).toEqual([
      [0, 'user', 'How do I reverse a list in Python?'],
      [1, 'assistant', expect.stringContaining('items[::-1]')],
      [2, 'user', 'And how do I reverse a tuple?'],
      [3, 'assistant', 'Tuples are immutable too: `tuple(reversed(t))` or `t[::-1]`.'],
    ]);
    expect(edited.messages[0].createdAt).toEqual(new Date(1717401601000));
    expect(edited.messages[1].metadata).toMatchObject({ source: 'chatgpt', model: 'gpt-4o' });
  });

  it('keeps the edited-away user message as a branch from the last shared message', () => {
    expect(edited.branches).toHaveLength(1);
    const [b] = edited.branches;
    expect(b.name).toBe('branch 1');
    expect(b.baseSequence).toBe(1);
    expect(b.suffix.map((m) => [m.sequenceNumber, m.role, m.content])).toEqual([
      [2, 'user', 'And a string?'],
      [3, 'assistant', 'Strings are immutable, so slice: `s[::-1]`.'],
    ]);
    expect(branchPath(edited.messages, b).map((m) => m.content)[0]).toBe('How do I reverse a list in Python?');
    expect(treeRows(edited.messages, edited.branches).map((r) => [r.depth, r.label])).toEqual([
      [0, 'How do I reverse a list in Python?'],
      [0, 'And how do I reverse a tuple?'],
      [1, 'And a string?'],
    ]);
    const plan = planSwitch(edited.messages, edited.branches, 'branch 1');
    expect(plan.noop).toBe(false);
  });

  it('uses the title with source IMPORTED and the conversation times', () => {
    expect(edited.title).toBe('Reverse a list in Python');
    expect(edited.titleSource).toBe('IMPORTED');
    expect(edited.createdAt).toEqual(new Date(1717401600123));
    expect(edited.lastActive).toEqual(new Date(1717402020500));
    expect(edited.sourceId).toBe('6660a1b2-1111-2222-3333-444455556666');
  });

  it('falls back to a heuristic title when the conversation has none', () => {
    expect(regenerated.title).toBe('What is 2**10? Compute it.');
    expect(regenerated.titleSource).toBe('HEURISTIC');
  });

  it('imports code and tool output, and a regenerated reply as a branch', () => {
    expect(regenerated.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(regenerated.messages[1].content).toBe('```\n2**10\n```');
    expect(regenerated.messages[2]).toMatchObject({ content: '1024', name: 'python', isContext: false });
    expect(regenerated.messages[3].content).toBe('It equals 1024 (two to the tenth power).');
    expect(regenerated.branches).toHaveLength(1);
    expect(regenerated.branches[0].baseSequence).toBe(2);
    expect(regenerated.branches[0].suffix.map((m) => m.content)).toEqual(['2**10 is 1024.']);
  });

  it('accepts an already-parsed value and a single conversation', () => {
    const data = JSON.parse(fixture) as unknown[];
    expect(parseChatGptExport(data)).toHaveLength(2);
    expect(parseChatGptExport(data[0])).toHaveLength(1);
  });

  it('rejects malformed input with a clear error', () => {
    expect(() => parseChatGptExport('{oops')).toThrow(ChatGptImportError);
    expect(() => parseChatGptExport('[{"title":"x"}]')).toThrow(/Not a ChatGPT conversations.json export: 0\.mapping/);
    expect(() => parseChatGptExport(42)).toThrow(ChatGptImportError);
  });

  it('rejects a current_node that is not in the mapping and broken parent chains', () => {
    const conv = JSON.parse(fixture)[0];
    expect(() => parseChatGptExport([{ ...conv, current_node: 'missing' }])).toThrow(
      /current_node missing is not in mapping/,
    );
    const cyclic = structuredClone(conv);
    cyclic.mapping['aaaaaaaa-0000-4000-8000-000000000001'].parent = 'aaaaaaaa-0000-4000-8000-000000000009';
    expect(() => parseChatGptExport([cyclic])).toThrow(/cycle/);
  });
});
