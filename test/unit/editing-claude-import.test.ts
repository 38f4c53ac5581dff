/** Claude (claude.ai) conversations.json → sessions: the conversion alone. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looksLikeClaudeExport, parseClaudeExport } from '../../src/domain/claude-import.js';

const fixture = readFileSync(new URL('../fixtures/claude-conversations.json', import.meta.url), 'utf8');
/** The fixture's shape, as far as these tests edit it. */
interface FixtureMessage {
  uuid: string;
  parent_message_uuid?: string;
  [key: string]: unknown;
}
interface FixtureConversation {
  uuid?: string;
  chat_messages: FixtureMessage[];
  [key: string]: unknown;
}
const conversations = () => JSON.parse(fixture) as [FixtureConversation, ...FixtureConversation[]];

describe('parseClaudeExport', () => {
  it('imports the path to the latest leaf as the active path, a retried reply as a branch', () => {
    const [flaky] = parseClaudeExport(conversations());
    expect(flaky!.title).toBe('Flaky test in CI');
    expect(flaky!.titleSource).toBe('IMPORTED');
    expect(flaky!.sourceId).toBe('5d0c6a3e-1f2b-4c8e-9a41-0c1d2e3f4a01');
    expect(flaky!.createdAt.toISOString()).toBe('2025-03-04T09:15:02.118Z');
    expect(flaky!.messages.map((m) => [m.sequenceNumber, m.role, m.metadata.claudeMessageUuid])).toEqual([
      [0, 'user', '11111111-aaaa-4000-8000-000000000001'],
      [1, 'assistant', '11111111-aaaa-4000-8000-000000000002'],
      [2, 'user', '11111111-aaaa-4000-8000-000000000004'],
      [3, 'assistant', '11111111-aaaa-4000-8000-000000000005'],
    ]);
    expect(flaky!.branches).toHaveLength(1);
    expect(flaky!.branches[0]).toMatchObject({ name: 'branch 1', baseSequence: 0 });
    expect(flaky!.branches[0]!.suffix.map((m) => [m.sequenceNumber, m.content])).toEqual([
      [1, 'It looks like a timing problem: add a retry to the test.'],
    ]);
  });

  it("keeps attachments' extracted text in the message, thinking as thinking, tools as marked lines", () => {
    const [flaky] = parseClaudeExport(conversations());
    const [question, answer, followUp] = flaky!.messages;
    expect(question!.content).toBe(
      'My test passes locally but fails in CI about one run in ten. Here is the log.\n\n' +
        '[Attached file: ci-log.txt]\nFAIL test/orders.test.ts > ships the order\n' +
        "AssertionError: expected 'PENDING' to be 'SHIPPED'\n  at orders.test.ts:41:27",
    );
    expect(question!.metadata.attachments).toEqual([{ fileName: 'ci-log.txt', fileType: 'text/plain', fileSize: 214 }]);
    expect(answer!.thinking).toBe('The assertion reads the status before the worker finished: a race.');
    expect(answer!.content).toContain(
      '[Tool call: web_search] {"query":"vitest wait for async state instead of sleep"}',
    );
    expect(answer!.content).toContain('[Tool result: web_search]\nvi.waitFor retries a callback until it passes.');
    expect(answer!.content).toMatch(/Wait for the status with `vi.waitFor`/);
    expect(answer!.content).not.toContain('a race');
    // a file without extracted text is named, not silently dropped
    expect(followUp!.content).toMatch(/\[Attached file: screenshot\.png \(its content is not in the export\)\]$/);
    expect(flaky!.messages.every((m) => m.isContext && m.metadata.source === 'claude')).toBe(true);
  });

  it('without parent links the messages are one path in order; no name → a heuristic title', () => {
    const [, plain] = parseClaudeExport(conversations());
    expect(plain!.messages.map((m) => m.content)).toEqual(["Translate 'good morning' into Portuguese.", 'Bom dia.']);
    expect(plain!.branches).toEqual([]);
    expect(plain!.titleSource).toBe('HEURISTIC');
  });

  it('honours current_leaf_message_uuid; accepts one conversation object', () => {
    const conv = conversations()[0];
    const [onRetry] = parseClaudeExport({ ...conv, current_leaf_message_uuid: '11111111-aaaa-4000-8000-000000000003' });
    expect(onRetry!.messages.map((m) => m.content.slice(0, 20))).toEqual([
      'My test passes local',
      'It looks like a timi',
    ]);
    expect(onRetry!.branches[0]!.suffix).toHaveLength(3);
  });

  it('detects the format and rejects malformed input with a clear error', () => {
    expect(looksLikeClaudeExport(conversations())).toBe(true);
    expect(looksLikeClaudeExport([{ mapping: {} }])).toBe(false);
    expect(looksLikeClaudeExport([])).toBe(false);
    const conv = conversations()[0];
    expect(() => parseClaudeExport([{ ...conv, chat_messages: 'x' }])).toThrow(/Not a Claude conversations.json/);
    expect(() => parseClaudeExport([{ ...conv, uuid: undefined }])).toThrow(/0\.uuid/);
    const twice = structuredClone(conv);
    twice.chat_messages.push(twice.chat_messages[0]);
    expect(() => parseClaudeExport([twice])).toThrow(/appears twice/);
    const dangling = structuredClone(conv);
    dangling.chat_messages[1].parent_message_uuid = 'not-there';
    expect(() => parseClaudeExport([dangling])).toThrow(/not-there is referenced but missing/);
    const cyclic = structuredClone(conv);
    cyclic.chat_messages = cyclic.chat_messages.slice(0, 2);
    cyclic.chat_messages[0].parent_message_uuid = cyclic.chat_messages[1].uuid;
    expect(() => parseClaudeExport([cyclic])).toThrow(/cycle/);
    expect(() => parseClaudeExport([{ ...conv, current_leaf_message_uuid: 'nope' }])).toThrow(/nope is not one/);
  });
});
