/**
 * What can be done to the open conversation as a whole: fork, undo, redo, branches (list, mark, switch) and export.
 * None may run during a turn (the server answers CONFLICT): the buttons are disabled meanwhile.
 */
import { gql } from './api.js';
import { announce, h, uid } from './dom.js';
import { plural } from './plural.js';
import {
  BRANCHES,
  EXPORT,
  FORK,
  MARK_BRANCH,
  REDO,
  SWITCH_BRANCH,
  UNDO,
  type BranchView,
  type SessionSummary,
} from './queries.js';

/** The part of the open conversation these actions read and refresh. */
export interface OpenConversation {
  sessionId: string | null;
  activeTurn: string | null;
  reload(): Promise<void>;
}

export interface SessionActionEvents {
  forked(session: SessionSummary): Promise<void>;
  error(error: unknown): void;
  /** an edit is about to run: earlier errors are stale */
  editing(): void;
}

export class SessionActions {
  readonly element: HTMLElement;
  private readonly buttons: HTMLButtonElement[];
  private readonly branchesPanel: HTMLDetailsElement;
  private readonly branchesList = h('ul', { class: 'branches-list' });
  private readonly exportPanel: HTMLDetailsElement;

  constructor(
    private readonly conversation: OpenConversation,
    private readonly status: HTMLElement,
    private readonly on: SessionActionEvents,
  ) {
    const fork = h('button', { type: 'button', class: 'fork', text: 'Fork', title: 'Copy into a new conversation' });
    const undo = h('button', { type: 'button', class: 'undo', text: 'Undo', 'aria-label': 'Undo last turn' });
    const redo = h('button', { type: 'button', class: 'redo', text: 'Redo', 'aria-label': 'Redo undone turn' });
    this.buttons = [fork, undo, redo];
    const branchNameId = uid('branch');
    const branchName = h('input', { id: branchNameId, type: 'text', maxlength: '80', placeholder: 'optional' });
    const markForm = h(
      'form',
      { class: 'mark-branch' },
      h('label', { for: branchNameId, text: 'Branch name' }),
      branchName,
      h('button', { type: 'submit', text: 'Mark branch here' }),
    );
    this.branchesPanel = h(
      'details',
      { class: 'branches-panel' },
      h('summary', { text: 'Branches' }),
      this.branchesList,
      markForm,
    );
    this.exportPanel = h(
      'details',
      { class: 'export-panel' },
      h('summary', { text: 'Export' }),
      h('button', {
        type: 'button',
        text: 'JSON',
        'aria-label': 'Export as JSON',
        onclick: () => void this.export('JSON'),
      }),
      h('button', {
        type: 'button',
        text: 'Markdown',
        'aria-label': 'Export as Markdown',
        onclick: () => void this.export('MARKDOWN'),
      }),
    );
    this.element = h(
      'div',
      { class: 'session-actions', role: 'group', 'aria-label': 'Conversation actions' },
      fork,
      undo,
      redo,
      this.branchesPanel,
      this.exportPanel,
    );
    undo.addEventListener('click', () => void this.edit((id) => gql(UNDO, { id }), 'Last turn undone'));
    redo.addEventListener('click', () => void this.edit((id) => gql(REDO, { id }), 'Turn restored'));
    fork.addEventListener('click', () => void this.fork());
    this.branchesPanel.addEventListener('toggle', () => this.branchesPanel.open && void this.loadBranches());
    markForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.markBranch(branchName);
    });
  }

  /** Enabled with a conversation open and no turn running; branches and export only with a conversation. */
  update(): void {
    const can = Boolean(this.conversation.sessionId) && !this.conversation.activeTurn;
    for (const b of this.buttons) b.disabled = !can;
    for (const b of this.branchesPanel.querySelectorAll('button')) b.disabled = !can;
    this.exportPanel.hidden = this.branchesPanel.hidden = !this.conversation.sessionId;
  }

  /** Another conversation opened: panels closed and emptied. */
  reset(): void {
    this.branchesPanel.open = this.exportPanel.open = false;
    this.branchesList.replaceChildren();
    this.update();
  }

  /** Runs an edit of the open conversation, then shows the conversation as the server now has it. */
  async edit(run: (sessionId: string) => Promise<unknown>, done: string): Promise<void> {
    const sessionId = this.conversation.sessionId;
    if (!sessionId || this.conversation.activeTurn) return;
    this.on.editing();
    try {
      await run(sessionId);
      if (this.conversation.sessionId !== sessionId) return;
      await this.conversation.reload();
      announce(this.status, done);
      if (this.branchesPanel.open) await this.loadBranches();
    } catch (error) {
      this.on.error(error);
    }
  }

  private async fork(): Promise<void> {
    const sessionId = this.conversation.sessionId;
    if (!sessionId) return;
    try {
      const { forkSession } = await gql<{ forkSession: SessionSummary }>(FORK, { id: sessionId });
      await this.on.forked(forkSession);
      announce(this.status, `Forked as “${forkSession.name || 'New conversation'}”`);
    } catch (error) {
      this.on.error(error);
    }
  }

  private async loadBranches(): Promise<void> {
    const sessionId = this.conversation.sessionId;
    if (!sessionId) return;
    try {
      const data = await gql<{ session: { branches: BranchView[] } | null }>(BRANCHES, { id: sessionId });
      if (this.conversation.sessionId !== sessionId) return;
      const branches = data.session?.branches ?? [];
      this.branchesList.replaceChildren(
        ...(branches.length
          ? branches.map((b) => this.branchItem(b))
          : [h('li', { class: 'empty', text: 'No other branches.' })]),
      );
      this.update();
    } catch (error) {
      this.on.error(error);
    }
  }

  private branchItem(b: BranchView): HTMLElement {
    return h(
      'li',
      {},
      h('span', { class: 'branch-name', text: b.name }),
      h('span', { class: 'branch-count', text: ` (${plural(b.messageCount, 'message')}) ` }),
      h('button', {
        type: 'button',
        class: 'link',
        text: 'Switch',
        'aria-label': `Switch to branch “${b.name}”`,
        onclick: () =>
          void this.edit((id) => gql(SWITCH_BRANCH, { id, branch: b.name }), `Switched to branch “${b.name}”`),
      }),
    );
  }

  private async markBranch(input: HTMLInputElement): Promise<void> {
    const sessionId = this.conversation.sessionId;
    if (!sessionId) return;
    try {
      const name = input.value.trim() || null;
      const { markBranch } = await gql<{ markBranch: BranchView }>(MARK_BRANCH, { id: sessionId, name });
      input.value = '';
      announce(this.status, `Branch “${markBranch.name}” marked`);
      await this.loadBranches();
    } catch (error) {
      this.on.error(error);
    }
  }

  private async export(format: 'JSON' | 'MARKDOWN'): Promise<void> {
    const sessionId = this.conversation.sessionId;
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
      announce(this.status, `Exported as ${format === 'JSON' ? 'JSON' : 'Markdown'}`);
    } catch (error) {
      this.on.error(error);
    }
  }
}

/** Saves a blob as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
