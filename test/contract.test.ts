/**
 * The API contract (shared/design/api.graphql) against the schema the server
 * builds: every type, field, argument (name, type, default), enum value,
 * interface membership, input field and union member the contract names must
 * exist identically. Extras on the server are fine (additive), except new
 * required arguments or input fields, which would break contract clients.
 *
 * What later issues will add is listed in PENDING, each skipped with its
 * reason. A PENDING entry that is already implemented FAILS the suite, so the
 * list only shrinks. Also checks schema.graphql is not stale.
 *
 * The contract is read from CONTRACT_PATH, else from the copy kept in the
 * repository (test/contract/api.graphql); .ci/run checks that copy against
 * the design's original when one is laid beside the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { GraphQLArgument, GraphQLField, GraphQLInputField, GraphQLNamedType, GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema, servedSchema } from '../src/schema/index.js';

/**
 * graphql as Pothos loads it. Under vitest, `import 'graphql'` in a test (or
 * in src/) resolves to graphql's ESM build while Pothos, run by Node, gets
 * the CommonJS one: two realms, and every isObjectType()/printSchema() on a
 * built schema throws "from another module or realm". Requiring it gives the
 * instance the server's schema was built with.
 */
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const {
  astFromValue,
  buildASTSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
} = graphql;

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONTRACT_PATH = resolve(REPO_ROOT, process.env.CONTRACT_PATH ?? 'test/contract/api.graphql');

type Issue = 3 | 4 | 6 | 7;
interface Pending {
  entry: string;
  issue: Issue;
  reason: string;
}
const pending = (issue: Issue, reason: string, ...entries: string[]): Pending[] =>
  entries.map((entry) => ({ entry, issue, reason }));

/**
 * Contract parts not implemented yet: `Type` (the whole type) or
 * `Type.field` (a field, argument or input field, enum value). Remove an
 * entry in the change that implements it; this test fails until you do.
 */
const PENDING: readonly Pending[] = [
  // Issue 3 (turns and streaming: sendMessage, cancelTurn, submitToolResult,
  // Query.turn, Session.activeTurn/usage/cost, Cost, their inputs and payloads)
  // is implemented: nothing pending.
  // Issue 4 (compression and memory: compactSession, compressionPlan,
  // memorySearch and their types) is implemented: nothing pending.
  // Issue 6 (share links, session files and uploads, export/import) is implemented: nothing pending.
  // Issue 7 (editing, branches, checkpoints, edit stats) is implemented: nothing pending.
];

interface Problem {
  /** `Type` or `Type.member`: what a PENDING entry names. */
  key: string;
  message: string;
}

const typeKind = (t: GraphQLNamedType) =>
  isObjectType(t)
    ? 'object'
    : isInterfaceType(t)
      ? 'interface'
      : isUnionType(t)
        ? 'union'
        : isEnumType(t)
          ? 'enum'
          : isInputObjectType(t)
            ? 'input'
            : 'scalar';

const defaultOf = (a: GraphQLArgument | GraphQLInputField) => {
  if (a.defaultValue === undefined) return undefined;
  const ast = astFromValue(a.defaultValue, a.type);
  return ast ? print(ast) : String(a.defaultValue);
};

const isRequired = (a: GraphQLArgument | GraphQLInputField) => isNonNullType(a.type) && a.defaultValue === undefined;

/** Arguments or input fields: the contract's must exist with the same type and default; no new required ones. */
function compareInputs(
  key: string,
  label: string,
  contract: readonly (GraphQLArgument | GraphQLInputField)[],
  server: readonly (GraphQLArgument | GraphQLInputField)[],
): Problem[] {
  const problems: Problem[] = [];
  for (const want of contract) {
    const have = server.find((a) => a.name === want.name);
    if (!have) problems.push({ key, message: `${label} ${want.name}: ${want.type} missing` });
    else {
      if (String(have.type) !== String(want.type))
        problems.push({ key, message: `${label} ${want.name}: ${have.type}, contract says ${want.type}` });
      if (want.defaultValue !== undefined && defaultOf(have) !== defaultOf(want))
        problems.push({
          key,
          message: `${label} ${want.name}: default ${defaultOf(have) ?? 'none'}, contract says ${defaultOf(want)}`,
        });
    }
  }
  for (const extra of server)
    if (!contract.some((a) => a.name === extra.name) && isRequired(extra))
      problems.push({ key, message: `${label} ${extra.name}: ${extra.type} is required but not in the contract` });
  return problems;
}

