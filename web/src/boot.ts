/**
 * Inlined into index.html by the build (vite.config.ts, `inlineBoot`) and
 * allowed by the CSP through its sha256 (src/web/serve.ts). It runs while the
 * HTML is parsed, long before the app's module has loaded and executed, and
 * does two things for the first screen:
 *
 * - sends the request for the newest page of the deep-linked conversation or
 *   share link (first-page.ts takes the response over);
 * - preloads the chunk of that page (chat or share viewer) and the chunks it
 *   imports, so they download beside the entry instead of after it.
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
  for (const href of __ROUTE_CHUNKS__[request?.share ? 'share' : 'chat']) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.crossOrigin = '';
    document.head.append(link);
  }
  if (request) {
    const response = fetch('/graphql', jsonRequest(request.query, request.variables));
    response.catch(() => undefined); // the app reads (and reports) it
    window.__firstPage = { hash, response };
  }
} catch {
  /* the app starts without a head start */
}
