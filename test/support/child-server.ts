/**
 * A real server in a child process, started exactly as `npm start` does
 * (src/main.ts under tsx), for the fault tests: kill -9, SIGTERM, restarts.
 *
 *   const server = await startChildServer({ DATA_DIR: dir, OLLAMA_HOST: fake.url });
 *   await server.gql('{ viewer { name } }');
 *   server.kill('SIGKILL'); await server.exited;
 *
 * The child listens on 127.0.0.1, port 0; its URL is read from the pino
 * `listening` line on stdout. Every stdout/stderr line is kept in `lines`
 * (and `waitForLine` resolves on the first line matching a predicate), so a
 * test waits for the event it needs, never for a fixed time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { GqlResult, SendGql } from './harness.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  process: ChildProcess;
  /** stdout and stderr lines so far */
  lines: string[];
  /** resolves with the exit code (or signal) once the process has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** GraphQL over HTTP, as the harness sends it: a typed document (test/generated) or a query string */
  gql: SendGql;
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
}

export interface ChildServerOptions {
  /**
   * start-up may fail on purpose (e.g. a second process on the same DATA_DIR): resolve with the exit instead of the URL
   */
  expectExit?: boolean;
  timeoutMs?: number;
  /** run `npm start`'s command (the compiled server on plain Node) instead of src/main.ts under tsx */
  asNpmStart?: boolean;
}

/** Runs `node --import tsx <script>` with the given environment (merged over a quiet default). */
export function spawnTsx(script: string, args: string[], env: Record<string, string | undefined>): ChildProcess {
  return spawnNode(script, env, ['--import', 'tsx'], args);
}

function spawnNode(
  script: string,
  env: Record<string, string | undefined>,
  nodeArgs: string[] = [],
  args: string[] = [],
): ChildProcess {
  // The test decides the databases and Redis: the suite's own REDIS_URL / DATABASE_URL never leak into a child.
  const { REDIS_URL: _r, DATABASE_URL: _d, ...inherited } = process.env;
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    ...inherited,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TITLE_GENERATION_ENABLED: 'false',
    ...env,
  })) {
    if (value !== undefined) merged[name] = value;
  }
  return spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: repoRoot,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs package.json's `start` command (`node <node flags> scripts/start.mjs`) without npm, in the environment
 * spawnNode gives every child (NODE_ENV=test unless the test overrides it).
 */
function spawnNpmStart(env: Record<string, string | undefined>): ChildProcess {
  const { nodeArgs, script } = startCommand();
  return spawnNode(script, env, nodeArgs);
}

/** package.json's `start` command, `node <nodeArgs> <script>`, taken apart (bench/peer.ts uses its node flags). */
export function startCommand(): { nodeArgs: string[]; script: string } {
  const { scripts } = JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8')) as { scripts: { start: string } };
  const [command, ...words] = scripts.start.split(/\s+/);
  const script = words.pop();
  if (command !== 'node' || !script) throw new Error(`unexpected start script: ${scripts.start}`);
  return { nodeArgs: words, script };
}

export async function startChildServer(
  env: Record<string, string | undefined>,
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const serverEnv = { HOST: '127.0.0.1', PORT: '0', ...env };
  const child = options.asNpmStart ? spawnNpmStart(serverEnv) : spawnTsx('src/main.ts', [], serverEnv);
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLine = (match: (line: string) => boolean, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const found = lines.find(match);
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(
        () => reject(new Error(`no matching line within ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)),
        timeoutMs,
      );
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(() => {
        clearTimeout(timer);
        if (waiters.some((w) => w.match === match))
          reject(new Error(`server exited before a matching line:\n${lines.slice(-20).join('\n')}`));
      });
    });

  let url = '';
  if (!options.expectExit) {
    const listening = await waitForLine((line) => line.includes('"listening"'), options.timeoutMs ?? 60_000).catch(
      (error) => {
        // Never leave a half-started server behind.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        throw error;
      },
    );
    url = new URL(JSON.parse(listening).url as string).origin;
  } else {
    await exited;
  }
  const gql: SendGql = async (
    query: string | TypedDocumentNode<unknown, never>,
    variables: Record<string, unknown> = {},
    token?: string,
  ) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: typeof query === 'string' ? query : print(query), variables }),
    });
    return (await response.json()) as GqlResult<never>;
  };
  return {
    url,
    pid: child.pid!,
    process: child,
    lines,
    exited,
    gql,
    waitForLine,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
