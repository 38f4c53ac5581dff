// Fails when the installed tree would make `npm install` warn on this Node:
// a package whose `engines` (node, npm) does not accept the running versions
// (npm's EBADENGINE, same semver rule: includePrerelease), a package that does
// not accept every Node our own `engines.node` admits (so that field tells the
// truth), an invalid or
// missing package in `npm ls`, or (npm 11) a dependency install script that
// package.json's `allowScripts` neither allows nor denies.
// Run after `npm install`: `node scripts/check-install-warnings.mjs [project dir]`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const npmCli =
  process.env.npm_execpath && process.env.npm_execpath.endsWith('.js')
    ? [process.execPath, [process.env.npm_execpath]]
    : ['npm', []];
const npm = (args) => {
  const [bin, pre] = npmCli;
  try {
    return {
      ok: true,
      out: execFileSync(bin, [...pre, ...args], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 256 << 20,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    };
  } catch (error) {
    return { ok: false, out: String(error.stdout ?? ''), err: String(error.stderr ?? error.message) };
  }
};

const opt = { includePrerelease: true };
const nodeVersion = process.version;
const npmVersion = npm(['--version']).out.trim();
const own = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const ownNode = own.engines?.node ?? '*';
const failures = new Set();

// `npm ls` exits non-zero on problems but still prints the tree.
const listed = npm(['ls', '--all', '--json', '--long']);
const tree = JSON.parse(listed.out || '{}');
for (const problem of tree.problems ?? []) failures.add(`npm ls: ${problem}`);

const seen = new Set();
let count = 0;
const walk = (node) => {
  for (const [name, dep] of Object.entries(node.dependencies ?? {})) {
    const id = `${name}@${dep.version}`;
    if (!dep.path || seen.has(dep.path)) continue;
    seen.add(dep.path);
    count++;
    const engines = dep.engines && typeof dep.engines === 'object' ? dep.engines : {};
    if (typeof engines.node === 'string') {
      if (!semver.satisfies(nodeVersion, engines.node, opt))
        failures.add(`${id} wants node ${engines.node}, this is ${nodeVersion} (EBADENGINE)`);
      else if (!semver.subset(ownNode, engines.node))
        failures.add(`${id} wants node ${engines.node}, narrower than package.json engines.node "${ownNode}"`);
    }
    if (typeof engines.npm === 'string' && npmVersion && !semver.satisfies(npmVersion, engines.npm, opt)) {
      failures.add(`${id} wants npm ${engines.npm}, this is ${npmVersion} (EBADENGINE)`);
    }
    walk(dep);
  }
};
walk(tree);

// npm 11's install-script review; older npm has no such command (nothing to warn about).
const scripts = npm(['install-scripts', 'ls']);
if (scripts.ok && !/No packages with unreviewed install scripts/.test(scripts.out)) {
  failures.add(`install scripts not covered by package.json allowScripts:\n${scripts.out.trim()}`);
}

if (failures.size) {
  console.error(`install check: ${failures.size} problem(s) on node ${nodeVersion}, npm ${npmVersion}:`);
  for (const failure of failures) console.error(`- ${failure}`);
  process.exit(1);
}
console.log(
  `install check: ${count} installed packages accept node ${nodeVersion}, npm ${npmVersion}` +
    ` and every node of engines.node "${ownNode}"` +
    `; no unreviewed install scripts`,
);
