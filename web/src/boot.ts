/**
 * Inlined into index.html by the build (vite.config.ts, `inlineBoot`) and
 * allowed by the CSP through its sha256 (src/web/serve.ts). It runs while the
 * HTML is parsed, long before the app's module has loaded and executed, and
 * does two things for the first screen:
 *
 * - sends the request for the newest page of the deep-linked conversation or
 *   share link (first-page.ts takes the response over);
 * - loads the chunk of that page (chat or share viewer) and preloads the
 *   chunks it imports, so they download and run beside the entry instead of
 *   after it.
 *
 * Nothing here renders: when it fails, the app sends its own request.
 */
import { jsonRequest } from './api.js';
import { firstRequest } from './first-page.js';

/** File URLs of each page's chunk and its imports; replaced at build time. */
declare const __ROUTE_CHUNKS__: Record<'chat' | 'share', string[]>;

try {
  const hash = location.hash;
  const request = firstRequest(hash);
  const [page, ...imports] = __ROUTE_CHUNKS__[request?.share ? 'share' : 'chat'];
  for (const href of imports) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.crossOrigin = '';
    document.head.append(link);
  }
  // The page's own chunk is loaded and evaluated as soon as it arrives (it only
  // defines things); main.ts's import() of the same URL then finds it ready.
  const script = document.createElement('script');
  script.type = 'module';
  script.src = page!;
  script.crossOrigin = '';
  document.head.append(script);
  if (request) {
    const response = fetch('/graphql', jsonRequest(request.query, request.variables));
    response.catch(() => undefined); // the app reads (and reports) it
    window.__firstPage = { hash, response };
  }
} catch {
  /* the app starts without a head start */
}
