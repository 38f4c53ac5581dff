/**
 * Client tool schemas are bounded (TOOL_SCHEMA_MAX_DEPTH, TOOL_SCHEMA_MAX_BYTES): a schema nested 10,000 levels
 * deep, which overflowed the stack on its way to the provider (PROVIDER_UNAVAILABLE), and one over the size limit
 * answer BAD_USER_INPUT naming the limit, write nothing and call no provider; one at the limits runs. The measure
 * is iterative and counts a schema's compact JSON exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { measureToolSchema } from '../src/turns/tool-schema.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

const SEND =
  'mutation($s: ID!, $p: JSON!) { sendMessage(input: { sessionId: $s, content: "hi", ' +
  'clientTools: [{ name: "lookup", description: "d", parameters: $p }] }) { turn { id } } }';

/**
 * The JSON text of a schema exactly `levels` deep (the outermost object is level 1): written as text, since
 * JSON.stringify itself overflows the stack on 10,000 levels.
 */
function deepText(levels: number): string {
  // Each step adds two levels (the object and its `properties`); an even count gets one wrapping object.
  const steps = Math.floor((levels - 1) / 2);
  const core = `${'{"type":"object","properties":{"a":'.repeat(steps)}{"type":"string"}${'}}'.repeat(steps)}`;
  return levels % 2 === 1 ? core : `{"wrap":${core}}`;
}

/** sendMessage with the tool's parameters given as JSON text, over real HTTP. */
async function send(parameters: string) {
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"query":${JSON.stringify(SEND)},"variables":{"s":${JSON.stringify(sessionId)},"p":${parameters}}}`,
  });
  return (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
}

let t: ServerContext;
let sessionId: string;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
  const r = await t.http('mutation { createSession(input: {}) { id } }', {});
  sessionId = (r.data as { createSession: { id: string } }).createSession.id;
}, 120_000);
afterAll(() => t?.close());

const rows = async () => ({
  turns: await t.app.db.prisma.turn.count(),
  messages: await t.app.db.prisma.sessionMessage.count(),
  queued: await t.app.db.prisma.pendingTurn.count(),
});

describe(`client tool schema limits (${dbKind})`, () => {
  it('the defaults: 64 levels, 64 KiB', () => {
    const c = loadConfig({});
    expect(c.toolSchemaMaxDepth).toBe(64);
    expect(c.toolSchemaMaxBytes).toBe(65_536);
  });

  it.each([
    ['nested 10,000 levels deep', () => deepText(10_000), /TOOL_SCHEMA_MAX_DEPTH \(64 levels\)/],
    ['one level over the depth limit', () => deepText(65), /TOOL_SCHEMA_MAX_DEPTH/],
    ['over 64 KiB as JSON', () => JSON.stringify({ description: 'x'.repeat(70_000) }), /TOOL_SCHEMA_MAX_BYTES/],
  ])('a schema %s answers BAD_USER_INPUT naming the limit, writes nothing, calls no provider', async (_n, make, re) => {
    const before = await rows();
    const calls = t.fake.requests.length;
    const r = await send(make());
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(re);
    expect(await rows()).toEqual(before);
    expect(t.fake.requests.length).toBe(calls);
  });

  it('a schema at the limits (64 levels) runs and reaches the provider', async () => {
    const schema = JSON.parse(deepText(64)) as unknown;
    expect(measureToolSchema(schema, { maxDepth: 64, maxBytes: 65_536 })).toBeNull();
    expect(measureToolSchema(schema, { maxDepth: 63, maxBytes: 65_536 })).toBe('depth');
    const calls = t.fake.requests.length;
    const r = await send(deepText(64));
    expect(r.errors).toBeUndefined();
    // The provider got the tool, its schema whole.
    const sent = await eventually(
      async () => t.fake.requests.slice(calls).map((q) => JSON.stringify(q)),
      (bodies) => bodies.some((b) => b.includes('"lookup"')),
    );
    expect(sent.find((b) => b.includes('"lookup"'))).toContain(JSON.stringify(schema));
    await eventually(
      async () => t.app.db.prisma.turn.count({ where: { status: { in: ['RUNNING', 'QUEUED'] } } }),
      (n) => n === 0,
    );
  });
});

describe('measureToolSchema', () => {
  const samples: unknown[] = [
    {},
    [],
    { a: [1, 'two', null, true, { b: 'é"\\\n' }], 'k"ey': -1.5e-7 },
    [[[[]]], {}, ''],
    { type: 'object', properties: { q: { type: 'string', enum: ['a', 'b'] } }, required: ['q'] },
  ];
  it.each(samples.map((sample) => [sample]))('counts %j as its compact JSON, exactly', (sample) => {
    const length = JSON.stringify(sample).length;
    expect(measureToolSchema(sample, { maxDepth: 64, maxBytes: length })).toBeNull();
    expect(measureToolSchema(sample, { maxDepth: 64, maxBytes: length - 1 })).toBe('bytes');
  });

  it('walks a million levels without recursion and stops at the depth limit', () => {
    let value: unknown = {};
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(measureToolSchema(value, { maxDepth: 64, maxBytes: 1e9 })).toBe('depth');
  });
});