function compareField(
  key: string,
  want: GraphQLField<unknown, unknown>,
  have: GraphQLField<unknown, unknown>,
): Problem[] {
  const problems: Problem[] = [];
  if (String(have.type) !== String(want.type))
    problems.push({ key, message: `${key}: ${have.type}, contract says ${want.type}` });
  problems.push(...compareInputs(key, `${key} argument`, want.args, have.args));
  return problems;
}

/** Everything in `contract` that `server` lacks or has differently. */
function contractProblems(contract: GraphQLSchema, server: GraphQLSchema): Problem[] {
  const problems: Problem[] = [];
  for (const want of Object.values(contract.getTypeMap())) {
    if (isIntrospectionType(want) || isSpecifiedScalarType(want)) continue;
    const name = want.name;
    const have = server.getType(name);
    if (!have) {
      problems.push({ key: name, message: `${typeKind(want)} ${name} missing` });
      continue;
    }
    if (typeKind(have) !== typeKind(want)) {
      problems.push({ key: name, message: `${name} is ${typeKind(have)}, contract says ${typeKind(want)}` });
      continue;
    }
    if ((isObjectType(want) || isInterfaceType(want)) && (isObjectType(have) || isInterfaceType(have))) {
      const fields = have.getFields();
      for (const field of Object.values(want.getFields())) {
        const key = `${name}.${field.name}`;
        if (!fields[field.name]) problems.push({ key, message: `${key}: ${field.type} missing` });
        else problems.push(...compareField(key, field, fields[field.name]));
      }
      const interfaces = have.getInterfaces().map((i) => i.name);
      for (const iface of want.getInterfaces())
        if (!interfaces.includes(iface.name))
          problems.push({ key: name, message: `${name} does not implement ${iface.name}` });
    } else if (isEnumType(want) && isEnumType(have)) {
      for (const value of want.getValues())
        if (!have.getValue(value.name))
          problems.push({ key: `${name}.${value.name}`, message: `enum value ${name}.${value.name} missing` });
    } else if (isInputObjectType(want) && isInputObjectType(have)) {
      const fields = Object.values(have.getFields());
      for (const field of Object.values(want.getFields())) {
        const key = `${name}.${field.name}`;
        problems.push(
          ...compareInputs(
            key,
            'input field',
            [field],
            fields.filter((f) => f.name === field.name),
          ),
        );
      }
      for (const extra of fields)
        if (!want.getFields()[extra.name] && isRequired(extra))
          problems.push({
            key: name,
            message: `input field ${name}.${extra.name}: ${extra.type} is required but not in the contract`,
          });
    } else if (isUnionType(want) && isUnionType(have)) {
      const members = have.getTypes().map((t) => t.name);
      for (const member of want.getTypes())
        if (!members.includes(member.name))
          problems.push({ key: name, message: `union ${name} lacks member ${member.name}` });
    } else if (isScalarType(want)) {
      // Custom scalars: existence is the contract.
    }
  }
  // Root operation types by role, not only by name.
  const roots = (s: GraphQLSchema) => ({
    query: s.getQueryType(),
    mutation: s.getMutationType(),
    subscription: s.getSubscriptionType(),
  });
  for (const op of ['query', 'mutation', 'subscription'] as const) {
    const want = roots(contract)[op];
    const have = roots(server)[op];
    if (want && want.name !== have?.name)
      problems.push({
        key: want.name,
        message: `${op} root type is ${have?.name ?? 'missing'}, contract says ${want.name}`,
      });
  }
  return problems;
}

const covers = (entry: string, key: string) => key === entry || key.startsWith(`${entry}.`);

