// The import graph of src/ against the layers of the architecture (data flows
// down; nothing below imports from above):
//
//   http      src/server.ts, src/http/, src/routes.ts, src/web/, src/shutdown.ts, src/main.ts,
//             src/shared-subscriptions.ts (the WebSocket layer's shared execution),
//             src/protocols/ (the other doors: the AI SDK's chat stream, MCP)
//   schema    src/schema/
//   services  src/sessions/ src/turns/ src/compression/ src/search/ src/files/ src/auth/
//             src/editing/ src/recalls/ src/admin/
//   llm       src/llm/
//   events    src/events/
//   store     src/store/
//   domain    src/domain/
//   db        src/db/
//
// src/app.ts is the composition root: it may import anything, and only the
// http layer imports it. src/config.ts, src/logger.ts, src/log-destination.ts, src/logging.ts and
// src/generated/ (Prisma's output) are leaves every layer may use; a leaf itself may use only the pure
// domain.
// Every import counts: type-only ones too (a type is a dependency on the
// module that owns it), re-exports and dynamic import().
// Fails, listing them, on any cycle between modules, on any cycle between folders (src/<folder>/: sessions may
// use turns or turns sessions, never both), on any import that goes up a layer and on any module over
// MAX_LINES lines (src/generated/ excluded): a module that large holds more than one responsibility; split it;
// and on an import, from outside a fenced folder (FENCES), of any of its modules but its entry point.
// `node scripts/check-imports.mjs` (npm run check:imports); `--graph` prints the edges.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--root DIR` checks another tree (the script's own tests).
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? resolve(process.argv[rootArg + 1]) : fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

const MAX_LINES = 500;
const LAYERS = ['db', 'domain', 'store', 'events', 'llm', 'services', 'schema', 'http'];
const rank = (layer) => LAYERS.indexOf(layer);

/** The layer of a module (path relative to src/, forward slashes), or a marker for the special ones. */
function layerOf(path) {
  if (path === 'app.ts') return 'root';
  const leaves = ['config.ts', 'logger.ts', 'logging.ts', 'log-destination.ts'];
  if (leaves.includes(path) || path.startsWith('generated/')) return 'leaf';
  const top = path.includes('/') ? path.slice(0, path.indexOf('/')) : path;
  if (
    [
      'server.ts',
      'routes.ts',
      'shutdown.ts',
      'main.ts',
      'shared-subscriptions.ts',
      'http',
      'web',
      'protocols',
    ].includes(top)
  )
    return 'http';
  if (top === 'schema') return 'schema';
  const services = ['sessions', 'turns', 'compression', 'search', 'files', 'auth', 'editing', 'recalls', 'admin'];
  if (services.includes(top)) return 'services';
  if (['llm', 'events', 'store', 'domain', 'db'].includes(top)) return top;
  return 'unknown';
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (path !== join(src, 'generated')) out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** A relative specifier as NodeNext resolves it here: `./x.js` is ./x.ts; a directory means its index. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return base; // unresolved (a generated file that is not there, say): still an edge by its path
}

const files = sourceFiles(src);
const graph = new Map(); // module -> Map(imported module -> line)
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const edges = new Map();
  for (const { fileName, pos } of info.importedFiles) {
    const target = resolveSpecifier(file, fileName);
    if (!target?.startsWith(`${src}/`)) continue;
    const line = text.slice(0, pos).split('\n').length;
    const to = relative(src, target).split('\\').join('/');
    if (!edges.has(to)) edges.set(to, line);
  }
  graph.set(relative(src, file).split('\\').join('/'), edges);
}

if (process.argv.includes('--graph')) {
  for (const [from, edges] of graph) for (const to of edges.keys()) console.log(`${from} -> ${to}`);
}

const problems = [];

// Module size.
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`src/${relative(src, file)}: ${lines} lines (at most ${MAX_LINES}; split it)`);
}

