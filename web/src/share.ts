/**
 * Read-only view of a shared session (`#share=<token>`): newest page first,
 * older pages on scroll up. No reply box, and nothing that identifies the
 * session, its owner or its messages ever reaches the DOM.
 */
import { ApiError, gql } from './api.js';
import { SHARED, SHARE_PAGE as PAGE } from './first-page.js';
import { clear, formatDate, h } from './dom.js';
import type { FileFetcher } from './cards.js';
import { markFirstRender, prependKeepingScroll, renderMessage, type MessageView } from './render.js';

export interface SharedPage {
  sharedSession: {
    name: string | null;
    profileName: string;
    createdAt: string;
    lastActive: string;
    history: {
      pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
      edges: { node: MessageView }[];
    };
  } | null;
}

export async function mountShare(root: HTMLElement, token: string, first?: Promise<unknown>): Promise<void> {
  document.title = 'Shared conversation';
  let data: SharedPage;
  try {
    data =
      ((await first) as SharedPage | undefined) ?? (await gql<SharedPage>(SHARED, { token, last: PAGE, before: null }));
  } catch (error) {
    const notFound = error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'BAD_USER_INPUT');
    return showNotice(root, notFound ? 'link not found' : 'This conversation could not be loaded. Try again later.');
  }
  const shared = data.sharedSession;
  if (!shared) return showNotice(root, 'link not found');

  // Published files arrive as share-scoped /shared/files/<name> URLs; the token goes in a header, never in a URL.
  const files: FileFetcher = (url) =>
    fetch(url, { headers: { 'x-share-token': token }, referrerPolicy: 'no-referrer' });
  const title = shared.name || 'Untitled conversation';
  document.title = `${title} — shared conversation`;
  const log = h('div', { class: 'messages', role: 'feed', 'aria-busy': 'false', 'aria-label': 'Messages' });
  const sentinel = h('p', { class: 'history-edge', role: 'status' });
  const scroller = h('main', { id: 'main', class: 'share-scroll', tabindex: '-1' }, sentinel, log);
  clear(root);
  root.className = 'app share';
  root.append(
    h(
      'header',
      { class: 'share-header' },
      h('h1', { text: title }),
      h(
        'p',
        { class: 'share-meta' },
        `${shared.profileName} · started ${formatDate(shared.createdAt)}` +
          ` · last active ${formatDate(shared.lastActive)}`,
      ),
      h('p', { class: 'share-note', text: 'Read-only shared conversation' }),
    ),
    scroller,
  );

  let cursor = shared.history.pageInfo.startCursor;
  let more = shared.history.pageInfo.hasPreviousPage;
  log.append(...shared.history.edges.map((e) => renderMessage(e.node, { ownerLabels: false, files })));
  if (shared.history.edges.length === 0) log.append(h('p', { class: 'empty', text: 'No messages yet.' }));
  else markFirstRender();
  scroller.scrollTop = scroller.scrollHeight;

  let loading = false;
  const loadOlder = async () => {
    if (loading || !more) return;
    loading = true;
    log.setAttribute('aria-busy', 'true');
    sentinel.textContent = 'Loading earlier messages…';
    try {
      const page = await gql<SharedPage>(SHARED, { token, last: PAGE, before: cursor });
      const history = page.sharedSession?.history;
      if (!history) throw new Error('gone');
      cursor = history.pageInfo.startCursor;
      more = history.pageInfo.hasPreviousPage;
      prependKeepingScroll(
        scroller,
        log,
        history.edges.map((e) => renderMessage(e.node, { ownerLabels: false, files })),
      );
      sentinel.textContent = more ? '' : 'Beginning of the conversation';
    } catch {
      sentinel.textContent = 'Earlier messages could not be loaded.';
    } finally {
      loading = false;
      log.setAttribute('aria-busy', 'false');
    }
    // Still at the top (short pages): keep going.
    if (more && scroller.scrollTop < 200) void loadOlder();
  };
  if (!more) sentinel.textContent = 'Beginning of the conversation';
  new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadOlder(), {
    root: scroller,
    rootMargin: '400px 0px 0px 0px',
  }).observe(sentinel);
  // Keyboard readers reach older pages too: Home/PageUp scroll the focusable main, which triggers the observer.
}

function showNotice(root: HTMLElement, text: string): void {
  clear(root);
  root.className = 'app share';
  root.append(h('main', { id: 'main', class: 'notice' }, h('p', { role: 'alert', text })));
}
