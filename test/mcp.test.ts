/**
 * The MCP server at /mcp, driven by the official SDK's `Client` over
 * `StreamableHTTPClientTransport` against a real server (the test database:
 * PGlite, or PostgreSQL with TEST_DATABASE_URL; the model faked at its HTTP
 * boundary): the tools, the history resource, the same API keys and access
 * policy as GraphQL (a read_all key cannot send, a user never sees another's
 * session), stateless mode (GET and DELETE answer 405), the send that answers
 * with the turn id when the answer takes too long, local mode's CSRF and
 * Origin rules, and the SDK loaded only on the first /mcp request.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpLoaded } from '../src/protocols/mcp/route.js';
import { gate } from './support/fake-provider.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

let t: ServerContext;
let alice: string;
let bob: string;
let auditor: string;
const clients: Client[] = [];
/** The client's request timeout above the server's wait (MCP_SEND_WAIT_MS below). */
const LONG = { timeout: 110_000 };

beforeAll(async () => {
  t = await createTestServer({
    authEnabled: true,
    titleGenerationEnabled: false,
    contextCompressionEnabled: false,
    corsOrigins: ['https://agent.example'],
    // A loaded machine may take a while to answer: the send waits longer than the default (the client too, below).
    mcpSendWaitMs: 100_000,
  });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  auditor = (await t.app.auth.createUser('auditor', { permissions: ['sessions.read_all'] })).key;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await t?.close();
});

async function connect(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Calls a tool and returns its JSON answer (a tool error fails the test with its text). */
async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args }, undefined, LONG)) as ToolAnswer;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text!) as T;
}

/** Calls a tool that must fail, returning the error text. */
async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  expect(result.isError).toBe(true);
  return result.content[0]!.text!;
}

async function sessionOf(key: string, name: string): Promise<{ id: string; raw: string }> {
  const viewer = (await t.app.auth.viewerFor(`Bearer ${key}`))!;
  const session = await t.app.sessions.create(viewer, { name });
  return { id: Buffer.from(`Session:${session.id}`).toString('base64'), raw: session.id };
}

