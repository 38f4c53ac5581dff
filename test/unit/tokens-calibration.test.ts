import { describe, expect, it } from 'vitest';
import {
  CalibrationRegistry,
  fitLine,
  isTruncatedReport,
  messageChars,
  MAX_OBSERVATIONS,
} from '../../src/domain/tokens.js';
import { imageTokensFromBase64 } from '../../src/domain/image-tokens.js';
import { buildPrompt, type PromptInput } from '../../src/domain/prompt.js';
import { assistant, call, result, user, x } from './compression-fixtures.js';

const M = 'qwen';

function calibrated(points: Array<[number, number]>, model = M): CalibrationRegistry {
  const reg = new CalibrationRegistry();
  for (const [c, t] of points) reg.recordObservation(model, c, t);
  return reg;
}

describe('calibration fit', () => {
  it('falls back to ceil(chars / 1.8) without observations', () => {
    const reg = new CalibrationRegistry();
    expect(reg.calibrationFor(M).estimate(1000)).toBe(Math.ceil(1000 / 1.8));
    expect(reg.calibrationFor(M).estimate(1)).toBe(1);
  });

  it('needs at least two observations', () => {
    const reg = calibrated([[1000, 600]]);
    expect(reg.calibrationFor(M).fit()).toBeNull();
    expect(reg.calibrationFor(M).estimate(1000)).toBe(556);
  });

  it('fits overhead + chars × slope by least squares', () => {
    const reg = calibrated([
      [1000, 600],
      [2000, 1100],
    ]);
    const fit = reg.calibrationFor(M).fit();
    expect(fit?.slope).toBeCloseTo(0.5);
    expect(fit?.overhead).toBeCloseTo(100);
    expect(reg.calibrationFor(M).estimate(3000)).toBe(1600);
  });

  it('least squares over noisy points', () => {
    const fit = fitLine([
      { chars: 1000, tokens: 610 },
      { chars: 2000, tokens: 1090 },
      { chars: 3000, tokens: 1600 },
    ]);
    expect(fit?.slope).toBeCloseTo(0.495, 3);
    expect(fit?.overhead).toBeCloseTo(1100 - 0.495 * 2000, 1);
  });

  it('rejects observations whose sizes differ by less than 1.25×', () => {
    expect(
      fitLine([
        { chars: 1000, tokens: 500 },
        { chars: 1240, tokens: 620 },
      ]),
    ).toBeNull();
    expect(
      fitLine([
        { chars: 1000, tokens: 500 },
        { chars: 1250, tokens: 625 },
      ]),
    ).not.toBeNull();
  });

  it('rejects slopes outside [1/4, 1] token per char', () => {
    expect(
      fitLine([
        { chars: 1000, tokens: 500 },
        { chars: 2000, tokens: 3000 },
      ]),
    ).toBeNull();
    expect(
      fitLine([
        { chars: 1000, tokens: 1000 },
        { chars: 2000, tokens: 1100 },
      ]),
    ).toBeNull();
    expect(
      fitLine([
        { chars: 1000, tokens: 1000 },
        { chars: 2000, tokens: 2000 },
      ])?.slope,
    ).toBeCloseTo(1);
    expect(
      fitLine([
        { chars: 1000, tokens: 250 },
        { chars: 2000, tokens: 500 },
      ])?.slope,
    ).toBeCloseTo(0.25);
  });

  it('keeps only the last 8 observations', () => {
    const reg = calibrated([[1000, 5000]]);
    for (let i = 1; i <= MAX_OBSERVATIONS; i++) reg.recordObservation(M, 1000 * i, 100 + 500 * i);
    const cal = reg.calibrationFor(M);
    expect(cal.observations).toHaveLength(MAX_OBSERVATIONS);
    expect(cal.fit()?.slope).toBeCloseTo(0.5);
    expect(cal.fit()?.overhead).toBeCloseTo(100);
  });

  it('does not feed prompts that carried images to the fit', () => {
    const reg = calibrated([[1000, 600]]);
    expect(reg.recordObservation(M, 2000, 5000, { hadImages: true })).toBe('skipped_images');
    expect(reg.calibrationFor(M).observations).toHaveLength(1);
    expect(reg.recordObservation(M, 2000, 1100, { hadImages: false })).toBe('recorded');
    expect(reg.calibrationFor(M).observations).toHaveLength(2);
  });

  it('does not record a truncated report (reported < 70% of what was sent)', () => {
    const reg = new CalibrationRegistry();
    expect(reg.recordObservation(M, 10_000, 2000, { sentEstimate: 5000 })).toBe('truncated');
    expect(reg.calibrationFor(M).observations).toHaveLength(0);
    expect(reg.recordObservation(M, 10_000, 3500, { sentEstimate: 5000 })).toBe('recorded');
  });

  it('ignores empty observations', () => {
    const reg = new CalibrationRegistry();
    expect(reg.recordObservation(M, 0, 100)).toBe('invalid');
    expect(reg.recordObservation(M, 100, 0)).toBe('invalid');
    expect(reg.calibrationFor(M).observations).toHaveLength(0);
  });

  it('calibrates per model', () => {
    const reg = calibrated([
      [1000, 600],
      [2000, 1100],
    ]);
    expect(reg.calibrationFor('other').estimate(3000)).toBe(Math.ceil(3000 / 1.8));
  });

  it('registries are isolated; the one that recorded serves its observations', () => {
    const model = `default-${Math.random()}`;
    const registry = new CalibrationRegistry();
    registry.recordObservation(model, 1000, 600);
    registry.recordObservation(model, 2000, 1100);
    expect(registry.calibrationFor(model).fit()).not.toBeNull();
    expect(new CalibrationRegistry().calibrationFor(model).fit()).toBeNull();
    registry.reset(model);
    expect(registry.calibrationFor(model).observations).toHaveLength(0);
  });
});

