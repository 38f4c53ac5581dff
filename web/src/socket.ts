/**
 * graphql-ws for subscriptions: one lazy socket that retries forever with
 * backoff, authenticated through `connectionParams.authorization`.
 */
import { createClient, type Client } from 'graphql-ws';
import { ApiError, keyListeners, operationPayload, storedKey } from './api.js';

let socket: Client | null = null;
const statusListeners = new Set<(status: 'connected' | 'reconnecting') => void>();

export function onSocketStatus(listener: (status: 'connected' | 'reconnecting') => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function socketClient(): Client {
  if (socket) return socket;
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
  const client = createClient({
    url,
    lazy: true,
    keepAlive: 10_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: (retries) =>
      new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** retries, 5_000) * (0.5 + Math.random()))),
    connectionParams: () => {
      const key = storedKey();
      return key ? { authorization: `Bearer ${key}` } : {};
    },
  });
  client.on('connected', () => statusListeners.forEach((l) => l('connected')));
  client.on('closed', () => {
    if (socket === client) statusListeners.forEach((l) => l('reconnecting'));
  });
  socket = client;
  return client;
}

keyListeners.add(resetSocket);

function resetSocket(): void {
  const old = socket;
  socket = null;
  void old?.dispose();
}

export interface Subscription {
  /** the variables object the client re-sends on every reconnect: mutate it to move `after` */
  variables: Record<string, unknown>;
  stop(): void;
}

/**
 * A subscription that survives dropped sockets. graphql-ws re-sends the same
 * payload object after reconnecting, so updating `variables.after` as events
 * arrive makes the retry resume right after the last event seen.
 */
export function subscribe<T>(
  query: string,
  variables: Record<string, unknown>,
  onData: (data: T) => void,
  onError: (error: ApiError) => void,
): Subscription {
  const payload = { ...operationPayload(query), variables };
  const dispose = socketClient().subscribe<T>(payload, {
    next: (result) => {
      if (result.errors?.length) {
        const first = result.errors[0] as { message: string; extensions?: { code?: string } };
        onError(new ApiError(first.message, first.extensions?.code));
      } else if (result.data) onData(result.data as T);
    },
    error: (error) => {
      const list = Array.isArray(error) ? (error as { message: string; extensions?: { code?: string } }[]) : null;
      onError(new ApiError(list?.[0]?.message ?? 'Subscription failed', list?.[0]?.extensions?.code));
    },
    complete: () => undefined,
  });
  return { variables: payload.variables, stop: dispose };
}
