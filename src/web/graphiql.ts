/**
 * GraphiQL without the internet: Yoga's GraphiQL build (@graphql-yoga/graphiql
 * 4.5.0, MIT, vendored under web/vendor/graphiql because the package's own
 * dependency tree is ~270 MB for the four files a page needs) is served from
 * this process at /graphiql/*, and the page Yoga renders at /graphql points
 * there instead of a CDN. Its default tabs are this service's own example
 * operations.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';

const gzip = promisify(gzipCallback);
const VENDOR_DIR = fileURLToPath(new URL('../../web/vendor/graphiql/', import.meta.url));
export const GRAPHIQL_ASSET_PREFIX = '/graphiql/';

/** The only files served, by URL name. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'yoga-graphiql.umd.js': { file: 'yoga-graphiql.umd.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: 'graphiql.css', type: 'text/css; charset=utf-8' },
  'editor.worker.js': { file: 'monacoeditorwork/editor.worker.bundle.js', type: 'text/javascript; charset=utf-8' },
  'json.worker.js': { file: 'monacoeditorwork/json.worker.bundle.js', type: 'text/javascript; charset=utf-8' },
  'graphql.worker.js': { file: 'monacoeditorwork/graphql.worker..bundle.js', type: 'text/javascript; charset=utf-8' },
};

/**
 * The example tabs, each one operation that answers data as it stands (no id to paste): the list, the newest page of
 * the most recent session, live list changes, and a session to create. Their comments show the per-session forms.
 */
export const GRAPHIQL_TABS: NonNullable<GraphiQLOptions['defaultTabs']> = [
  {
    query: `# Your sessions, newest first, with a preview of each
query Sessions {
  sessions(first: 20) {
    totalCount
    edges { node { id name lastActive displayMessageCount preview } }
  }
}`,
  },
  {
    query: `# The newest page of your most recent session's history.
# Any session by id: session(id: "…") { history(last: 30) { … } }
query History {
  sessions(first: 1) {
    edges {
      node {
        id
        name
        contextTokens
        contextWindow
        history(last: 30) {
          pageInfo { hasPreviousPage startCursor }
          edges { displayIndex node { role content } }
        }
      }
    }
  }
}`,
  },
  {
    query: `# Live changes to your session list: run this, then create or rename a session elsewhere.
# One session's streamed answer: subscription { sessionEvents(sessionId: "…") { __typename ... on TextDelta { text } } }
subscription Events {
  sessionListEvents {
    kind
    sessionId
    session { name displayMessageCount preview }
  }
}`,
  },
  {
    query: `# A new session. Then send it a message (its id from the answer):
# mutation { sendMessage(input: { sessionId: "…", content: "Hello" }) { turn { id } } }
mutation Create {
  createSession(input: { name: "From GraphiQL" }) { id name }
}`,
  },
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Yoga's GraphiQL page, with every asset from this server, and two corrections to what Yoga's build does with
 * `defaultTabs`:
 * - Yoga hands GraphiQL its welcome comment as the initial query whenever the URL has no `?query=`, and GraphiQL puts
 *   that text into the active tab's editor (Run then answers "Syntax Error: Unexpected <EOF>"). The page passes the
 *   active tab's own query and variables instead: the stored active tab's on a later visit (so GraphiQL finds that tab
 *   and adds none), else the first default tab's.
 * - The tab bar's drag-to-reorder animation leaves every tab but the last shifted by a stale transform on first
 *   render; a click then moves the tab under the pointer between press and release and is lost. Tabs stay where they
 *   are laid out (reordering by drag still works; the dragged tab just does not follow the pointer).
 */
export function renderLocalGraphiQL(options: GraphiQLOptions): string {
  const title = escapeHtml(options.title ?? 'GraphiQL');
  // JSON inside a <script>: `<` escaped so no string can close the element.
  const opts = JSON.stringify(options).replace(/</g, '\\u003c');
  const p = GRAPHIQL_ASSET_PREFIX;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="${p}graphiql.css">
<style>.graphiql-tab { transform: none !important; }</style></head>
<body id="body" class="no-focus-outline"><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root">Loading ${title}…</div>
<script>
const workers = {};
const workerUrls = { editorWorkerService: '${p}editor.worker.js', ` +
    `json: '${p}json.worker.js', graphql: '${p}graphql.worker.js' };
function prepareWorkers() {
  return Promise.all(Object.entries(workerUrls).map(async ([label, url]) => {
    const text = await (await fetch(url)).text();
    workers[label] = URL.createObjectURL(new Blob([text], { type: 'application/javascript' }));
  }));
}
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_id, label) => workers[label] };
</script>
<script src="${p}yoga-graphiql.umd.js"></script>
<script>
const options = ${opts};
if (!new URLSearchParams(location.search).get('query')) {
  let active = null;
  try {
    const stored = JSON.parse(localStorage.getItem('graphiql:tabState'));
    active = stored.tabs[stored.activeTabIndex] ?? null;
  } catch {}
  const tab = active ?? options.defaultTabs?.[0];
  if (tab) {
    options.query = tab.query ?? '';
    options.variables = tab.variables ?? undefined;
  }
}
prepareWorkers().finally(() => { YogaGraphiQL.renderYogaGraphiQL(root, options); });
</script>
</body></html>`
  );
}

const cache = new Map<string, Promise<{ body: Buffer; gzipped: Buffer }>>();

function load(name: string) {
  let entry = cache.get(name);
  if (!entry) {
    entry = (async () => {
      const body = await readFile(VENDOR_DIR + ASSETS[name]!.file);
      return { body, gzipped: await gzip(body) };
    })();
    entry.catch(() => cache.delete(name));
    cache.set(name, entry);
  }
  return entry;
}

/** `GET /graphiql/<asset>`: the vendored files, gzipped when the client accepts it, cached for a day. */
export async function serveGraphiQLAsset(
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
): Promise<boolean> {
  const path = (req.url ?? '').split('?')[0]!;
  if (!path.startsWith(GRAPHIQL_ASSET_PREFIX)) return false;
  const name = path.slice(GRAPHIQL_ASSET_PREFIX.length);
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    res.end('Not found');
    return true;
  }
  const { body, gzipped } = await load(name);
  const useGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const out = useGzip ? gzipped : body;
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': String(out.length),
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    ...(useGzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : out);
  return true;
}
