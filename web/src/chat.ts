/**
 * The reference chat page: API key (or no-auth mode), session list, the
 * profile (model) picker, import, the open conversation, the composer with
 * pasted images and file uploads, cancel, the context meter, the share
 * button, fork / undo / redo / branches / export, what the model sees, and the
 * keyboard shortcuts (Enter, Shift+Enter, Esc, Ctrl/Cmd+K).
 *
 * This module puts the page together; each part is its own component: the key screen (key-screen.ts), the
 * sidebar (sidebar.ts, sidebar-top.ts), the conversation (conversation.ts) and its header
 * (conversation-header.ts, session-actions.ts, files-panel.ts, model-view.ts, share-dialog.ts), the panels above
 * the composer (queue-panel.ts, recalls-panel.ts) and the composer (composer.ts).
 */
import { gql } from './api.js';
import { onSocketStatus } from './socket.js';
import { announce, clear, h } from './dom.js';
import { Conversation } from './conversation.js';
import { CANCEL, CREATE, SEND, UNDO, VIEWER, type Message, type SendAnswer, type SessionSummary } from './queries.js';
import { modelViewPanel } from './model-view.js';
import { shareDialog } from './share-dialog.js';
import { Sidebar } from './sidebar.js';
import { SidebarTop } from './sidebar-top.js';
import { accountCorner, authProblem, needsKeyHint, type Viewer } from './key-screen.js';
import { storedKey } from './api.js';
import { alertBox, type AlertBox } from './alert.js';
import { Composer, type Outgoing } from './composer.js';
import { ConversationHeader } from './conversation-header.js';
import { FilesPanel } from './files-panel.js';
import { QueuePanel } from './queue-panel.js';
import { RecallsPanel } from './recalls-panel.js';
import { SessionActions } from './session-actions.js';

export async function mountChat(
  root: HTMLElement,
  early: { session: string; data: Promise<unknown> | undefined } | null,
): Promise<void> {
  // A deep link opens its conversation at once: the viewer query (only the
  // account corner needs it) waits for the first page, so that the server
  // answers the page's request first.
  const fromHash = early?.session;
  const firstSettled = fromHash && early?.data ? settledWithin(early.data, FIRST_PAGE_WAIT_MS) : Promise.resolve();
  const viewerQuery = firstSettled
    .then(() => gql<{ viewer: Viewer }>(VIEWER))
    .then(
      (d) => d.viewer,
      (error: unknown) => error,
    );
  if (fromHash && (!needsKeyHint() || storedKey())) {
    const screen = chatScreen(root, viewerQuery, fromHash, early?.data);
    const viewer = await viewerQuery;
    if (!(await authProblem(root, viewer))) return screen;
    return;
  }
  const viewer = await viewerQuery;
  if (await authProblem(root, viewer)) return;
  await chatScreen(root, viewerQuery, null);
}

/** How long a deep link's screen and viewer query wait for the first page before going ahead without it. */
const FIRST_PAGE_WAIT_MS = 800;

/** Resolves when `promise` settles or after `ms`, whichever is first; never rejects. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}

const newKey = () => crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;

/** The parts of the page that sending, retrying and stopping reach. */
interface Page {
  conversation: Conversation;
  composer: Composer;
  queue: QueuePanel;
  alert: AlertBox;
  status: HTMLElement;
  createSession(): Promise<string>;
  /** The conversation "New conversation" is creating, while it is on its way (null otherwise). */
  creating(): Promise<string> | null;
}

/** Sends what the composer collected: into the open conversation, or a new one. */
async function send(page: Page, message: Outgoing): Promise<boolean> {
  const { conversation } = page;
  // During a turn the chosen policy; otherwise QUEUE, which starts at once (and waits if a turn just began).
  const whileRunning = message.whileRunning ?? 'QUEUE';
  page.alert.hide();
  try {
    // A message typed while "New conversation" is on its way goes to that new conversation, not the one open before.
    const sessionId = (await page.creating()) ?? conversation.sessionId ?? (await page.createSession());
    const input: Record<string, unknown> = {
      sessionId,
      content: message.content,
      idempotencyKey: newKey(),
      whileRunning,
    };
    if (message.images.length) input.images = message.images;
    if (message.files.length) input.files = message.files;
    const { sendMessage } = await gql<{ sendMessage: SendAnswer }>(SEND, { input });
    if (conversation.sessionId !== sessionId) return true;
    if (sendMessage.queued) {
      // Not in the history yet (its userMessage is provisional): it waits in the queue panel.
      announce(page.status, whileRunning === 'STEER' ? 'Your message will join the answer' : 'Message queued');
      await page.queue.load();
    } else conversation.userMessageSent(sendMessage.turn.id, sendMessage.userMessage);
    return true;
  } catch (error) {
    page.alert.show(error);
    return false;
  }
}

