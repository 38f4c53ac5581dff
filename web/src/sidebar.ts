/**
 * The session list: pinned first, kept live by `sessionListEvents`, with
 * rename, pin, delete and search (each hit offers jump-to-match buttons).
 * Session ids stay in the Maps below, never in DOM attributes.
 */
import { gql } from './api.js';
import { subscribe } from './socket.js';
import { announce, clear, formatDate, h, matchCount, uid } from './dom.js';
import { icon } from './icons.js';
import { plural } from './plural.js';
import { DELETE, LIST, LIST_EVENTS, PIN, RENAME, SEARCH, type SessionSummary } from './queries.js';

interface ListPage {
  sessions: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: { node: SessionSummary; matches: { displayIndices: number[]; snippet: string } | null }[];
  };
}

interface SearchPage {
  sessions: {
    totalCount: number;
    totalCountIsExact: boolean;
    edges: ListPage['sessions']['edges'];
  };
}

export interface SidebarEvents {
  open(sessionId: string, jumpTo?: number): void;
  deleted(sessionId: string): void;
  changed(session: SessionSummary): void;
  error(error: unknown): void;
}

const MAX_JUMPS = 8;

export class Sidebar {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly results: HTMLElement;
  private readonly more: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly sessions = new Map<string, SessionSummary>();
  private readonly rows = new Map<string, HTMLLIElement>();
  private current: string | null = null;
  private cursor: string | null = null;
  private searchTimer = 0;
  private searchSeq = 0;
  /** the search box (Ctrl/Cmd+K focuses it) */
  readonly searchInput: HTMLInputElement;

