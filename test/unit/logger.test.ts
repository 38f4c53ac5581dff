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

  it('blanks share tokens and keys in headers, whoever logs them', async () => {
    const { log, text } = capture('json');
    log.info({ headers: { 'x-share-token': 'share-secret-1', authorization: 'Bearer key-secret-2' } }, 'request');
    log.info({ req: { headers: { 'x-share-token': 'share-secret-3', 'x-api-key': 'key-secret-4' } } }, 'request');
    await new Promise((resolve) => setImmediate(resolve));
    for (const secret of ['share-secret-1', 'key-secret-2', 'share-secret-3', 'key-secret-4'])
      expect(text()).not.toContain(secret);
    expect(text()).toContain('[redacted]');
  });
});
