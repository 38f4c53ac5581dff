/** Pending scheduled recalls of the open conversation, each with Cancel; hidden when there are none (or a reader). */
import { gql } from './api.js';
import { announce, formatDate, h } from './dom.js';
import { icon } from './icons.js';
import { CANCEL_RECALL, RECALLS, type RecallView } from './queries.js';

export class RecallsPanel {
  private readonly list = h('ul', {});
  readonly element = h(
    'section',
    { class: 'recalls', 'aria-label': 'Scheduled recalls', hidden: true },
    h('h3', {}, icon('clock'), ' Scheduled recalls'),
    this.list,
  );

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
    let recalls: RecallView[] = [];
    try {
      const data = await gql<{ session: { recalls: RecallView[] } | null }>(RECALLS, { id: sessionId });
      recalls = data.session?.recalls ?? [];
    } catch {
      recalls = [];
    }
    if (this.sessionId() !== sessionId) return;
    this.element.hidden = recalls.length === 0;
    this.list.replaceChildren(...recalls.map((r) => this.item(r)));
  }

  private item(r: RecallView): HTMLElement {
    return h(
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
            announce(this.status, 'Recall cancelled');
          } catch (error) {
            this.onError(error);
          }
          await this.load();
        },
      }),
    );
  }
}
