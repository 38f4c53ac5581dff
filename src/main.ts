/** Entry point of `npm start`: configuration, app, server, graceful shutdown. */
import { setFlagsFromString } from 'node:v8';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createApp } from './app.js';
import { startServer } from './server.js';
import { appRoutes } from './routes.js';
import { startAdminSocket } from './admin/socket.js';
import { checkProvidersInBackground } from './llm/check.js';
import { startupStorageProblem } from './http/health.js';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // On a PostgreSQL server the WebAssembly here is Prisma's query compiler (plans cached per query shape, except
  // createMany) and undici's small HTTP parser behind fetch: V8's optimizing tier for them costs 60-80 MB of RSS and
  // buys nothing measurable (docs/performance.md, "Idle RSS"). The embedded PGlite is itself WebAssembly and keeps
  // the optimizing tier. Set before the app is built: Prisma compiles its module on the first query.
  // The listening line says the mode (`npm start` defaults NODE_ENV to production).
  if (config.databaseUrl) setFlagsFromString('--liftoff-only');
  // A missing directory is created; one that cannot be created or written stops start-up with one line naming it.
  const storageProblem = await startupStorageProblem(config);
  if (storageProblem) {
    console.error(storageProblem);
    process.exit(2);
  }
  const app = await createApp(config);
  const running = await startServer(app, { routes: appRoutes(app) });
  await app.start?.();
  // The embedded database is this process's alone: `npm run admin` talks to it through this socket.
  const admin =
    app.db.kind === 'pglite' ? await startAdminSocket({ dataDir: config.dataDir, auth: app.auth, log: app.log }) : null;
  app.log.info(
    { url: `${running.url}/graphql`, database: app.db.kind, auth: config.authEnabled, nodeEnv: process.env.NODE_ENV },
    'listening',
  );
  // Says at once when a profile's provider is down or its model is missing; never delays or fails start-up.
  void checkProvidersInBackground(app);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // The grace period is for the requests in flight; the rest (database, Redis) gets a little more.
    const timer = setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5_000).unref();
    await running.close({ graceMs: config.shutdownTimeoutMs, beforeEnd: () => app.turns.shutdown() });
    await admin?.close();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
