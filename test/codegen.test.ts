/**
 * The typed documents of test/generated/ (GraphQL Code Generator, client
 * preset, from schema.graphql and test/operations/**\/*.graphql; `npm run
 * codegen`): every operation validates against the live schema, the
 * generated files are current, and the typed documents run against the app.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import codegenConfig from '../codegen.js';
import { buildSchema } from '../src/schema/index.js';
import {
  CreateSessionDocument,
  type CreateSessionMutation,
  type CreateSessionMutationVariables,
  DeleteSessionDocument,
  HistoryPageDocument,
  RenameSessionDocument,
  SessionsPageDocument,
} from './generated/graphql.js';
import {
  createTestApp,
  dbKind,
  EVENTS_SUBSCRIPTION,
  type GqlResult,
  SESSION_EVENTS,
  type TestContext,
} from './support/harness.js';

/**
 * graphql as Pothos loads it (CommonJS). Under vitest a plain `import` of
 * graphql gets the ESM build, a second realm that cannot validate against a
 * schema Pothos built.
 */
const { parse, print, validate } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const OPERATIONS_DIR = resolve(REPO_ROOT, 'test/operations');
const GENERATED_DIR = resolve(REPO_ROOT, 'test/generated');

async function graphqlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? graphqlFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.graphql') ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat().sort();
}

describe('codegen documents', () => {
  it('every operation in test/operations validates against the live schema', async () => {
    const schema = buildSchema();
    const files = await graphqlFiles(OPERATIONS_DIR);
    expect(files.length).toBeGreaterThan(0);
    let operations = 0;
    for (const file of files) {
      const document = parse(await readFile(file, 'utf8'));
      operations += document.definitions.filter((d) => d.kind === 'OperationDefinition').length;
      expect(
        validate(schema, document).map((e) => e.message),
        relative(REPO_ROOT, file),
      ).toEqual([]);
    }
    expect(operations).toBeGreaterThanOrEqual(5);
  });

  it('SESSION_EVENTS (test/operations/events.graphql) selects what EVENTS_SUBSCRIPTION does', () => {
    const [typed] = SESSION_EVENTS.definitions;
    const [inline] = parse(EVENTS_SUBSCRIPTION).definitions;
    const shape = (d: typeof typed) =>
      d?.kind === 'OperationDefinition'
        ? [d.operation, ...(d.variableDefinitions ?? []).map((v) => print(v)), print(d.selectionSet)]
        : [];
    expect(shape(typed)).toHaveLength(4);
    expect(shape(typed)).toEqual(shape(inline));
  });

  it('test/generated is what `npm run codegen` writes now (not stale)', async () => {
    const { generate } = await import('@graphql-codegen/cli');
    const outputs = await generate({ ...codegenConfig, cwd: REPO_ROOT, silent: true }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      const path = resolve(REPO_ROOT, output.filename);
      expect(path.startsWith(GENERATED_DIR), output.filename).toBe(true);
      expect(await readFile(path, 'utf8'), `${output.filename} is stale: run \`npm run codegen\``).toBe(output.content);
    }
  });
});

describe(`typed documents against the app (${dbKind})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** Sends a generated document; result and variables are typed by it. */
  const run = <R, V extends Record<string, unknown>>(
    document: TypedDocumentNode<R, V>,
    variables: V,
  ): Promise<GqlResult<R>> => t.gql<R>(print(document), variables);

  it('CreateSession, RenameSession, SessionsPage, HistoryPage, DeleteSession', async () => {
    const variables: CreateSessionMutationVariables = { input: { name: 'typed' } };
    const created: GqlResult<CreateSessionMutation> = await run(CreateSessionDocument, variables);
    expect(created.errors).toBeUndefined();
    const session = created.data!.createSession;
    expect(session).toMatchObject({
      name: 'typed',
      titleSource: 'MANUAL',
      pinned: false,
      displayMessageCount: 0,
      preview: null,
    });
    expect(typeof session.profile.key).toBe('string');
    expect(Number.isNaN(Date.parse(session.createdAt))).toBe(false);

    const renamed = await run(RenameSessionDocument, { id: session.id, name: 'renamed' });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data!.renameSession).toEqual({ id: session.id, name: 'renamed', titleSource: 'MANUAL' });

    const page = await run(SessionsPageDocument, { first: 10, orderBy: 'NAME', direction: 'ASC' });
    expect(page.errors).toBeUndefined();
    expect(page.data!.sessions.edges.map((e) => e.node.id)).toContain(session.id);
    expect(page.data!.sessions.totalCount).toBeGreaterThanOrEqual(1);

    const history = await run(HistoryPageDocument, { id: session.id, last: 20 });
    expect(history.errors).toBeUndefined();
    expect(history.data!.session).toMatchObject({
      id: session.id,
      displayMessageCount: 0,
      history: { totalCount: 0, edges: [] },
    });

    const deleted = await run(DeleteSessionDocument, { id: session.id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data!.deleteSession.deletedSessionId).toBe(session.id);
    const gone = await run(HistoryPageDocument, { id: session.id });
    expect(gone.data!.session).toBeNull();
  });
});
