/**
 * Turn start on a long session: how long from `sendMessage` until the model's
 * request reaches the provider (the server's share of time to first token),
 * for a 1,000-message session with compression on (the default) and a
 * summary in its context, so the pre-turn check and the memory recall both
 * run. Also counts how often the turn loaded the session's context.
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/turn-start.ts   (default: PGlite in memory)
 */
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { percentile } from './lib.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);

async function main() {
  const fake = await startFakeProvider();
  let providerAt = 0;
  fake.responder = () => {
    providerAt = performance.now();
    return { text: 'ok' };
  };
  const config = loadConfig(
    {},
    {
      databaseUrl: process.env.DATABASE_URL,
      dataDir: 'memory://',
      logLevel: 'silent',
      port: 0,
      ollamaHost: fake.url,
      titleGenerationEnabled: false,
    },
  );
  const app = await createApp(config);
  const server = await startServer(app);
  const gql = async (query: string, variables: object = {}) => {
    const r = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await r.json()) as { data: any; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  // A window large enough that no compression starts during the run: the bench measures the checks, not a compression.
  const profile = (
    await gql(
      `mutation { upsertProfile(input: { key: "bench-long", name: "Long",` +
        ` provider: "ollama", model: "m", contextWindow: 262144 }) { id } }`,
    )
  ).upsertProfile.id as string;
  const id = (await gql(`mutation($p: ID!) { createSession(input: { profileId: $p }) { id } }`, { p: profile }))
    .createSession.id as string;
  const sessionId = Buffer.from(id, 'base64').toString('utf8').split(':').slice(1).join(':');
  await app.store.append(sessionId, [
    {
      role: 'assistant',
      content: 'Summary of the earlier conversation: the user set up a build.',
      isSummary: true,
      isDisplay: false,
    } as never,
  ]);
  for (let i = 0; i < 4; i++) {
    await app.store.append(
      sessionId,
      Array.from({ length: 250 }, (_, j) => ({
        role: j % 2 ? 'assistant' : 'user',
        content: `message ${i * 250 + j}: a short line of the conversation`,
      })) as never,
    );
  }

  // Count context loads (store.context) per turn.
  let loads = 0;
  const context = app.store.context.bind(app.store);
  app.store.context = (...args: Parameters<typeof context>) => {
    loads++;
    return context(...args);
  };

  const times: number[] = [];
  const loadsPerTurn: number[] = [];
  for (let i = 0; i < TURNS + 3; i++) {
    loads = 0;
    const started = performance.now();
    const { sendMessage } = await gql(
      `mutation($id: ID!, $c: String!) { sendMessage(input: { sessionId: $id, content: $c }) { turn { id } } }`,
      { id, c: `question ${i}` },
    );
    for (;;) {
      const { turn } = await gql(`query($t: ID!) { turn(id: $t) { status } }`, { t: sendMessage.turn.id });
      if (turn.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    if (i >= 3) {
      times.push(providerAt - started);
      loadsPerTurn.push(loads);
    }
  }
  const compressed = (await app.store.allMessages(sessionId)).filter((m) => m.isCompression).length;
  times.sort((a, b) => a - b);
  console.log(
    `turn start on a 1,000-message session (database: ${app.db.kind}` +
      `, compression on, ${compressed} compressions during the run)`,
  );
  console.log(
    `sendMessage → request at the provider: p50 ${percentile(times, 50).toFixed(1)} ms,` +
      ` p95 ${percentile(times, 95).toFixed(1)} ms (${TURNS} turns)`,
  );
  console.log(`context loads per turn: ${[...new Set(loadsPerTurn)].join(', ')}`);
  await server.close();
  await app.close();
  await fake.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
