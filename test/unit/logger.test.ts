import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, wantsPretty } from '../../src/logger.js';

function capture(format: 'auto' | 'json' | 'pretty') {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString()));
  const log = createLogger({ logLevel: 'info', logFormat: format }, out);
  return { log, text: () => chunks.join('') };
}

describe('logger', () => {
  it('is readable on a terminal in development and JSON elsewhere', () => {
    expect(wantsPretty('auto', true, 'development')).toBe(true);
    expect(wantsPretty('auto', true, undefined)).toBe(true);
    expect(wantsPretty('auto', true, 'production')).toBe(false);
    expect(wantsPretty('auto', false, 'development')).toBe(false);
    expect(wantsPretty('json', true, 'development')).toBe(false);
    expect(wantsPretty('pretty', false, 'production')).toBe(true);
  });

  it('writes one readable line per event in pretty mode', () => {
    const { log, text } = capture('pretty');
    log.info({ sessionId: 's1' }, 'turn.started');
    const lines = text().trim().split('\n');
    expect(lines[0]).toMatch(/INFO.*turn\.started/);
    expect(() => JSON.parse(lines[0]!)).toThrow();
    expect(text()).toContain('sessionId: "s1"');
  });

  it('writes JSON lines when not on a terminal', async () => {
    const { log, text } = capture('auto');
    log.info({ sessionId: 's1' }, 'turn.started');
    await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(text().trim().split('\n')[0]!);
    expect(line).toMatchObject({ msg: 'turn.started', sessionId: 's1', level: 30 });
  });
});
