/**
 * Issue 34 item 6: server CPU per streamed token of POST /api/chat and POST /ag-ui against the graphql-ws path
 * (sendMessage + a sessionEvents subscription). The server runs in a child process (`--server`): its CPU
 * (process.cpuUsage, asked over IPC before and after each round) holds neither the fake provider nor the clients,
 * which live in this process. The same fake Ollama stream (BENCH_CHUNKS chunks of one token) feeds every path; each
 * round runs BENCH_TURNS turns at once on fresh sessions, one client each, and the paths take turns (interleaved,
 * the order rotating). Every path must count the same tokens (turns × chunks) or the run fails. Run with
 *   npm run bench:protocols   (DATABASE_URL for PostgreSQL; default embedded PGlite in memory)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function serve() {
  const { createApp } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { startServer } = await import('../src/server.js');
  const { appRoutes } = await import('../src/routes.js');
  const config = loadConfig(
    {},
    {
      databaseUrl: process.env.DATABASE_URL,
      dataDir: 'memory://',
      logLevel: 'silent',
      port: 0,
      ollamaHost: process.env.BENCH_OLLAMA!,
      titleGenerationEnabled: false,
      contextCompressionEnabled: false,
      maxSubscriptionsPerUser: 100_000,
    },
  );
  const app = await createApp(config);
  const server = await startServer(app, { routes: appRoutes(app) });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'cpu') process.send!({ type: 'cpu', usage: process.cpuUsage() });
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', url: server.url, db: app.db.kind });
}

/** The fake Ollama: CHUNKS chunks of one word each, CHUNK_MS apart, the same stream for every path. */
async function fakeOllama() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (let i = 0; i < CHUNKS; i++) {
        await new Promise((r) => setTimeout(r, CHUNK_MS));
        res.write(
          `${JSON.stringify({ model: 'm', message: { role: 'assistant', content: `w${i} ` }, done: false })}\n`,
        );
      }
      res.end(`${JSON.stringify({ model: 'm', message: { role: 'assistant', content: '' }, done: true })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Counts `needle` in an SSE body as it arrives; resolves once `end` is seen. */
async function countSse(response: Response, needle: string, end: string): Promise<number> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let count = 0;
  let tail = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    const text = tail + decoder.decode(bytes, { stream: true });
    const frames = text.split('\n\n');
    tail = frames.pop() ?? '';
    for (const frame of frames) {
      if (frame.includes(needle)) count++;
      if (frame.includes(end)) return count;
      if (count === 0 && frame.includes('error')) throw new Error(frame);
    }
  }
  return count;
}

type Path = 'graphql-ws' | '/api/chat' | '/ag-ui';

async function main() {
  const llm = await fakeOllama();
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ['--server'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_OLLAMA: llm.url },
  });
  process.on('exit', () => child.kill());
  const ask = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
      if (type !== 'ready') child.send({ type });
    });
  const { url, db } = await ask<{ url: string; db: string }>('ready');
  if (process.env.BENCH_VERBOSE) console.error(`server ready at ${url} (${db})`);
  const gql = async (query: string, variables: object = {}) => {
    const r = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return ((await r.json()) as { data: Record<string, { id: string }> }).data;
  };
  const ws = createClient({ url: `${url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const post = (path: string, body: object) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const oneTurn: Record<Path, (sessionId: string) => Promise<number>> = {
    'graphql-ws': (sessionId) =>
      new Promise<number>((resolve, reject) => {
        let tokens = 0;
        // From the start of the (fresh) session's log: no event is missed, whenever the subscription is set up.
        const stop = ws.subscribe(
          {
            query:
              'subscription($id: ID!) { sessionEvents(sessionId: $id, after: "0") {' +
              ' __typename ... on TextDelta { text } } }',
            variables: { id: sessionId },
          },
          {
            next: (value) => {
              const type = (value.data as { sessionEvents: { __typename: string } }).sessionEvents.__typename;
              if (type === 'TextDelta') tokens++;
              else if (type === 'TurnEnded' || type === 'TurnFailed') {
                stop();
                resolve(tokens);
              }
            },
            error: reject,
            complete: () => resolve(tokens),
          },
        );
        gql('mutation($id: ID!) { sendMessage(input: { sessionId: $id, content: "go" }) { turn { id } } }', {
          id: sessionId,
        }).catch(reject);
      }),
    '/api/chat': async (sessionId) =>
      countSse(
        await post('/api/chat', {
          id: sessionId,
          trigger: 'submit-message',
          messages: [{ id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'go' }] }],
        }),
        '"type":"text-delta"',
        '"type":"finish"',
      ),
    '/ag-ui': async (sessionId) =>
      countSse(
        await post('/ag-ui', {
          threadId: sessionId,
          runId: crypto.randomUUID(),
          messages: [{ id: crypto.randomUUID(), role: 'user', content: 'go' }],
          tools: [],
          context: [],
        }),
        '"type":"TEXT_MESSAGE_CONTENT"',
        '"type":"RUN_FINISHED"',
      ),
  };

  const paths: Path[] = ['graphql-ws', '/api/chat', '/ag-ui'];
  const totals = new Map<Path, { cpuMs: number; tokens: number }>(paths.map((p) => [p, { cpuMs: 0, tokens: 0 }]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    // Round 0 warms every path up (JIT, pools) and is not counted.
    for (let k = 0; k < paths.length; k++) {
      const path = paths[(round + k) % paths.length]!;
      const sessions: string[] = [];
      for (let i = 0; i < TURNS; i++)
        sessions.push((await gql('mutation { createSession(input: {}) { id } }')).createSession!.id);
      const before = (await ask<{ usage: NodeJS.CpuUsage }>('cpu')).usage;
      const counts = await Promise.all(sessions.map((s) => oneTurn[path](s)));
      const after = (await ask<{ usage: NodeJS.CpuUsage }>('cpu')).usage;
      const tokens = counts.reduce((a, b) => a + b, 0);
      if (process.env.BENCH_VERBOSE) console.error(`round ${round} ${path}: ${tokens} tokens`);
      if (tokens !== TURNS * CHUNKS) throw new Error(`${path} counted ${tokens} tokens, expected ${TURNS * CHUNKS}`);
      if (round === 0) continue;
      const total = totals.get(path)!;
      total.cpuMs += (after.user - before.user + after.system - before.system) / 1000;
      total.tokens += tokens;
    }
  }
  const base = totals.get('graphql-ws')!;
  const perToken = (t: { cpuMs: number; tokens: number }) => (t.cpuMs * 1000) / t.tokens;
  console.log(
    `${ROUNDS} interleaved rounds × ${TURNS} concurrent turns × ${CHUNKS} tokens (${CHUNK_MS} ms apart),` +
      ` database ${db}; server process CPU per streamed token (tokens counted equal on every path)`,
  );
  for (const path of paths) {
    const t = totals.get(path)!;
    console.log(
      `${path.padEnd(11)} ${perToken(t).toFixed(1).padStart(7)} µs/token` +
        `  (${t.cpuMs.toFixed(0)} ms CPU, ${t.tokens} tokens)` +
        `  ratio ${(perToken(t) / perToken(base)).toFixed(2)}×`,
    );
  }
  await ws.dispose();
  child.kill();
  llm.close();
}

if (process.argv.includes('--server')) void serve();
else
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
