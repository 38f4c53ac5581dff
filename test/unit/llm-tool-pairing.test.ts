import { describe, expect, it } from 'vitest';
import { buildBody } from '../../src/llm/anthropic.js';
import { MISSING_TOOL_RESULT, pairToolCalls } from '../../src/llm/pairing.js';
import type { LlmMessage } from '../../src/llm/types.js';
import { openToolCalls } from '../../src/turns/tool-pairing.js';
import { anthropicPairingError, openaiPairingError } from '../support/fake-provider.js';

const call = (id: string) => ({ id, name: 'f', arguments: {} });
const asOpenAI = (messages: LlmMessage[]) => ({
  messages: messages.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
      : {
          role: m.role,
          content: m.content,
          ...(m.toolCalls?.length && { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' })) }),
        },
  ),
});

describe('tool-call pairing in every request', () => {
  const broken: LlmMessage[] = [
    { role: 'tool', toolCallId: 'gone', name: 'f', content: 'ORPHAN' },
    { role: 'user', content: 'q' },
    { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
    { role: 'system', content: 'note while the tool ran' },
    { role: 'tool', toolCallId: 'b', content: 'B' },
    { role: 'user', content: 'next' },
  ];

  it('the fake refuses the unpaired history as OpenAI and Anthropic do', () => {
    expect(openaiPairingError(asOpenAI(broken))?.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining("role 'tool' must be a response"),
    });
    expect(openaiPairingError(asOpenAI(broken.slice(1)))?.error.message).toMatch(
      /did not have response messages: a, b/,
    );
    const raw = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
      ],
    };
    expect(anthropicPairingError(raw)?.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('without `tool_result` blocks immediately after: a'),
    });
    const orphan = { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'z', content: 'r' }] }] };
    expect(anthropicPairingError(orphan)?.error.message).toMatch(/unexpected `tool_use_id`/);
  });

  it('repairs it: results moved next to their call, a synthetic result for a missing one, an orphan as a note', () => {
    const paired = pairToolCalls(broken);
    expect(paired.map((m) => [m.role, m.toolCallId ?? null, m.content.slice(0, 40)])).toEqual([
      ['user', null, expect.stringContaining('[Result of an earlier tool call (f)')],
      ['user', null, 'q'],
      ['assistant', null, ''],
      ['tool', 'b', 'B'],
      ['tool', 'a', MISSING_TOOL_RESULT.slice(0, 40)],
      ['system', null, 'note while the tool ran'],
      ['user', null, 'next'],
    ]);
    expect(paired[0]!.content).toContain('ORPHAN');
    expect(openaiPairingError(asOpenAI(paired))).toBeNull();
    expect(anthropicPairingError(buildBody({ model: 'm', messages: broken }))).toBeNull();
  });

  it(
    'leaves a well-formed history as it is, ids repeated ' +
      'across answers included (Ollama numbers calls per answer)',
    () => {
      const good: LlmMessage[] = [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', toolCalls: [call('call_0')] },
        { role: 'tool', toolCallId: 'call_0', content: 'one' },
        { role: 'assistant', content: '', toolCalls: [call('call_0')] },
        { role: 'tool', toolCallId: 'call_0', content: 'two' },
        { role: 'assistant', content: 'done' },
      ];
      expect(pairToolCalls(good)).toEqual(good);
    },
  );

  it('finds the calls a turn left open on its last answer', () => {
    const rows = [
      { role: 'assistant' as const, toolCalls: [call('x')], toolCallId: null },
      { role: 'tool' as const, toolCalls: [], toolCallId: 'x' },
      { role: 'assistant' as const, toolCalls: [call('y'), call('z')], toolCallId: null },
      { role: 'tool' as const, toolCalls: [], toolCallId: 'z' },
    ];
    expect(openToolCalls(rows).map((c) => c.id)).toEqual(['y']);
    expect(openToolCalls(rows.slice(0, 2))).toEqual([]);
  });
});
