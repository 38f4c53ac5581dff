/** Shared helpers for the benchmarks: timing, percentiles, a server on the bench database. */
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function measure(label: string, iterations: number, fn: () => Promise<unknown>, warmup = 5) {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const result = { label, p50: percentile(times, 50), p95: percentile(times, 95), n: iterations };
  console.log(
    `${label.padEnd(48)} p50 ${result.p50.toFixed(2).padStart(8)} ms   p95 ${result.p95.toFixed(2).padStart(8)} ms`,
  );
  return result;
}

export function ratio(label: string, a: { p50: number }, b: { p50: number }, goal?: string) {
  const r = a.p50 / b.p50;
  console.log(`${label.padEnd(48)} ${r.toFixed(2)}×${goal ? `   (goal ${goal})` : ''}`);
  return r;
}

export async function benchServer(
  databaseUrl: string,
  overrides: Record<string, unknown> = {},
): Promise<{ app: App; server: RunningServer; gql: (q: string, v?: object) => Promise<any> }> {
  const config = loadConfig(
    {},
    { databaseUrl, logLevel: 'silent', port: 0, titleGenerationEnabled: false, ...overrides },
  );
  const app = await createApp(config);
  const server = await startServer(app);
  const gql = async (query: string, variables: object = {}) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { errors?: unknown[]; data?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return { app, server, gql };
}
