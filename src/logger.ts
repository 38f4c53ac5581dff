/**
 * The process logger: one readable line per event on a terminal in
 * development (pino-pretty, in-process, no worker thread), JSON otherwise
 * (pipes, files, production), as LOG_FORMAT decides.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';
import { loggerOptions } from './logging.js';

export function wantsPretty(format: Config['logFormat'], isTTY: boolean, nodeEnv: string | undefined): boolean {
  if (format === 'pretty') return true;
  if (format === 'json') return false;
  return isTTY && nodeEnv !== 'production';
}

/** `out` is where lines go (standard output unless a test passes a stream). */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  const options = loggerOptions(config.logLevel);
  const isTTY = Boolean((out as NodeJS.WriteStream).isTTY);
  if (!wantsPretty(config.logFormat, isTTY, process.env.NODE_ENV))
    return pino(options, out === process.stdout ? undefined : out);
  const colorize = isTTY && !process.env.NO_COLOR;
  return pino(
    options,
    pretty({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true, destination: out }),
  );
}
