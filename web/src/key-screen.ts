/**
 * Credentials on the chat page: whether the server wants a key (the viewer query says), the key form (stored in
 * this browser only) and the screen that asks for it.
 */
import { ApiError, storedKey, storeKey } from './api.js';
import { clear, h, uid } from './dom.js';

export interface Viewer {
  authEnabled: boolean;
  user: { name: string } | null;
}

/** Whether the last visit needed a key (so a deep link without one goes to the key form first). */
export function needsKeyHint(): boolean {
  try {
    return localStorage.getItem('chat.authEnabled') === 'true';
  } catch {
    return false;
  }
}

/** Shows the key screen when the viewer query says a (valid) key is needed; true when it did. */
export async function authProblem(root: HTMLElement, viewer: Viewer | unknown): Promise<boolean> {
  if (viewer instanceof ApiError && viewer.code === 'UNAUTHENTICATED') {
    keyScreen(root, 'That API key was not accepted.');
    return true;
  }
  if (viewer instanceof Error || !viewer) throw viewer;
  const v = viewer as Viewer;
  try {
    localStorage.setItem('chat.authEnabled', String(v.authEnabled));
  } catch {
    /* storage disabled */
  }
  if (v.authEnabled && !storedKey()) {
    keyScreen(root, null);
    return true;
  }
  if (v.authEnabled && !v.user) {
    keyScreen(root, 'That API key was not accepted.');
    return true;
  }
  return false;
}

export function keyForm(message: string | null): HTMLFormElement {
  const id = uid('key');
  const input = h('input', {
    id,
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    value: storedKey() ?? '',
  });
  const form = h(
    'form',
    { class: 'key-form' },
    h('label', { for: id, text: 'API key' }),
    input,
    h('button', { type: 'submit', text: 'Save key' }),
    storedKey()
      ? h('button', { type: 'button', text: 'Forget key', onclick: () => (storeKey(null), location.reload()) })
      : null,
    message ? h('p', { class: 'error', role: 'alert', text: message }) : null,
    h('p', { class: 'hint', text: 'Stored in this browser only (localStorage) and sent as a Bearer token.' }),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    storeKey(input.value.trim());
    location.reload();
  });
  return form;
}

function keyScreen(root: HTMLElement, message: string | null): void {
  clear(root);
  root.className = 'app key-screen';
  root.append(h('main', { id: 'main', class: 'notice' }, h('h1', { text: 'Chat sessions' }), keyForm(message)));
  root.querySelector('input')?.focus();
}

/** The top bar's account corner: who is signed in and the key form, or that no key is needed. */
export function accountCorner(viewer: Viewer): HTMLElement[] {
  return [
    viewer.user ? h('span', { class: 'user', text: viewer.user.name }) : null,
    viewer.authEnabled
      ? h('details', { class: 'key-panel' }, h('summary', { text: 'API key' }), keyForm(null))
      : h('span', { class: 'mode', text: 'Local mode (no authentication)' }),
  ].filter((n): n is HTMLElement => n !== null);
}