describe('isTruncatedReport', () => {
  it('is below 70% of the sent estimate', () => {
    expect(isTruncatedReport(69, 100)).toBe(true);
    expect(isTruncatedReport(70, 100)).toBe(false);
    expect(isTruncatedReport(120, 100)).toBe(false);
  });
});

describe('messageChars', () => {
  it('counts content, thinking, tool call names and JSON args', () => {
    const m = call('c1', 'grep', { q: 'abc' }, { content: 'hello', thinking: 'hmm' });
    expect(messageChars(m)).toBe(5 + 3 + 4 + JSON.stringify({ q: 'abc' }).length);
    expect(messageChars(user('abc'))).toBe(3);
  });
});

/** The production estimate of the next prompt (buildPrompt): the last real count + the calibrated delta since. */
describe('buildPrompt: real baseline + calibrated delta', () => {
  const reg = () => new CalibrationRegistry();
  const prompt = (over: Partial<PromptInput> & Pick<PromptInput, 'context'>) =>
    buildPrompt({
      model: M,
      vision: true,
      window: 100_000,
      messageTokenBudget: 0,
      fallbackImageTokens: 1024,
      registry: reg(),
      systemPrompt: '',
      images: new Map(),
      ...over,
    });
  const estimate = (over: Partial<PromptInput> & Pick<PromptInput, 'context'>) => prompt(over).estimate;
  const image = (path: string, tokens: number) => [path, { path, bytes: 100, tokens, b64: 'B64' }] as const;

  it('falls back to a full estimate of the view without a baseline', () => {
    expect(estimate({ baseline: null, context: [user(x(180)), assistant(x(180))] })).toBe(200);
  });

  it('adds the calibrated delta of messages appended since messageCount', () => {
    const context = [user(x(5000)), assistant(x(5000)), user(x(180))];
    expect(estimate({ baseline: { promptTokens: 4000, messageCount: 2 }, context })).toBe(4000 + 100);
  });

  it('locates the delta by lastSequence', () => {
    const a = user(x(5000));
    const b = assistant(x(360));
    expect(estimate({ baseline: { promptTokens: 3000, lastSequence: a.sequenceNumber }, context: [a, b] })).toBe(
      3000 + 200,
    );
  });

  it('prices the delta on the view (after truncation), not raw bytes', () => {
    // window 6000 → 1000 tokens per message → at most 1800 chars sent
    const context = [user('hi'), user(x(1_000_000))];
    const est = estimate({ window: 6000, baseline: { promptTokens: 50, messageCount: 1 }, context });
    expect(est).toBeLessThanOrEqual(50 + 1000);
    expect(est).toBeGreaterThan(50 + 900);
  });

  it('takes the delta from the tail, after the system prompt in front', () => {
    const context = [user(x(100)), user(x(180))];
    expect(estimate({ systemPrompt: x(5000), baseline: { promptTokens: 3000, messageCount: 1 }, context })).toBe(3100);
  });

  it('uses the calibrated slope for the delta', () => {
    const registry = calibrated([
      [1000, 600],
      [2000, 1100],
    ]);
    expect(
      estimate({ registry, baseline: { promptTokens: 600, messageCount: 1 }, context: [user(x(1000)), user(x(400))] }),
    ).toBe(800);
  });

  it('adds the price of each sent image to a full estimate', () => {
    const images = new Map([image('a.png', 1026), image('b.png', 256)]);
    const context = [user(x(180), { images: ['a.png', 'b.png'] })];
    expect(estimate({ images, baseline: null, context })).toBe(100 + 1026 + 256);
  });

  it('prices inline base64 tool-result images too', () => {
    const p = prompt({
      baseline: null,
      context: [result('c', x(180), { metadata: { is_image: true, base64: 'AAAA' } })],
    });
    expect(p.messages.flatMap((m) => m.images.map((i) => i.tokens))).toEqual([imageTokensFromBase64('AAAA', 1024)]);
    expect(p.estimate).toBe(Math.ceil(p.chars / 1.8) + imageTokensFromBase64('AAAA', 1024));
  });

  it('uses the calibrated line for a full estimate when one is usable', () => {
    const registry = calibrated([
      [1000, 600],
      [2000, 1100],
    ]);
    expect(estimate({ registry, baseline: null, context: [user(x(1000))] })).toBe(600);
  });

  it('the calibrated delta carries no overhead, and nothing appended adds nothing', () => {
    const registry = calibrated([
      [1000, 600],
      [2000, 1100],
    ]);
    const counted = user(x(1000));
    expect(
      estimate({ registry, baseline: { promptTokens: 600, messageCount: 1 }, context: [counted, user(x(200))] }),
    ).toBe(700);
    expect(estimate({ registry, baseline: { promptTokens: 600, messageCount: 1 }, context: [counted] })).toBe(600);
  });

  it('ignores a stale baseline from a longer (since compressed) context', () => {
    expect(estimate({ baseline: { promptTokens: 90_000, messageCount: 40 }, context: [user(x(180))] })).toBe(100);
  });

  it('includes images of appended messages', () => {
    const images = new Map([image('i.png', 1026)]);
    const context = [user('a'), user(x(180), { images: ['i.png'] })];
    expect(estimate({ images, baseline: { promptTokens: 10, messageCount: 1 }, context })).toBe(10 + 100 + 1026);
  });
});
