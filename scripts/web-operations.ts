/**
 * The GraphQL operations of the web client (web/src/*.ts), read from the one
 * form they are written in: `const NAME = \`…\`;` template literals, with
 * `${NAME}` interpolations resolved from the same sources. Used by
 * scripts/codegen-web.ts (the persisted-documents manifest) and
 * test/e2e/operations.test.ts (every operation is valid and persisted).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DefinitionNode, Kind, parse, print } from 'graphql';

export interface WebOperation {
  /** the constant's name (`OLDER`) */
  constant: string;
  /** the operation's own name (`Older`): the key of its persisted id */
  name: string | null;
  /** the document as the client sends it (fragments included) */
  text: string;
}

export function webOperations(root = process.cwd()): WebOperation[] {
  const dir = join(root, 'web/src');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const constants = new Map<string, string>();
  for (const source of sources)
    for (const m of source.matchAll(/const (\w+) = `([\s\S]*?)`;/g)) constants.set(m[1]!, m[2]!);
  const resolve = (text: string): string =>
    text.replace(/\$\{(\w+)\}/g, (_m, n: string) => resolve(constants.get(n) ?? ''));
  return [...constants]
    .filter(([, text]) => /^\s*(query|mutation|subscription)\b/.test(text))
    .map(([constant, text]) => ({
      constant,
      name: /^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(text)?.[1] ?? null,
      text: resolve(text),
    }));
}

/**
 * All operations as one document, each fragment once (several operations
 * spread the same fragment): what GraphQL Code Generator reads.
 */
export function webOperationsDocument(root = process.cwd()): string {
  const definitions = new Map<string, DefinitionNode>();
  for (const op of webOperations(root))
    for (const definition of parse(op.text).definitions) {
      const name = 'name' in definition ? definition.name?.value : undefined;
      if (!name) throw new Error(`web/src: ${op.constant} holds an unnamed definition`);
      definitions.set(`${definition.kind}:${name}`, definition);
    }
  return print({ kind: Kind.DOCUMENT, definitions: [...definitions.values()] });
}