  constructor(
    private readonly on: SidebarEvents,
    top: HTMLElement,
  ) {
    const searchId = uid('search');
    const input = h('input', {
      id: searchId,
      type: 'search',
      name: 'search',
      autocomplete: 'off',
      placeholder: 'Search conversations (Ctrl+K)',
      'aria-keyshortcuts': 'Control+K Meta+K',
    });
    this.searchInput = input;
    const form = h(
      'form',
      { role: 'search', class: 'search' },
      h('label', { for: searchId, class: 'sr-only', text: 'Search conversations' }),
      input,
      h('button', { type: 'submit', text: 'Search' }),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.search(input.value.trim());
    });
    input.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = window.setTimeout(() => void this.search(input.value.trim()), 300);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && input.value) {
        e.preventDefault(); // handled here: not a "stop the answer" Escape
        input.value = '';
        void this.search('');
      } else if (e.key === 'ArrowDown') {
        const visible = this.results.hidden ? this.list : this.results;
        const first = visible.querySelector<HTMLButtonElement>('li > button.open');
        if (first) {
          e.preventDefault();
          first.focus();
        }
      }
    });
    this.list = h('ul', { class: 'session-list', 'aria-label': 'Conversations' });
    this.results = h('div', { class: 'search-results', hidden: true });
    this.more = h('button', {
      type: 'button',
      class: 'more',
      hidden: true,
      text: 'Load more conversations',
      onclick: () => void this.load(),
    });
    this.status = h('p', { class: 'sr-only', role: 'status' });
    // Arrow keys move between the conversations (and search results); Tab still walks every button.
    for (const container of [this.list, this.results]) container.addEventListener('keydown', (e) => this.arrows(e));
    this.element = h(
      'nav',
      { class: 'sidebar', 'aria-label': 'Conversations' },
      top,
      form,
      this.results,
      this.list,
      this.more,
      this.status,
    );
  }

  async start(): Promise<void> {
    subscribe<{ sessionListEvents: { kind: string; sessionId: string; session: SessionSummary | null } }>(
      LIST_EVENTS,
      {},
      ({ sessionListEvents: event }) => {
        if (/delet|remov/i.test(event.kind) || !event.session) this.remove(event.sessionId);
        else this.upsert(event.session);
      },
      (error) => this.on.error(error),
    );
    await this.load();
  }

  select(sessionId: string | null): void {
    this.current = sessionId;
    for (const [id, row] of this.rows) {
      const button = row.querySelector('.open');
      if (id === sessionId) button?.setAttribute('aria-current', 'page');
      else button?.removeAttribute('aria-current');
    }
  }

  get(sessionId: string): SessionSummary | undefined {
    return this.sessions.get(sessionId);
  }

  async load(): Promise<void> {
    const data = await gql<ListPage>(LIST, { after: this.cursor });
    for (const edge of data.sessions.edges) this.upsert(edge.node);
    this.cursor = data.sessions.pageInfo.endCursor;
    this.more.hidden = !data.sessions.pageInfo.hasNextPage;
    if (!this.sessions.size) this.list.replaceChildren(h('li', { class: 'empty', text: 'No conversations yet.' }));
  }

  upsert(session: SessionSummary): void {
    this.list.querySelector(':scope > .empty')?.remove();
    this.sessions.set(session.id, session);
    const row = this.renderRow(session);
    const old = this.rows.get(session.id);
    const hadFocus = old?.contains(document.activeElement) ? document.activeElement?.className : null;
    old?.remove();
    this.rows.set(session.id, row);
    // Pinned first, then most recently active (the list's default order).
    const after = [...this.sessions.values()]
      .filter((s) => s.id !== session.id && !rank(s, session))
      .map((s) => this.rows.get(s.id));
    const next = [...this.list.children].find((child) => after.includes(child as HTMLLIElement));
    this.list.insertBefore(row, next ?? null);
    if (hadFocus) (row.querySelector(`.${hadFocus.split(' ')[0]}`) as HTMLElement | null)?.focus();
    this.on.changed(session);
  }

  remove(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.rows.get(sessionId)?.remove();
    this.rows.delete(sessionId);
    this.on.deleted(sessionId);
  }

  private renderRow(session: SessionSummary): HTMLLIElement {
    const name = session.name || 'New conversation';
    const open = h(
      'button',
      {
        type: 'button',
        class: 'open',
        'aria-current': session.id === this.current ? 'page' : null,
        onclick: () => this.on.open(session.id),
      },
      h('span', { class: 'session-name' }, session.pinned ? icon('pin') : null, session.pinned ? ' ' : null, name),
      session.preview ? h('span', { class: 'session-preview', text: session.preview }) : null,
      h('span', {
        class: 'session-meta',
        text: `${plural(session.displayMessageCount, 'message')} · ${formatDate(session.lastActive)}`,
      }),
    );
    const pin = h('button', {
      type: 'button',
      class: 'pin icon',
      'aria-pressed': String(session.pinned),
      'aria-label': `${session.pinned ? 'Unpin' : 'Pin'} “${name}”`,
      title: session.pinned ? 'Unpin' : 'Pin',
      onclick: () =>
        void this.act(
          () => gql(PIN, { id: session.id, pinned: !session.pinned }),
          (d: any) => this.upsert(d.setSessionPinned),
        ),
    });
    pin.append(icon('star', { filled: session.pinned }));
    const rename = h('button', {
      type: 'button',
      class: 'rename icon',
      'aria-label': `Rename “${name}”`,
      title: 'Rename',
      onclick: () => this.startRename(session, row),
    });
    rename.append(icon('pencil'));
    const del = h('button', {
      type: 'button',
      class: 'delete icon',
      'aria-label': `Delete “${name}”`,
      title: 'Delete',
      onclick: () => {
        if (!confirm(`Delete “${name}”? This cannot be undone.`)) return;
        void this.act(
          () => gql(DELETE, { id: session.id }),
          () => {
            this.remove(session.id);
            announce(this.status, `Deleted “${name}”`);
          },
        );
      },
    });
    del.append(icon('trash'));
    const row = h(
      'li',
      { class: `session${session.pinned ? ' pinned' : ''}` },
      open,
      h('span', { class: 'row-actions' }, pin, rename, del),
    );
    return row;
  }

  private startRename(session: SessionSummary, row: HTMLLIElement): void {
    const id = uid('rename');
    const input = h('input', { id, type: 'text', value: session.name ?? '', maxlength: '200', required: true });
    const form = h(
      'form',
      { class: 'rename-form' },
      h('label', { for: id, class: 'sr-only', text: 'New name' }),
      input,
      h('button', { type: 'submit', text: 'Save' }),
      h('button', {
        type: 'button',
        text: 'Cancel',
        onclick: () => this.upsert(this.sessions.get(session.id) ?? session),
      }),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      void this.act(
        () => gql(RENAME, { id: session.id, name }),
        (d: any) => {
          this.upsert(d.renameSession);
          (this.rows.get(session.id)?.querySelector('.rename') as HTMLElement | null)?.focus();
        },
      );
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        this.upsert(this.sessions.get(session.id) ?? session);
        (this.rows.get(session.id)?.querySelector('.rename') as HTMLElement | null)?.focus();
      }
    });
    row.replaceChildren(form);
    input.focus();
    input.select();
  }

  /** ArrowUp/ArrowDown/Home/End between the rows' open buttons. */
  private arrows(e: KeyboardEvent): void {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    if (target.closest('form')) return; // a rename field keeps its keys
    const container = e.currentTarget as HTMLElement;
    const buttons = [...container.querySelectorAll<HTMLButtonElement>('li > button.open')];
    if (!buttons.length) return;
    const row = target.closest('li');
    const at = buttons.findIndex((b) => b.parentElement === row);
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? buttons.length - 1
          : Math.min(buttons.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
    e.preventDefault();
    buttons[next]!.focus();
  }

  /** Focus on the current conversation's row (or the first). */
  focusList(): void {
    const rows = [...this.list.querySelectorAll<HTMLButtonElement>('li > button.open')];
    (rows.find((b) => b.getAttribute('aria-current') === 'page') ?? rows[0])?.focus();
  }

  private async act<T>(run: () => Promise<T>, then: (data: T) => void): Promise<void> {
    try {
      then(await run());
    } catch (error) {
      this.on.error(error);
    }
  }

  private async search(term: string): Promise<void> {
    const seq = ++this.searchSeq;
    if (!term) {
      this.results.hidden = true;
      clear(this.results);
      this.list.hidden = false;
      this.more.hidden = !this.cursor;
      return;
    }
    try {
      const data = await gql<SearchPage>(SEARCH, { search: term });
      if (seq !== this.searchSeq) return;
      this.list.hidden = true;
      this.more.hidden = true;
      this.results.hidden = false;
      const items = data.sessions.edges.map(({ node, matches }) => {
        const name = node.name || 'New conversation';
        const indices = matches?.displayIndices ?? [];
        return h(
          'li',
          { class: 'result' },
          h(
            'button',
            { type: 'button', class: 'open', onclick: () => this.on.open(node.id, indices[0]) },
            h('span', { class: 'session-name', text: name }),
            matches ? h('span', { class: 'snippet', text: matches.snippet }) : null,
          ),
          indices.length
            ? h(
                'span',
                { class: 'jumps', role: 'group', 'aria-label': `Matches in “${name}”` },
                ...indices.slice(0, MAX_JUMPS).map((index, n) =>
                  h('button', {
                    type: 'button',
                    class: 'jump',
                    'aria-label': `Jump to match ${n + 1} in “${name}”`,
                    text: `#${n + 1}`,
                    onclick: () => this.on.open(node.id, index),
                  }),
                ),
              )
            : null,
        );
      });
      const { totalCount, totalCountIsExact } = data.sessions;
      const found = `${matchCount(totalCount, totalCountIsExact)} conversation${
        totalCount === 1 && totalCountIsExact ? '' : 's'
      } found`;
      this.results.replaceChildren(
        h('h2', { class: 'results-title', text: `Results for “${term}”` }),
        ...(items.length
          ? [h('p', { class: 'results-count', text: found }), h('ul', { class: 'session-list' }, ...items)]
          : [h('p', { class: 'empty', text: 'No conversation matches.' })]),
      );
      announce(this.status, found);
    } catch (error) {
      this.on.error(error);
    }
  }
}

/** true when a sorts before b: pinned first, then newest activity. */
function rank(a: SessionSummary, b: SessionSummary): boolean {
  if (a.pinned !== b.pinned) return a.pinned;
  return a.lastActive > b.lastActive;
}
