/**
 * PERSISTED_OPERATIONS (src/http/persisted.ts) with the web client's real
 * manifest (web/dist/persisted-documents.json, written by the build): `only`
 * refuses documents over HTTP, SSE and graphql-ws with PERSISTED_QUERY_ONLY
 * and unknown ids with PERSISTED_QUERY_NOT_FOUND, and runs the manifest's ids;
 * `allow` runs both; `off` is the plain server. The page tells the client
 * which (a meta tag).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH } from '../src/http/persisted.js';
import { ensureWebBuild } from './support/e2e.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

let manifest: Record<string, string>;
beforeAll(async () => {
  await ensureWebBuild();
  manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'));
}, 120_000);

/** The manifest's id of the web client's operation `name`. */
function idOf(name: string): string {
  const found = Object.entries(manifest).find(([, doc]) =>
    new RegExp(`(^|\\s)(query|mutation|subscription) ${name}\\b`).test(doc),
  );
  if (!found) throw new Error(`no ${name} in the manifest`);
  return found[0];
}
const persisted = (name: string) => ({ persistedQuery: { version: 1, sha256Hash: idOf(name) } });
const UNKNOWN = { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } };
const AD_HOC = '{ viewer { authEnabled } }';

async function post(t: ServerContext, body: Record<string, unknown>, accept = 'application/graphql-response+json') {
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The first `data:` of an SSE response, or the JSON answer when the server refused before streaming. */
async function sseFirst(t: ServerContext, body: Record<string, unknown>): Promise<any> {
  const controller = new AbortController();
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return response.json();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const data = /^data: (.+)$/m.exec(text);
    if (data && text.includes('\n\n')) {
      controller.abort();
      return JSON.parse(data[1]!);
    }
  }
  throw new Error(`SSE ended without data: ${text}`);
}

/** The first result or error of a graphql-ws subscribe with this payload. */
function wsFirst(t: ServerContext, payload: { query: string; extensions?: unknown; variables?: unknown }) {
  return new Promise<any>((resolve) => {
    const dispose = t.ws().subscribe(payload as never, {
      next: (value) => {
        resolve(value);
        dispose();
      },
      error: (error) => resolve({ errors: error }),
      complete: () => undefined,
    });
  });
}

const code = (result: any) => (Array.isArray(result.errors) ? result.errors[0]?.extensions?.code : undefined);

describe(`PERSISTED_OPERATIONS=only (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ persistedOperations: 'only', titleGenerationEnabled: false });
  });
  afterAll(() => t?.close());

  it('refuses a document over HTTP and an unknown id, runs the manifest ids', async () => {
    const adHoc = await post(t, { query: AD_HOC });
    expect(adHoc.status).toBe(400);
    expect(code(adHoc.body)).toBe('PERSISTED_QUERY_ONLY');
    expect(adHoc.body.data).toBeUndefined();
    // The document of a persisted operation sent as text is a document all the same.
    const asText = await post(t, { query: manifest[idOf('Viewer')] });
    expect(code(asText.body)).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await post(t, { extensions: UNKNOWN });
    expect(unknown.status).toBe(400);
    expect(code(unknown.body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(code((await post(t, {})).body)).toBe('PERSISTED_QUERY_ONLY');

    const viewer = await post(t, { extensions: persisted('Viewer') });
    expect(viewer.body).toEqual({ data: { viewer: { authEnabled: false, isAdmin: false, user: null } } });
    const created = await post(t, { extensions: persisted('Create') });
    const id = created.body.data.createSession.id as string;
    const list = await post(t, { extensions: persisted('List'), variables: {} });
    expect(list.body.data.sessions.edges.map((e: any) => e.node.id)).toContain(id);
  });

  it('refuses a document over SSE and graphql-ws, streams the manifest subscriptions', async () => {
    const subscription = 'subscription { sessionListEvents { kind sessionId } }';
    expect(code(await sseFirst(t, { query: subscription }))).toBe('PERSISTED_QUERY_ONLY');
    expect(code(await sseFirst(t, { extensions: UNKNOWN }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(code(await wsFirst(t, { query: subscription }))).toBe('PERSISTED_QUERY_ONLY');
    expect(code(await wsFirst(t, { query: AD_HOC }))).toBe('PERSISTED_QUERY_ONLY');
    expect(code(await wsFirst(t, { query: '', extensions: UNKNOWN }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(code(await wsFirst(t, { query: '' }))).toBe('PERSISTED_QUERY_ONLY');

    // Queries run over the socket too.
    expect((await wsFirst(t, { query: '', extensions: persisted('Viewer') })).data.viewer.authEnabled).toBe(false);

    const overWs = wsFirst(t, { query: '', extensions: persisted('ListEvents') });
    const overSse = sseFirst(t, { extensions: persisted('ListEvents') });
    await t.listening('list', 2);
    const created = await post(t, { extensions: persisted('Create') });
    const id = created.body.data.createSession.id as string;
    for (const first of await Promise.all([overWs, overSse]))
      expect(first.data.sessionListEvents).toMatchObject({ kind: 'created', sessionId: id });
  });

  it('tells the web client, in its page, that ids are expected', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    expect(html).toMatch(/<head><meta name="persisted-operations" content="only">/);
  });
});

describe(`PERSISTED_OPERATIONS=allow (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ persistedOperations: 'allow', titleGenerationEnabled: false });
  });
  afterAll(() => t?.close());

  it('runs documents and ids; an unknown id is still refused', async () => {
    expect((await post(t, { query: AD_HOC })).body).toEqual({ data: { viewer: { authEnabled: false } } });
    expect((await post(t, { extensions: persisted('Viewer') })).body.data.viewer.authEnabled).toBe(false);
    expect(code((await post(t, { extensions: UNKNOWN })).body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await wsFirst(t, { query: AD_HOC })).data).toEqual({ viewer: { authEnabled: false } });
    expect((await wsFirst(t, { query: '', extensions: persisted('Viewer') })).data.viewer.authEnabled).toBe(false);
  });
});

describe(`PERSISTED_OPERATIONS=off (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false });
  });
  afterAll(() => t?.close());

  it('runs any document, knows no ids, and the page does not ask for them', async () => {
    expect(t.app.config.persistedOperations).toBe('off');
    expect((await post(t, { query: AD_HOC })).body).toEqual({ data: { viewer: { authEnabled: false } } });
    expect((await wsFirst(t, { query: AD_HOC })).data).toEqual({ viewer: { authEnabled: false } });
    const id = await post(t, { extensions: persisted('Viewer') });
    expect(id.body.data).toBeUndefined();
    expect(code(id.body)).toBe('BAD_REQUEST');
    const html = await (await fetch(`${t.url}/`)).text();
    expect(html).not.toContain('<meta name="persisted-operations"');
  });
});
