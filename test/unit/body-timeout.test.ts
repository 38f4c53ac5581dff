/**
 * The body idle guard (useRequestBodyTimeout) wraps only a body that is still
 * arriving: a JSON body Node has received whole is parsed as it came, with no
 * stream wrapped around it (the per-request cost on the hot read paths). The
 * stalled-body answers (408 REQUEST_TIMEOUT) are in test/limits.test.ts.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRequestBodyTimeout } from '../../src/http/limits.js';

const seen: { wrapped: boolean }[] = [];
let onSeen: () => void = () => undefined;
/** Listed after the guard: sees whether the guard replaced Yoga's JSON parser with its wrapping one. */
function probe(): Plugin {
  return {
    onRequestParse({ requestParser }) {
      seen.push({ wrapped: requestParser?.name !== 'parsePOSTJsonRequest' });
      onSeen();
    },
  };
}

let server: Server;
let port = 0;
beforeAll(async () => {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } }),
    plugins: [useRequestBodyTimeout(60_000), probe()],
    logging: false,
  });
  // As in startServer, the handler awaits (its routes) before Yoga: by then Node has buffered a body that came
  // with its headers.
  server = createServer(async (req, res) => {
    await Promise.resolve();
    await yoga.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function post(body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('request body idle guard', () => {
  it('leaves a body received whole unwrapped', async () => {
    seen.length = 0;
    expect(await post(JSON.stringify({ query: '{ ok }' }))).toBe('{"data":{"ok":true}}');
    expect(seen).toEqual([{ wrapped: false }]);
  });

  it('wraps a body that is still arriving, which then parses as usual', async () => {
    seen.length = 0;
    const body = JSON.stringify({ query: '{ ok }' });
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    // The rest is sent once the parse has begun on the partial body (the probe has seen it).
    await new Promise<void>((resolve) => {
      onSeen = resolve;
    });
    socket.end(body.slice(5));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(seen).toEqual([{ wrapped: true }]);
    expect(answer).toContain('{"data":{"ok":true}}');
  });
});
