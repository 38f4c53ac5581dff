/**
 * Schema-driven fuzzing of every query, mutation and subscription field,
 * every argument of every nested field (reached through a real session) and
 * every argument of every executable directive (@include, @skip, @defer,
 * @stream, on queries and on a mutation):
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
import { createGraphQLHandler } from '../src/server.js';
import { startFakeProvider, type FakeProvider } from './support/fake-provider.js';
import { createTestApp, eventually, type TestContext } from './support/harness.js';

// graphql as Pothos loads it (see test/contract.test.ts): the built schema's realm.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isLeafType, isObjectType } = graphql;

let t: TestContext;
let fake: FakeProvider;
let yoga: ReturnType<typeof createGraphQLHandler>;
let tables: string[] = [];
/** Real objects the nested cases walk through (a session with messages, its profile). */
const real: Record<string, string> = {};
/** A session with two messages (again after a case deleted it), its id in `real`. */
async function realSession(): Promise<void> {
  const profile = await t.app.profiles.default();
  if (real.Session) {
    const [row] = await t.app.db.raw.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM sessions WHERE id = $1::uuid',
      [real.uuid],
    );
    if (Number(row!.n) > 0) return;
  }
  const session = await t.app.store.create({ profileId: profile.id, userId: 'anonymous', name: 'fuzzed' });
  await t.app.store.append(session.id, [
    { role: 'user', content: 'hello' },
    { role: 'assistant', content: 'hi' },
  ]);
  real.uuid = session.id;
  real.Session = encodeGlobalID('Session', session.id);
  real.Profile = encodeGlobalID('Profile', profile.id);
  real.Message = encodeGlobalID('Message', `${session.id}:1`);
}

/** Waits (with a deadline) until no turn runs or waits: an accepted sendMessage writes after its answer. */
async function quiet(): Promise<boolean> {
  const running = async () => {
    const [row] = await t.app.db.raw.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM turns WHERE status IN ('RUNNING', 'QUEUED')`,
    );
    return Number(row!.n);
  };
  return eventually(running, (n) => n === 0).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  fake = await startFakeProvider();
  t = await createTestApp({
    ollamaHost: fake.url,
    openaiBaseUrl: `${fake.url}/v1`,
    anthropicBaseUrl: fake.url,
    titleGenerationEnabled: false,
  });
  yoga = createGraphQLHandler(t.app);
  await realSession();
  const rows = await t.app.db.raw.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = ' +
      `current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%'`,
  );
  tables = rows.map((r) => r.table_name).sort();
}, 180_000);
afterAll(async () => {
  await t?.close();
  await fake?.stop();
});

async function rowCounts(): Promise<Record<string, number>> {
  const sql = `SELECT ${tables.map((name, i) => `(SELECT count(*) FROM "${name}") AS c${i}`).join(', ')}`;
  const [row] = await t.app.db.raw.query<Record<string, string | number>>(sql);
  return Object.fromEntries(tables.map((name, i) => [name, Number(row![`c${i}`])]));
}

const UUID = '00000000-0000-4000-8000-000000000000';
/** The made-up ids `plausible` gives, and the real ones a `real` case runs with. */
const FAKE_IDS = [encodeGlobalID('Session', UUID), encodeGlobalID('Profile', UUID), encodeGlobalID('Message', UUID)];
function withRealIds(c: Case): Case {
  const swap = (text: string) =>
    text
      .replaceAll(FAKE_IDS[0]!, real.Session!)
      .replaceAll(FAKE_IDS[1]!, real.Profile!)
      .replaceAll(FAKE_IDS[2]!, real.Message!);
  return { ...c, query: swap(c.query), variables: JSON.parse(swap(JSON.stringify(c.variables))) };
}
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
  /** run with the real session's ids in place of the made-up ones, so the call reaches past the lookup */
  real?: boolean;
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

