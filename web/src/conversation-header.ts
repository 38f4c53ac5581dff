/**
 * The open conversation's header: its name and model, the context meter (tokens used of the window) and the Share
 * button; the conversation's other controls (actions, files, what the model sees) sit in it too.
 */
import { h, uid } from './dom.js';
import type { SessionDetail } from './queries.js';

export class ConversationHeader {
  readonly element: HTMLElement;
  readonly shareButton: HTMLButtonElement;
  private readonly title = h('h2', { class: 'conversation-title', text: 'No conversation open' });
  private readonly profile = h('span', { class: 'profile' });
  private readonly meter: HTMLMeterElement;
  private readonly meterText = h('span', { class: 'meter-text' });

  constructor(...controls: HTMLElement[]) {
    const meterId = uid('meter');
    this.meter = h('meter', { id: meterId, min: '0', max: '1', value: '0', low: '0.7', high: '0.9', optimum: '0' });
    this.shareButton = h('button', { type: 'button', text: 'Share…', 'aria-haspopup': 'dialog', disabled: true });
    this.element = h(
      'header',
      { class: 'conversation-header' },
      h('div', { class: 'title-block' }, this.title, this.profile),
      h('div', { class: 'meter' }, h('label', { for: meterId, text: 'Context' }), this.meter, this.meterText),
      h('div', { class: 'share' }, this.shareButton),
      ...controls,
    );
  }

  loaded(session: SessionDetail): void {
    this.renamed(session.name || 'New conversation');
    this.profile.textContent = `${session.profile.name} · ${session.profile.model}`;
    this.shareButton.disabled = false;
  }

  renamed(name: string): void {
    this.title.textContent = name;
    document.title = `${name} — Chat`;
  }

  /** The list changed the open conversation's name (a rename elsewhere, a generated title). */
  listed(name: string | null): void {
    this.title.textContent = name || 'New conversation';
  }

  closed(): void {
    this.title.textContent = 'No conversation open';
    this.profile.textContent = this.meterText.textContent = '';
    this.shareButton.disabled = true;
  }

  setMeter(tokens: number, window: number): void {
    this.meter.max = Math.max(1, window);
    this.meter.value = tokens;
    this.meterText.textContent = `${tokens.toLocaleString()} / ${window.toLocaleString()} tokens`;
  }
}
