/**
 * How one message looks, for the owner's chat page and the share viewer
 * alike. Nothing here writes an id (session, message, tool call) into the DOM.
 */
import { storedKey } from './api.js';
import { publishedCardOf, renderPublishedCard, type FileFetcher } from './cards.js';
import { copyButton, decorateCodeBlocks } from './copy.js';
import { formatDate, h } from './dom.js';
import { icon } from './icons.js';
import { renderMarkdown } from './markdown.js';

export type Role = 'USER' | 'ASSISTANT' | 'TOOL' | 'SYSTEM';

export interface ToolCallView {
  name: string;
  arguments: unknown;
}

export interface MessageView {
  role: Role;
  content: string;
  isPlan: boolean;
  toolCalls: ToolCallView[];
  name?: string | null;
  createdAt: string;
  thinking?: string | null;
  isCompression?: boolean;
  isSummary?: boolean;
  /** sent by a scheduled recall, not typed by the user */
  isRecall?: boolean;
  files?: string[];
  images?: string[];
  elapsedSeconds?: number | null;
  /** where the message stands among the alternatives at its position (edits, regenerated answers) */
  siblings?: { index: number; count: number };
  /** an answer cut short by a stop (stored: still marked after a reload) */
  stopped?: boolean;
}

const ROLE_LABEL: Record<Role, string> = { USER: 'You', ASSISTANT: 'Assistant', TOOL: 'Tool result', SYSTEM: 'System' };

/** The owner's file fetch: the API key as a Bearer header, like every other request. */
export const ownerFiles: FileFetcher = (url) => {
  const key = storedKey();
  return fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, referrerPolicy: 'no-referrer' });
};

export function renderMessage(
  message: MessageView,
  options: { ownerLabels?: boolean; files?: FileFetcher } = {},
): HTMLElement {
  const role = message.role.toLowerCase();
  const label = message.isRecall
    ? 'Scheduled recall'
    : message.role === 'USER' && options.ownerLabels === false
      ? 'User'
      : (ROLE_LABEL[message.role] ?? message.role);
  const article = h('article', {
    class: `msg msg-${role}${message.isPlan ? ' msg-plan' : ''}${message.isRecall ? ' msg-recall' : ''}`,
  });
  const roleText = message.role === 'TOOL' && message.name ? `${label} · ${message.name}` : label;
  const header = h(
    'header',
    { class: 'msg-meta' },
    h('span', { class: 'msg-role' }, message.isRecall ? icon('clock') : null, roleText),
    h('time', { datetime: message.createdAt, text: formatDate(message.createdAt) }),
    h(
      'span',
      { class: 'msg-actions' },
      copyButton(`Copy message (${label})`, () => copyTextOf.get(article) ?? ''),
    ),
  );
  article.append(header);
  fillBody(article, message, options.files);
  return article;
}

/** (Re)renders everything below the header: used when a streamed message is finalized. */
export function fillBody(article: HTMLElement, message: MessageView, files: FileFetcher = ownerFiles): void {
  const card = message.role === 'TOOL' ? publishedCardOf(message.name, message.content) : null;
  while (article.children.length > 1) article.lastElementChild!.remove();
  markStopped(article, message.stopped === true);
  setCopyText(article, message.content);
  if (message.thinking) article.append(thinkingBlock(message.thinking));
  if (message.isCompression || message.isSummary) {
    article.append(
      h(
        'details',
        { class: 'card summary-card' },
        h('summary', { text: 'Context summary' }),
        markdownBlock(message.content),
      ),
    );
  } else if (card) {
    article.append(renderPublishedCard(card, files));
  } else if (message.role === 'TOOL') {
    article.append(
      h(
        'details',
        { class: 'tool' },
        h('summary', { text: `Output${message.name ? ` of ${message.name}` : ''}` }),
        h('pre', {}, h('code', { text: message.content })),
      ),
    );
  } else if (message.isPlan) {
    article.append(
      h(
        'section',
        { class: 'card plan-card', 'aria-label': 'Plan' },
        h('h3', { class: 'card-title', text: 'Plan' }),
        markdownBlock(message.content),
      ),
    );
  } else if (message.content) {
    article.append(markdownBlock(message.content));
  }
  for (const call of message.toolCalls) article.append(toolCallBlock(call));
  // Stored paths hold the session directory: show the file name only.
  const base = (path: string) => path.split(/[\\/]/).pop() || path;
  const attachments = [
    ...(message.images ?? []).map((n) => h('li', {}, icon('image'), ` ${base(n)}`)),
    ...(message.files ?? []).map((n) => h('li', {}, icon('paperclip'), ` ${base(n)}`)),
  ];
  if (attachments.length)
    article.append(h('ul', { class: 'attachments', 'aria-label': 'Attachments' }, ...attachments));
}

/** The "Stopped" mark beside the role of an answer that was stopped before it finished. */
function markStopped(article: HTMLElement, stopped: boolean): void {
  article.classList.toggle('msg-stopped', stopped);
  const header = article.querySelector(':scope > .msg-meta');
  header?.querySelector(':scope > .stopped-mark')?.remove();
  if (stopped)
    header
      ?.querySelector(':scope > .msg-role')
      ?.after(h('span', { class: 'stopped-mark', text: 'Stopped', title: 'Stopped before the answer was finished' }));
}

/** The text each message's Copy button copies (the markdown source, not the rendered text). */
const copyTextOf = new WeakMap<HTMLElement, string>();

/** Sets what the message's Copy button copies; the button shows only when there is text. */
export function setCopyText(article: HTMLElement, text: string): void {
  copyTextOf.set(article, text);
  const actions = article.querySelector(':scope > .msg-meta > .msg-actions') as HTMLElement | null;
  if (actions) actions.hidden = !text;
}

export function markdownBlock(text: string): HTMLElement {
  const div = h('div', { class: 'md' });
  div.innerHTML = renderMarkdown(text); // escaped by the renderer before any tag is emitted
  decorateCodeBlocks(div);
  return div;
}

export function thinkingBlock(text: string, open = false): HTMLDetailsElement {
  return h(
    'details',
    { class: 'thinking', open },
    h('summary', { text: 'Thinking' }),
    h('div', { class: 'thinking-text', text }),
  );
}

export function toolCallBlock(call: ToolCallView): HTMLDetailsElement {
  let args: string;
  try {
    args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments, null, 2);
  } catch {
    args = String(call.arguments);
  }
  return h(
    'details',
    { class: 'tool' },
    h('summary', { text: `Tool call: ${call.name}` }),
    h('pre', {}, h('code', { text: args })),
  );
}

export function compressionCard(before: number, after: number, summary?: string): HTMLElement {
  return h(
    'aside',
    { class: 'card compression-card', role: 'note' },
    h('p', { class: 'card-title', text: `Context compressed: ${before} to ${after} messages` }),
    summary ? h('details', {}, h('summary', { text: 'Summary' }), markdownBlock(summary)) : null,
  );
}

/**
 * Keeps the viewport anchored while older messages are inserted above, so
 * loading history on scroll-up does not make the reader jump.
 */
export function prependKeepingScroll(scroller: HTMLElement, container: HTMLElement, nodes: Node[]): void {
  const before = scroller.scrollHeight - scroller.scrollTop;
  const fragment = document.createDocumentFragment();
  fragment.append(...nodes);
  container.prepend(fragment);
  scroller.scrollTop = scroller.scrollHeight - before;
}

export function markFirstRender(): void {
  if (!performance.getEntriesByName('first-message').length) performance.mark('first-message');
}