interface SessionList {
  sessions: { id: string; name: string | null; matches?: { displayIndices: number[]; snippet: string } }[];
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
interface History {
  totalCount: number;
  messages: { id: string; displayIndex: number; role: string; content: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

describe(`MCP at /mcp (${dbKind})`, () => {
  it('loads the SDK on the first /mcp request only: only the dynamically imported module imports it', async () => {
    const before = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify({ query: '{ viewer { name } }' }),
    });
    expect(before.status).toBe(200);
    expect(mcpLoaded()).toBe(false);
    await connect(t.url, alice);
    expect(mcpLoaded()).toBe(true);

    const src = fileURLToPath(new URL('../src/', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const importers = files(src)
      .filter((f) => f.endsWith('.ts') && /from '@modelcontextprotocol\/sdk/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(src.length));
    expect(importers).toEqual(['protocols/mcp/server.ts']);
    const staticServerImports = files(src).filter(
      (f) => f.endsWith('.ts') && /^import [^;]*from '\.\/server\.js'/m.test(readFileSync(f, 'utf8')),
    );
    expect(staticServerImports.filter((f) => f.includes('protocols/mcp'))).toEqual([]);
  });

  it('lists its tools (zod input schemas) and the history resource template', async () => {
    const client = await connect(t.url, alice);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compact_session',
      'list_sessions',
      'read_history',
      'search_sessions',
      'send_message',
    ]);
    const send = tools.find((tool) => tool.name === 'send_message')!;
    expect(send.inputSchema.required).toEqual(['sessionId', 'content']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['session://{sessionId}/history']);
  });

  it('sends a message answered by the model, then lists, searches and reads it page by page', async () => {
    const client = await connect(t.url, alice);
    const s = await sessionOf(alice, 'mcp first');
    t.fake.enqueue({ text: 'Paris is the capital.' });
    const sent = await call(client, 'send_message', { sessionId: s.id, content: 'capital of zanzibarland?' });
    expect(sent).toMatchObject({ status: 'COMPLETED', answer: 'Paris is the capital.', sessionId: s.id });
    const turnId = Buffer.from(String(sent.turnId), 'base64').toString();
    expect(turnId).toMatch(/^Turn:/);
    expect((await t.app.turns.readable((await t.app.auth.viewerFor(`Bearer ${alice}`))!, turnId.slice(5))).status).toBe(
      'COMPLETED',
    );

    const list = await call<SessionList>(client, 'list_sessions', {});
    expect(list.sessions.map((x) => x.id)).toContain(s.id);

    const found = await call<SessionList>(client, 'search_sessions', { query: 'ZANZIBARLAND' });
    expect(found.sessions.map((x) => x.id)).toEqual([s.id]);
    expect(found.sessions[0]!.matches!.displayIndices).toEqual([0]);
    expect(found.sessions[0]!.matches!.snippet).toContain('zanzibarland');

    const newest = await call<History>(client, 'read_history', { sessionId: s.id, last: 1 });
    expect(newest.totalCount).toBe(2);
    expect(newest.messages.map((m) => [m.role, m.content])).toEqual([['assistant', 'Paris is the capital.']]);
    expect(newest.pageInfo.hasPreviousPage).toBe(true);
    const older = await call<History>(client, 'read_history', {
      sessionId: s.id,
      last: 1,
      before: newest.pageInfo.startCursor,
    });
    expect(older.messages.map((m) => [m.displayIndex, m.role, m.content])).toEqual([
      [0, 'user', 'capital of zanzibarland?'],
    ]);
    expect(older.pageInfo.hasPreviousPage).toBe(false);

    const uri = `session://${s.raw}/history`;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    const resource = JSON.parse((read.contents[0] as { text: string }).text) as History;
    expect(resource.messages.map((m) => m.content)).toEqual(['capital of zanzibarland?', 'Paris is the capital.']);

    const bad = await refused(client, 'read_history', { sessionId: s.id, first: 1, last: 1 });
    expect(bad).toBe('BAD_USER_INPUT: Pass either first or last, not both');
  });

  it("a turn the provider fails is a tool error with the turn's code; nothing but the message is kept", async () => {
    const client = await connect(t.url, alice);
    const s = await sessionOf(alice, 'mcp failing');
    t.fake.enqueue({ status: 400, errorBody: { error: 'no such model' } });
    const result = (await client.callTool(
      { name: 'send_message', arguments: { sessionId: s.id, content: 'will fail' } },
      undefined,
      LONG,
    )) as ToolAnswer;
    expect(result.isError).toBe(true);
    const failed = result.structuredContent as { status: string; turnId: string; error: { code: string } };
    expect(failed.status).toBe('FAILED');
    expect(result.content[0]!.text).toMatch(new RegExp(`^${failed.error.code}: `));
    expect(failed.error.code).toMatch(/^[A-Z_]+$/);
    expect(failed.turnId).toBeTruthy();
    const history = await call<History>(client, 'read_history', { sessionId: s.id });
    expect(history.messages.map((m) => m.role)).toEqual(['user']);
  });

  it("compacts a session; the service's refusal (nothing to compact) comes back as its code", async () => {
    const client = await connect(t.url, alice);
    const s = await sessionOf(alice, 'mcp compact');
    expect(await refused(client, 'compact_session', { sessionId: s.id })).toMatch(/^NOTHING_TO_COMPACT: /);
    await t.app.store.append(
      s.raw,
      Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `filler ${i}` }) as const),
    );
    t.fake.enqueue({ text: '- a summary\nKEYS: filler' });
    const compacted = await call(client, 'compact_session', { sessionId: s.id });
    expect(compacted.summary).toContain('a summary');
    expect(Number(compacted.messagesAfter)).toBeLessThan(Number(compacted.messagesBefore));
  });

