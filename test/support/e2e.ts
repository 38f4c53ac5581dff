/**
 * End-to-end harness for the browser tests and bench/web.ts: the real app and
 * HTTP/WebSocket server (port 0, 127.0.0.1) with the web client's static
 * route, a fresh database, and a fake LLM provider speaking Ollama's wire
 * format.
 *
 * The server is started exactly as src/main.ts does (appRoutes includes the
 * static web route), so these tests cover the production wiring. The web
 * client is built here if web/dist is missing or older than web/src (the
 * server itself only serves what was built at install).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type App } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { appRoutes } from '../../src/routes.js';
import { startServer, type RouteHandler } from '../../src/server.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { createTestDatabase, queryText, testConfig, type GqlResult, type SendGql } from './harness.js';
import { skipping } from './skips.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function hasPlaywright(): boolean {
  try {
    createRequire(import.meta.url).resolve('playwright-core');
    return true;
  } catch {
    return false;
  }
}

/** Why the browser tests cannot run: Debian's Chromium or playwright-core is missing (null when they can). */
export const browserMissing = !existsSync(CHROMIUM)
  ? `Chromium not found at ${CHROMIUM} (apt-get install chromium)`
  : !hasPlaywright()
    ? 'playwright-core is not installed'
    : null;
/** Browser tests are skipped when Debian's Chromium or playwright-core is missing. */
export const browserUnavailable = browserMissing !== null;

export const webDir = fileURLToPath(new URL('../../web/', import.meta.url));
export const distDir = join(webDir, 'dist');

export interface E2EServer {
  /** http://127.0.0.1:<port> — the page is `${url}/` */
  url: string;
  app: App;
  /** the Node HTTP server (to watch requests and upgrades arrive) */
  http: Server;
  fake: FakeProvider;
  /** a typed document (test/generated) or a query string, over real HTTP (harness.ts's SendGql) */
  gql: SendGql;
  /** destroys every open WebSocket at the TCP level, as a network drop would */
  dropSockets(): number;
  close(): Promise<void>;
}

let built: Promise<void> | null = null;

/** Builds web/dist once per process when it is missing or stale. */
export function ensureWebBuild(): Promise<void> {
  built ??= (async () => {
    const index = join(distDir, 'index.html');
    const newest = newestMtime(join(webDir, 'src'));
    if (
      existsSync(index) &&
      // a build from before the persisted-documents manifest
      existsSync(join(distDir, 'persisted-documents.json')) &&
      statSync(index).mtimeMs >= Math.max(newest, statSync(join(webDir, 'index.html')).mtimeMs)
    )
      return;
    const { build } = await import('vite');
    await build({ configFile: join(webDir, 'vite.config.ts'), logLevel: 'warn' });
  })();
  return built;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    newest = Math.max(newest, info.isDirectory() ? newestMtime(path) : info.mtimeMs);
  }
  return newest;
}

/** `extraRoutes` go before the app's (the web bench serves its browser-floor page through one). */
export async function startE2EServer(
  overrides: Partial<Config> = {},
  extraRoutes: RouteHandler[] = [],
): Promise<E2EServer> {
  await ensureWebBuild();
  const fake = await startFakeProvider();
  const { db, drop } = await createTestDatabase();
  const config = testConfig({
    host: '127.0.0.1',
    defaultProvider: 'ollama',
    ollamaHost: fake.url,
    titleGenerationEnabled: false,
    ...overrides,
  });
  const app = await createApp(config, { db });
  await app.start?.();
  const running = await startServer(app, { routes: [...extraRoutes, ...appRoutes(app)] });

  const sockets = new Set<Socket>();
  running.server.on('upgrade', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const gql: SendGql = async (
    query: string | TypedDocumentNode<unknown, never>,
    variables: Record<string, unknown> = {},
    token?: string,
  ) => {
    const response = await fetch(`${running.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: queryText(query), variables }),
    });
    return (await response.json()) as GqlResult<never>;
  };

  return {
    url: running.url,
    app,
    http: running.server,
    fake,
    gql,
    dropSockets: () => {
      const n = sockets.size;
      for (const socket of sockets) socket.destroy();
      return n;
    },
    close: async () => {
      await running.close();
      await fake.stop();
      await app.close();
      await drop();
    },
  };
}

/** `describe.skipIf(skipBrowser())`: skips a browser suite when it cannot run, saying why (skips.ts). */
export const skipBrowser = () => skipping('browser tests', browserMissing);