/** Retry of a failed or stopped turn: its message again (taken back first when `replace`, so it is there once). */
async function retry(page: Page, content: string, replace: boolean): Promise<void> {
  const { conversation } = page;
  if (!conversation.sessionId || conversation.activeTurn) return;
  const sessionId = conversation.sessionId;
  if (replace) {
    await gql(UNDO, { id: sessionId });
    if (conversation.sessionId !== sessionId) return;
    await conversation.reload();
  }
  const input = { sessionId, content, idempotencyKey: newKey() };
  const { sendMessage } = await gql<{ sendMessage: { turn: { id: string }; userMessage: Message } }>(SEND, { input });
  if (conversation.sessionId === sessionId) conversation.userMessageSent(sendMessage.turn.id, sendMessage.userMessage);
}

async function stop(page: Page): Promise<void> {
  const turnId = page.conversation.activeTurn;
  if (!turnId) return;
  try {
    await gql(CANCEL, { turnId });
    announce(page.status, 'Stopping…');
  } catch (error) {
    page.alert.show(error);
  }
}

/** Esc stops a running answer (unless a field or panel used the key), Ctrl/Cmd+K goes to the search box. */
function shortcuts(page: Page, search: HTMLInputElement): void {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && page.conversation.activeTurn) {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, select, dialog, form:not(.composer)')) return;
      e.preventDefault();
      void stop(page);
    } else if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      search.focus();
      search.select();
    }
  });
}

/** What follows the open conversation: emptied (and the lists read again) when another opens, and on its close. */
function conversationPanels(p: {
  share: { element: HTMLDialogElement };
  queue: QueuePanel;
  files: FilesPanel;
  modelView: { reset(): void };
  recalls: RecallsPanel;
  actions: SessionActions;
}) {
  const close = () => {
    if (p.share.element.open) p.share.element.close();
    p.queue.reset();
    p.modelView.reset();
  };
  return {
    opened() {
      close();
      void p.queue.load();
      p.files.reset();
      p.recalls.reset();
      void p.recalls.load();
      p.actions.reset();
    },
    closed() {
      close();
      p.actions.update();
    },
  };
}

/** The page: the top bar, the sidebar, the conversation (`main`) and the dialogs. */
function layout(
  root: HTMLElement,
  parts: { topbar: HTMLElement[]; sidebar: HTMLElement; main: HTMLElement[]; dialogs: HTMLElement[] },
): void {
  clear(root);
  root.className = 'app chat';
  root.append(
    h('header', { class: 'topbar' }, h('h1', { text: 'Chat sessions' }), ...parts.topbar),
    parts.sidebar,
    h('main', { id: 'main', class: 'conversation', tabindex: '-1' }, ...parts.main),
    ...parts.dialogs,
  );
}

