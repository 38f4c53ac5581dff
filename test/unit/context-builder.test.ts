import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/domain/types.js';
import { modelView, withTurnContext } from '../../src/domain/prompt.js';
import { toLlmMessages } from '../../src/turns/context.js';

describe('context builder', () => {
  const call = makeMessage({
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'image_view', arguments: {} },
      { id: 'c2', name: 'x', arguments: {} },
    ],
  });
  const imageResult = makeMessage({
    role: 'tool',
    content: 'opened',
    toolCallId: 'c1',
    metadata: { is_image: true, base64: 'QUJD', path: 'session_files/s/image_1.png' },
  });
  const other = makeMessage({ role: 'tool', content: 'done', toolCallId: 'c2' });

  it('sends tool-result images to vision models in one user message after the tool results', () => {
    const out = toLlmMessages({ systemPrompt: 'sys', view: [call, imageResult, other], vision: true });
    expect(out.map((m) => m.role)).toEqual(['system', 'assistant', 'tool', 'tool', 'user']);
    expect(out.at(-1)).toMatchObject({
      images: ['QUJD'],
      content: expect.stringContaining('session_files/s/image_1.png'),
    });
    expect(toLlmMessages({ systemPrompt: '', view: [call, imageResult, other] }).some((m) => m.images)).toBe(false);
  });

  it('passes stored system records only through the allowlist and appends notices in the view', () => {
    const view = modelView([
      makeMessage({ role: 'system', content: 'a', metadata: { source: 'task_note' } }),
      makeMessage({ role: 'system', content: 'b', metadata: { source: 'audit' } }),
      makeMessage({ role: 'system', content: 'c', isCompression: true, metadata: { source: 'task_note' } }),
      makeMessage({ role: 'user', content: 'hi', metadata: { contextNotice: '[Uploaded files on disk:\n- a → b]' } }),
    ]);
    expect(view.map((m) => m.content)).toEqual(['a', 'hi\n\n[Uploaded files on disk:\n- a → b]']);
  });

  it('appends turn context to the latest user message without touching the stored copy', () => {
    const stored = [
      makeMessage({ role: 'user', content: 'q1' }),
      makeMessage({ role: 'assistant', content: 'a1' }),
      makeMessage({ role: 'user', content: 'q2' }),
    ];
    const view = withTurnContext(stored, '<recall>x</recall>');
    expect(view.map((m) => m.content)).toEqual(['q1', 'a1', 'q2\n\n<recall>x</recall>']);
    expect(stored[2]!.content).toBe('q2');
  });
});
