/**
 * The owner's share dialog: the live link with its expiry, set or clear the
 * expiry (shareSession(id, expiresAt)), snapshot links (snapshot: true), the
 * list of every link (Session.shareLinks) and revoke (revokeShare), one link
 * or all. Opening it reads the links; nothing is written until asked.
 */
import { gql } from './api.js';
import { copyButton } from './copy.js';
import { announce, formatDate, h, uid } from './dom.js';
import { icon } from './icons.js';
import { REVOKE_SHARE, SHARE, SHARE_KEEP_EXPIRY, SHARE_LINKS, type ShareLinkView } from './queries.js';

export interface ShareDialog {
  element: HTMLDialogElement;
  open(): Promise<void>;
}

const expiryText = (link: Pick<ShareLinkView, 'expiresAt' | 'expired'>) =>
  link.expired
    ? `Expired ${formatDate(link.expiresAt!)}`
    : link.expiresAt
      ? `Expires ${formatDate(link.expiresAt)}`
      : 'No expiry';

/** `YYYY-MM-DDTHH:MM` in local time, what a datetime-local field holds. */
function localInputValue(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function shareDialog(sessionId: () => string | null, onError: (error: unknown) => void): ShareDialog {
  const titleId = uid('share-title');
  const status = h('p', { class: 'share-status', role: 'status', 'aria-live': 'polite' });
  const liveField = h('input', { type: 'text', readonly: true, class: 'share-link', 'aria-label': 'Live share link' });
  const liveState = h('p', { class: 'share-live-state' });
  const liveCopy = copyButton('Copy live link', () => liveField.value);
  const liveRow = h('div', { class: 'input-row' }, liveField, liveCopy);
  const create = h('button', { type: 'button', class: 'primary', text: 'Create live link' });
  const expiryId = uid('expiry');
  const expiry = h('input', { id: expiryId, type: 'datetime-local', class: 'share-expiry-input' });
  const setExpiry = h('button', { type: 'submit', text: 'Set expiry' });
  const clearExpiry = h('button', { type: 'button', text: 'Remove expiry' });
  const expiryForm = h(
    'form',
    { class: 'share-expiry' },
    h('label', { for: expiryId, text: 'Link expires at' }),
    expiry,
    setExpiry,
    clearExpiry,
  );
  const snapshot = h('button', {
    type: 'button',
    text: 'New snapshot link',
    title: 'A separate link that shows the conversation as it is now (uses the expiry above, if set)',
  });
  const list = h('ul', { class: 'share-links', 'aria-label': 'Share links' });
  const revokeAll = h('button', { type: 'button', class: 'danger', text: 'Revoke all links' });
  const closeButton = h('button', { type: 'button', text: 'Close' });
  const dialog = h(
    'dialog',
    { class: 'share-dialog', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, icon('link'), ' Share this conversation'),
    h('p', { class: 'hint', text: 'Whoever has a link reads the conversation without signing in.' }),
    h('h3', { text: 'Live link' }),
    liveState,
    liveRow,
    create,
    expiryForm,
    h('h3', { text: 'All links' }),
    list,
    h('div', { class: 'share-buttons' }, snapshot, revokeAll, closeButton),
    status,
  );
  closeButton.addEventListener('click', () => dialog.close());

  const run = async (work: (id: string) => Promise<unknown>, done: string) => {
    const id = sessionId();
    if (!id) return;
    try {
      await work(id);
      announce(status, done);
    } catch (error) {
      onError(error);
      status.textContent = error instanceof Error ? error.message : String(error);
    }
    await load();
  };

  const load = async () => {
    const id = sessionId();
    if (!id) return;
    let links: ShareLinkView[];
    try {
      const data = await gql<{ session: { shareLinks: ShareLinkView[] } | null }>(SHARE_LINKS, { id });
      links = data.session?.shareLinks ?? [];
    } catch (error) {
      onError(error);
      return;
    }
    if (sessionId() !== id) return;
    const live = links.find((l) => !l.snapshot && !l.expired) ?? null;
    const expired = links.find((l) => !l.snapshot && l.expired) ?? null;
    liveRow.hidden = !live;
    create.hidden = Boolean(live);
    clearExpiry.disabled = !live?.expiresAt;
    liveField.value = live ? location.origin + live.url : '';
    liveState.textContent = live
      ? expiryText(live)
      : expired
        ? `${expiryText(expired)}: a new link gets a new address.`
        : 'Not shared yet.';
    if (live?.expiresAt) expiry.value = localInputValue(live.expiresAt);
    revokeAll.disabled = links.length === 0;
    list.replaceChildren(
      ...(links.length
        ? links.map((link) => {
            const kind = link.snapshot ? `Snapshot of ${formatDate(link.createdAt)}` : 'Live link';
            const what = link.snapshot ? `snapshot link of ${formatDate(link.createdAt)}` : 'live link';
            return h(
              'li',
              { class: link.expired ? 'expired' : '' },
              h('span', { class: 'share-kind', text: kind }),
              h('span', { class: 'share-expiry-text', text: expiryText(link) }),
              link.expired ? null : copyButton(`Copy link (${kind})`, () => location.origin + link.url),
              h('button', {
                type: 'button',
                class: 'link',
                text: 'Revoke',
                'aria-label': `Revoke ${what}`,
                onclick: () =>
                  void run((sid) => gql(REVOKE_SHARE, { sessionId: sid, token: link.token }), 'Link revoked'),
              }),
            );
          })
        : [h('li', { class: 'empty', text: 'No links.' })]),
    );
  };

  const expiryIso = (): string | null => {
    if (!expiry.value) return null;
    const date = new Date(expiry.value); // local time, as the field shows it
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  };

  create.addEventListener('click', () => void run((id) => gql(SHARE_KEEP_EXPIRY, { id }), 'Live link created'));
  expiryForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const expiresAt = expiryIso();
    if (!expiresAt) {
      status.textContent = 'Choose a date and time first.';
      expiry.focus();
      return;
    }
    void run((id) => gql(SHARE, { id, expiresAt, snapshot: false }), `Link expires ${formatDate(expiresAt)}`);
  });
  clearExpiry.addEventListener('click', () => {
    expiry.value = '';
    void run((id) => gql(SHARE, { id, expiresAt: null, snapshot: false }), 'The link no longer expires');
  });
  snapshot.addEventListener(
    'click',
    () => void run((id) => gql(SHARE, { id, expiresAt: expiryIso(), snapshot: true }), 'Snapshot link created'),
  );
  revokeAll.addEventListener(
    'click',
    () => void run((id) => gql(REVOKE_SHARE, { sessionId: id, token: null }), 'Every link revoked'),
  );

  return {
    element: dialog,
    async open() {
      status.textContent = '';
      expiry.value = '';
      list.replaceChildren();
      if (!dialog.open) dialog.showModal();
      await load();
      (create.hidden ? liveField : create).focus();
    },
  };
}
