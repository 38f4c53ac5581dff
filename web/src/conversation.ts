/**
 * One open conversation: history (newest page first, older pages on scroll
 * up), the live event stream rendered token by token, and jump-to-match.
 * Ids stay in these Maps; the DOM only ever sees rendered text.
 */
import { ApiError, gql } from './api.js';
import { subscribe, type Subscription } from './socket.js';
import { announce, clear, h } from './dom.js';
import { decorateCodeBlocks } from './copy.js';
import { renderMarkdown } from './markdown.js';
import { icon } from './icons.js';
import {
  CONTEXT_METER,
  EDIT_MESSAGE,
  OLDER,
  REGENERATE,
  SWITCH_SIBLING,
  OPEN_SESSION,
  SESSION_EVENTS,
  TURN_STATUS,
  type HistoryPage,
  type Message,
  type SessionDetail,
  type SessionEvent,
  type SendAnswer,
} from './queries.js';
import { revokeCardUrls } from './cards.js';
import { type ContextMode, contextControls, contextModeError, showContextMode } from './context-mode.js';
import {
  compressionCard,
  fillBody,
  markFirstRender,
  prependKeepingScroll,
  renderMessage,
  setCopyText,
  thinkingBlock,
  toolCallBlock,
} from './render.js';

const PAGE = 30;
/** Turn statuses whose answer did not end normally: a reload shows their line and Retry. */
const ENDED_EARLY = ['FAILED', 'CANCELLED', 'INTERRUPTED'];
const JUMP_PAGE = 200;
const SEEN_LIMIT = 5000;

interface Stream {
  article: HTMLElement;
  body: HTMLElement;
  thinking: HTMLDetailsElement | null;
  text: string;
  thinkingText: string;
  frame: number;
}

export interface ConversationView {
  scroller: HTMLElement;
  log: HTMLElement;
  edge: HTMLElement;
  status: HTMLElement;
}

export interface ConversationEvents {
  loaded(session: SessionDetail): void;
  renamed(name: string): void;
  meter(tokens: number, window: number): void;
  busy(turnId: string | null): void;
  error(error: unknown): void;
  /**
   * Retry of a failed turn (the newest turn): send its user message again. `replace` when the message may be taken
   * back first (undoLastTurn), so the history keeps one copy: a typed message without attachments.
   */
  retry(content: string, replace: boolean): Promise<void>;
  /** The session's queue of waiting messages changed (queued, dispatched, steered, cancelled) or may have. */
  queueChanged(): void;
}

export class Conversation {
  sessionId: string | null = null;
  activeTurn: string | null = null;
  private cursor: string | null = null;
  private hasOlder = false;
  private oldestIndex = Number.POSITIVE_INFINITY;
  private nextIndex = 0;
  private readonly byMessage = new Map<string, HTMLElement>();
  private readonly byIndex = new Map<number, HTMLElement>();
  private readonly streams = new Map<string, Stream>();
  private readonly seen = new Set<string>();
  private readonly turnsWithEvents = new Set<string>();
  /** each turn's user message, for the Retry button of a failed turn */
  private readonly promptOf = new Map<string, Message>();
  /**
   * Turns whose end arrived on the stream, with their error line when they failed: the answer to sendMessage can
   * arrive after the turn's end (a provider that refuses at once), and must then neither mark the page busy nor
   * leave the failure without its Retry.
   */
  private readonly endedTurns = new Map<string, HTMLElement | null>();
  private subscription: Subscription | null = null;
  private loadingOlder: Promise<void> | null = null;
  private generation = 0;
  /** true from an edit's request until its turn is known: no second edit meanwhile */
  private editing = false;

