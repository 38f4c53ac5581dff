/**
 * Entry: `#share=<token>` opens the read-only share viewer (a small chunk
 * without the WebSocket client); anything else opens the chat page.
 */
import './styles.css';
import { firstPage, firstRequest } from './first-page.js';

const root = document.getElementById('app')!;

/** The share viewer's token when the hash holds one (the same parse as the first request's). */
function shareToken(): string | null {
  return firstRequest(location.hash)?.share ?? null;
}

async function start(): Promise<void> {
  // The first page's request leaves now, in parallel with the chunk that renders it.
  const first = firstPage(location.hash);
  try {
    if (first.share) await (await import('./share.js')).mountShare(root, first.share, first.data);
    else
      await (await import('./chat.js')).mountChat(
        root,
        first.session ? { session: first.session, data: first.data } : null,
      );
  } catch (error) {
    root.replaceChildren();
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.className = 'notice';
    p.textContent = `The page could not load: ${error instanceof Error ? error.message : String(error)}`;
    root.append(p);
  }
}

let mode = shareToken() ? 'share' : 'chat';
window.addEventListener('hashchange', () => {
  // Switching between the viewer and the chat page is a different app: start clean.
  const next = shareToken() ? 'share' : 'chat';
  if (next !== mode || next === 'share') location.reload();
  mode = next;
});

void start();
