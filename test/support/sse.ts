/** A GraphQL SSE subscription over fetch (`sessionEvents` from the log's start), its raw events, and abort. */
const EVENTS = 'subscription($id: ID!) { sessionEvents(sessionId: $id, after: "0") { __typename } }';

export interface SseStream {
  status: number;
  /** the `data:` payloads received so far */
  events: string[];
  /** resolves once `predicate(events)` holds; rejects at the deadline or when the stream ends first */
  waitFor(predicate: (events: string[]) => boolean, timeoutMs?: number): Promise<void>;
  abort(): void;
}

export async function openSse(url: string, sessionId: string): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: EVENTS, variables: { id: sessionId } }),
    signal: controller.signal,
  });
  const events: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const notify = () => waiters.forEach((w) => w());
  if (response.status === 200 && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trim())
              .join('\n');
            if (data) events.push(data);
          }
          notify();
        }
      } catch {
        // aborted
      }
      ended = true;
      notify();
    })();
  } else {
    await response.text();
    ended = true;
  }
  return {
    status: response.status,
    events,
    waitFor: (predicate, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out; events ${JSON.stringify(events)}`)), timeoutMs);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (predicate(events)) finish();
          else if (ended) finish(new Error(`the stream ended; events ${JSON.stringify(events)}`));
        };
        waiters.add(check);
        check();
      }),
    abort: () => controller.abort(),
  };
}
