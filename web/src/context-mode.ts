/**
 * Pin and exclude one message (setMessageContext): the two toggle buttons in each message's controls and the
 * mark beside its role. A pinned message is never summarised or truncated out of what the model is sent; an
 * excluded one stays on the page but is never sent. The server changes a tool call and its results together and
 * tells every open page (MessageContextChanged), which is what updates the buttons and marks.
 */
import { ApiError, gql } from './api.js';
import { h } from './dom.js';
import { icon } from './icons.js';

export type ContextMode = 'DEFAULT' | 'PINNED' | 'EXCLUDED';

export const SET_MESSAGE_CONTEXT = `mutation SetMessageContext($messageId: ID!, $mode: MessageContextMode!) {
  setMessageContext(messageId: $messageId, mode: $mode) { id contextMode }
}`;

const MARK: Record<Exclude<ContextMode, 'DEFAULT'>, { text: string; title: string }> = {
  PINNED: { text: 'Pinned', title: 'Pinned: always sent to the model, never summarised' },
  EXCLUDED: { text: 'Excluded', title: 'Excluded: kept here, never sent to the model' },
};

/** Shows `mode` on a rendered message: its class, the mark beside the role, the pressed state of its buttons. */
export function showContextMode(article: HTMLElement, mode: ContextMode): void {
  article.dataset.contextMode = mode;
  article.classList.toggle('msg-pinned', mode === 'PINNED');
  article.classList.toggle('msg-excluded', mode === 'EXCLUDED');
  const header = article.querySelector(':scope > .msg-meta');
  header?.querySelector(':scope > .context-mark')?.remove();
  if (mode !== 'DEFAULT') {
    const mark = h('span', { class: `context-mark context-mark-${mode.toLowerCase()}`, title: MARK[mode].title });
    mark.append(icon(mode === 'PINNED' ? 'pin' : 'eyeOff'), ` ${MARK[mode].text}`);
    header?.querySelector(':scope > .msg-role')?.after(mark);
  }
  for (const b of article.querySelectorAll<HTMLButtonElement>(':scope > .msg-meta button[data-context-mode]'))
    b.setAttribute('aria-pressed', String(b.dataset.contextMode === mode));
}

export interface ContextControlOptions {
  messageId: string;
  /** the control's state now (read when clicked: the event may have changed it since) */
  current(): ContextMode;
  /** the answer and the event both land here */
  changed(messageIds: string[], mode: ContextMode): void;
  error(error: unknown): void;
}

/**
 * "Pin" and "Exclude": toggle buttons (aria-pressed). Pressing the pressed one resets the message (DEFAULT).
 * The buttons carry `turn-control`: the server refuses history edits while a turn runs, so they lock with Edit.
 */
export function contextControls(options: ContextControlOptions, locked: boolean): HTMLElement[] {
  const make = (mode: Exclude<ContextMode, 'DEFAULT'>, label: string, caption: string) => {
    const b = h('button', {
      type: 'button',
      class: 'icon turn-control context-control',
      'aria-label': label,
      title: label,
      'aria-pressed': String(options.current() === mode),
      'data-context-mode': mode,
    });
    b.append(icon(mode === 'PINNED' ? 'pin' : 'eyeOff'), h('span', { class: 'control-caption', text: caption }));
    b.disabled = locked;
    b.addEventListener('click', () => {
      const next: ContextMode = options.current() === mode ? 'DEFAULT' : mode;
      b.setAttribute('aria-busy', 'true');
      gql<{ setMessageContext: { id: string; contextMode: ContextMode } }>(SET_MESSAGE_CONTEXT, {
        messageId: options.messageId,
        mode: next,
      })
        .then((d) => options.changed([d.setMessageContext.id], d.setMessageContext.contextMode))
        .catch((error: unknown) => options.error(error))
        .finally(() => b.removeAttribute('aria-busy'));
    });
    return b;
  };
  return [
    make('PINNED', 'Pin to the model context', 'Pin'),
    make('EXCLUDED', 'Exclude from the model context', 'Exclude'),
  ];
}

/** The line the page shows for a refusal (CONTEXT_TOO_LARGE, CONFLICT): the server's words, which say what to do. */
export function contextModeError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'CONTEXT_TOO_LARGE') return new ApiError(`Cannot pin this message. ${error.message}`, error.code);
  if (error.code === 'CONFLICT') return new ApiError(`Cannot change this message now. ${error.message}`, error.code);
  return error;
}
