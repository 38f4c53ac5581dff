#!/usr/bin/env node
/**
 * `npm start`: runs the compiled server (dist/, built by `npm install`) on
 * plain Node — no TypeScript loader in the serving process (tsx costs ~90 MB
 * of RSS; `npm run dev` keeps it, with watch). If a file under src/ is newer
 * than the last build, the build runs first, so a checkout edited after
 * install never serves stale code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = path.join(root, 'dist', '.build-stamp');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIsStale() {
  if (!existsSync(stamp) || !existsSync(path.join(root, 'dist', 'main.js'))) return true;
  const built = statSync(stamp).mtimeMs;
  const configs = ['tsconfig.build.json', 'tsconfig.json'].map((f) => statSync(path.join(root, f)).mtimeMs);
  return Math.max(newestUnder(path.join(root, 'src')), ...configs) > built;
}

export function build() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.error(
      'dist/ is missing or older than src/, and TypeScript is not installed to build it: run `npm install`',
    );
    process.exit(1);
  }
  const started = Date.now();
  // Emit only: type checking is `npm run typecheck`'s (CI runs it); checking again here tripled the build's CPU.
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--noCheck'], {
    stdio: 'inherit',
    cwd: root,
  });
  if (result.status !== 0) {
    console.error('build failed: see the errors above');
    process.exit(result.status ?? 1);
  }
  // The stamp carries the build's start time: a file saved while tsc ran is newer, so the next start rebuilds.
  writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
  utimesSync(stamp, new Date(started), new Date(started));
}

/**
 * `npm start` serves in production mode unless NODE_ENV says otherwise: graphql-js then skips its
 * development-only checks on every type test (~10-17% of history-page throughput, docs/performance.md), Pothos its
 * unused-selection check, and logs are JSON unless LOG_FORMAT=pretty. Set before any module reads it.
 */
export function productionDefaults(env) {
  if (env.NODE_ENV === undefined || env.NODE_ENV === '') env.NODE_ENV = 'production';
  return env;
}

/** `.env` beside package.json, when there is one (`.env.example` lists every variable): a variable set wins. */
export function loadDotEnv(file = path.join(root, '.env')) {
  if (existsSync(file)) process.loadEnvFile(file);
}

const self = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (self) {
  if (process.argv.includes('--build')) build();
  else {
    if (buildIsStale()) build();
    loadDotEnv();
    productionDefaults(process.env);
    await import(pathToFileURL(path.join(root, 'dist', 'main.js')).href);
  }
}
