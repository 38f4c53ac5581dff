/** Writes the sorted SDL to schema.graphql; with --check, fails when the file is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { printableSchema } from '../src/schema/index.js';

const path = new URL('../schema.graphql', import.meta.url);
const sdl = `${printSchema(printableSchema())}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== sdl) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit it');
    process.exit(1);
  }
  console.log('schema.graphql is up to date');
} else {
  writeFileSync(path, sdl);
  console.log('wrote schema.graphql');
}
