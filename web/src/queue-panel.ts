/** Messages waiting for the running turn (whileRunning QUEUE / STEER), above the composer, each with Cancel. */
import { gql } from './api.js';
import { announce, h } from './dom.js';
import { icon } from './icons.js';
import { CANCEL_QUEUED, QUEUED, type QueuedView } from './queries.js';

export class QueuePanel {
  private readonly list = h('ol', {});
  readonly element = h(
    'section',
    { class: 'queued', 'aria-label': 'Queued messages', hidden: true },
    h('h3', {}, icon('clock'), ' Waiting to be sent'),
    this.list,
  );
  private request = 0;

  constructor(
    private readonly sessionId: () => string | null,
    private readonly status: HTMLElement,
    private readonly onError: (error: unknown) => void,
  ) {}

  reset(): void {
    this.element.hidden = true;
    this.list.replaceChildren();
  }

  async load(): Promise<void> {
    const sessionId = this.sessionId();
    if (!sessionId) return;
    const request = ++this.request;
    let queued: QueuedView[] = [];
    try {
      const data = await gql<{ session: { queuedMessages: QueuedView[] } | null }>(QUEUED, { id: sessionId });
      queued = data.session?.queuedMessages ?? [];
    } catch {
      queued = [];
    }
    // Only the newest answer counts: each event asks again, so an older answer may be stale.
    if (this.sessionId() !== sessionId || request !== this.request) return;
    this.element.hidden = queued.length === 0;
    this.list.replaceChildren(...queued.map((q) => this.item(q)));
  }

  private item(q: QueuedView): HTMLElement {
    const short = q.content.length > 40 ? `${q.content.slice(0, 40)}…` : q.content;
    return h(
      'li',
      { class: `queued-${q.kind.toLowerCase()}` },
      h('span', { class: 'queued-kind', text: q.kind === 'STEER' ? 'Joins the answer' : 'Queued' }),
      h('span', { class: 'queued-text', text: q.content, title: q.content }),
      h('button', {
        type: 'button',
        class: 'link',
        text: 'Cancel',
        'aria-label': `Cancel queued message “${short}”`,
        onclick: async () => {
          try {
            await gql(CANCEL_QUEUED, { id: q.id });
            announce(this.status, 'Queued message cancelled');
          } catch (error) {
            this.onError(error);
          }
          await this.load();
        },
      }),
    );
  }
}
