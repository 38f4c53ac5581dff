/**
 * The process logger: one readable line per event on a terminal in
 * development (pino-pretty's formatter, in-process, no worker thread), JSON
 * otherwise (pipes, files, production), as LOG_FORMAT decides. Lines go
 * through a ResilientDestination (src/log-destination.ts): a destination that
 * cannot be written drops and counts lines instead of hanging or crashing the
 * server, and `log.lines_dropped` says how many once writes succeed again.
 */
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { ResilientDestination, type WriteSync } from './log-destination.js';
import { loggerOptions } from './logging.js';

export function wantsPretty(format: Config['logFormat'], isTTY: boolean, nodeEnv: string | undefined): boolean {
  if (format === 'pretty') return true;
  if (format === 'json') return false;
  return isTTY && nodeEnv !== 'production';
}

export interface LoggerTarget {
  /** where lines go: standard output unless a test passes a stream or another file descriptor */
  out?: NodeJS.WritableStream | number;
  /** the fs.writeSync used for a file descriptor (a test passes one that fails) */
  writeSync?: WriteSync;
}

/** pino-pretty is loaded only for a pretty log (JSON in production: idle memory, docs/performance.md). */
const prettyFactory = (): typeof import('pino-pretty').prettyFactory =>
  (createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')).prettyFactory;

export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  target: NodeJS.WritableStream | LoggerTarget = {},
): Logger {
  const { out = process.stdout, writeSync } = isStream(target) ? { out: target } : target;
  const options = loggerOptions(config.logLevel);
  const isTTY = typeof out === 'number' ? false : Boolean((out as NodeJS.WriteStream).isTTY);
  const format = wantsPretty(config.logFormat, isTTY, process.env.NODE_ENV)
    ? prettyFactory()({
        colorize: isTTY && !process.env.NO_COLOR,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      })
    : undefined;
  // Standard output is written by its file descriptor, synchronously (what pino's default destination does).
  const destination = new ResilientDestination({ target: out === process.stdout ? 1 : out, format, writeSync });
  const log = pino(options, destination);
  // After the write that succeeded has returned: the report is a line of its own.
  destination.onRecovered = (dropped) =>
    setImmediate(() => log.warn({ event: 'log.lines_dropped', count: dropped }, 'log.lines_dropped'));
  return log;
}

function isStream(value: NodeJS.WritableStream | LoggerTarget): value is NodeJS.WritableStream {
  return typeof (value as NodeJS.WritableStream).write === 'function';
}
