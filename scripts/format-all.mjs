// Formats the whole tree with Biome in one go (`npm run format:all`), keeping
// docs/api.md's client snippets identical to the code in
// test/e2e/clients.test.ts that runs them (that test compares them verbatim):
// each snippet is read before and after formatting and the old text in the
// docs is replaced with the new. Then records the lines still over 120 columns
// in scripts/line-length-baseline.txt (see scripts/check-line-length.mjs).
// BIOME=<path to a biome binary> overrides node_modules/.bin/biome.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const biome = process.env.BIOME ?? `${root}node_modules/.bin/biome`;
const clientsPath = `${root}test/e2e/clients.test.ts`;
const docsPath = `${root}docs/api.md`;

// The same pattern test/e2e/clients.test.ts uses to find its snippets.
const snippets = () =>
  new Map(
    [...readFileSync(clientsPath, 'utf8').matchAll(/^\/\/ snippet:([\w-]+)\n([\s\S]*?)^\/\/ end$/gm)].map((m) => [
      m[1],
      m[2].trimEnd(),
    ]),
  );

const before = snippets();
let docs = readFileSync(docsPath, 'utf8');
const missing = [...before].filter(([, code]) => !docs.includes(code)).map(([name]) => name);
if (missing.length) {
  console.error(`docs/api.md already differs from test/e2e/clients.test.ts in: ${missing.join(', ')}; fix that first`);
  process.exit(1);
}

// Twice: Biome 2.6 settles some long call chains (web/src/sidebar.ts) only on a second pass.
for (let pass = 0; pass < 2; pass++) execFileSync(biome, ['format', '--write', '.'], { cwd: root, stdio: 'inherit' });

const after = snippets();
let changed = 0;
for (const [name, code] of before) {
  const formatted = after.get(name);
  if (formatted === undefined) throw new Error(`snippet ${name} disappeared while formatting`);
  if (formatted === code) continue;
  docs = docs.split(code).join(formatted);
  changed++;
}
writeFileSync(docsPath, docs);
console.log(`format:all: ${changed} snippets in docs/api.md follow the formatted test`);

// What the formatter cannot shorten becomes the line-length baseline, so the gate holds from this commit on and
// only shrinks; each entry is a string, template literal or comment to shorten by hand.
execFileSync(process.execPath, [`${root}scripts/check-line-length.mjs`, '--write-baseline'], {
  cwd: root,
  stdio: 'inherit',
});
