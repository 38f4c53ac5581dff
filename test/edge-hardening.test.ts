/**
 * Edge cases an adversarial review found: GraphiQL framed by
 * another site, absolute-form request targets, undecodable paths.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2EServer, type E2EServer } from './support/e2e.js';

let server: E2EServer;
beforeAll(async () => {
  server = await startE2EServer();
}, 240_000);
afterAll(() => server?.close());

function raw(request: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('edge hardening', () => {
  it('GraphiQL may not be framed by another site', async () => {
    const response = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { __typename }')}`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('yoga-graphiql');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('an absolute-form request target answers 400 with no stack or path', async () => {
    const { host } = new URL(server.url);
    const answer = await raw(`GET http://evil.example/graphql HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    expect(answer).not.toMatch(/node_modules|\bat \w|TypeError/);
  });

  it('an undecodable session segment in a download path is a plain 404', async () => {
    const response = await fetch(`${server.url}/sessions/%E0%A4%A/files/x`);
    expect(response.status).toBe(404);
  });
});
