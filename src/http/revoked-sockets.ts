/**
 * A revoked key or a disabled user also loses the graphql-ws sockets it opened: on every credential change the
 * credentials each open socket connected with are checked again, and a socket whose are now refused is closed
 * (4403 Forbidden; graphql-ws clients do not retry it). New requests are refused by the per-request check itself.
 */
import type { WebSocket, WebSocketServer } from 'ws';
import type { Auth } from '../auth/auth.js';
import { Unauthenticated } from '../store/errors.js';

export function closeRevokedSockets(options: {
  wss: WebSocketServer;
  auth: Auth;
  /** the Authorization the socket connected with (connectionParams), or null */
  authorizationOf(socket: WebSocket): string | null;
}): () => void {
  const { wss, auth } = options;
  let checking: Promise<void> | null = null;
  let again = false;
  const check = async () => {
    for (const socket of wss.clients) {
      const authorization = options.authorizationOf(socket);
      if (!authorization) continue;
      try {
        await auth.viewerFor(authorization);
      } catch (error) {
        if (error instanceof Unauthenticated) socket.close(4403, 'Forbidden: credentials revoked');
      }
    }
  };
  const run = () => {
    if (checking) {
      again = true;
      return;
    }
    checking = check()
      .catch(() => undefined)
      .finally(() => {
        checking = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return auth.changes.onChange(run);
}