// Fences: a folder reached from outside through one entry point only (src/http/fast-path/: the JSON fast path).
const FENCES = [{ folder: 'http/fast-path/', entry: 'http/fast-path/index.ts' }];
for (const [from, edges] of graph)
  for (const [to, line] of edges)
    for (const { folder, entry } of FENCES)
      if (to.startsWith(folder) && to !== entry && !from.startsWith(folder))
        problems.push(`src/${from}:${line}: imports src/${to} behind the fence of src/${folder} (use src/${entry})`);

// Layer rule.
for (const [from, edges] of graph) {
  const fromLayer = layerOf(from);
  if (fromLayer === 'unknown') problems.push(`src/${from}: not in any layer (add it to scripts/check-imports.mjs)`);
  for (const [to, line] of edges) {
    const toLayer = layerOf(to);
    if (toLayer === 'leaf' || fromLayer === 'root' || fromLayer === 'unknown') continue;
    if (toLayer === 'root') {
      if (fromLayer !== 'http') problems.push(`src/${from}:${line}: imports the composition root src/app.ts`);
      continue;
    }
    // Leaves may use the pure domain (no I/O below it): error codes, origin parsing.
    if (fromLayer === 'leaf') {
      if (toLayer !== 'domain') problems.push(`src/${from}:${line}: a leaf utility imports src/${to} (${toLayer})`);
      continue;
    }
    if (toLayer === 'unknown') continue;
    if (rank(toLayer) > rank(fromLayer))
      problems.push(`src/${from}:${line}: upward import of src/${to} (${fromLayer} imports ${toLayer})`);
  }
}

// Cycles: the strongly connected components of more than one module (Tarjan), each shown as one cycle through it.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(v) {
  indexOf.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)?.keys() ?? []) {
    if (!graph.has(w)) continue;
    if (!indexOf.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
  }
  if (low.get(v) === indexOf.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v).has(v)) components.push(component.sort());
  }
}
for (const v of graph.keys()) if (!indexOf.has(v)) connect(v);

/** The shortest cycle through `start` inside its component (breadth-first). */
function cycleThrough(start, members) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v).keys()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}
for (const component of components) {
  const members = new Set(component);
  const cycle = cycleThrough(component[0], members).map((m) => `src/${m}`);
  const more = component.length > cycle.length - 1 ? ` (${component.length} modules in the tangle)` : '';
  problems.push(`cycle: ${cycle.join(' -> ')}${more}`);
}

// Folder cycles: the same search on the graph of folders (src/<folder>/), each edge named by one import behind it.
const folderOf = (path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : null);
const folders = new Map(); // folder -> Map(folder -> "from -> to")
for (const [from, edges] of graph) {
  const a = folderOf(from);
  if (!a) continue;
  if (!folders.has(a)) folders.set(a, new Map());
  for (const to of edges.keys()) {
    const b = folderOf(to);
    if (b && b !== a && !folders.get(a).has(b)) folders.get(a).set(b, `src/${from} -> src/${to}`);
  }
}
const state = new Map();
const reported = new Set();
function visit(folder, path) {
  state.set(folder, 'open');
  for (const next of folders.get(folder)?.keys() ?? []) {
    if (state.get(next) === 'open') {
      const loop = [...path.slice(path.indexOf(next)), next];
      const key = [...loop.slice(0, -1)].sort().join(',');
      if (reported.has(key)) continue;
      reported.add(key);
      const via = loop.slice(0, -1).map((f, i) => folders.get(f).get(loop[i + 1]));
      problems.push(`folder cycle: ${loop.join(' -> ')} (${via.join('; ')})`);
    } else if (!state.has(next)) visit(next, [...path, next]);
  }
  state.set(folder, 'done');
}
for (const folder of [...folders.keys()].sort()) if (!state.has(folder)) visit(folder, [folder]);

for (const problem of problems) console.log(problem);
if (problems.length) {
  console.log(`imports: ${problems.length} problems in ${graph.size} modules`);
  process.exit(1);
}
console.log(
  `imports: ${graph.size} modules in ${folders.size} folders, no cycle, no folder cycle, no upward import, ` +
    `none over ${MAX_LINES} lines`,
);