function loadContract(): GraphQLSchema {
  if (!existsSync(CONTRACT_PATH)) throw new Error(`API contract not found at ${CONTRACT_PATH} (set CONTRACT_PATH)`);
  return buildASTSchema(parse(readFileSync(CONTRACT_PATH, 'utf8')));
}

describe('API contract', () => {
  const contract = loadContract();
  const server = buildSchema();
  const problems = contractProblems(contract, server);
  const pendingFor = (key: string) => PENDING.find((p) => covers(p.entry, key));
  const contractTypes = Object.values(contract.getTypeMap()).filter(
    (t) => !isIntrospectionType(t) && !isSpecifiedScalarType(t),
  );

  it('is loaded and non-trivial', () => {
    expect(contractTypes.length).toBeGreaterThan(40);
    expect(Object.keys(contract.getQueryType()!.getFields()).length).toBeGreaterThan(5);
  });

  it('the comparison finds differences and nothing in identical schemas', () => {
    expect(contractProblems(contract, contract)).toEqual([]);
    expect(contractProblems(server, server)).toEqual([]);
    const altered = buildASTSchema(
      parse(
        readFileSync(CONTRACT_PATH, 'utf8')
          .replace('renameSession(id: ID!, name: String!): Session!', 'renameSession(id: ID!, name: String): Session')
          .replace('first: Int = 50', 'first: Int = 20')
          .replace('type User implements Node', 'type User')
          .replace(/enum SortDirection \{\s*ASC/, 'enum SortDirection {')
          .replace('profileId: ID\n  name: String\n}', 'profileId: ID\n  name: String\n  extra: String!\n}'),
      ),
    );
    expect(
      contractProblems(contract, altered)
        .map((p) => p.message)
        .sort(),
    ).toEqual(
      [
        'Mutation.renameSession: Session, contract says Session!',
        'Mutation.renameSession argument name: String, contract says String!',
        'Query.sessions argument first: default 20, contract says 50',
        'User does not implement Node',
        'enum value SortDirection.ASC missing',
        'input field CreateSessionInput.extra: String! is required but not in the contract',
      ].sort(),
    );
  });

  for (const type of contractTypes) {
    const own = problems.filter(
      (p) => (p.key === type.name || p.key.startsWith(`${type.name}.`)) && !pendingFor(p.key),
    );
    const wholeTypePending = PENDING.find((p) => p.entry === type.name);
    if (wholeTypePending) continue; // reported by the PENDING skips below
    it(`${typeKind(type)} ${type.name} matches the contract`, () => {
      expect(own.map((p) => p.message)).toEqual([]);
    });
  }

  for (const p of PENDING) {
    it.skip(`PENDING ${p.entry}: ${p.reason}`, () => {});
  }

  it('PENDING lists only what is still missing (remove entries once implemented)', () => {
    const implemented = PENDING.filter((p) => !problems.some((x) => covers(p.entry, x.key))).map((p) => p.entry);
    expect(implemented).toEqual([]);
  });

  it('PENDING names things the contract has, each once', () => {
    const known = new Set<string>();
    for (const t of contractTypes) {
      known.add(t.name);
      if (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t))
        for (const f of Object.keys(t.getFields())) known.add(`${t.name}.${f}`);
      if (isEnumType(t)) for (const v of t.getValues()) known.add(`${t.name}.${v.name}`);
    }
    expect(PENDING.map((p) => p.entry).filter((e) => !known.has(e))).toEqual([]);
    const entries = PENDING.map((p) => p.entry);
    expect(entries.filter((e, i) => entries.indexOf(e) !== i)).toEqual([]);
  });
});

describe('schema.graphql', () => {
  it('is the printed server schema (not stale: run `npm run schema:print`)', () => {
    const file = readFileSync(resolve(REPO_ROOT, 'schema.graphql'), 'utf8');
    // printableSchema() is lexicographicSortSchema(servedSchema()); called here in
    // Pothos's graphql realm, since src/'s own graphql import is the other one under vitest.
    expect(file).toBe(`${printSchema(lexicographicSortSchema(servedSchema()))}\n`);
  });
});
