/**
 * Test harness: a real database (in-memory PGlite by default; a fresh
 * database on the server from TEST_DATABASE_URL), the real app, and GraphQL
 * in-process through yoga.fetch or over a real HTTP server.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp, type App } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { createGraphQLHandler } from '../../src/server.js';

export const serverUrl = process.env.TEST_DATABASE_URL;
export const dbKind = serverUrl ? 'postgres' : 'pglite';

/** A fresh, empty database for one test file. */
export async function createTestDatabase(options: { trigram?: boolean } = {}): Promise<{ db: Database; drop(): Promise<void> }> {
  if (!serverUrl) {
    const db = await openDatabase({ dataDir: 'memory://' });
    return { db, drop: () => db.close() };
  }
  const name = `chat_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // pg_trgm is installed by the "DBA" (the harness), never by the service on a server.
  if (options.trigram !== false) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined);
    await c.end();
  }
  const db = await openDatabase({ url: url.toString(), poolSize: 5 });
  return {
    db,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig({}, { logLevel: 'silent', port: 0, sessionFilesDir: `/tmp/chat-test-files-${process.pid}`, ...overrides });
}

export interface TestContext {
  app: App;
  gql: <T = any>(query: string, variables?: Record<string, unknown>, token?: string) => Promise<GqlResult<T>>;
  close(): Promise<void>;
}

export interface GqlResult<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string }; path?: unknown[] }[];
}

export async function createTestApp(overrides: Partial<Config> = {}, options: { trigram?: boolean } = {}): Promise<TestContext> {
  const { db, drop } = await createTestDatabase(options);
  const app = await createApp(testConfig(overrides), { db });
  const yoga = createGraphQLHandler(app);
  const gql = async <T>(query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GqlResult<T>;
  };
  return {
    app,
    gql,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** The first error code, for terse assertions. */
export const codeOf = (result: GqlResult<unknown>) => result.errors?.[0]?.extensions?.code;
