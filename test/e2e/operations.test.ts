/**
 * Every GraphQL operation the web client sends is valid against the printed
 * schema (schema.graphql, which must contain the API contract:
 * test/contract.test.ts proves it holds the whole contract). Catches
 * field conflicts across event fragments, typos and drift without a browser.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const sources = readdirSync(join(root, 'web/src'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(root, 'web/src', f), 'utf8'));

/** Template literals that hold an operation; `${NAME}` interpolations resolved from the same sources. */
function operations(): { name: string; text: string }[] {
  const constants = new Map<string, string>();
  for (const source of sources)
    for (const m of source.matchAll(/const (\w+) = `([\s\S]*?)`;/g)) constants.set(m[1]!, m[2]!);
  const resolve = (text: string): string =>
    text.replace(/\$\{(\w+)\}/g, (_m, n: string) => resolve(constants.get(n) ?? ''));
  return [...constants]
    .filter(([, text]) => /^\s*(query|mutation|subscription)\b/.test(text))
    .map(([name, text]) => ({ name, text: resolve(text) }));
}

const schemas = [join(root, 'schema.graphql')];

describe('web client operations', () => {
  const ops = operations();
  it('finds the operations', () => expect(ops.length).toBeGreaterThanOrEqual(15));
  for (const file of [...new Set(schemas)]) {
    const schema = buildSchema(readFileSync(file, 'utf8'));
    for (const op of ops) {
      it(`${op.name} is valid against ${file.replace(root + '/', '')}`, () => {
        const errors = validate(schema, parse(op.text)).map((e) => e.message);
        expect(errors).toEqual([]);
      });
    }
  }
});