/** Literal text of a plausible value, for the arguments of the hops that lead to a nested field. */
function literalOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${literalOf(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}

/** A plausible argument, with the real session / profile / message where the argument names one. */
function realArgument(arg: GraphQLArgument): string {
  const named = getNamedType(arg.type);
  if (named.name === 'ID') {
    const kind = /message/i.test(arg.name) ? 'Message' : /profile/i.test(arg.name) ? 'Profile' : 'Session';
    return JSON.stringify(real[kind]);
  }
  const value = plausible(arg.type, arg.name);
  return isEnumType(named) ? String(value) : literalOf(value);
}

/**
 * The shortest selection from Query to each object type, through fields whose required arguments are filled with
 * real ids (so the fields below it execute): `session(id: <real>) { history { edges { node` for Message.
 */
function pathsFromQuery(schema: import('graphql').GraphQLSchema): Map<string, { open: string; close: string }> {
  const paths = new Map<string, { open: string; close: string }>();
  const queue: [GraphQLObjectType, { open: string; close: string }][] = [
    [schema.getQueryType()!, { open: '', close: '' }],
  ];
  paths.set(schema.getQueryType()!.name, { open: '', close: '' });
  while (queue.length) {
    const [type, path] = queue.shift()!;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type);
      if (!isObjectType(target) || paths.has(target.name)) continue;
      if (field.args.some((a) => isNonNullType(a.type) && getNamedType(a.type).name === 'File')) continue;
      // Only the required arguments (and ids): optional ones keep their defaults.
      const args = field.args.filter((a) => isNonNullType(a.type)).map((a) => `${a.name}: ${realArgument(a)}`);
      const step = {
        open: `${path.open} ${field.name}${args.length ? `(${args.join(', ')})` : ''} {`,
        close: `} ${path.close}`,
      };
      paths.set(target.name, step);
      queue.push([target, step]);
    }
  }
  return paths;
}

/** Cases for the arguments of every field below the root, reached through real objects. */
function nestedCases(schema: import('graphql').GraphQLSchema): Case[] {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  const paths = pathsFromQuery(schema);
  const cases: Case[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.has(type) || type.name.startsWith('__')) continue;
    const path = paths.get(type.name);
    if (!path) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      for (const c of casesFor('query', field)) {
        // casesFor builds `query(<decls>) { field(...) sel }`: the field goes inside the path.
        const match = /^query(\([^)]*\))? \{ (.*) \}$/s.exec(c.query);
        if (!match) continue;
        cases.push({
          ...c,
          label: `${type.name}.${c.label}`,
          query: `query${match[1] ?? ''} {${path.open} ${match[2]} ${path.close}}`,
        });
      }
    }
  }
  return cases;
}

/** Where each executable directive goes, on a query and on a mutation (a refused mutation must write nothing). */
const DIRECTIVE_SITES: Record<string, ((d: string) => Case['query'])[]> = {
  include: [(d) => `{ viewer { __typename ${d} } }`, (d) => `{ createSession(input: {}) ${d} { id } }`],
  skip: [(d) => `{ viewer { __typename ${d} } }`, (d) => `{ createSession(input: {}) ${d} { id } }`],
  defer: [(d) => `{ viewer { ... ${d} { __typename } } }`, (d) => `{ createSession(input: {}) { ... ${d} { id } } }`],
  stream: [
    (d) => `{ sessions(first: 5) { edges ${d} { cursor } } }`,
    (d) => `{ createSession(input: {}) { history(first: 5) { edges ${d} { cursor } } } }`,
  ],
};

/** Cases for every argument of every directive the schema serves on executable locations. */
function directiveCases(schema: import('graphql').GraphQLSchema): { cases: Case[]; directives: string[] } {
  const cases: Case[] = [];
  const directives: string[] = [];
  for (const directive of schema.getDirectives()) {
    const sites = DIRECTIVE_SITES[directive.name];
    if (!sites) continue;
    directives.push(directive.name);
    for (const arg of directive.args) {
      // The other arguments as they must be (`label` is static: a literal or absent).
      const others = directive.args.filter((a) => a !== arg && isNonNullType(a.type));
      const rest = others.map((a) => `${a.name}: ${literalOf(plausible(a.type, a.name))}`);
      const bads = [...badValues(arg.type), ...(getNamedType(arg.type).name === 'Int' ? [null, -1000] : [])];
      sites.forEach((site, i) => {
        const root: Case['root'] = i === 0 ? 'query' : 'mutation';
        const d = (value: string) => `@${directive.name}(${[`${arg.name}: ${value}`, ...rest].join(', ')})`;
        for (const bad of bads)
          cases.push({
            root,
            label: `@${directive.name}(${arg.name}) on a ${root}`,
            query: `${root}($v: ${arg.type.toString()}) ${site(d('$v'))}`,
            variables: { v: bad },
          });
        for (const literal of ['-1', 'null', '"x"', '{ x: 1 }', 'NOT_A_VALUE', '99999999999', '"a\\u0000b"'])
          cases.push({
            root,
            label: `@${directive.name}(${arg.name}: ${literal}) on a ${root}`,
            query: `${root} ${site(d(literal))}`,
            variables: {},
          });
      });
    }
  }
  return { cases, directives };
}

