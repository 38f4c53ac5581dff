/**
 * Worker thread of bench/web.ts: the server (started as the e2e tests start
 * it, embedded database) and the seeding, on their own event loop. Playwright
 * drives Chromium from the main thread and handles a stream of protocol
 * messages during every page load; in the same thread it would delay the
 * server's answers, which a deployed server never shares with its browsers.
 */
import { parentPort } from 'node:worker_threads';
import type { NewMessage } from '../src/domain/types.js';
import type { RouteHandler } from '../src/server.js';
import { contentSecurityPolicyFor, SECURITY_HEADERS } from '../src/web/serve.js';
import { OPEN_SESSION } from '../web/src/first-page.js';
import { startE2EServer, type E2EServer } from '../test/support/e2e.js';

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

async function seed(server: E2EServer, name: string, count: number): Promise<string> {
  const created = await server.gql<{ createSession: { id: string } }>(
    `mutation($name: String) { createSession(input: { name: $name }) { id } }`,
    {
      name,
    },
  );
  if (created.errors) throw new Error(JSON.stringify(created.errors));
  const id = created.data!.createSession.id;
  const messages: NewMessage[] = Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content:
      i % 2 === 0
        ? `Question ${i}: how do I do thing number ${i}?`
        : `Answer ${i}.\n\n- step one with **bold**\n- step two with \`code\`\n` +
          `\n\`\`\`ts\nconst value${i} = compute(${i});\n\`\`\`\n`,
  }));
  for (let i = 0; i < messages.length; i += 250) await server.app.store.append(rawId(id), messages.slice(i, i + 250));
  return id;
}

/**
 * The browser floor: `/bench-floor#session=<id>` is the least any page can do
 * to show the newest messages. An inline script sends the same first-page
 * query as the chat page, puts each message's text in a <p> and lays the
 * page out; no modules, no styles, no app. Same server, same headers (COOP
 * included, which makes Chromium swap processes), same CSP scheme.
 */
const FLOOR_HTML =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title><script>
fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }` +
  `, body: JSON.stringify({ query: ${JSON.stringify(OPEN_SESSION)}` +
  `, variables: { id: decodeURIComponent(location.hash.slice(9)), last: 30 } }) })
  .then((r) => r.json())
  .then((d) => {
    const list = document.createDocumentFragment();
    for (const edge of d.data.session.history.edges) {` +
  ` const p = document.createElement('p'); p.textContent = edge.node.content;` +
  ` list.append(p); }
    document.body.append(list);
    void document.body.offsetHeight;
    performance.mark('first-message');
  });
</script></head><body></body></html>`;
const floorRoute: RouteHandler = async (req, res) => {
  if (req.method !== 'GET' || req.url !== '/bench-floor') return false;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicyFor(FLOOR_HTML)!,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
  });
  res.end(FLOOR_HTML);
  return true;
};

const server = await startE2EServer({}, [floorRoute]);
const big = await seed(server, 'Thousand', 1000);
const small = await seed(server, 'Thirty', 30);
const share = await server.gql<{ shareSession: { url: string } }>(
  `mutation($id: ID!) { shareSession(id: $id) { url } }`,
  {
    id: big,
  },
);
parentPort!.postMessage({
  type: 'ready',
  url: server.url,
  big,
  small,
  shareUrl: share.errors ? null : share.data!.shareSession.url,
  shareError: share.errors?.[0]?.message ?? null,
});
parentPort!.on('message', async (m) => {
  if (m === 'close') {
    await server.close();
    parentPort!.postMessage({ type: 'closed' });
  }
});