  it('answers with the turn id when the answer takes longer than MCP_SEND_WAIT_MS; the turn goes on', async () => {
    const client = await connect(t.url, alice);
    const s = await sessionOf(alice, 'mcp slow');
    const held = gate();
    t.fake.enqueue({ text: 'late answer', gate: held.promise });
    const config = t.app.config as { mcpSendWaitMs: number };
    const wait = config.mcpSendWaitMs;
    config.mcpSendWaitMs = 0;
    let sent: Record<string, unknown>;
    try {
      sent = await call(client, 'send_message', { sessionId: s.id, content: 'take your time' });
    } finally {
      config.mcpSendWaitMs = wait;
      held.open();
    }
    expect(sent.status).toBe('RUNNING');
    expect(sent.answer).toBeUndefined();
    expect(String(sent.note)).toContain('read_history');
    const history = await eventually(
      () => call<History>(client, 'read_history', { sessionId: s.id }),
      (h) => h.messages.some((m) => m.role === 'assistant'),
    );
    expect(history.messages.at(-1)!.content).toBe('late answer');
  });

  it('same keys and policy: read_all reads but cannot send, another user sees nothing, no key is refused', async () => {
    const s = await sessionOf(alice, 'alice private');
    const reader = await connect(t.url, auditor);
    const read = await call<History>(reader, 'read_history', { sessionId: s.id });
    expect(read.totalCount).toBe(0);
    const modelCalls = t.fake.requests.length;
    expect(await refused(reader, 'send_message', { sessionId: s.id, content: 'hijack' })).toBe(
      'NOT_FOUND: Session not found',
    );
    expect(await refused(reader, 'compact_session', { sessionId: s.id })).toBe('NOT_FOUND: Session not found');
    expect((await t.app.store.get(s.raw))!.displayCount).toBe(0);
    expect(await t.app.turns.turnCount(s.raw)).toBe(0);
    expect(t.fake.requests.length).toBe(modelCalls);

    const other = await connect(t.url, bob);
    const list = await call<SessionList>(other, 'list_sessions', { first: 200 });
    expect(list.sessions.map((x) => x.id)).not.toContain(s.id);
    const searched = await call<SessionList>(other, 'search_sessions', { query: 'zanzibarland' });
    expect(searched.sessions).toEqual([]);
    expect(await refused(other, 'read_history', { sessionId: s.id })).toBe('NOT_FOUND: Session not found');
    await expect(other.readResource({ uri: `session://${s.raw}/history` })).rejects.toThrow(/NOT_FOUND/);
    const { resources } = await other.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(`session://${s.raw}/history`);

    await expect(connect(t.url)).rejects.toThrow();
    await expect(connect(t.url, 'csk_not_a_key')).rejects.toThrow();
    const raw = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('is stateless: GET and DELETE answer 405, no session id is issued', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${alice}`, accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    const init = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alice}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
  });

  it('lets a browser client on a CORS_ORIGINS origin send the MCP headers', async () => {
    const preflight = await fetch(`${t.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://agent.example');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version']));
  });
});

describe(`MCP in local mode (${dbKind})`, () => {
  let local: ServerContext;
  beforeAll(async () => {
    local = await createTestServer({
      titleGenerationEnabled: false,
      contextCompressionEnabled: false,
      requestBodyTimeoutMs: 1_000,
    });
  });
  afterAll(() => local?.close());

  it('serves anonymous callers with the same CSRF and Origin rules as GraphQL', async () => {
    const client = await connect(local.url);
    const viewer = (await local.app.auth.viewerFor(null))!;
    const session = await local.app.sessions.create(viewer, { name: 'local one' });
    const list = await call<SessionList>(client, 'list_sessions', {});
    expect(list.sessions.map((x) => x.name)).toContain('local one');
    expect(session.userId).toBe('anonymous');

    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const form = await fetch(`${local.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body,
    });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain('CSRF_HEADER_REQUIRED');
    const foreign = await fetch(`${local.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'https://evil.example',
      },
      body,
    });
    expect(foreign.status).toBe(403);
  });

  it('refuses a body that stops arriving (REQUEST_BODY_TIMEOUT_MS) and one that is not JSON', async () => {
    const { port } = new URL(local.url);
    const stalled = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: '/mcp',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': '200',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"jsonrpc":"2.0",');
    });
    expect(stalled.status).toBe(408);
    expect(stalled.body).toContain('REQUEST_TIMEOUT');
    const garbled = await fetch(`${local.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