  constructor(
    private readonly view: ConversationView,
    private readonly on: ConversationEvents,
  ) {
    new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void this.loadOlder(), {
      root: view.scroller,
      rootMargin: '400px 0px 0px 0px',
    }).observe(view.edge);
  }

  async open(sessionId: string, prefetched?: Promise<unknown>): Promise<void> {
    this.close();
    const generation = ++this.generation;
    this.sessionId = sessionId;
    // Subscribe before loading so nothing between the page and the stream is lost (messages dedupe by id).
    this.subscription = subscribe<{ sessionEvents: SessionEvent }>(
      SESSION_EVENTS,
      { sessionId, after: null },
      (data) => this.handle(data.sessionEvents),
      (error) => this.on.error(error),
    );
    this.view.edge.textContent = 'Loading…';
    const data =
      ((await prefetched) as { session: SessionDetail | null } | undefined) ??
      (await gql<{ session: SessionDetail | null }>(OPEN_SESSION, { id: sessionId, last: PAGE }));
    if (generation !== this.generation) return;
    if (!data.session) throw new ApiError('Conversation not found', 'NOT_FOUND');
    const session = data.session;
    this.place(session.history, 'replace');
    this.on.loaded(session);
    void this.refreshMeter();
    if (session.activeTurn && ['RUNNING', 'WAITING_FOR_TOOL'].includes(session.activeTurn.status))
      this.setBusy(session.activeTurn.id);
    else this.outcomeOfNewest(session.history);
    this.view.scroller.scrollTop = this.view.scroller.scrollHeight;
    if (session.history.edges.length) markFirstRender();
  }

  /** Reads the open conversation again from the server (after an edit: undo, redo, branch switch). */
  async reload(): Promise<void> {
    if (this.sessionId) await this.open(this.sessionId);
  }

  close(): void {
    this.generation++;
    this.editing = false;
    this.subscription?.stop();
    this.subscription = null;
    this.sessionId = null;
    this.setBusy(null);
    for (const s of this.streams.values()) cancelAnimationFrame(s.frame);
    this.streams.clear();
    this.byMessage.clear();
    this.byIndex.clear();
    this.seen.clear();
    this.turnsWithEvents.clear();
    this.endedTurns.clear();
    this.cursor = null;
    this.hasOlder = false;
    this.oldestIndex = Number.POSITIVE_INFINITY;
    this.nextIndex = 0;
    clear(this.view.log);
    revokeCardUrls();
    this.view.edge.textContent = '';
  }

  /** Older pages on scroll up; `size` is larger when jumping to a search match. */
  loadOlder(size = PAGE): Promise<void> {
    if (!this.sessionId || !this.hasOlder) return Promise.resolve();
    if (this.loadingOlder) return this.loadingOlder;
    const generation = this.generation;
    this.view.edge.textContent = 'Loading earlier messages…';
    this.view.log.setAttribute('aria-busy', 'true');
    this.loadingOlder = gql<{ session: { history: HistoryPage } | null }>(OLDER, {
      id: this.sessionId,
      last: size,
      before: this.cursor,
    })
      .then((data) => {
        if (generation !== this.generation || !data.session) return;
        this.place(data.session.history, 'prepend');
      })
      .catch((error) => {
        this.view.edge.textContent = 'Earlier messages could not be loaded.';
        this.on.error(error);
      })
      .finally(() => {
        this.loadingOlder = null;
        this.view.log.setAttribute('aria-busy', 'false');
      });
    return this.loadingOlder;
  }

  /**
   * Brings display index `index` on screen. The loaded window is always the
   * contiguous tail of the history, so older pages (200 at a time) are added
   * until it reaches the index: cursors stay opaque and infinite scroll keeps
   * working from there.
   */
  async jumpTo(index: number): Promise<boolean> {
    const generation = this.generation;
    while (!this.byIndex.has(index) && this.hasOlder && index < this.oldestIndex && generation === this.generation) {
      const oldest = this.oldestIndex;
      await this.loadOlder(JUMP_PAGE);
      if (this.oldestIndex === oldest) break; // the page failed: do not spin
    }
    const target = this.byIndex.get(index);
    if (!target) return false;
    for (const el of this.view.log.querySelectorAll('.match')) el.classList.remove('match');
    target.classList.add('match');
    target.tabIndex = -1;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
    return true;
  }

  private place(history: HistoryPage, mode: 'replace' | 'prepend'): void {
    const nodes: HTMLElement[] = [];
    for (const edge of history.edges) {
      if (this.byMessage.has(edge.node.id)) continue;
      const el = this.render(edge.node);
      this.byMessage.set(edge.node.id, el);
      this.byIndex.set(edge.displayIndex, el);
      this.oldestIndex = Math.min(this.oldestIndex, edge.displayIndex);
      this.nextIndex = Math.max(this.nextIndex, edge.displayIndex + 1);
      nodes.push(el);
    }
    if (mode === 'replace') {
      this.view.log.append(...nodes);
      this.cursor = history.pageInfo.startCursor;
      this.hasOlder = history.pageInfo.hasPreviousPage;
    } else {
      prependKeepingScroll(this.view.scroller, this.view.log, nodes);
      this.cursor = history.pageInfo.startCursor;
      this.hasOlder = history.pageInfo.hasPreviousPage;
    }
    if (!this.byMessage.size && !this.streams.size)
      this.view.edge.textContent = 'No messages yet. Say something below.';
    else this.view.edge.textContent = this.hasOlder ? '' : 'Beginning of the conversation';
  }

  /** A message that arrived live (sendMessage answer or an event): appended once. */
  addMessage(message: Message, before?: HTMLElement): HTMLElement | null {
    if (!message.isDisplay) return null;
    const existing = this.byMessage.get(message.id);
    if (existing) return existing;
    const el = this.render(message);
    this.byMessage.set(message.id, el);
    this.byIndex.set(this.nextIndex++, el);
    if (before) before.before(el);
    else this.appendAtBottom(el);
    this.view.edge.textContent = this.hasOlder ? '' : 'Beginning of the conversation';
    return el;
  }

  userMessageSent(turnId: string, message: Message): void {
    this.promptOf.set(turnId, message);
    this.addMessage(message, this.streams.get(turnId)?.article);
    if (this.endedTurns.has(turnId)) {
      const failure = this.endedTurns.get(turnId);
      if (failure && !failure.querySelector('button.retry')) this.addRetry(failure, message);
      return;
    }
    this.setBusy(turnId);
    // If the stream was not listening yet when the turn started, reconcile from the API.
    setTimeout(() => void this.watchdog(turnId), 4000);
  }

  private async watchdog(turnId: string): Promise<void> {
    if (this.turnsWithEvents.has(turnId) || this.activeTurn !== turnId || !this.sessionId) return;
    const sessionId = this.sessionId;
    try {
      const data = await gql<{ turn: { status: string } | null }>(TURN_STATUS, { id: turnId });
      if (this.sessionId !== sessionId || this.turnsWithEvents.has(turnId)) return;
      if (!data.turn || !['RUNNING', 'WAITING_FOR_TOOL'].includes(data.turn.status)) await this.reloadNewest();
      else setTimeout(() => void this.watchdog(turnId), 4000);
    } catch {
      /* the next event or a reload will tell */
    }
  }

  private async reloadNewest(): Promise<void> {
    if (!this.sessionId) return;
    const data = await gql<{ session: SessionDetail | null }>(OPEN_SESSION, { id: this.sessionId, last: PAGE });
    if (!data.session) return;
    for (const edge of data.session.history.edges) this.addMessage(edge.node);
    void this.refreshMeter();
    if (!data.session.activeTurn) {
      this.setBusy(null);
      this.outcomeOfNewest(data.session.history);
    }
  }

  /**
   * After a (re)load: when the newest turn failed, was stopped or was cut off, its line and Retry, as they were
   * shown live. What the history says is all there is to go on (Message.turn, Message.stopped).
   */
  private outcomeOfNewest(history: HistoryPage): void {
    const edges = history.edges;
    let at = edges.length - 1;
    while (at >= 0 && edges[at]!.node.role !== 'USER') at--;
    const prompt = edges[at]?.node;
    const turn = prompt?.turn;
    if (!prompt || !turn || !ENDED_EARLY.includes(turn.status) || this.endedTurns.get(turn.id)) return;
    const answer = edges
      .slice(at + 1)
      .map((e) => e.node)
      .findLast((m) => m.role === 'ASSISTANT');
    this.promptOf.set(turn.id, prompt);
    this.outcome(turn.id, turn.status, answer ?? null, turn.error, false);
  }

  /**
   * The line under an answer that did not end normally (failed, stopped, cut off by a restart), with Retry while
   * it is the newest turn. Under the answer's bubble, or an empty one when nothing was said.
   */
  private outcome(turnId: string, status: string, answer: Message | null, error: string | null, live: boolean): void {
    const article = (answer && this.byMessage.get(answer.id)) || this.emptyAnswer();
    const failed = status === 'FAILED';
    const text = failed
      ? (error ?? 'The answer failed.')
      : status === 'CANCELLED'
        ? answer
          ? 'Answer stopped.'
          : 'Stopped before any answer.'
        : 'The answer was cut off when the server stopped.';
    const line = h('p', { class: failed ? 'turn-error' : 'turn-note', role: failed && live ? 'alert' : null, text });
    const prompt = this.promptOf.get(turnId);
    if (prompt !== undefined) this.addRetry(line, prompt);
    this.endedTurns.set(turnId, line);
    article.append(line);
  }

  /** An answer bubble with nothing in it, for a line about a turn that saved no answer. */
  private emptyAnswer(): HTMLElement {
    const article = renderMessage({
      role: 'ASSISTANT',
      content: '',
      isPlan: false,
      toolCalls: [],
      createdAt: new Date().toISOString(),
    });
    this.appendAtBottom(article);
    return article;
  }

  private handle(event: SessionEvent): void {
    if (event.__typename === 'EventsReset') {
      // The server's log no longer holds what was missed (a restart, or trimmed): read the history again.
      if (this.subscription) this.subscription.variables.after = event.eventId;
      void this.reloadNewest();
      this.on.queueChanged();
      return;
    }
    // Exactly once: replays after a reconnect repeat what was already applied.
    if (this.seen.has(event.eventId)) return;
    this.seen.add(event.eventId);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value!);
    if (this.subscription) this.subscription.variables.after = event.eventId;
    if ('turnId' in event && event.turnId) this.turnsWithEvents.add(event.turnId);
    if ('savedTurnId' in event && event.savedTurnId) this.turnsWithEvents.add(event.savedTurnId);
    if ('turn' in event) this.turnsWithEvents.add(event.turn.id);

    switch (event.__typename) {
      case 'TurnStarted':
        this.promptOf.set(event.turn.id, event.userMessage);
        this.addMessage(event.userMessage);
        this.setBusy(event.turn.id);
        break;
      case 'TextDelta': {
        const stream = this.stream(event.turnId);
        stream.text += event.text;
        this.schedule(stream);
        break;
      }
      case 'ThinkingDelta': {
        const stream = this.stream(event.turnId);
        stream.thinkingText += event.text;
        if (!stream.thinking) {
          stream.thinking = thinkingBlock('', true);
          stream.body.before(stream.thinking);
        }
        this.schedule(stream);
        break;
      }
      case 'ToolCallRequested':
        this.stream(event.turnId).article.append(toolCallBlock(event.toolCall));
        break;
      case 'MessageSaved': {
        const stream = event.savedTurnId ? this.streams.get(event.savedTurnId) : undefined;
        if (stream && event.message.role === 'ASSISTANT' && !this.byMessage.has(event.message.id)) {
          this.finish(event.savedTurnId!, event.message);
        } else this.addMessage(event.message);
        break;
      }
      case 'CompressionStarted':
        announce(this.view.status, 'Compressing the context…');
        break;
      case 'ContextCompressed':
        this.appendAtBottom(compressionCard(event.messagesBefore, event.messagesAfter, event.summary));
        this.on.meter(event.contextTokens, event.maxContextTokens);
        announce(this.view.status, `Context compressed: ${event.messagesBefore} to ${event.messagesAfter} messages`);
        break;
      case 'SessionRenamed':
        this.on.renamed(event.name);
        break;
      case 'TurnEnded': {
        if (event.assistantMessage && !this.byMessage.has(event.assistantMessage.id)) {
          if (this.streams.has(event.turn.id)) this.finish(event.turn.id, event.assistantMessage);
          else this.addMessage(event.assistantMessage);
        }
        const stopped = event.turn.status === 'CANCELLED';
        this.endStream(event.turn.id, null);
        if (stopped) {
          const answer = event.assistantMessage ?? null;
          this.outcome(event.turn.id, 'CANCELLED', answer && this.byMessage.has(answer.id) ? answer : null, null, true);
        } else this.endedTurns.set(event.turn.id, null);
        if (this.activeTurn === event.turn.id) this.setBusy(null);
        announce(this.view.status, event.turn.status === 'CANCELLED' ? 'Answer stopped' : 'Answer complete');
        void this.refreshMeter();
        break;
      }
      case 'MessageQueued':
      case 'QueuedMessageDispatched':
      case 'QueuedMessageCancelled':
      case 'MessageSteered':
        this.on.queueChanged();
        if (event.__typename === 'MessageSteered') announce(this.view.status, 'Your message joined the answer');
        break;
      case 'TurnInterrupted':
        announce(this.view.status, 'Answer interrupted: your new message is being answered');
        break;
      case 'MessageContextChanged':
        this.contextChanged(event.messageIds, event.mode);
        break;
      case 'TurnFailed': {
        const stream = this.stream(event.turn.id);
        // The server's line names the cause (model missing, provider down, rate limit, refusal).
        const line = h('p', { class: 'turn-error', role: 'alert', text: event.errorMessage });
        const prompt = this.promptOf.get(event.turn.id);
        if (prompt !== undefined) this.addRetry(line, prompt);
        this.endedTurns.set(event.turn.id, line);
        stream.article.append(line);
        this.endStream(event.turn.id, null);
        if (this.activeTurn === event.turn.id) this.setBusy(null);
        break;
      }
    }
  }

  /** The Retry button of a failed turn's error line: sends `prompt` again. */
  private addRetry(line: HTMLElement, prompt: Message): void {
    const retry = h('button', {
      type: 'button',
      class: 'retry',
      text: 'Retry',
      title: 'Send this message again',
    });
    // Taken back and sent again (one copy in the history) unless it carries attachments, which a resend of the
    // text would drop, or was sent by a recall (undo takes back the last message the user typed, not a recall).
    const replace = !prompt.isRecall && !prompt.images?.length && !prompt.files?.length;
    retry.addEventListener('click', () => {
      if (this.activeTurn) return;
      retry.disabled = true;
      void this.on.retry(prompt.content, replace).then(
        () => retry.remove(),
        (error: unknown) => {
          retry.disabled = false;
          this.on.error(error);
        },
      );
    });
    line.append(' ', retry);
  }

  private stream(turnId: string): Stream {
    let stream = this.streams.get(turnId);
    if (stream) return stream;
    const body = h('div', { class: 'md' });
    const article = renderMessage({
      role: 'ASSISTANT',
      content: '',
      isPlan: false,
      toolCalls: [],
      createdAt: new Date().toISOString(),
    });
    article.classList.add('streaming');
    article.setAttribute('aria-busy', 'true');
    article.append(body);
    this.appendAtBottom(article);
    stream = { article, body, thinking: null, text: '', thinkingText: '', frame: 0 };
    this.streams.set(turnId, stream);
    return stream;
  }

  /** Re-renders at most once a frame: every token shows, the markdown parse does not run per token. */
  private schedule(stream: Stream): void {
    if (stream.frame) return;
    stream.frame = requestAnimationFrame(() => {
      stream.frame = 0;
      const stick = this.atBottom();
      stream.body.innerHTML = renderMarkdown(stream.text); // escaped by the renderer
      if (stream.thinking) stream.thinking.lastElementChild!.textContent = stream.thinkingText;
      if (stick) this.view.scroller.scrollTop = this.view.scroller.scrollHeight;
    });
  }

  /** The streamed bubble becomes the saved message; later deltas of the turn start a new bubble. */
  private finish(turnId: string, message: Message): void {
    const stream = this.streams.get(turnId)!;
    cancelAnimationFrame(stream.frame);
    this.streams.delete(turnId);
    stream.article.classList.remove('streaming');
    stream.article.removeAttribute('aria-busy');
    fillBody(stream.article, { ...message, thinking: message.thinking ?? (stream.thinkingText || null) });
    this.decorate(stream.article, message);
    this.byMessage.set(message.id, stream.article);
    this.byIndex.set(this.nextIndex++, stream.article);
  }

  private endStream(turnId: string, note: string | null): void {
    const stream = this.streams.get(turnId);
    if (!stream) return;
    cancelAnimationFrame(stream.frame);
    stream.frame = 0;
    if (stream.text) {
      stream.body.innerHTML = renderMarkdown(stream.text);
      decorateCodeBlocks(stream.body);
    }
    setCopyText(stream.article, stream.text);
    if (stream.thinking) stream.thinking.lastElementChild!.textContent = stream.thinkingText;
    stream.article.classList.remove('streaming');
    stream.article.removeAttribute('aria-busy');
    if (note) stream.article.append(h('p', { class: 'turn-note', text: note }));
    if (
      !stream.text &&
      !stream.thinkingText &&
      stream.article.querySelectorAll('details, .turn-error, .turn-note').length === 0
    )
      stream.article.remove();
    this.streams.delete(turnId);
  }

  private setBusy(turnId: string | null): void {
    // A new turn makes older failures' Retry stale: it would take back the newer turn.
    if (turnId) for (const button of this.view.log.querySelectorAll('button.retry')) button.remove();
    this.activeTurn = turnId;
    this.lockControls(Boolean(turnId));
    this.on.busy(turnId);
  }

  /** A saved message with its edit controls (Edit, Regenerate, the sibling arrows). */
  private render(message: Message): HTMLElement {
    const el = renderMessage(message);
    this.decorate(el, message);
    return el;
  }

  /**
   * Edit on the user's own words, Regenerate on an answer, and "‹ 2/3 ›" where the position has alternatives.
   * Disabled while a turn runs (the server answers CONFLICT then).
   */
  private decorate(article: HTMLElement, message: Message): void {
    const header = article.querySelector(':scope > .msg-meta');
    if (!header) return;
    header.querySelector(':scope > .msg-controls')?.remove();
    const controls = h('span', { class: 'msg-controls' });
    const locked = Boolean(this.activeTurn) || this.editing;
    const button = (label: string, name: Parameters<typeof icon>[0], text: string | null, run: () => void) => {
      const b = h('button', { type: 'button', class: 'icon turn-control', 'aria-label': label, title: label });
      b.append(icon(name), text ? h('span', { class: 'control-caption', text }) : '');
      b.disabled = locked;
      b.addEventListener('click', run);
      return b;
    };
    const siblings = message.siblings;
    if (siblings && siblings.count > 1) {
      const prev = button('Previous version', 'chevronLeft', null, () => void this.switchSibling(message, -1));
      const next = button('Next version', 'chevronRight', null, () => void this.switchSibling(message, 1));
      prev.dataset.edge = String(siblings.index === 0);
      next.dataset.edge = String(siblings.index === siblings.count - 1);
      if (siblings.index === 0) prev.disabled = true;
      if (siblings.index === siblings.count - 1) next.disabled = true;
      controls.append(
        h(
          'span',
          { class: 'siblings', role: 'group', 'aria-label': `Version ${siblings.index + 1} of ${siblings.count}` },
          prev,
          h('span', { class: 'sibling-count', text: `${siblings.index + 1}/${siblings.count}` }),
          next,
        ),
      );
    }
    const plain = !message.isCompression && !message.isSummary;
    if (message.role === 'USER' && !message.isRecall && plain)
      controls.append(button('Edit message', 'pencil', 'Edit', () => this.startEdit(article, message)));
    if (message.role === 'ASSISTANT' && plain)
      controls.append(
        button('Regenerate answer', 'regenerate', 'Regenerate', () => void this.regenerate(article, message)),
      );
    if (plain && message.isDisplay !== false)
      controls.append(
        ...contextControls(
          {
            messageId: message.id,
            current: () => (article.dataset.contextMode as ContextMode | undefined) ?? 'DEFAULT',
            changed: (ids, mode) => this.contextChanged(ids, mode),
            error: (error) => {
              this.on.error(contextModeError(error));
              // CONFLICT: another page moved the history (an edit, undo, switch): show it as it now is
              if (error instanceof ApiError && error.code === 'CONFLICT') void this.reload();
            },
          },
          locked,
        ),
      );
    if (controls.childElementCount) header.querySelector(':scope > time')?.after(controls);
    showContextMode(article, message.contextMode ?? 'DEFAULT');
  }

  /** A message (and its tool pair) was pinned, excluded or reset, here or on another page: its mark follows. */
  private contextChanged(messageIds: string[], mode: ContextMode): void {
    let shown = 0;
    for (const id of messageIds) {
      const el = this.byMessage.get(id);
      if (el) {
        showContextMode(el, mode);
        shown++;
      }
    }
    if (shown)
      announce(
        this.view.status,
        mode === 'PINNED'
          ? 'Pinned to the context'
          : mode === 'EXCLUDED'
            ? 'Excluded from the context'
            : 'Context reset',
      );
  }

  private lockControls(locked: boolean): void {
    for (const b of this.view.log.querySelectorAll<HTMLButtonElement>('button.turn-control'))
      b.disabled = locked || b.dataset.edge === 'true';
  }

  /** The inline editor: Enter saves and sends (editMessage), Shift+Enter is a new line, Esc cancels. */
  private startEdit(article: HTMLElement, message: Message): void {
    if (this.activeTurn || this.editing || article.querySelector('.edit-form')) return;
    const textarea = h('textarea', { class: 'edit-text', rows: '3', 'aria-label': 'Edited message' });
    textarea.value = message.content;
    const close = () => {
      form.remove();
      article.classList.remove('editing');
      (article.querySelector('button[aria-label="Edit message"]') as HTMLElement | null)?.focus();
    };
    const form = h(
      'form',
      { class: 'edit-form' },
      textarea,
      h(
        'div',
        { class: 'edit-actions' },
        h('span', { class: 'hint', text: 'Enter saves and sends, Esc cancels' }),
        h('button', { type: 'button', text: 'Cancel', onclick: close }),
        h('button', { type: 'submit', class: 'primary', text: 'Save and send' }),
      ),
    );
    textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close();
      }
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const content = textarea.value.trim();
      if (!content || content === message.content.trim()) return close();
      if (!this.sessionId || this.activeTurn) return;
      void this.resend(article, () =>
        gql<{ editMessage: SendAnswer }>(EDIT_MESSAGE, { messageId: message.id, content }).then((d) => d.editMessage),
      );
    });
    article.classList.add('editing');
    article.append(form);
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
  }

  /** A new answer to the user message this answer replies to (regenerate): what followed it becomes a branch. */
  private async regenerate(article: HTMLElement, message: Message): Promise<void> {
    if (!this.sessionId || this.activeTurn || this.editing) return;
    // The rows after the user message it answers are replaced: from the first message after that one.
    let from: Element = article;
    for (let el = article.previousElementSibling; el; el = el.previousElementSibling) {
      if (el.classList.contains('msg-user')) break;
      from = el;
    }
    await this.resend(from as HTMLElement, () =>
      gql<{ regenerate: SendAnswer }>(REGENERATE, { messageId: message.id }).then((d) => d.regenerate),
    );
  }

  /**
   * Edit and regenerate: the replaced messages leave the page before the call, since the new ones take their
   * positions (with ids of their own) and the turn's events may come before the answer. A refusal (CONFLICT when
   * another client moved the message off the current path) reloads.
   */
  private async resend(from: HTMLElement, run: () => Promise<SendAnswer>): Promise<void> {
    const generation = this.generation;
    this.editing = true;
    this.lockControls(true);
    this.truncateFrom(from);
    try {
      const answer = await run();
      if (generation !== this.generation) return;
      this.editing = false;
      this.userMessageSent(answer.turn.id, answer.userMessage);
    } catch (error) {
      this.editing = false;
      this.on.error(error);
      if (generation === this.generation) await this.reload();
    }
  }

  /** Removes `from` and everything after it from the page and the maps. */
  private truncateFrom(from: Element): void {
    const removed = new Set<Element>();
    for (let el: Element | null = from; el; ) {
      const next: Element | null = el.nextElementSibling;
      removed.add(el);
      el.remove();
      el = next;
    }
    for (const [id, el] of this.byMessage) if (removed.has(el)) this.byMessage.delete(id);
    for (const [index, el] of this.byIndex)
      if (removed.has(el)) {
        this.byIndex.delete(index);
        this.nextIndex = Math.min(this.nextIndex, index);
      }
    for (const [turnId, stream] of this.streams)
      if (removed.has(stream.article)) {
        cancelAnimationFrame(stream.frame);
        this.streams.delete(turnId);
      }
  }

  /** Shows the previous (-1) or next (+1) alternative at this message's position, then the history as it now is. */
  private async switchSibling(message: Message, step: -1 | 1): Promise<void> {
    const siblings = message.siblings;
    if (!this.sessionId || this.activeTurn || this.editing || !siblings) return;
    const index = siblings.index + step;
    if (index < 0 || index >= siblings.count) return;
    // Each version has its own id: after the switch the version shown at this place is found by its display index.
    const shown = this.byMessage.get(message.id);
    const place = [...this.byIndex].find(([, el]) => el === shown)?.[0];
    try {
      await gql(SWITCH_SIBLING, { messageId: message.id, index });
      await this.reload();
      announce(this.view.status, `Version ${index + 1} of ${siblings.count}`);
      const el = place === undefined ? this.byMessage.get(message.id) : this.byIndex.get(place);
      if (el) {
        el.scrollIntoView({ block: 'nearest' });
        const again = el.querySelector<HTMLButtonElement>(
          `button[aria-label="${step < 0 ? 'Previous' : 'Next'} version"]:not(:disabled)`,
        );
        (again ?? el.querySelector<HTMLButtonElement>('.siblings button:not(:disabled)'))?.focus();
      }
    } catch (error) {
      this.on.error(error);
    }
  }

  private async refreshMeter(): Promise<void> {
    if (!this.sessionId) return;
    try {
      const data = await gql<{ session: { contextTokens: number; contextWindow: number } | null }>(CONTEXT_METER, {
        id: this.sessionId,
      });
      if (data.session) this.on.meter(data.session.contextTokens, data.session.contextWindow);
    } catch {
      /* the meter is advisory */
    }
  }

  private atBottom(): boolean {
    const s = this.view.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < 80;
  }

  private appendAtBottom(el: HTMLElement): void {
    const stick = this.atBottom();
    this.view.log.append(el);
    if (stick) this.view.scroller.scrollTop = this.view.scroller.scrollHeight;
  }
}
