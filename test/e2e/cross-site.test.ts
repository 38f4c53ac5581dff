/**
 * Local mode (auth off, the default) is not drivable cross-site: the real
 * server on real sockets, attacked the way a page the user visits could
 * (form and multipart POSTs, CORS reads, WebSocket, SSE, file downloads, DNS
 * rebinding), first with raw requests carrying exactly the headers a browser
 * would send, then from a real Chromium on http://evil.example. Every attack
 * is checked against the database: no session renamed or created. The web
 * client and same-origin GraphiQL-style requests keep working, and
 * CORS_ORIGINS lets one listed origin through, named exactly.
 * The browser part is skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Browser } from 'playwright-core';
import { CrossSiteCreateVictimDocument } from '../generated/graphql.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import type { GqlResult } from '../support/harness.js';

const EVIL = 'http://evil.example';
const ALLOWED = 'http://allowed.example';

interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** What the attacks' and the allowed requests' documents (raw text, on purpose) answer, as far as the tests read it. */
interface RenameData {
  renameSession: { id: string; name: string | null };
}
interface CreateData {
  createSession: { id: string; name?: string | null };
}
interface UploadData<F extends 'url' | 'filename'> {
  uploadSessionFiles: Record<F, string>[];
}
/** A GraphQL response read from a raw response's body. */
const answer = <T = unknown>(text: string) => JSON.parse(text) as GqlResult<T>;
/** A graphql-transport-ws message, as the server sends it. */
interface WsMessage {
  type: string;
  payload?: unknown;
}

/** One HTTP request with exactly these headers (Host, Origin and Sec-Fetch-* included), read to the end. */
function raw(
  base: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const url = new URL(options.path ?? '/graphql', base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A graphql-transport-ws client that sends `query` as soon as the server
 * acknowledges: the upgrade's HTTP status when refused, the results otherwise.
 */
function wsAttempt<T = unknown>(
  base: string,
  query: string,
  headers: Record<string, string>,
): Promise<{ status: number; results: GqlResult<T>[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
    const results: GqlResult<T>[] = [];
    socket.on('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      resolve({ status: res.statusCode ?? 0, results });
    });
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as WsMessage;
      if (message.type === 'connection_ack')
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      else if (message.type === 'next') results.push(message.payload as GqlResult<T>);
      else if (message.type === 'error') results.push({ errors: message.payload as GqlResult<T>['errors'] });
      if (message.type === 'complete' || message.type === 'error') {
        socket.close();
        resolve({ status: 101, results });
      }
    });
  });
}

