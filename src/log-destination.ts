/**
 * Where log lines go, built so that logging never hangs or kills the server: a destination that cannot be written
 * (a full disk under a redirected stdout: ENOSPC/EDQUOT; a closed pipe: EPIPE; any other write error) drops the
 * line and counts it; a pipe that is momentarily full (EAGAIN) holds a bounded backlog and retries it on a timer
 * instead of blocking the event loop. Once a write succeeds again the count is handed to `onRecovered` (the logger
 * then writes `log.lines_dropped` with it). Writes are synchronous (`fs.writeSync` on the file descriptor), as
 * pino's default destination is, so a line is out before the process can exit; nothing here emits 'error'.
 */
import { writeSync as fsWriteSync } from 'node:fs';

export type WriteSync = (fd: number, data: Uint8Array) => number;

export interface ResilientDestinationOptions {
  /** a file descriptor (1 = standard output) or a stream (tests) */
  target: number | NodeJS.WritableStream;
  /** turns pino's JSON line into what is written (pino-pretty's formatter on a terminal) */
  format?: (line: string) => string;
  /** the fs.writeSync to use (a test passes one that fails) */
  writeSync?: WriteSync;
  /** told how many lines were dropped, once a write succeeds again */
  onRecovered?: (dropped: number) => void;
  /** longest backlog held while the destination answers EAGAIN (bytes) */
  maxBacklogBytes?: number;
  retryMs?: number;
}

const errnoOf = (error: unknown) => (error as { code?: string } | null)?.code;
const restOf = (error: unknown) => (error as { rest?: Buffer } | null)?.rest;

export class ResilientDestination {
  /** lines dropped since the process started */
  droppedTotal = 0;
  /** dropped and not yet reported */
  private unreported = 0;
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  onRecovered: ((dropped: number) => void) | undefined;
  private readonly sink: (data: Buffer) => void;
  private readonly maxBacklog: number;
  private readonly retryMs: number;

  constructor(private readonly options: ResilientDestinationOptions) {
    this.onRecovered = options.onRecovered;
    this.maxBacklog = options.maxBacklogBytes ?? 1024 * 1024;
    this.retryMs = options.retryMs ?? 50;
    const { target } = options;
    if (typeof target === 'number') {
      const writeSync = options.writeSync ?? fsWriteSync;
      this.sink = (data) => {
        let offset = 0;
        try {
          while (offset < data.length) offset += writeSync(target, data.subarray(offset));
        } catch (error) {
          // What is left of a line cut by EAGAIN is what the backlog keeps (no byte twice).
          if (offset > 0 && error instanceof Error) Object.assign(error, { rest: data.subarray(offset) });
          throw error;
        }
      };
    } else {
      // A stream reports a failed write later, as an 'error' event: counted, never thrown.
      target.on('error', () => this.drop(1));
      this.sink = (data) => void target.write(data);
    }
  }

  /** pino's DestinationStream: one line (with its newline) per call. */
  write(line: string): void {
    let data: Buffer;
    try {
      data = Buffer.from(this.options.format ? this.options.format(line) : line);
    } catch {
      this.drop(1);
      return;
    }
    if (this.backlog.length > 0) {
      this.hold(data);
      this.flush();
      return;
    }
    try {
      this.sink(data);
    } catch (error) {
      if (errnoOf(error) === 'EAGAIN') this.hold(restOf(error) ?? data);
      else this.drop(1);
      return;
    }
    this.succeeded();
  }

  private hold(data: Buffer) {
    if (this.backlogBytes + data.length > this.maxBacklog) {
      this.drop(1);
    } else {
      this.backlog.push(data);
      this.backlogBytes += data.length;
    }
    this.schedule();
  }

  private schedule() {
    if (this.timer || this.backlog.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.retryMs);
    this.timer.unref();
  }

  private flush() {
    while (this.backlog.length > 0) {
      const next = this.backlog[0]!;
      try {
        this.sink(next);
      } catch (error) {
        if (errnoOf(error) === 'EAGAIN') {
          const rest = restOf(error);
          if (rest) {
            this.backlog[0] = rest;
            this.backlogBytes -= next.length - rest.length;
          }
          this.schedule();
          return;
        }
        this.drop(this.backlog.length);
        this.backlog = [];
        this.backlogBytes = 0;
        return;
      }
      this.backlog.shift();
      this.backlogBytes -= next.length;
    }
    this.succeeded();
  }

  private drop(lines: number) {
    this.droppedTotal += lines;
    this.unreported += lines;
  }

  private succeeded() {
    if (this.unreported === 0) return;
    const dropped = this.unreported;
    this.unreported = 0;
    this.onRecovered?.(dropped);
  }
}
