/**
 * The reference chat page: API key (or no-auth mode), session list, the
 * profile (model) picker, import, the open conversation, the composer with
 * pasted images and file uploads, cancel, the context meter, the share
 * button, fork / undo / redo / branches / export, what the model sees, and the
 * keyboard shortcuts (Enter, Shift+Enter, Esc, Ctrl/Cmd+K).
 */
import { ApiError, gql, storedKey, storeKey } from './api.js';
import { onSocketStatus } from './socket.js';
import { announce, clear, formatDate, h, uid } from './dom.js';
import { Conversation } from './conversation.js';
import { icon } from './icons.js';
import {
  BRANCHES,
  CANCEL,
  CANCEL_QUEUED,
  CANCEL_RECALL,
  CREATE,
  EXPORT,
  FILES,
  FORK,
  IMPORT,
  MARK_BRANCH,
  PROFILES,
  QUEUED,
  RECALLS,
  REDO,
  SEND,
  SWITCH_BRANCH,
  UNDO,
  UPLOAD,
  VIEWER,
  type BranchView,
  type Message,
  type ProfileView,
  type QueuedView,
  type RecallView,
  type SendAnswer,
  type SessionFileView,
  type SessionSummary,
  type WhileRunning,
} from './queries.js';
import { modelViewPanel } from './model-view.js';
import { shareDialog } from './share-dialog.js';
import { Sidebar } from './sidebar.js';

interface Attachment {
  file: File;
  kind: 'image' | 'file';
}

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

interface Viewer {
  authEnabled: boolean;
  user: { name: string } | null;
}

/** Whether the last visit needed a key (so a deep link without one goes to the key form first). */
function needsKeyHint(): boolean {
  try {
    return localStorage.getItem('chat.authEnabled') === 'true';
  } catch {
    return false;
  }
}