function multipartBody(query: string): { body: Buffer; contentType: string } {
  const boundary = '----crosssite' + Math.random().toString(16).slice(2);
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = part('operations', JSON.stringify({ query, variables: {} })) + part('map', '{}') + `--${boundary}--\r\n`;
  return { body: Buffer.from(body), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('local mode against a cross-site adversary', () => {
  let server: E2EServer;
  let allowed: E2EServer;
  let victimId: string;
  /**
   * Every request and upgrade that reached the server, with its Origin (proves the attacks arrived and were refused).
   */
  const arrived: { origin?: string; host?: string; url?: string }[] = [];

  const sessions = async (s: E2EServer) =>
    (await s.app.db.prisma.session.findMany({ select: { id: true, name: true } }))
      .map((r) => `${r.id}:${r.name}`)
      .sort();
  const rename = (id: string, name: string) => `mutation { renameSession(id: "${id}", name: "${name}") { id name } }`;
  const CREATE = `mutation { createSession(input: { name: "pwned-created" }) { id } }`;

  beforeAll(async () => {
    server = await startE2EServer();
    const watch = (req: IncomingMessage) =>
      arrived.push({ origin: req.headers.origin, host: req.headers.host, url: req.url });
    server.http.prependListener('request', watch);
    server.http.prependListener('upgrade', watch);
    const created = await server.gql(CrossSiteCreateVictimDocument, {});
    expect(created.errors).toBeUndefined();
    victimId = created.data!.createSession.id;
    allowed = await startE2EServer({ corsOrigins: [ALLOWED] });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await allowed?.close();
  });

  /** Runs the attacks, then checks the database holds exactly what it held before. */
  async function nothingChanges(attacks: () => Promise<void>) {
    const before = await sessions(server);
    expect(before.some((s) => s.endsWith(':Victim'))).toBe(true);
    await attacks();
    expect(await sessions(server)).toEqual(before);
  }

  it('refuses form, text/plain and multipart POSTs, with or without an Origin, and runs none of them', async () => {
    await nothingChanges(async () => {
      for (const origin of [EVIL, undefined]) {
        const originHeader: Record<string, string> = origin ? { origin } : {};
        for (const query of [rename(victimId, 'pwned'), CREATE]) {
          const form = await raw(server.url, {
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...originHeader },
            body: new URLSearchParams({ query }).toString(),
          });
          expect(form.status).toBe(403);
          // A cross-site Origin is refused by the origin policy; without one, by the CSRF header rule.
          expect(answer(form.text).errors![0]!.extensions!.code).toBe(origin ? 'FORBIDDEN' : 'CSRF_HEADER_REQUIRED');

          const text = await raw(server.url, {
            headers: { 'content-type': 'text/plain;charset=UTF-8', ...originHeader },
            body: JSON.stringify({ query }),
          });
          expect(text.status).toBe(403);

          const { body, contentType } = multipartBody(query);
          const multipart = await raw(server.url, { headers: { 'content-type': contentType, ...originHeader }, body });
          expect(multipart.status).toBe(403);
          // With no Origin it reached GraphQL, whose CSRF rule refused it before the body was parsed.
          if (!origin) expect(answer(multipart.text).errors![0]!.message).toMatch(/x-graphql-yoga-csrf/);
        }
      }
      // Without an Origin, the GraphQL layer refused it (the CSRF header rule), so it got that far.
      expect(arrived.some((r) => r.origin === undefined && r.url === '/graphql')).toBe(true);
    });
  });

  it('answers a cross-origin preflight and read with no CORS header, and refuses the request itself', async () => {
    await nothingChanges(async () => {
      const preflight = await raw(server.url, {
        method: 'OPTIONS',
        headers: {
          origin: EVIL,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(preflight.status).toBe(403);

      const read = await raw(server.url, {
        headers: { origin: EVIL, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ sessions(first: 10) { edges { node { id name } } } }' }),
      });
      expect(read.status).toBe(403);
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      expect(read.text).not.toContain('Victim');

      // A JSON mutation that skipped the preflight (a non-browser forging the Origin) is refused all the same.
      const write = await raw(server.url, {
        headers: { origin: EVIL, 'content-type': 'application/json' },
        body: JSON.stringify({ query: rename(victimId, 'pwned') }),
      });
      expect(write.status).toBe(403);
      // `Origin: null` (sandboxed frames, file: pages) is no one's origin.
      const opaque = await raw(server.url, {
        headers: { origin: 'null', 'content-type': 'application/json' },
        body: JSON.stringify({ query: CREATE }),
      });
      expect(opaque.status).toBe(403);
    });
  });

  it('refuses a cross-origin WebSocket upgrade before graphql-ws runs anything', async () => {
    await nothingChanges(async () => {
      const attempt = await wsAttempt(server.url, rename(victimId, 'pwned'), { origin: EVIL });
      expect(attempt.status).toBe(403);
      expect(attempt.results).toEqual([]);
      expect(arrived.some((r) => r.origin === EVIL && r.url === '/graphql')).toBe(true);
    });
  });

  it('refuses cross-origin SSE, over POST and GET', async () => {
    await nothingChanges(async () => {
      const post = await raw(server.url, {
        headers: { origin: EVIL, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: rename(victimId, 'pwned') }),
      });
      expect(post.status).toBe(403);
      expect(post.headers['content-type']).not.toContain('text/event-stream');

      const subscription = encodeURIComponent('subscription { sessionListEvents { kind sessionId session { name } } }');
      const get = await raw(server.url, {
        method: 'GET',
        path: `/graphql?query=${subscription}`,
        headers: { origin: EVIL, accept: 'text/event-stream', 'x-graphql-yoga-csrf': '1' },
      });
      expect(get.status).toBe(403);
      expect(get.headers['content-type']).not.toContain('text/event-stream');
    });
  });

  it('refuses a DNS-rebound page (Origin and Host both the attacker’s name) in local mode', async () => {
    const port = new URL(server.url).port;
    const rebound = `evil.example:${port}`;
    await nothingChanges(async () => {
      const post = await raw(server.url, {
        headers: { host: rebound, origin: `http://${rebound}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: rename(victimId, 'pwned') }),
      });
      expect(post.status).toBe(403);
      expect(answer(post.text).errors![0]!.message).toMatch(/DNS rebinding/);
      const page = await raw(server.url, { method: 'GET', path: '/', headers: { host: rebound } });
      expect(page.status).toBe(403);
      const socket = await wsAttempt(server.url, rename(victimId, 'pwned'), {
        host: rebound,
        origin: `http://${rebound}`,
      });
      expect(socket.status).toBe(403);
    });
    // localhost, IP literals and *.localhost are this machine's names.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`]) {
      expect((await raw(server.url, { method: 'GET', path: '/', headers: { host } })).status).toBe(200);
    }
  });

  it(
    'serves a file download to the app and to a followed ' + 'link, not to another origin or a cross-site embed',
    async () => {
      const fd = new FormData();
      fd.set(
        'operations',
        JSON.stringify({
          query: `mutation($s: ID!, $f: [File!]!) { uploadSessionFiles(sessionId: $s, files: $f) { url } }`,
          variables: { s: victimId, f: [null] },
        }),
      );
      fd.set('map', JSON.stringify({ 0: ['variables.f.0'] }));
      fd.set('0', new Blob(['secret notes'], { type: 'text/plain' }), 'notes.txt');
      const uploaded = (await (
        await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'x-graphql-yoga-csrf': '1' }, body: fd })
      ).json()) as GqlResult<UploadData<'url'>>;
      expect(uploaded.errors).toBeUndefined();
      const path = uploaded.data!.uploadSessionFiles[0]!.url;

      const own = await raw(server.url, { method: 'GET', path, headers: { origin: server.url } });
      expect(own.status).toBe(200);
      expect(own.text).toBe('secret notes');
      expect(own.headers['cross-origin-resource-policy']).toBe('same-origin');
      const followed = await raw(server.url, {
        method: 'GET',
        path,
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      });
      expect(followed.status).toBe(200);

      const foreign = await raw(server.url, { method: 'GET', path, headers: { origin: EVIL } });
      expect(foreign.status).toBe(403);
      expect(foreign.text).not.toContain('secret');
      const embedded = await raw(server.url, {
        method: 'GET',
        path,
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      });
      expect(embedded.status).toBe(403);
      expect(embedded.text).not.toContain('secret');
    },
  );

  it(
    'still runs a same-origin GraphiQL-style request, ' + 'WebSocket and SSE, and clients that send no Origin',
    async () => {
      const page = await raw(server.url, {
        method: 'GET',
        path: '/graphql',
        headers: { accept: 'text/html', origin: server.url },
      });
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/graphiql/i);

      const json = await raw(server.url, {
        headers: {
          origin: server.url,
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
        },
        body: JSON.stringify({ query: rename(victimId, 'Renamed by GraphiQL') }),
      });
      expect(json.status).toBe(200);
      expect(answer<RenameData>(json.text).data!.renameSession.name).toBe('Renamed by GraphiQL');
      expect(json.headers['access-control-allow-origin']).toBeUndefined();

      const socket = await wsAttempt<RenameData>(server.url, rename(victimId, 'Renamed over ws'), {
        origin: server.url,
      });
      expect(socket.status).toBe(101);
      expect(socket.results[0]!.data!.renameSession.name).toBe('Renamed over ws');
      const node = await wsAttempt<RenameData>(server.url, rename(victimId, 'Renamed by Node'), {});
      expect(node.results[0]!.data!.renameSession.name).toBe('Renamed by Node');

      const sse = await raw(server.url, {
        headers: { origin: server.url, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: rename(victimId, 'Renamed over SSE') }),
      });
      expect(sse.headers['content-type']).toContain('text/event-stream');
      expect(sse.text).toContain('Renamed over SSE');

      const multipart = multipartBody(rename(victimId, 'Victim'));
      const withHeader = await raw(server.url, {
        headers: { 'content-type': multipart.contentType, 'x-graphql-yoga-csrf': '1', origin: server.url },
        body: multipart.body,
      });
      expect(answer<RenameData>(withHeader.text).data!.renameSession.name).toBe('Victim');
      expect(await sessions(server)).toContain(`${rawId(victimId)}:Victim`);
    },
  );

  it('CORS_ORIGINS lets exactly the listed origin through, named exactly, and no other', async () => {
    const preflight = await raw(allowed.url, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(preflight.headers['access-control-allow-headers']).toContain('content-type');

    const created = await raw(allowed.url, {
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { createSession(input: { name: "From allowed" }) { id name } }` }),
    });
    expect(created.status).toBe(200);
    expect(created.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(created.headers.vary).toMatch(/origin/i);
    expect(answer<CreateData>(created.text).data!.createSession.name).toBe('From allowed');
    const socket = await wsAttempt(allowed.url, `{ viewer { isAdmin } }`, { origin: ALLOWED });
    expect(socket.status).toBe(101);

    const before = await sessions(allowed);
    for (const origin of [EVIL, `${ALLOWED}:8080`, 'https://allowed.example']) {
      const other = await raw(allowed.url, {
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ query: CREATE }),
      });
      expect(other.status).toBe(403);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(await sessions(allowed)).toEqual(before);
  });

  describe.skipIf(skipBrowser())('in Chromium', () => {
    let browser: Browser;
    let evil: Server;
    let evilUrl: string;

    beforeAll(async () => {
      // A page of the adversary's, on http://evil.example:<port>
      // (the name mapped to this machine for the browser only).
      evil = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title><p>hello</p>'),
      );
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilUrl = `${EVIL}:${(evil.address() as AddressInfo).port}`;
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
      });
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => evil?.close(resolve));
    });

    it(
      'a page on evil.example can neither read nor change ' + 'anything, by fetch, form, WebSocket or EventSource',
      async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${evilUrl}/`);
        const target = server.url;
        await nothingChanges(async () => {
          const seen = arrived.length;
          const outcome = await page.evaluate(
            async ({ target, rename, create }) => {
              const out: Record<string, string> = {};
              const attempt = async (name: string, run: () => Promise<unknown>) => {
                try {
                  out[name] = `read ${JSON.stringify(await run())}`;
                } catch (error) {
                  out[name] = `failed ${(error as Error).name}`;
                }
              };
              const body = (query: string) => new URLSearchParams({ query }).toString();
              // Simple requests: sent without a preflight, response opaque.
              await attempt('form', () =>
                fetch(`${target}/graphql`, {
                  method: 'POST',
                  mode: 'no-cors',
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  body: body(rename),
                }).then((r) => r.type),
              );
              await attempt('text', () =>
                fetch(`${target}/graphql`, {
                  method: 'POST',
                  mode: 'no-cors',
                  headers: { 'content-type': 'text/plain' },
                  body: JSON.stringify({ query: create }),
                }).then((r) => r.type),
              );
              const fd = new FormData();
              fd.set('operations', JSON.stringify({ query: rename, variables: {} }));
              fd.set('map', '{}');
              await attempt('multipart', () =>
                fetch(`${target}/graphql`, { method: 'POST', mode: 'no-cors', body: fd }).then((r) => r.type),
              );
              // CORS reads.
              await attempt('read', () =>
                fetch(`${target}/graphql`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify({ query: '{ sessions(first: 5) { edges { node { name } } } }' }),
                }).then((r) => r.text()),
              );
              await attempt('simpleRead', () =>
                fetch(`${target}/graphql?query=${encodeURIComponent('{ viewer { isAdmin } }')}`).then((r) => r.text()),
              );
              // WebSocket: browsers apply no CORS to it; only the server's Origin check stands in the way.
              out.ws = await new Promise<string>((resolve) => {
                // (the page's own WebSocket, not the `ws` import of this file)
                const socket: globalThis.WebSocket = new window.WebSocket(
                  `${target.replace('http', 'ws')}/graphql`,
                  'graphql-transport-ws',
                );
                socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
                socket.onmessage = (event) => {
                  const message = JSON.parse(String(event.data)) as { type: string };
                  if (message.type === 'connection_ack')
                    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: rename } }));
                  else resolve(`ran ${event.data}`);
                };
                socket.onclose = (event) => resolve(`closed ${event.code}`);
              });
              out.sse = await new Promise<string>((resolve) => {
                const source = new EventSource(
                  `${target}/graphql?query=${encodeURIComponent('subscription { sessionListEvents { kind } }')}`,
                );
                source.onmessage = (event) => resolve(`message ${event.data}`);
                source.onerror = () => {
                  source.close();
                  resolve('error');
                };
              });
              return out;
            },
            { target, rename: rename(victimId, 'pwned by page'), create: CREATE },
          );
          expect(outcome.read).toBe('failed TypeError');
          expect(outcome.simpleRead).toBe('failed TypeError');
          expect(outcome.ws).toBe('closed 1006');
          expect(outcome.sse).toBe('error');
          // The simple ones did reach the server (opaque to the page), and were refused there.
          const fromEvil = arrived.slice(seen).filter((r) => r.origin === evilUrl);
          expect(fromEvil.length).toBeGreaterThanOrEqual(5);

          // A real form, the text/plain-JSON trick: a top-level navigation, refused all the same.
          const navigation = page.waitForResponse((r) => r.url() === `${target}/graphql`);
          await page.evaluate(
            ({ target, query }) => {
              const form = document.createElement('form');
              form.method = 'POST';
              form.action = `${target}/graphql`;
              form.enctype = 'text/plain';
              const input = document.createElement('input');
              input.name = `{"query":${JSON.stringify(query)},"x":"`;
              input.value = '"}';
              form.append(input);
              document.body.append(form);
              form.submit();
            },
            { target, query: rename(victimId, 'pwned by form') },
          );
          expect((await navigation).status()).toBe(403);
        });
        await context.close();
      },
    );

    it('the web client still loads, uploads and sends a message', async () => {
      server.fake.enqueue({ text: ['still ', 'works'] });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByRole('button', { name: '+ New conversation' }).click();
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Same origin hello');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(async () => (await page.locator('.msg-assistant').last().textContent())?.trim(), { timeout: 30_000 })
        .toContain('still works');
      const stored = await server.app.db.prisma.sessionMessage.findMany({
        where: { content: 'Same origin hello' },
        select: { sessionId: true },
      });
      expect(stored).toHaveLength(1);
      // The client's multipart path (x-graphql-yoga-csrf, same-origin Origin) is accepted.
      const uploaded = await page.evaluate(async (sessionId) => {
        const fd = new FormData();
        fd.set(
          'operations',
          JSON.stringify({
            query: `mutation($s: ID!, $f: [File!]!) { uploadSessionFiles(sessionId: $s, files: $f) { filename } }`,
            variables: { s: sessionId, f: [null] },
          }),
        );
        fd.set('map', JSON.stringify({ 0: ['variables.f.0'] }));
        fd.set('0', new Blob(['from the page'], { type: 'text/plain' }), 'page.txt');
        const response = await fetch('/graphql', { method: 'POST', headers: { 'x-graphql-yoga-csrf': '1' }, body: fd });
        return (await response.json()) as GqlResult<UploadData<'filename'>>;
      }, victimId);
      expect(uploaded.errors).toBeUndefined();
      expect(uploaded.data!.uploadSessionFiles[0]!.filename).toBe('page.txt');
      await context.close();
    });
  });
});

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');
