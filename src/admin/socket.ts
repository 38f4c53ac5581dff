/**
 * The running server's admin socket: a unix socket DATA_DIR/admin.sock (mode
 * 0600, so only the user owning the data directory can connect) through which
 * `npm run admin` manages users and keys while the server holds the embedded
 * database. Opening the database a second time would corrupt it (see
 * src/db/datadir-lock.ts). One JSON line in, one JSON line out.
 */
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Auth } from '../auth/auth.js';
import { ADMIN_SOCKET } from '../db/datadir-lock.js';
import { AdminCommandError, parseAdminRequest, runAdminCommand, type AdminRequest } from './commands.js';

const MAX_REQUEST_BYTES = 64 * 1024;

export function adminSocketPath(dataDir: string): string {
  return resolve(join(dataDir, ADMIN_SOCKET));
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/** Listens on DATA_DIR/admin.sock. Call only while holding the data directory lock. */
export async function startAdminSocket(deps: {
  dataDir: string;
  auth: Auth;
  log: Logger;
}): Promise<AdminSocket | null> {
  if (deps.dataDir.startsWith('memory://')) return null;
  const path = adminSocketPath(deps.dataDir);
  // sun_path holds 107 bytes; a longer DATA_DIR gets no socket (the CLI then says to stop the server).
  if (Buffer.byteLength(path) > 100) {
    deps.log.warn({ path }, 'admin socket path too long; admin CLI needs the server stopped');
    return null;
  }
  try {
    unlinkSync(path); // a previous process's (we hold the lock, so nobody listens on it)
  } catch {
    // none
  }
  const server: Server = createServer((socket) => {
    let buffered = '';
    let done = false;
    socket.setEncoding('utf8');
    const answer = (body: unknown) => {
      done = true;
      socket.end(`${JSON.stringify(body)}\n`);
    };
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      if (done) return;
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) return answer({ error: 'request too large' });
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      let request: AdminRequest;
      try {
        request = parseAdminRequest(JSON.parse(buffered.slice(0, nl)));
      } catch (error) {
        return answer({ error: error instanceof AdminCommandError ? error.message : 'bad request' });
      }
      done = true;
      runAdminCommand(deps.auth.keys, request).then(
        (lines) => {
          const subject = 'name' in request ? request.name : 'key' in request ? request.key : undefined;
          deps.log.info({ command: request.command, subject }, 'admin.command');
          socket.end(`${JSON.stringify({ lines })}\n`);
        },
        (error: Error) => {
          deps.log.warn({ err: error, command: request.command }, 'admin.command_failed');
          socket.end(
            `${JSON.stringify({ error: error instanceof AdminCommandError ? error.message : 'command failed' })}\n`,
          );
        },
      );
    });
  });
  // The socket is bound inside listen(), synchronously: the process-wide umask is narrowed for that
  // call only, never across an await (files and directories made meanwhile keep their modes).
  const umask = process.umask(0o177);
  let listening: Promise<void>;
  try {
    listening = new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        ok();
      });
    });
  } finally {
    process.umask(umask);
  }
  await listening;
  chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }),
  };
}

/** Sends one request to a running server's admin socket; resolves with its lines or rejects with its error. */
export function sendAdminRequest(path: string, request: AdminRequest, timeoutMs = 30_000): Promise<string[]> {
  return new Promise((ok, fail) => {
    const socket = createConnection(path);
    let buffered = '';
    const timer = setTimeout(() => socket.destroy(new Error('the server did not answer')), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        const body = JSON.parse(buffered) as { lines?: string[]; error?: string };
        if (body.error) fail(new AdminCommandError(body.error));
        else ok(body.lines ?? []);
      } catch {
        fail(new Error('the server sent no answer'));
      }
    });
  });
}
