#!/usr/bin/env node
/**
 * Replays the Dockerfile without Docker (CI has none): each stage gets a directory that stands for the container's
 * root, in a clean copy of the repository (the files git knows, less .dockerignore's). WORKDIR, ENV, COPY (from the
 * context or --from a stage), RUN (sh -c, in the stage's working directory, with the stage's environment), USER and
 * CMD are carried out in order; absolute container paths in ENV values, WORKDIR and COPY map into the stage's root.
 * The last stage's CMD is started as its USER (a non-root user: the Dockerfile's when it exists here, else nobody),
 * with its environment and a free PORT; the script polls the readiness endpoint until it answers 200, runs the
 * HEALTHCHECK command the same way, stops the server and exits 0. Anything else exits 1 with what failed.
 *
 *   node scripts/docker-replay.mjs [--keep]    (--keep leaves the directories for a look)
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Readiness (src/http/health.ts): the database reachable and migrated, the data directories writable.
const READY_PATH = '/readyz';
const READY_TIMEOUT_MS = 180_000;

const repo = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const work = mkdtempSync(path.join(tmpdir(), 'docker-replay-'));
const log = (line) => console.log(`docker-replay: ${line}`);

/** Instructions, one per logical line (backslash continuations joined, comments dropped). */
function parse(text) {
  const lines = [];
  let current = '';
  for (const raw of text.split('\n')) {
    if (!current && /^\s*(#|$)/.test(raw)) continue;
    if (raw.endsWith('\\')) current += `${raw.slice(0, -1)} `;
    else {
      lines.push(current + raw);
      current = '';
    }
  }
  return lines.map((line) => {
    const [, op, rest] = /^\s*(\w+)\s+([\s\S]*)$/.exec(line) ?? [];
    if (!op) throw new Error(`cannot read: ${line}`);
    return { op: op.toUpperCase(), args: rest.trim() };
  });
}

/** `KEY=value KEY2="v 2"` pairs (or the legacy `KEY value`). */
function envPairs(args) {
  if (!/^\w+=/.test(args)) {
    const [key, ...value] = args.split(/\s+/);
    return [[key, value.join(' ')]];
  }
  const pairs = [...args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)];
  return pairs.map(([, k, v]) => [k, v.startsWith('"') ? JSON.parse(v) : v]);
}

/** A JSON exec form (`["node", "x"]`) or a shell form. */
const command = (args) => (args.startsWith('[') ? JSON.parse(args) : ['sh', '-c', args]);

/** The files of the build context: what git knows (tracked, or new and not ignored), less .dockerignore's. */
function copyContext(to) {
  const ignore = existsSync(path.join(repo, '.dockerignore'))
    ? readFileSync(path.join(repo, '.dockerignore'), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .filter((f) => !ignore.some((p) => f === p || f.startsWith(`${p}/`)) && existsSync(path.join(repo, f)));
  for (const file of files) cpSync(path.join(repo, file), path.join(to, file), { recursive: true });
  log(`context: ${files.length} files`);
}

const context = path.join(work, 'context');
copyContext(context);
const stages = new Map();
let stage = null;

/** A container path inside the stage's root; relative ones against its working directory. */
const inRoot = (s, p) => path.join(s.root, p.startsWith('/') ? p : path.join(s.workdir, p));
/** An ENV value with absolute container paths mapped into the root. */
const mapValue = (s, v) => (v.startsWith('/') ? path.join(s.root, v) : v);

function run(s, argv, extra = {}) {
  log(`RUN ${argv.join(' ').slice(0, 140)}`);
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd: inRoot(s, '.'),
    env: { ...process.env, ...s.env, ...extra },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`RUN failed (exit ${result.status}): ${argv.join(' ')}`);
}

for (const { op, args } of parse(readFileSync(path.join(repo, 'Dockerfile'), 'utf8'))) {
  if (op === 'FROM') {
    const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.size}`;
    stage = { name, root: path.join(work, name), workdir: '/', env: {}, user: null, cmd: null, health: null };
    mkdirSync(stage.root, { recursive: true });
    stages.set(name, stage);
    log(`FROM ${args}`);
  } else if (op === 'WORKDIR') {
    stage.workdir = args.startsWith('/') ? args : path.join(stage.workdir, args);
    mkdirSync(inRoot(stage, '.'), { recursive: true });
  } else if (op === 'ENV') {
    for (const [k, v] of envPairs(args)) stage.env[k] = mapValue(stage, v);
  } else if (op === 'COPY') {
    const parts = args.split(/\s+/);
    const from = parts[0].startsWith('--from=') ? stages.get(parts.shift().slice(7)) : null;
    const dest = parts.pop();
    for (const source of parts) {
      const src = from ? inRoot(from, source) : path.join(context, source);
      const target = dest.endsWith('/') ? path.join(inRoot(stage, dest), path.basename(source)) : inRoot(stage, dest);
      cpSync(src, target, { recursive: true });
    }
  } else if (op === 'RUN') {
    // `--mount=type=cache,target=<npm's cache>` (BuildKit): the replay runs as this machine's user, whose own npm
    // cache stands for the build cache, so the flag goes and npm finds its cache where it always does.
    const script = args.replace(/^(--mount=type=cache,\S+\s+)+/, '');
    // A non-root user may not chown what root made here: the replay gives the directory to that user itself.
    run(stage, ['sh', '-c', script.replace(/&&\s*chown\s+\S+\s+\S+/g, '').replace(/^chown\s+\S+\s+\S+;?/, 'true')]);
  } else if (op === 'USER') stage.user = args;
  else if (op === 'CMD') stage.cmd = command(args);
  else if (op === 'HEALTHCHECK') stage.health = command(args.replace(/^(--\S+\s+)*CMD\s+/, ''));
  else if (!['EXPOSE', 'VOLUME', 'ARG', 'LABEL'].includes(op)) throw new Error(`not replayed: ${op}`);
}