async function chatScreen(
  root: HTMLElement,
  viewerQuery: Promise<Viewer | unknown>,
  openFirst: string | null,
  firstData?: Promise<unknown>,
): Promise<void> {
  const status = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  const alert = alertBox();
  const showError = (error: unknown) => alert.show(error);
  const connection = h('span', { class: 'connection', role: 'status', text: '' });
  const account = h('span', { class: 'account' });
  onSocketStatus((s) => (connection.textContent = s === 'connected' ? '' : 'Reconnecting…'));

  const sessionId = () => conversation.sessionId;
  const share = shareDialog(sessionId, showError);
  const modelView = modelViewPanel(sessionId, showError);
  const files = new FilesPanel(sessionId, status, showError);
  const queue = new QueuePanel(sessionId, status, showError);
  const recalls = new RecallsPanel(sessionId, status, showError);
  const edge = h('p', { class: 'history-edge' });
  const log = h('div', { class: 'messages', role: 'log', 'aria-live': 'off', 'aria-label': 'Messages' });
  const scroller = h('div', { class: 'scroll', tabindex: '0', 'aria-label': 'Conversation history' }, edge, log);
  const conversation = new Conversation(
    { scroller, log, edge, status },
    {
      loaded: (session) => {
        header.loaded(session);
        panels().opened();
      },
      renamed: (name) => header.renamed(name),
      meter: (tokens, window) => {
        header.setMeter(tokens, window);
        modelView.refresh();
      },
      retry: (content, replace) => retry(page, content, replace),
      queueChanged: () => void queue.load(),
      busy: (turnId) => {
        page.composer.setBusy(Boolean(turnId));
        actions.update();
        // A recall fires as a turn, and the model schedules them from one: the list changes around turns.
        void recalls.load();
      },
      error: showError,
    },
  );
  const page: Page = {
    conversation,
    composer: new Composer({ send: (m) => send(page, m), stop: () => void stop(page) }),
    queue,
    alert,
    status,
    createSession: () => createSession(),
    creating: () => creating,
  };
  const actions = new SessionActions(conversation, status, {
    forked: async (session) => {
      sidebar.upsert(session);
      await openSession(session.id);
    },
    error: showError,
    editing: () => alert.hide(),
  });
  const header = new ConversationHeader(actions.element, files.element, modelView.element);
  const panels = () => conversationPanels({ share, queue, files, modelView, recalls, actions });
  header.shareButton.addEventListener('click', () => void share.open());

  const openSession = async (id: string, jumpTo?: number, prefetched?: Promise<unknown>) => {
    alert.hide();
    sidebar.select(id);
    history.replaceState(null, '', `#session=${encodeURIComponent(id)}`);
    try {
      if (conversation.sessionId !== id) await conversation.open(id, prefetched);
      if (jumpTo !== undefined && !(await conversation.jumpTo(jumpTo)))
        announce(status, 'That match could not be found any more.');
      else if (jumpTo === undefined) page.composer.focus();
    } catch (error) {
      showError(error);
    }
  };

  const top = new SidebarTop({
    create: () => void createSession().catch(showError),
    importing: () => alert.hide(),
    imported: async (session, fileName) => {
      sidebar.upsert(session);
      await openSession(session.id);
      announce(status, `Imported “${session.name || fileName}”`);
    },
    error: showError,
  });
  const sidebar = new Sidebar(
    {
      open: (id, jumpTo) => void openSession(id, jumpTo),
      deleted: (id) => {
        if (conversation.sessionId !== id) return;
        conversation.close();
        header.closed();
        panels().closed();
        history.replaceState(null, '', location.pathname);
      },
      changed: (session: SessionSummary) => {
        if (conversation.sessionId === session.id) header.listed(session.name);
      },
      error: showError,
    },
    top.element,
  );

  // One creation at a time: a second click, or a message sent meanwhile, joins the one on its way.
  let creating: Promise<string> | null = null;
  const createSession = (): Promise<string> => {
    creating ??= (async () => {
      const { createSession: session } = await gql<{ createSession: SessionSummary }>(CREATE, {
        profileId: top.profileId,
      });
      sidebar.upsert(session);
      await openSession(session.id);
      return session.id;
    })().finally(() => {
      creating = null;
    });
    return creating;
  };
  shortcuts(page, sidebar.searchInput);

  // A deep link's first page is usually on its way already: the screen goes
  // into the document together with it, so the browser styles and lays the
  // page out once, with the messages, instead of first laying out an empty
  // screen (a layout pass that also delayed the response's task).
  // A first page that does not come (a stalled server) does not keep the screen away.
  if (openFirst && firstData) await settledWithin(firstData, FIRST_PAGE_WAIT_MS);
  layout(root, {
    topbar: [connection, account],
    sidebar: sidebar.element,
    main: [header.element, alert.element, scroller, queue.element, recalls.element, page.composer.element, status],
    dialogs: [share.element],
  });

  void viewerQuery.then((viewer) => {
    if (viewer && !(viewer instanceof Error)) account.replaceChildren(...accountCorner(viewer as Viewer));
  });
  actions.update();
  // The newest page first; the session list and its live updates only after it is on screen.
  if (openFirst) await openSession(openFirst, undefined, firstData);
  await sidebar.start().catch(showError);
  await top.loadProfiles().catch(showError);
  if (openFirst) sidebar.select(openFirst);
}