/** Shows the key screen when the viewer query says a (valid) key is needed; true when it did. */
async function authProblem(root: HTMLElement, viewer: Viewer | unknown): Promise<boolean> {
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

function keyForm(message: string | null): HTMLFormElement {
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

async function chatScreen(
  root: HTMLElement,
  viewerQuery: Promise<Viewer | unknown>,
  openFirst: string | null,
  firstData?: Promise<unknown>,
): Promise<void> {
  const status = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  const alert = h('p', { class: 'alert', role: 'alert', hidden: true });
  const connection = h('span', { class: 'connection', role: 'status', text: '' });
  const account = h('span', { class: 'account' });
  onSocketStatus((s) => (connection.textContent = s === 'connected' ? '' : 'Reconnecting…'));

  const title = h('h2', { class: 'conversation-title', text: 'No conversation open' });
  const profile = h('span', { class: 'profile' });
  const meterId = uid('meter');
  const meter = h('meter', { id: meterId, min: '0', max: '1', value: '0', low: '0.7', high: '0.9', optimum: '0' });
  const meterText = h('span', { class: 'meter-text' });
  const shareButton = h('button', { type: 'button', text: 'Share…', 'aria-haspopup': 'dialog', disabled: true });
  const filesList = h('ul', { class: 'session-files' });
  const filesSummary = h('summary', { text: 'Files' });
  const uploadId = uid('upload');
  const uploadInput = h('input', { id: uploadId, type: 'file', multiple: true });
  const filesPanel = h(
    'details',
    { class: 'files-panel' },
    filesSummary,
    filesList,
    h('label', { for: uploadId, text: 'Upload files to this conversation' }),
    uploadInput,
  );

  const edge = h('p', { class: 'history-edge' });
  const log = h('div', { class: 'messages', role: 'log', 'aria-live': 'off', 'aria-label': 'Messages' });
  const scroller = h('div', { class: 'scroll', tabindex: '0', 'aria-label': 'Conversation history' }, edge, log);

  const textId = uid('message');
  const textarea = h('textarea', {
    id: textId,
    rows: '3',
    placeholder: 'Message (Enter to send, Shift+Enter for a new line)',
    disabled: false,
  });
  const attachId = uid('attach');
  const attachInput = h('input', { id: attachId, type: 'file', multiple: true, class: 'sr-only' });
  const attachmentsList = h('ul', { class: 'attachments pending', 'aria-label': 'Attachments to send' });
  const sendButton = h('button', { type: 'submit', class: 'primary', text: 'Send' });
  const cancelButton = h('button', { type: 'button', class: 'cancel', text: 'Stop', hidden: true });
  // While a turn runs, what a sent message does: wait for it (Queue), replace it (Interrupt) or join it (Steer).
  const modeId = uid('while');
  const modeSelect = h(
    'select',
    { id: modeId, class: 'while-running' },
    h('option', { value: 'QUEUE', text: 'Queue: send after this answer', selected: true }),
    h('option', { value: 'INTERRUPT', text: 'Interrupt: stop it and send now' }),
    h('option', { value: 'STEER', text: 'Steer: add to this answer' }),
  );
  const modeBox = h(
    'span',
    { class: 'while-running-box', hidden: true },
    h('label', { for: modeId, text: 'While answering' }),
    modeSelect,
  );
  const MODE_BUTTON: Record<WhileRunning, string> = { QUEUE: 'Queue', INTERRUPT: 'Interrupt', STEER: 'Steer' };
  const sendLabel = () => {
    sendButton.textContent = conversation.activeTurn ? MODE_BUTTON[modeSelect.value as WhileRunning] : 'Send';
  };
  modeSelect.addEventListener('change', sendLabel);
  const composer = h(
    'form',
    { class: 'composer' },
    h('label', { for: textId, class: 'sr-only', text: 'Message' }),
    textarea,
    attachmentsList,
    h(
      'div',
      { class: 'composer-actions' },
      h('label', { for: attachId, class: 'button', text: 'Attach files' }),
      attachInput,
      modeBox,
      cancelButton,
      sendButton,
    ),
  );

  // Messages waiting for the running turn (whileRunning QUEUE / STEER), each with a Cancel button.
  const queueList = h('ol', {});
  const queuePanel = h(
    'section',
    { class: 'queued', 'aria-label': 'Queued messages', hidden: true },
    h('h3', {}, icon('clock'), ' Waiting to be sent'),
    queueList,
  );
  let queueRequest = 0;
  const loadQueue = async () => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    const request = ++queueRequest;
    let queued: QueuedView[] = [];
    try {
      const data = await gql<{ session: { queuedMessages: QueuedView[] } | null }>(QUEUED, { id: sessionId });
      queued = data.session?.queuedMessages ?? [];
    } catch {
      queued = [];
    }
    // Only the newest answer counts: each event asks again, so an older answer may be stale.
    if (conversation.sessionId !== sessionId || request !== queueRequest) return;
    queuePanel.hidden = queued.length === 0;
    queueList.replaceChildren(
      ...queued.map((q) =>
        h(
          'li',
          { class: `queued-${q.kind.toLowerCase()}` },
          h('span', { class: 'queued-kind', text: q.kind === 'STEER' ? 'Joins the answer' : 'Queued' }),
          h('span', { class: 'queued-text', text: q.content, title: q.content }),
          h('button', {
            type: 'button',
            class: 'link',
            text: 'Cancel',
            'aria-label': `Cancel queued message “${q.content.length > 40 ? `${q.content.slice(0, 40)}…` : q.content}”`,
            onclick: async () => {
              try {
                await gql(CANCEL_QUEUED, { id: q.id });
                announce(status, 'Queued message cancelled');
              } catch (error) {
                showError(error);
              }
              await loadQueue();
            },
          }),
        ),
      ),
    );
  };

  // Pending scheduled recalls, each with a Cancel button; hidden when there are none (or the viewer only reads).
  const recallsList = h('ul', {});
  const recallsPanel = h(
    'section',
    { class: 'recalls', 'aria-label': 'Scheduled recalls', hidden: true },
    h('h3', {}, icon('clock'), ' Scheduled recalls'),
    recallsList,
  );
  const loadRecalls = async () => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    let recalls: RecallView[] = [];
    try {
      const data = await gql<{ session: { recalls: RecallView[] } | null }>(RECALLS, { id: sessionId });
      recalls = data.session?.recalls ?? [];
    } catch {
      recalls = [];
    }
    if (conversation.sessionId !== sessionId) return;
    recallsPanel.hidden = recalls.length === 0;
    recallsList.replaceChildren(
      ...recalls.map((r) =>
        h(
          'li',
          {},
          h('time', { datetime: r.dueAt, text: formatDate(r.dueAt) }),
          h('span', { class: 'recall-text', text: r.text, title: r.text }),
          h('button', {
            type: 'button',
            class: 'link',
            text: 'Cancel',
            'aria-label': `Cancel the recall at ${formatDate(r.dueAt)}`,
            onclick: async () => {
              try {
                await gql(CANCEL_RECALL, { id: r.id });
                announce(status, 'Recall cancelled');
              } catch (error) {
                showError(error);
              }
              await loadRecalls();
            },
          }),
        ),
      ),
    );
  };

  const newButton = h('button', { type: 'button', class: 'new', text: '+ New conversation' });
  // The profile (model) a new conversation uses; remembered in this browser.
  const profileId = uid('profile');
  const profileSelect = h('select', { id: profileId, class: 'profile-select' });
  profileSelect.append(h('option', { value: '', text: 'Default profile' }));
  profileSelect.addEventListener('change', () => rememberProfile(profileSelect.value));
  const importId = uid('import');
  const importInput = h('input', {
    id: importId,
    type: 'file',
    accept: '.json,application/json',
    class: 'sr-only',
  });
  const sidebarTop = h(
    'div',
    { class: 'sidebar-top' },
    newButton,
    h(
      'div',
      { class: 'profile-picker' },
      h('label', { for: profileId, text: 'Model for new conversations' }),
      profileSelect,
    ),
    h('label', { for: importId, class: 'button import-button', text: 'Import conversation (JSON)' }),
    importInput,
  );
  const loadProfiles = async () => {
    const { profiles } = await gql<{ profiles: ProfileView[] }>(PROFILES);
    const wanted = rememberedProfile();
    profileSelect.replaceChildren(
      h('option', { value: '', text: 'Default profile' }),
      ...profiles.map((p) => h('option', { value: p.id, text: `${p.name} · ${p.model}`, selected: p.id === wanted })),
    );
  };

  // Fork, undo, redo, branches and export of the open conversation (no turn may be running: the server says CONFLICT).
  const forkButton = h('button', {
    type: 'button',
    class: 'fork',
    text: 'Fork',
    title: 'Copy into a new conversation',
  });
  const undoButton = h('button', { type: 'button', class: 'undo', text: 'Undo', 'aria-label': 'Undo last turn' });
  const redoButton = h('button', { type: 'button', class: 'redo', text: 'Redo', 'aria-label': 'Redo undone turn' });
  const branchesList = h('ul', { class: 'branches-list' });
  const branchNameId = uid('branch');
  const branchName = h('input', { id: branchNameId, type: 'text', maxlength: '80', placeholder: 'optional' });
  const markForm = h(
    'form',
    { class: 'mark-branch' },
    h('label', { for: branchNameId, text: 'Branch name' }),
    branchName,
    h('button', { type: 'submit', text: 'Mark branch here' }),
  );
  const branchesPanel = h(
    'details',
    { class: 'branches-panel' },
    h('summary', { text: 'Branches' }),
    branchesList,
    markForm,
  );
  const exportPanel = h(
    'details',
    { class: 'export-panel' },
    h('summary', { text: 'Export' }),
    h('button', { type: 'button', text: 'JSON', 'aria-label': 'Export as JSON', onclick: () => void exportAs('JSON') }),
    h('button', {
      type: 'button',
      text: 'Markdown',
      'aria-label': 'Export as Markdown',
      onclick: () => void exportAs('MARKDOWN'),
    }),
  );
  const editButtons = [forkButton, undoButton, redoButton];
  const setEditable = () => {
    const can = Boolean(conversation.sessionId) && !conversation.activeTurn;
    for (const b of editButtons) b.disabled = !can;
    for (const b of branchesPanel.querySelectorAll('button')) b.disabled = !can;
    exportPanel.hidden = branchesPanel.hidden = !conversation.sessionId;
  };
  const attachments: Attachment[] = [];

  const loadFiles = async () => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    try {
      const data = await gql<{ session: { files: SessionFileView[] } | null }>(FILES, { id: sessionId });
      if (data.session && conversation.sessionId === sessionId) renderFiles(data.session.files);
    } catch (error) {
      showError(error);
    }
  };
  // Listed when the panel opens: most views never need it.
  filesPanel.addEventListener('toggle', () => filesPanel.open && void loadFiles());

  const renderFiles = (files: SessionFileView[]) => {
    filesSummary.textContent = `Files (${files.length})`;
    filesList.replaceChildren(
      ...files.map((f) =>
        h(
          'li',
          {},
          h('button', {
            type: 'button',
            class: 'link',
            text: `${f.filename} (${formatSize(f.size)})`,
            onclick: () => void download(f),
          }),
        ),
      ),
    );
  };

  const showError = (error: unknown) => {
    const text = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
    alert.textContent = text;
    alert.hidden = false;
    if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') alert.append(' ', keyForm(null));
  };

  const share = shareDialog(
    () => conversation.sessionId,
    (error) => showError(error),
  );
  shareButton.addEventListener('click', () => void share.open());
  const modelView = modelViewPanel(
    () => conversation.sessionId,
    (error) => showError(error),
  );
  const conversation = new Conversation(
    { scroller, log, edge, status },
    {
      loaded: (session) => {
        title.textContent = session.name || 'New conversation';
        profile.textContent = `${session.profile.name} · ${session.profile.model}`;
        shareButton.disabled = false;
        if (share.element.open) share.element.close();
        queuePanel.hidden = true;
        queueList.replaceChildren();
        void loadQueue();
        filesPanel.open = false;
        filesSummary.textContent = 'Files';
        filesList.replaceChildren();
        modelView.reset();
        recallsPanel.hidden = true;
        recallsList.replaceChildren();
        void loadRecalls();
        branchesPanel.open = exportPanel.open = false;
        branchesList.replaceChildren();
        setEditable();
        document.title = `${session.name || 'New conversation'} — Chat`;
      },
      renamed: (name) => {
        title.textContent = name;
        document.title = `${name} — Chat`;
      },
      meter: (tokens, window) => {
        meter.max = Math.max(1, window);
        meter.value = tokens;
        meterText.textContent = `${tokens.toLocaleString()} / ${window.toLocaleString()} tokens`;
        modelView.refresh();
      },
      retry: async (content, replace) => {
        if (!conversation.sessionId || conversation.activeTurn) return;
        const sessionId = conversation.sessionId;
        // The failed turn's user message is taken back first, so the history holds it once, not twice.
        if (replace) {
          await gql(UNDO, { id: sessionId });
          if (conversation.sessionId !== sessionId) return;
          await conversation.reload();
        }
        const input = { sessionId, content, idempotencyKey: crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}` };
        const { sendMessage } = await gql<{ sendMessage: { turn: { id: string }; userMessage: Message } }>(SEND, {
          input,
        });
        if (conversation.sessionId === sessionId)
          conversation.userMessageSent(sendMessage.turn.id, sendMessage.userMessage);
      },
      queueChanged: () => void loadQueue(),
      busy: (turnId) => {
        cancelButton.hidden = !turnId;
        modeBox.hidden = !turnId;
        sendLabel();
        setEditable();
        // A recall fires as a turn, and the model schedules them from one: the list changes around turns.
        void loadRecalls();
      },
      error: showError,
    },
  );

  const openSession = async (sessionId: string, jumpTo?: number, prefetched?: Promise<unknown>) => {
    alert.hidden = true;
    sidebar.select(sessionId);
    history.replaceState(null, '', `#session=${encodeURIComponent(sessionId)}`);
    try {
      if (conversation.sessionId !== sessionId) await conversation.open(sessionId, prefetched);
      if (jumpTo !== undefined && !(await conversation.jumpTo(jumpTo)))
        announce(status, 'That match could not be found any more.');
      else if (jumpTo === undefined) textarea.focus();
    } catch (error) {
      showError(error);
    }
  };

  const sidebar = new Sidebar(
    {
      open: (id, jumpTo) => void openSession(id, jumpTo),
      deleted: (id) => {
        if (conversation.sessionId !== id) return;
        conversation.close();
        title.textContent = 'No conversation open';
        profile.textContent = meterText.textContent = '';
        shareButton.disabled = true;
        if (share.element.open) share.element.close();
        queuePanel.hidden = true;
        setEditable();
        modelView.reset();
        history.replaceState(null, '', location.pathname);
      },
      changed: (session: SessionSummary) => {
        if (conversation.sessionId === session.id) title.textContent = session.name || 'New conversation';
      },
      error: showError,
    },
    sidebarTop,
  );

  const createSession = async (): Promise<string> => {
    const { createSession: session } = await gql<{ createSession: SessionSummary }>(CREATE, {
      profileId: profileSelect.value || null,
    });
    sidebar.upsert(session);
    await openSession(session.id);
    return session.id;
  };
  newButton.addEventListener('click', () => void createSession().catch(showError));

  /** Runs an edit of the open conversation, then shows the conversation as the server now has it. */
  const edit = async (run: (sessionId: string) => Promise<unknown>, done: string) => {
    const sessionId = conversation.sessionId;
    if (!sessionId || conversation.activeTurn) return;
    alert.hidden = true;
    try {
      await run(sessionId);
      if (conversation.sessionId !== sessionId) return;
      await conversation.reload();
      announce(status, done);
      if (branchesPanel.open) await loadBranches();
    } catch (error) {
      showError(error);
    }
  };
  undoButton.addEventListener('click', () => void edit((id) => gql(UNDO, { id }), 'Last turn undone'));
  redoButton.addEventListener('click', () => void edit((id) => gql(REDO, { id }), 'Turn restored'));
  forkButton.addEventListener('click', async () => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    try {
      const { forkSession } = await gql<{ forkSession: SessionSummary }>(FORK, { id: sessionId });
      sidebar.upsert(forkSession);
      await openSession(forkSession.id);
      announce(status, `Forked as “${forkSession.name || 'New conversation'}”`);
    } catch (error) {
      showError(error);
    }
  });

  const loadBranches = async () => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    try {
      const data = await gql<{ session: { branches: BranchView[] } | null }>(BRANCHES, { id: sessionId });
      if (conversation.sessionId !== sessionId) return;
      const branches = data.session?.branches ?? [];
      branchesList.replaceChildren(
        ...(branches.length
          ? branches.map((b) =>
              h(
                'li',
                {},
                h('span', { class: 'branch-name', text: b.name }),
                h('span', { class: 'branch-count', text: ` (${b.messageCount} messages) ` }),
                h('button', {
                  type: 'button',
                  class: 'link',
                  text: 'Switch',
                  'aria-label': `Switch to branch “${b.name}”`,
                  onclick: () =>
                    void edit((id) => gql(SWITCH_BRANCH, { id, branch: b.name }), `Switched to branch “${b.name}”`),
                }),
              ),
            )
          : [h('li', { class: 'empty', text: 'No other branches.' })]),
      );
      setEditable();
    } catch (error) {
      showError(error);
    }
  };
  branchesPanel.addEventListener('toggle', () => branchesPanel.open && void loadBranches());
  markForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    try {
      const name = branchName.value.trim() || null;
      const { markBranch } = await gql<{ markBranch: BranchView }>(MARK_BRANCH, { id: sessionId, name });
      branchName.value = '';
      announce(status, `Branch “${markBranch.name}” marked`);
      await loadBranches();
    } catch (error) {
      showError(error);
    }
  });

  const exportAs = async (format: 'JSON' | 'MARKDOWN') => {
    const sessionId = conversation.sessionId;
    if (!sessionId) return;
    try {
      const data = await gql<{ session: { name: string | null; export: string } | null }>(EXPORT, {
        id: sessionId,
        format,
      });
      if (!data.session) return;
      const base = (data.session.name || 'conversation').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'conversation';
      const type = format === 'JSON' ? 'application/json' : 'text/markdown';
      saveBlob(new Blob([data.session.export], { type }), `${base}.${format === 'JSON' ? 'json' : 'md'}`);
      announce(status, `Exported as ${format === 'JSON' ? 'JSON' : 'Markdown'}`);
    } catch (error) {
      showError(error);
    }
  };

  importInput.addEventListener('change', async () => {
    const file = importInput.files?.[0];
    importInput.value = '';
    if (!file) return;
    alert.hidden = true;
    try {
      const { importSession } = await gql<{ importSession: SessionSummary }>(IMPORT, {
        data: await file.text(),
        profileId: profileSelect.value || null,
      });
      sidebar.upsert(importSession);
      await openSession(importSession.id);
      announce(status, `Imported “${importSession.name || file.name}”`);
    } catch (error) {
      showError(error);
    }
  });

  const renderAttachments = () => {
    attachmentsList.replaceChildren(
      ...attachments.map((a, i) =>
        h(
          'li',
          {},
          icon(a.kind === 'image' ? 'image' : 'paperclip'),
          ` ${a.file.name} `,
          h(
            'button',
            {
              type: 'button',
              class: 'icon',
              'aria-label': `Remove ${a.file.name}`,
              title: 'Remove',
              onclick: () => (attachments.splice(i, 1), renderAttachments(), textarea.focus()),
            },
            icon('close'),
          ),
        ),
      ),
    );
  };
  const addFiles = (files: Iterable<File>) => {
    for (const file of files) attachments.push({ file, kind: file.type.startsWith('image/') ? 'image' : 'file' });
    renderAttachments();
  };
  attachInput.addEventListener('change', () => {
    addFiles(attachInput.files ?? []);
    attachInput.value = '';
  });
  textarea.addEventListener('paste', (e) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    addFiles(
      files.map((f, i) =>
        f.name && f.name !== 'image.png'
          ? f
          : new File([f], `pasted-${Date.now()}-${i}.${(f.type.split('/')[1] || 'png').replace(/\W/g, '')}`, {
              type: f.type,
            }),
      ),
    );
  });
  textarea.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      composer.requestSubmit();
    }
  });

  composer.addEventListener('submit', async (e) => {
    e.preventDefault();
    const content = textarea.value.trim();
    if ((!content && !attachments.length) || sendButton.disabled) return;
    // During a turn the chosen policy; otherwise QUEUE, which starts at once (and waits if a turn just began).
    const whileRunning = conversation.activeTurn ? (modeSelect.value as WhileRunning) : 'QUEUE';
    sendButton.disabled = true;
    alert.hidden = true;
    try {
      const sessionId = conversation.sessionId ?? (await createSession());
      const input = {
        sessionId,
        content,
        images: attachments.filter((a) => a.kind === 'image').map((a) => a.file),
        files: attachments.filter((a) => a.kind === 'file').map((a) => a.file),
        idempotencyKey: crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`,
        whileRunning,
      };
      if (!input.images.length) delete (input as Partial<typeof input>).images;
      if (!input.files.length) delete (input as Partial<typeof input>).files;
      const { sendMessage } = await gql<{ sendMessage: SendAnswer }>(SEND, { input });
      // What was typed while the message was on its way stays.
      if (textarea.value.trim() === content) textarea.value = '';
      attachments.length = 0;
      renderAttachments();
      if (conversation.sessionId !== sessionId) return;
      if (sendMessage.queued) {
        // Not in the history yet (its userMessage is provisional): it waits in the queue panel.
        announce(status, whileRunning === 'STEER' ? 'Your message will join the answer' : 'Message queued');
        await loadQueue();
      } else conversation.userMessageSent(sendMessage.turn.id, sendMessage.userMessage);
    } catch (error) {
      showError(error);
    } finally {
      sendButton.disabled = false;
    }
  });

  const cancelTurn = async () => {
    const turnId = conversation.activeTurn;
    if (!turnId) return;
    try {
      await gql(CANCEL, { turnId });
      announce(status, 'Stopping…');
    } catch (error) {
      showError(error);
    }
  };
  cancelButton.addEventListener('click', () => void cancelTurn());

  // Esc stops a running answer (unless a field or panel used the key), Ctrl/Cmd+K goes to the search box.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && conversation.activeTurn) {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, select, dialog, form:not(.composer)')) return;
      e.preventDefault();
      void cancelTurn();
    } else if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      sidebar.searchInput.focus();
      sidebar.searchInput.select();
    }
  });

  uploadInput.addEventListener('change', async () => {
    const files = [...(uploadInput.files ?? [])];
    uploadInput.value = '';
    if (!files.length || !conversation.sessionId) return;
    try {
      await gql(UPLOAD, { sessionId: conversation.sessionId, files });
      announce(status, `${files.length} file${files.length === 1 ? '' : 's'} uploaded`);
      await loadFiles();
    } catch (error) {
      showError(error);
    }
  });

  // A deep link's first page is usually on its way already: the screen goes
  // into the document together with it, so the browser styles and lays the
  // page out once, with the messages, instead of first laying out an empty
  // screen (a layout pass that also delayed the response's task).
  // A first page that does not come (a stalled server) does not keep the screen away.
  if (openFirst && firstData) await settledWithin(firstData, FIRST_PAGE_WAIT_MS);
  clear(root);
  root.className = 'app chat';
  root.append(
    h('header', { class: 'topbar' }, h('h1', { text: 'Chat sessions' }), connection, account),
    sidebar.element,
    h(
      'main',
      { id: 'main', class: 'conversation', tabindex: '-1' },
      h(
        'header',
        { class: 'conversation-header' },
        h('div', { class: 'title-block' }, title, profile),
        h('div', { class: 'meter' }, h('label', { for: meterId, text: 'Context' }), meter, meterText),
        h('div', { class: 'share' }, shareButton),
        h(
          'div',
          { class: 'session-actions', role: 'group', 'aria-label': 'Conversation actions' },
          forkButton,
          undoButton,
          redoButton,
          branchesPanel,
          exportPanel,
        ),
        filesPanel,
        modelView.element,
      ),
      alert,
      scroller,
      queuePanel,
      recallsPanel,
      composer,
      status,
    ),
    share.element,
  );

  void viewerQuery.then((viewer) => {
    if (!viewer || viewer instanceof Error) return;
    const v = viewer as Viewer;
    account.replaceChildren(
      ...[
        v.user ? h('span', { class: 'user', text: v.user.name }) : null,
        v.authEnabled
          ? h('details', { class: 'key-panel' }, h('summary', { text: 'API key' }), keyForm(null))
          : h('span', { class: 'mode', text: 'Local mode (no authentication)' }),
      ].filter((n): n is HTMLElement => n !== null),
    );
  });
  setEditable();
  // The newest page first; the session list and its live updates only after it is on screen.
  if (openFirst) await openSession(openFirst, undefined, firstData);
  await sidebar.start().catch(showError);
  await loadProfiles().catch(showError);
  if (openFirst) sidebar.select(openFirst);
}

const PROFILE_STORAGE = 'chat.profile';

function rememberedProfile(): string {
  try {
    return localStorage.getItem(PROFILE_STORAGE) ?? '';
  } catch {
    return '';
  }
}

function rememberProfile(id: string): void {
  try {
    if (id) localStorage.setItem(PROFILE_STORAGE, id);
    else localStorage.removeItem(PROFILE_STORAGE);
  } catch {
    /* storage disabled: the choice lasts for this page */
  }
}

async function download(file: SessionFileView): Promise<void> {
  const key = storedKey();
  const response = await fetch(file.url, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    referrerPolicy: 'no-referrer',
  });
  if (!response.ok) return;
  saveBlob(await response.blob(), file.filename);
}

/** Saves a blob as a download named `filename`. */
function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
