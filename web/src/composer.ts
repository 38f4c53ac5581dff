/**
 * The composer: the message box (Enter sends, Shift+Enter is a new line), pasted images and attached files, and
 * while a turn runs the Stop button and the choice of what a message sent now does (Queue, Interrupt, Steer).
 * It only collects what to send; the page sends it.
 */
import { h, uid } from './dom.js';
import { icon } from './icons.js';
import type { WhileRunning } from './queries.js';

export interface Attachment {
  file: File;
  kind: 'image' | 'file';
}

export interface Outgoing {
  content: string;
  images: File[];
  files: File[];
  /** null when no turn runs */
  whileRunning: WhileRunning | null;
}

export interface ComposerEvents {
  /** Sends; resolves true when the message was accepted (the box and attachments are then cleared). */
  send(message: Outgoing): Promise<boolean>;
  stop(): void;
}

const MODE_BUTTON: Record<WhileRunning, string> = { QUEUE: 'Queue', INTERRUPT: 'Interrupt', STEER: 'Steer' };

export class Composer {
  readonly element: HTMLFormElement;
  readonly textarea: HTMLTextAreaElement;
  private readonly attachments: Attachment[] = [];
  private readonly list: HTMLUListElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly mode: HTMLSelectElement;
  private readonly modeBox: HTMLElement;
  private busy = false;

  constructor(private readonly on: ComposerEvents) {
    const textId = uid('message');
    this.textarea = h('textarea', {
      id: textId,
      rows: '3',
      placeholder: 'Message (Enter to send, Shift+Enter for a new line)',
    });
    const attachId = uid('attach');
    const attachInput = h('input', { id: attachId, type: 'file', multiple: true, class: 'sr-only' });
    this.list = h('ul', { class: 'attachments pending', 'aria-label': 'Attachments to send' });
    this.sendButton = h('button', { type: 'submit', class: 'primary', text: 'Send' });
    this.stopButton = h('button', { type: 'button', class: 'cancel', text: 'Stop', hidden: true });
    // While a turn runs, what a sent message does: wait for it (Queue), replace it (Interrupt) or join it (Steer).
    const modeId = uid('while');
    this.mode = h(
      'select',
      { id: modeId, class: 'while-running' },
      h('option', { value: 'QUEUE', text: 'Queue: send after this answer', selected: true }),
      h('option', { value: 'INTERRUPT', text: 'Interrupt: stop it and send now' }),
      h('option', { value: 'STEER', text: 'Steer: add to this answer' }),
    );
    this.modeBox = h(
      'span',
      { class: 'while-running-box', hidden: true },
      h('label', { for: modeId, text: 'While answering' }),
      this.mode,
    );
    this.element = h(
      'form',
      { class: 'composer' },
      h('label', { for: textId, class: 'sr-only', text: 'Message' }),
      this.textarea,
      this.list,
      h(
        'div',
        { class: 'composer-actions' },
        h('label', { for: attachId, class: 'button', text: 'Attach files' }),
        attachInput,
        this.modeBox,
        this.stopButton,
        this.sendButton,
      ),
    );
    this.mode.addEventListener('change', () => this.label());
    this.stopButton.addEventListener('click', () => this.on.stop());
    attachInput.addEventListener('change', () => {
      this.add(attachInput.files ?? []);
      attachInput.value = '';
    });
    this.textarea.addEventListener('paste', (e) => this.paste(e));
    this.textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.element.requestSubmit();
      }
    });
    this.element.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
  }

  /** While a turn runs: Stop and the policy picker show, and the send button says what sending does. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stopButton.hidden = !busy;
    this.modeBox.hidden = !busy;
    this.label();
  }

  focus(): void {
    this.textarea.focus();
  }

  private label(): void {
    this.sendButton.textContent = this.busy ? MODE_BUTTON[this.mode.value as WhileRunning] : 'Send';
  }

  private async submit(): Promise<void> {
    const content = this.textarea.value.trim();
    if ((!content && !this.attachments.length) || this.sendButton.disabled) return;
    this.sendButton.disabled = true;
    try {
      const sent = await this.on.send({
        content,
        images: this.attachments.filter((a) => a.kind === 'image').map((a) => a.file),
        files: this.attachments.filter((a) => a.kind === 'file').map((a) => a.file),
        whileRunning: this.busy ? (this.mode.value as WhileRunning) : null,
      });
      if (!sent) return;
      // What was typed while the message was on its way stays.
      if (this.textarea.value.trim() === content) this.textarea.value = '';
      this.attachments.length = 0;
      this.render();
    } finally {
      this.sendButton.disabled = false;
    }
  }

  private add(files: Iterable<File>): void {
    for (const file of files) this.attachments.push({ file, kind: file.type.startsWith('image/') ? 'image' : 'file' });
    this.render();
  }

  /** Pasted images become attachments (a clipboard image is named after the time it was pasted). */
  private paste(e: ClipboardEvent): void {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    this.add(
      files.map((f, i) =>
        f.name && f.name !== 'image.png'
          ? f
          : new File([f], `pasted-${Date.now()}-${i}.${(f.type.split('/')[1] || 'png').replace(/\W/g, '')}`, {
              type: f.type,
            }),
      ),
    );
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.attachments.map((a, i) =>
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
              onclick: () => {
                this.attachments.splice(i, 1);
                this.render();
                this.textarea.focus();
              },
            },
            icon('close'),
          ),
        ),
      ),
    );
  }
}
