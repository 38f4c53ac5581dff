import { describe, expect, it } from 'vitest';
import { buildPrompt, imagePathsToSend, type PromptImage, type PromptInput } from '../../src/domain/prompt.js';
import { CalibrationRegistry } from '../../src/domain/tokens.js';
import { makeMessage } from '../../src/domain/types.js';
import { admitImages, imageBudget, imageNotice } from '../../src/files/notices.js';

const img = (path: string, tokens: number): PromptImage => ({ path, bytes: 100, tokens, b64: `B64:${path}` });

function input(over: Partial<PromptInput> = {}): PromptInput {
  return {
    model: 'm',
    vision: true,
    window: 8192,
    messageTokenBudget: 0,
    fallbackImageTokens: 1024,
    registry: new CalibrationRegistry(),
    context: [],
    systemPrompt: 'SYS',
    images: new Map(),
    ...over,
  };
}

describe('buildPrompt', () => {
  const user = makeMessage({
    sequenceNumber: 0,
    role: 'user',
    content: 'look',
    images: ['p/1.png', 'p/2.png'],
    metadata: { contextNotice: '[notice]', imagesInContext: ['p/1.png'] },
  });
  const call = makeMessage({
    sequenceNumber: 1,
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'dump', arguments: {} }],
  });
  const result = makeMessage({
    sequenceNumber: 2,
    role: 'tool',
    content: 'x'.repeat(60_000),
    toolCallId: 'c1',
    name: 'dump',
  });
  const images = new Map([
    ['p/1.png', img('p/1.png', 1026)],
    ['p/2.png', img('p/2.png', 1026)],
  ]);

  it('sends the system prompt, notices, cut tool results and only the admitted images', () => {
    const p = buildPrompt(input({ context: [user, call, result], images }));
    expect(p.messages.map((m) => [m.role, m.sequenceNumber])).toEqual([
      ['system', -1],
      ['user', 0],
      ['assistant', 1],
      ['tool', 2],
    ]);
    expect(p.messages[1]!.content).toBe('look\n\n[notice]');
    expect(p.messages[1]!.images.map((i) => i.path)).toEqual(['p/1.png']);
    // window 8192 → 1365 tokens per message → 2457 chars (uncalibrated 1.8 chars/token)
    expect(p.messages[3]!.content.length).toBeLessThanOrEqual(2457);
    expect(p.messages[3]!.content).toContain('chars truncated');
    expect(p.estimate).toBe(Math.ceil(p.chars / 1.8) + 1026);
    expect(imagePathsToSend([user], true)).toEqual(['p/1.png']);
  });

  it('a non-vision profile sends and counts no image, stored or from image_view', () => {
    const viewed = makeMessage({
      sequenceNumber: 3,
      role: 'tool',
      content: 'Loaded',
      toolCallId: 'c2',
      metadata: { is_image: true, base64: 'AAAA', path: 'p/3.png' },
    });
    const blind = buildPrompt(input({ vision: false, context: [user, viewed], images }));
    expect(blind.messages.flatMap((m) => m.images)).toEqual([]);
    expect(blind.estimate).toBe(Math.ceil(blind.chars / 1.8));
    expect(imagePathsToSend([user], false)).toEqual([]);
    const seeing = buildPrompt(input({ context: [user, viewed], images }));
    expect(seeing.messages.at(-1)).toMatchObject({
      role: 'user',
      sequenceNumber: 3,
      content: '[Images opened with image_view: p/3.png]',
    });
  });

  it('with a baseline: the real count + the calibrated delta of the rows saved after it', () => {
    const answer = makeMessage({ sequenceNumber: 3, role: 'assistant', content: 'a'.repeat(900) });
    const p = buildPrompt(
      input({ context: [user, call, answer], images, baseline: { promptTokens: 500, lastSequence: 1 } }),
    );
    expect(p.estimate).toBe(500 + Math.ceil(900 / 1.8));
    expect(
      buildPrompt(input({ context: [user, call], images, baseline: { promptTokens: 500, lastSequence: 1 } })).estimate,
    ).toBe(500);
  });
});

describe('pasted images against the size guard', () => {
  it('the budget is capped by the guard limit, and the notice is charged', () => {
    expect(imageBudget(8192, 3000)).toBe(3553);
    expect(imageBudget(8192, 3000, 6144)).toBe(3144);
    const shots = [1, 2, 3].map((n) => ({ relPath: `s/${n}.png`, tokens: 1026 }));
    // 3,100 + 3 × 1,026 = 6,178: under 0.8 × 8,192 = 6,553 but over the guard's 6,144
    const admitted = admitImages(shots, { window: 8192, limit: 6144, baseTokens: 3100, noticeTokens: () => 0 });
    expect(admitted.inContext).toHaveLength(2);
    // a notice that costs as much as the room left pushes the second one out
    const costly = admitImages(shots, {
      window: 8192,
      limit: 6144,
      baseTokens: 3100,
      noticeTokens: (inContext) => (inContext.length === 2 ? 1000 : 10),
    });
    expect(costly.inContext.map((i) => i.relPath)).toEqual(['s/1.png']);
    expect(
      imageNotice(
        costly.inContext.map((i) => i.relPath),
        costly.notLoaded.map((i) => i.relPath),
      ),
    ).toContain('1 are in your context');
  });
});