/** The uid/gid to run as: the Dockerfile's USER when it exists here, else nobody; never root. */
function account(name) {
  const lookup = (n) => {
    const r = spawnSync('id', ['-u', n], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', n], { encoding: 'utf8' });
    return r.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout), name: n } : null;
  };
  if (userInfo().uid !== 0) return { uid: userInfo().uid, gid: userInfo().gid, name: userInfo().username };
  return (name && name !== 'root' && lookup(name)) || lookup('nobody');
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let child = null;
try {
  const last = stage;
  if (!last.cmd) throw new Error('the last stage has no CMD');
  const who = account(last.user);
  const port = await freePort();
  const env = { PATH: process.env.PATH, HOME: last.root, ...last.env, PORT: String(port), LOG_LEVEL: 'info' };
  // What the runtime user must write: the data directories (the image makes /data theirs); the rest is readable.
  for (const dir of [env.DATA_DIR, env.SESSION_FILES_DIR].filter(Boolean)) {
    mkdirSync(dir, { recursive: true });
    if (userInfo().uid === 0) spawnSync('chown', ['-R', `${who.uid}:${who.gid}`, dir]);
  }
  for (let dir = last.root; dir !== path.dirname(dir) && userInfo().uid === 0; dir = path.dirname(dir))
    chmodSync(dir, statSync(dir).mode | 0o005);
  log(`CMD ${last.cmd.join(' ')} as ${who.name} (uid ${who.uid}) on port ${port}`);
  child = spawn(last.cmd[0], last.cmd.slice(1), {
    cwd: inRoot(last, '.'),
    env,
    uid: userInfo().uid === 0 ? who.uid : undefined,
    gid: userInfo().uid === 0 ? who.gid : undefined,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let ready = false;
  while (!ready && Date.now() < deadline) {
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 500))]);
    if (gone) throw new Error(`the server exited before it was ready (${JSON.stringify(gone)})`);
    ready = await fetch(`http://127.0.0.1:${port}${READY_PATH}`).then(
      (r) => r.status === 200,
      () => false,
    );
  }
  if (!ready) throw new Error(`${READY_PATH} did not answer 200 within ${READY_TIMEOUT_MS / 1000} s`);
  log(`${READY_PATH} answered 200`);
  if (last.health) {
    const health = spawnSync(last.health[0], last.health.slice(1), {
      cwd: inRoot(last, '.'),
      env,
      uid: userInfo().uid === 0 ? who.uid : undefined,
      gid: userInfo().uid === 0 ? who.gid : undefined,
      stdio: 'inherit',
    });
    if (health.status !== 0) throw new Error(`HEALTHCHECK failed (exit ${health.status})`);
    log('HEALTHCHECK passed');
  }
  child.kill('SIGTERM');
  const end = await exited;
  log(`stopped (${JSON.stringify(end)})`);
  child = null;
} catch (error) {
  console.error(`docker-replay: ${error.message}`);
  process.exitCode = 1;
} finally {
  child?.kill('SIGKILL');
  if (!keep) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
}
