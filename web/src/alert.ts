/** The page's error line: what went wrong, in the server's words (with the key form when a key was refused). */
import { ApiError } from './api.js';
import { h } from './dom.js';
import { keyForm } from './key-screen.js';

export interface AlertBox {
  element: HTMLElement;
  show(error: unknown): void;
  hide(): void;
}

export function alertBox(): AlertBox {
  const element = h('p', { class: 'alert', role: 'alert', hidden: true });
  return {
    element,
    show(error) {
      element.textContent =
        error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
      element.hidden = false;
      if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') element.append(' ', keyForm(null));
    },
    hide() {
      element.hidden = true;
    },
  };
}
