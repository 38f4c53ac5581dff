/**
 * The store is the only place that speaks SQL: outside src/store (and the
 * database layer, the generated client and the schema builder, which hands
 * Pothos' prisma plugin its client) no module imports the Prisma client,
 * reaches `.prisma`, runs raw SQL or uses the raw driver: Pothos reads that
 * take a `query` go through store methods that accept it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
// builder.ts hands Pothos' prisma plugin its client (`client: (ctx) => …`): the plugin's own reads, nothing else.
const ALLOWED = ['src/store/', 'src/db/', 'src/generated/', 'src/schema/builder.ts'];

const FORBIDDEN: [string, RegExp][] = [
  ['imports the Prisma client', /from\s+['"][^'"]*generated\/prisma[^'"]*['"]|from\s+['"]@prisma\/client['"]/],
  ['reaches .prisma', /\.prisma\b(?!\/)/],
  ['runs raw SQL through Prisma', /\$(queryRaw|executeRaw)(Unsafe)?\b/],
  ['opens a Prisma transaction', /\$transaction\b/],
  ['uses the raw driver', /\.raw\.(query|exec|withConnection)\b/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Code only: comments may name what they like. */
function withoutComments(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^\s*(\*|\/\/|\/\*)/.test(line) ? '' : line))
    .join('\n');
}

describe('store boundary', () => {
  it('keeps Prisma and SQL inside src/store', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (ALLOWED.some((dir) => rel.startsWith(dir))) continue;
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const [what, pattern] of FORBIDDEN) if (pattern.test(code)) offences.push(`${rel} ${what}`);
    }
    expect(offences).toEqual([]);
  });

  it('would notice an offence', () => {
    const sample =
      "import type { Turn } from '../generated/prisma/client.js';\nawait " +
      "app.db.prisma.turn.count();\nawait tx.$queryRawUnsafe('SELECT 1');";
    expect(FORBIDDEN.filter(([, p]) => p.test(sample)).map(([what]) => what)).toEqual([
      'imports the Prisma client',
      'reaches .prisma',
      'runs raw SQL through Prisma',
    ]);
  });
});
