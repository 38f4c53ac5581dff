/**
 * A log destination that cannot be written (ENOSPC, EPIPE, EAGAIN) never throws, hangs or emits an unhandled
 * 'error': lines are dropped and counted, held briefly on EAGAIN, and `log.lines_dropped` reports the count once a
 * write succeeds again.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ResilientDestination } from '../../src/log-destination.js';
import { createLogger } from '../../src/logger.js';

/** A file descriptor whose writes fail with `failing` while `broken` is set. */
function fakeFd(failing: string) {
  const written: string[] = [];
  const fd = {
    broken: false,
    calls: 0,
    written,
    writeSync: (_fd: number, data: Uint8Array) => {
      fd.calls++;
      if (fd.broken) throw Object.assign(new Error(`${failing}: write failed`), { code: failing });
      written.push(Buffer.from(data).toString());
      return data.length;
    },
  };
  return fd;
}

const lines = (written: string[]) =>
  written
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; count?: number; n?: number });

/** The logger retries on its own timer: wait for the state it reaches, with a deadline. */
const until = (check: () => boolean, what: string) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: 10_000, interval: 5 },
  );

describe('logger on a destination that cannot be written', () => {
  for (const failing of ['ENOSPC', 'EPIPE']) {
    it(`drops and counts lines on ${failing}, then reports log.lines_dropped once writes succeed`, async () => {
      const fd = fakeFd(failing);
      const log = createLogger({ logLevel: 'info', logFormat: 'json' }, { out: 9, writeSync: fd.writeSync });
      log.info({ n: 1 }, 'before');
      fd.broken = true;
      for (let n = 2; n <= 4; n++) expect(() => log.info({ n }, 'while full')).not.toThrow();
      fd.broken = false;
      log.info({ n: 5 }, 'after');
      await until(() => lines(fd.written).some((l) => l.msg === 'log.lines_dropped'), 'log.lines_dropped');
      const seen = lines(fd.written);
      expect(seen.map((l) => l.msg)).toEqual(['before', 'after', 'log.lines_dropped']);
      expect(seen[2]).toMatchObject({ count: 3 });
      log.info({ n: 6 }, 'later');
      expect(lines(fd.written).filter((l) => l.msg === 'log.lines_dropped')).toHaveLength(1);
    });
  }

  it('holds lines on EAGAIN and writes them, in order, once the pipe drains', async () => {
    const fd = fakeFd('EAGAIN');
    const log = createLogger({ logLevel: 'info', logFormat: 'json' }, { out: 9, writeSync: fd.writeSync });
    fd.broken = true;
    log.info({ n: 1 }, 'held');
    log.info({ n: 2 }, 'held');
    const callsWhileBroken = fd.calls;
    await until(() => fd.calls > callsWhileBroken, 'a retry');
    fd.broken = false;
    await until(() => fd.written.length === 2, 'the backlog');
    expect(lines(fd.written).map((l) => l.n)).toEqual([1, 2]);
  });

  it('drops what does not fit the EAGAIN backlog and counts it', () => {
    const fd = fakeFd('EAGAIN');
    fd.broken = true;
    const destination = new ResilientDestination({ target: 9, writeSync: fd.writeSync, maxBacklogBytes: 10 });
    destination.write('0123456789\n');
    destination.write('more\n');
    expect(destination.droppedTotal).toBe(1);
  });

  it('counts a stream that reports a failed write as an error event instead of crashing', () => {
    const out = new PassThrough();
    const destination = new ResilientDestination({ target: out });
    out.emit('error', Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
    expect(destination.droppedTotal).toBe(1);
  });

  it('keeps pretty lines on a terminal (the formatter runs before the write)', () => {
    const fd = fakeFd('ENOSPC');
    const log = createLogger({ logLevel: 'info', logFormat: 'pretty' }, { out: 9, writeSync: fd.writeSync });
    log.info({ sessionId: 's1' }, 'turn.started');
    expect(fd.written.join('')).toMatch(/INFO.*turn\.started/);
    expect(fd.written.join('')).toContain('sessionId: "s1"');
  });
});
