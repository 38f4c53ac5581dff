/**
 * The Dockerfile and compose.yaml say what docs/operations.md promises, and name only settings the service has
 * (src/config.ts). The image itself is built and started by scripts/docker-replay.mjs in CI (.ci/run).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable } from '../../src/config.js';

const root = new URL('../../', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
const compose = readFileSync(new URL('compose.yaml', root), 'utf8');
const settings = new Set([...configTable().map((r) => r.env), 'NODE_ENV']);

/** The runtime stage: everything after the last FROM. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

/** The lines of the block under `key:` in the server service (a plain YAML mapping), comments left out. */
function serverBlock(key: string): string[] {
  const lines = compose.split('\n');
  const server = lines.indexOf('  server:');
  const start = lines.indexOf(`    ${key}:`, server);
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && /^ {6,}\S/.test(lines[i]!); i++) out.push(lines[i]!.trim());
  return out.filter((line) => !line.startsWith('#'));
}

describe('Dockerfile', () => {
  it('builds in one stage and runs production dependencies, installed without scripts, as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(runtime).toMatch(/^RUN (--mount=type=cache,\S+ )?npm ci --omit=dev --ignore-scripts/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(runtime).toMatch(/^CMD \["node", "--max-semi-space-size=4", "dist\/main\.js"\]$/m);
  });

  it('sets only settings the service reads', () => {
    const env = /^ENV ([\s\S]*?)\n(?!\s)/m.exec(runtime)![1]!;
    const keys = [...env.matchAll(/(\w+)=/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(3);
    for (const key of keys) expect(settings, key).toContain(key);
  });
});

describe('compose.yaml', () => {
  it('starts the server after PostgreSQL and Redis are healthy, each with its health check and volume', () => {
    expect(serverBlock('depends_on')).toEqual([
      'postgres:',
      'condition: service_healthy',
      'redis:',
      'condition: service_healthy',
    ]);
    expect(compose).toMatch(/postgres:\n[\s\S]*healthcheck:\n\s+test: \["CMD-SHELL", "pg_isready/);
    expect(compose).toMatch(/redis:\n[\s\S]*healthcheck:\n\s+test: \["CMD", "redis-cli", "ping"\]/);
    expect(compose).toMatch(/^volumes:\n {2}pgdata:\n {2}redisdata:\n {2}files:$/m);
  });

  it("passes the server only settings the service reads, and .env's", () => {
    const keys = serverBlock('environment').map((line) => line.split(':')[0]!);
    expect(keys).toContain('DATABASE_URL');
    expect(keys).toContain('REDIS_URL');
    for (const key of keys) expect(settings, key).toContain(key);
    expect(compose).toMatch(/env_file:\n\s+- path: \.env\n\s+required: false/);
  });
});
