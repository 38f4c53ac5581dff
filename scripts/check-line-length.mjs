// Fails on any line over 120 columns in the code Biome formats. The formatter
// keeps code within 120 but never splits a string, a template literal or a
// comment, so those need a hand edit and a separate check.
// `node scripts/check-line-length.mjs` lists every long line (path:line: length).
// With a baseline file (scripts/line-length-baseline.txt, lines `path count`), a
// file listed there may keep up to `count` long lines while they are shortened;
// `--write-baseline` records today's counts. The goal is no baseline file at all.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAX = 120;
const REGEX_LINE = /^\s*((export )?const \w+ = )?\/.*\/[dgimsuvy]*;$/;
const root = fileURLToPath(new URL('..', import.meta.url));
const baselinePath = `${root}scripts/line-length-baseline.txt`;
const writeBaseline = process.argv.includes('--write-baseline');

// The set biome.json includes; generated and vendored files are someone else's.
const included =
  /^(src|test|bench|scripts|web\/src)\/.*\.(ts|mjs)$|^(codegen|vitest\.config|prisma\.config|web\/vite\.config)\.ts$/;
const excluded = /^(src\/generated|test\/generated|web\/dist|web\/vendor)\//;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => included.test(f) && !excluded.test(f) && existsSync(`${root}${f}`))
  .sort();

const long = new Map();
for (const file of files) {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  lines.forEach((line, i) => {
    // Columns as an editor counts them: code points, not UTF-16 units.
    const width = [...line].length;
    // A regex literal alone on its line (`/…/flags;`, or `const NAME = /…/flags;`) may be longer: it cannot be
    // split without building it from strings, which test/regex-safety.test.ts refuses (every regex must be a
    // literal recheck can read).
    if (width > MAX && !REGEX_LINE.test(line)) {
      if (!long.has(file)) long.set(file, []);
      long.get(file).push({ line: i + 1, width });
    }
  });
}

if (writeBaseline) {
  const text = [...long].map(([file, hits]) => `${file} ${hits.length}\n`).join('');
  writeFileSync(baselinePath, text);
  console.log(`line length: wrote ${long.size} files to ${baselinePath.slice(root.length)}`);
  process.exit(0);
}

const baseline = new Map();
if (existsSync(baselinePath)) {
  for (const entry of readFileSync(baselinePath, 'utf8').split('\n')) {
    const m = /^(\S+) (\d+)$/.exec(entry.trim());
    if (m) baseline.set(m[1], Number(m[2]));
  }
}

let failed = 0;
let allowed = 0;
for (const [file, hits] of long) {
  const budget = baseline.get(file) ?? 0;
  if (hits.length <= budget) {
    allowed += hits.length;
    continue;
  }
  failed += hits.length;
  for (const { line, width } of hits) console.log(`${file}:${line}: ${width} columns`);
  if (budget) console.log(`  ${file}: ${hits.length} long lines, baseline allows ${budget}`);
}
const shrunk = [...baseline].filter(([file, n]) => (long.get(file)?.length ?? 0) < n).length;
if (shrunk) console.log(`line length: ${shrunk} baseline entries are now too generous: run with --write-baseline`);
if (failed) {
  console.log(`line length: ${failed} lines over ${MAX} columns`);
  process.exit(1);
}
console.log(
  `line length: no line over ${MAX} columns${allowed ? ` beyond the baseline (${allowed} still listed)` : ''}`,
);
