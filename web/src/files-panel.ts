/** The open conversation's files: listed when the panel opens, downloaded on click, uploaded from the panel. */
import { gql, storedKey } from './api.js';
import { announce, h, uid } from './dom.js';
import { FILES, UPLOAD, type SessionFileView } from './queries.js';
import { saveBlob } from './session-actions.js';

export class FilesPanel {
  readonly element: HTMLDetailsElement;
  private readonly summary = h('summary', { text: 'Files' });
  private readonly list = h('ul', { class: 'session-files' });

  constructor(
    private readonly sessionId: () => string | null,
    private readonly status: HTMLElement,
    private readonly onError: (error: unknown) => void,
  ) {
    const uploadId = uid('upload');
    const upload = h('input', { id: uploadId, type: 'file', multiple: true });
    this.element = h(
      'details',
      { class: 'files-panel' },
      this.summary,
      this.list,
      h('label', { for: uploadId, text: 'Upload files to this conversation' }),
      upload,
    );
    // Listed when the panel opens: most views never need it.
    this.element.addEventListener('toggle', () => this.element.open && void this.load());
    upload.addEventListener('change', () => {
      const files = [...(upload.files ?? [])];
      upload.value = '';
      void this.upload(files);
    });
  }

  /** Another conversation opened: closed and emptied. */
  reset(): void {
    this.element.open = false;
    this.summary.textContent = 'Files';
    this.list.replaceChildren();
  }

  private async load(): Promise<void> {
    const sessionId = this.sessionId();
    if (!sessionId) return;
    try {
      const data = await gql<{ session: { files: SessionFileView[] } | null }>(FILES, { id: sessionId });
      if (data.session && this.sessionId() === sessionId) this.render(data.session.files);
    } catch (error) {
      this.onError(error);
    }
  }

  private async upload(files: File[]): Promise<void> {
    const sessionId = this.sessionId();
    if (!files.length || !sessionId) return;
    try {
      await gql(UPLOAD, { sessionId, files });
      announce(this.status, `${files.length} file${files.length === 1 ? '' : 's'} uploaded`);
      await this.load();
    } catch (error) {
      this.onError(error);
    }
  }

  private render(files: SessionFileView[]): void {
    this.summary.textContent = `Files (${files.length})`;
    this.list.replaceChildren(
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

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
