/**
 * Schema-driven fuzzing of every query, mutation and subscription field:
 * for each argument (and each field of an input-object argument) wrong
 * types, malformed and other-type ids, empty / 300 KB / NUL / lone-surrogate
 * strings, negative and huge numbers, unknown enums and a JSON value 200
 * levels deep, as variables and inline. Every answer must be a coded error
 * or data, never INTERNAL_SERVER_ERROR, and a refused call writes no row
 * (row counts of every table before and after). It reads the built schema,
 * so new fields and arguments are covered without edits.
 */
import { createRequire } from 'node:module';
import type { GraphQLArgument, GraphQLField, GraphQLInputType, GraphQLObjectType } from 'graphql';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSchema } from '../src/schema/index.js';
import { createGraphQLHandler } from '../src/server.js';
import { createTestApp, type TestContext } from './support/harness.js';

// graphql as Pothos loads it (see test/contract.test.ts): the built schema's realm.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isLeafType } = graphql;

let t: TestContext;
let yoga: ReturnType<typeof createGraphQLHandler>;
let tables: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  yoga = createGraphQLHandler(t.app);
  const rows = await t.app.db.raw.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = ' +
      `current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%'`,
  );
  tables = rows.map((r) => r.table_name).sort();
}, 180_000);
afterAll(() => t?.close());

async function rowCounts(): Promise<Record<string, number>> {
  const sql = `SELECT ${tables.map((name, i) => `(SELECT count(*) FROM "${name}") AS c${i}`).join(', ')}`;
  const [row] = await t.app.db.raw.query<Record<string, string | number>>(sql);
  return Object.fromEntries(tables.map((name, i) => [name, Number(row![`c${i}`])]));
}

const UUID = '00000000-0000-4000-8000-000000000000';
const deepJson = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: [deepJson(levels - 1)] });

/** A value of the type that the server accepts as well-formed (ids of things that do not exist). */
function plausible(type: GraphQLInputType, argName: string): unknown {
  if (isNonNullType(type)) return plausible(type.ofType, argName);
  if (isListType(type)) return [plausible(type.ofType, argName)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields()))
      if (isNonNullType(field.type)) out[field.name] = plausible(field.type, field.name);
    return out;
  }
  switch (getNamedType(type).name) {
    case 'ID':
      return encodeGlobalID(
        /turn/i.test(argName)
          ? 'Turn'
          : /message/i.test(argName)
            ? 'Message'
            : /profile/i.test(argName)
              ? 'Profile'
              : 'Session',
        UUID,
      );
    case 'Int':
      return 1;
    case 'Float':
      return 1.5;
    case 'Boolean':
      return true;
    case 'JSON':
      return {};
    case 'DateTime':
      return '2026-01-01T00:00:00Z';
    case 'File':
      return null;
    default:
      return 'x';
  }
}

/** Bad values for a (nullable or not) input type. */
function badValues(type: GraphQLInputType): unknown[] {
  const named = getNamedType(type);
  const common: unknown[] = [{ nested: true }, [1, 2]];
  if (isNonNullType(type)) common.push(null);
  if (isEnumType(named)) return [...common, 'NOT_A_VALUE', 7];
  if (isInputObjectType(named)) return [...common, 'x', 5];
  switch (named.name) {
    case 'ID':
      return [
        ...common,
        12,
        '',
        'not base64 !',
        Buffer.from('garbage').toString('base64'),
        encodeGlobalID('Profile', UUID),
        encodeGlobalID('Session', 'not-a-uuid'),
        encodeGlobalID('Message', `${UUID}:-1`),
        'a\u0000b',
        'a\ud800',
      ];
    case 'Int':
    case 'Float':
      return [...common, 'x', -1, 2 ** 31, -(2 ** 31) - 1, 1e300, 0.5];
    case 'Boolean':
      return [...common, 'yes', 0];
    case 'JSON':
      return [deepJson(200), { k: 'a\u0000' }, 'a\ud800'];
    case 'DateTime':
      return [...common, 'yesterday', '', -1];
    case 'File':
      return ['x', { name: 'a' }];
    default:
      return [...common, 5, true, '', 'x'.repeat(300_000), 'a\u0000b', 'a\ud800b', '\udfff'];
  }
}

function selection(field: GraphQLField<unknown, unknown>): string {
  return isLeafType(getNamedType(field.type)) ? '' : '{ __typename }';
}

interface Case {
  root: 'query' | 'mutation' | 'subscription';
  label: string;
  query: string;
  variables: Record<string, unknown>;
}

