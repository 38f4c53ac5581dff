/**
 * bench/peer.ts's service: the compiled server (dist/, as `npm start` runs it; bench/peer.ts builds it first when it
 * is stale and starts this file with the start command's node flags) on the bench database, on 127.0.0.1, port 0.
 * Prints `LISTENING <url>`. Configured as bench/lib.ts's benchServer (no log, no title generation; the rest defaults,
 * not the environment): those two settings are what differs from `npm start`.
 */
import { setFlagsFromString } from 'node:v8';

// As scripts/start.mjs does (before graphql is loaded): production mode unless NODE_ENV says otherwise.
process.env.NODE_ENV ||= 'production';
// As src/main.ts does on a PostgreSQL server; NO_LIFTOFF=1 keeps V8's optimizing tier, to compare.
if (!process.env.NO_LIFTOFF) setFlagsFromString('--liftoff-only');
const { loadConfig } = await import('../dist/config.js');
const { createApp } = await import('../dist/app.js');
const { startServer } = await import('../dist/server.js');
const { appRoutes } = await import('../dist/routes.js');

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/chat_bench';
// HTTP_FAST_PATH=false serves every request through Yoga (to compare with the JSON fast path).
const httpFastPath = process.env.HTTP_FAST_PATH !== 'false';
const overrides = { databaseUrl, logLevel: 'silent', port: 0, titleGenerationEnabled: false, httpFastPath };
const config = loadConfig({}, overrides);
const app = await createApp(config);
const server = await startServer(app, { routes: appRoutes(app) });
console.log(`LISTENING ${server.url}/graphql`);
process.on('SIGTERM', async () => {
  await server.close();
  await app.close();
  process.exit(0);
});