type Errors = { message: string; extensions?: { code?: string } }[] | undefined;

type Payload = {
  errors?: Errors;
  data?: unknown;
  incremental?: { errors?: Errors }[];
  completed?: { errors?: Errors }[];
};

async function run(c: Case): Promise<{ errors: Errors; data?: unknown }> {
  const subscription = c.root === 'subscription';
  // @defer / @stream answer incrementally: read them as SSE, every payload.
  const incremental = /@(defer|stream)\b/.test(c.query);
  const controller = new AbortController();
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: subscription || incremental ? 'text/event-stream' : 'application/graphql-response+json',
    },
    body: JSON.stringify({ query: c.query, variables: c.variables }),
    signal: controller.signal,
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    const body = await response.text();
    try {
      return JSON.parse(body) as never;
    } catch {
      return { errors: [{ message: `HTTP ${response.status}, not JSON: ${body.slice(0, 100)}` }] };
    }
  }
  // SSE: a subscription's first `next` tells (one that was accepted and is waiting is left after a while); an
  // incremental query is read to its end, the errors of every payload together.
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const payloads: Payload[] = [];
  const timer = setTimeout(() => controller.abort(), subscription ? 3_000 : 30_000);
  try {
    for (;;) {
      const step = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (step.done) break;
      text += decoder.decode(step.value, { stream: true });
      for (let m = /event: next\ndata: (.*)\n\n/.exec(text); m; m = /event: next\ndata: (.*)\n\n/.exec(text)) {
        payloads.push(JSON.parse(m[1]!) as Payload);
        text = text.slice(m.index + m[0].length);
      }
      if (subscription && payloads.length) return payloads[0] as never;
      if (/event: complete/.test(text)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  if (subscription) return { errors: undefined, data: 'live' };
  const errors = payloads.flatMap((p) => [
    ...(p.errors ?? []),
    ...(p.incremental ?? []).flatMap((i) => i.errors ?? []),
    ...(p.completed ?? []).flatMap((i) => i.errors ?? []),
  ]);
  return { errors, data: payloads[0]?.data };
}

it('no input reaches an internal error, every error has a code, a refused call writes nothing', async () => {
  // The schema as served: the @defer and @stream definitions included.
  const schema = yoga.getEnveloped({}).schema as import('graphql').GraphQLSchema;
  const roots: [Case['root'], GraphQLObjectType | null | undefined][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  const nested = nestedCases(schema);
  const onDirectives = directiveCases(schema);
  const cases = [
    ...roots.flatMap(([root, type]) =>
      Object.values(type?.getFields() ?? {}).flatMap((field) => casesFor(root, field)),
    ),
    ...nested,
    ...onDirectives.cases,
    // Mutations again on a real session: a bad argument must be refused before the write, not only by a lookup.
    ...Object.values(schema.getMutationType()?.getFields() ?? {})
      .flatMap((field) => casesFor('mutation', field))
      .filter((c) => FAKE_IDS.some((id) => JSON.stringify(c.variables).includes(id)))
      .map((c) => ({ ...c, label: `${c.label} (real session)`, real: true })),
  ];
  expect(cases.length).toBeGreaterThan(300);
  // Every executable directive the server serves has its sites (a new one fails here until it has).
  expect(onDirectives.directives.sort()).toEqual(['defer', 'include', 'skip', 'stream']);
  expect(
    schema
      .getDirectives()
      .filter((d) => d.locations.some((l) => ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'].includes(l)))
      .map((d) => d.name)
      .sort(),
  ).toEqual(['defer', 'include', 'skip', 'stream']);
  // Nested arguments reached: history, messages and the like on a real session.
  expect(nested.length).toBeGreaterThan(100);
  const failures: string[] = [];
  let counts = await rowCounts();
  let refusedMutations = 0;
  let realCases = 0;
  for (const planned of cases) {
    let c = planned;
    if (c.real) {
      await realSession();
      if (!(await quiet())) failures.push(`${c.label}: a turn still runs a minute after the previous case`);
      counts = await rowCounts();
      c = withRealIds(c);
      realCases++;
    }
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
  expect(realCases).toBeGreaterThan(200);
  console.log(
    `fuzz: ${cases.length} calls (${nested.length} nested, ${onDirectives.cases.length} on directives, ` +
      `${realCases} mutations on a real session), ` +
      `${refusedMutations} refused mutations`,
  );
}, 900_000);