/** Cases for one root field: each argument (and each input field) bad in turn, the rest plausible. */
function casesFor(root: Case['root'], field: GraphQLField<unknown, unknown>): Case[] {
  const cases: Case[] = [];
  const decls = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = field.args.length ? `(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const query = `${root}${decls ? `(${decls})` : ''} { ${field.name}${call} ${selection(field)} }`;
  const base = () => Object.fromEntries(field.args.map((a: GraphQLArgument) => [a.name, plausible(a.type, a.name)]));
  for (const arg of field.args) {
    for (const bad of badValues(arg.type))
      cases.push({ root, label: `${field.name}(${arg.name})`, query, variables: { ...base(), [arg.name]: bad } });
    const named = getNamedType(arg.type);
    if (isInputObjectType(named)) {
      for (const input of Object.values(named.getFields())) {
        for (const bad of badValues(input.type)) {
          const value = { ...(plausible(named, input.name) as object), [input.name]: bad };
          cases.push({
            root,
            label: `${field.name}(${arg.name}.${input.name})`,
            query,
            variables: { ...base(), [arg.name]: isListType(graphql.getNullableType(arg.type)) ? [value] : value },
          });
        }
      }
    }
    // Inline: a wrong literal and text with a NUL, where the argument is a leaf.
    if (isLeafType(named)) {
      const others = field.args.filter((a) => a !== arg);
      const otherDecls = others.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const args = (literal: string) =>
        `(${[`${arg.name}: ${literal}`, ...others.map((a) => `${a.name}: $${a.name}`)].join(', ')})`;
      const rest = Object.fromEntries(others.map((a) => [a.name, plausible(a.type, a.name)]));
      for (const literal of ['"a\\u0000b"', '{ x: 1 }', 'NOT_A_VALUE', '99999999999']) {
        cases.push({
          root,
          label: `${field.name}(${arg.name}: ${literal})`,
          query: `${root}${otherDecls ? `(${otherDecls})` : ''} { ${field.name}${args(literal)} ${selection(field)} }`,
          variables: rest,
        });
      }
    }
  }
  return cases;
}

type Errors = { message: string; extensions?: { code?: string } }[] | undefined;

async function run(c: Case): Promise<{ errors: Errors; data?: unknown }> {
  const subscription = c.root === 'subscription';
  const controller = new AbortController();
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: subscription ? 'text/event-stream' : 'application/graphql-response+json',
    },
    body: JSON.stringify({ query: c.query, variables: c.variables }),
    signal: controller.signal,
  });
  if (!subscription || !response.headers.get('content-type')?.includes('text/event-stream'))
    return (await response.json()) as never;
  // SSE: the first `next` tells; a subscription that was accepted and is waiting is left after a while.
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => controller.abort(), 3_000);
  try {
    for (;;) {
      const step = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (step.done) break;
      text += decoder.decode(step.value, { stream: true });
      const data = text.match(/event: next\ndata: (.*)\n/);
      if (data) return JSON.parse(data[1]!);
      if (/event: complete/.test(text)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { errors: undefined, data: 'live' };
}

it('no input reaches an internal error, every error has a code, a refused call writes nothing', async () => {
  const schema = buildSchema();
  const roots: [Case['root'], GraphQLObjectType | null | undefined][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  const cases = roots.flatMap(([root, type]) =>
    Object.values(type?.getFields() ?? {}).flatMap((field) => casesFor(root, field)),
  );
  expect(cases.length).toBeGreaterThan(300);
  const failures: string[] = [];
  let counts = await rowCounts();
  let refusedMutations = 0;
  for (const c of cases) {
    const result = await run(c);
    const errors = result.errors ?? [];
    for (const error of errors) {
      const code = error.extensions?.code;
      if (!code || code === 'INTERNAL_SERVER_ERROR')
        failures.push(
          `${c.label} ${JSON.stringify(c.variables).slice(0, 120)} ` +
            `→ ${code ?? 'no code'}: ${error.message.slice(0, 160)}`,
        );
    }
    if (c.root === 'mutation') {
      const after = await rowCounts();
      const refused =
        errors.length > 0 &&
        !(result.data as Record<string, unknown> | null | undefined)?.[Object.keys(result.data ?? {})[0] ?? ''];
      if (refused) refusedMutations++;
      if (refused && JSON.stringify(after) !== JSON.stringify(counts))
        failures.push(`${c.label} was refused but changed rows: ${JSON.stringify(counts)} → ${JSON.stringify(after)}`);
      counts = after;
    }
  }
  expect(failures.slice(0, 40)).toEqual([]);
  // The row check ran on many refused writes, not on none.
  expect(refusedMutations).toBeGreaterThan(200);
  console.log(`fuzz: ${cases.length} calls, ${refusedMutations} refused mutations`);
}, 900_000);
