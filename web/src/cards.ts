/**
 * `content_publish` cards (seed: "renders STL/glTF models, HTML, SVG, PDF,
 * images, video, audio, and text/source files"). The tool's result is JSON
 * `{url, filename, contentType, kind, size}`; the card fetches the file with
 * the page's credentials (the owner's API key, or the share token for
 * `/shared/files/…` URLs) and shows it from a `blob:` URL, so no credential
 * is ever put in a URL:
 *
 * - image → `<img>`, video → `<video>`, audio → `<audio>`, text → `<pre>`;
 * - HTML and SVG → `<iframe sandbox="">`: no scripts, an opaque origin, no
 *   access to this page or its storage;
 * - PDF → an `<iframe>` for the browser's PDF viewer (Chromium does not run
 *   it in a sandboxed frame; the blob is typed application/pdf, so it is
 *   never parsed as HTML);
 * - 3D models → a `<canvas>` drawn by three.js, loaded by a dynamic import
 *   only when such a card appears (model-viewer.ts is its own chunk).
 *
 * Anything else, or a file over the inline limit, gets a download button.
 */
import { h } from './dom.js';

export interface PublishedCard {
  url: string;
  filename: string;
  contentType: string;
  kind: string;
  size: number;
}

/** How a card reaches its file: the caller's credentials, never in the URL. */
export type FileFetcher = (url: string) => Promise<Response>;

/** Bigger files are offered as a download only. */
export const INLINE_LIMIT = 25 * 1024 * 1024;
const TEXT_LIMIT = 200_000;

/** The card of a content_publish result, or null when the content is not one (an error text, foreign JSON). */
export function publishedCardOf(name: string | null | undefined, content: string): PublishedCard | null {
  if (name !== 'content_publish' || !content.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  const card = value as Partial<PublishedCard>;
  if (typeof card.url !== 'string' || typeof card.filename !== 'string' || typeof card.kind !== 'string') return null;
  // Only this origin's file routes: a card never makes the page fetch from elsewhere.
  if (!/^\/(?:sessions\/[^/]+\/files|shared\/files)\/[^/]+$/.test(card.url)) return null;
  return {
    url: card.url,
    filename: card.filename,
    contentType: typeof card.contentType === 'string' ? card.contentType : 'application/octet-stream',
    kind: card.kind,
    size: typeof card.size === 'number' ? card.size : 0,
  };
}

const blobUrls = new Set<string>();

/** Frees the files of every card rendered so far (a conversation was closed). */
export function revokeCardUrls(): void {
  for (const url of blobUrls) URL.revokeObjectURL(url);
  blobUrls.clear();
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function fetchBlob(fetcher: FileFetcher, card: PublishedCard): Promise<Blob> {
  const response = await fetcher(card.url);
  if (!response.ok)
    throw new Error(
      response.status === 404
        ? 'The file is no longer available.'
        : `The file could not be loaded (${response.status}).`,
    );
  // Typed by the server's answer (its detection of the stored bytes), never by the card: a card is tool output.
  const type = (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  return new Blob([await response.arrayBuffer()], { type });
}

function objectUrl(blob: Blob): string {
  const url = URL.createObjectURL(blob);
  blobUrls.add(url);
  return url;
}

export function renderPublishedCard(card: PublishedCard, fetcher: FileFetcher): HTMLElement {
  const body = h('div', { class: 'publish-body', 'aria-busy': 'true' });
  const download = h('button', { type: 'button', class: 'link', text: 'Download' });
  const figure = h(
    'figure',
    { class: `card publish-card publish-${card.kind}`, 'data-kind': card.kind },
    body,
    h(
      'figcaption',
      {},
      h('span', { class: 'publish-name', text: `${card.filename} · ${formatSize(card.size)}` }),
      ' ',
      download,
    ),
  );
  let blob: Promise<Blob> | null = null;
  const load = () => (blob ??= fetchBlob(fetcher, card));
  download.addEventListener('click', () => {
    void load().then(
      (b) => {
        const a = h('a', { href: objectUrl(b), download: card.filename });
        document.body.append(a);
        a.click();
        a.remove();
      },
      (error: unknown) => fail(body, error),
    );
  });
  const inline =
    card.size <= INLINE_LIMIT && ['image', 'video', 'audio', 'pdf', 'html', 'svg', 'text', 'model'].includes(card.kind);
  if (!inline) {
    body.removeAttribute('aria-busy');
    body.append(h('p', { class: 'publish-note', text: 'No inline preview for this file.' }));
    return figure;
  }
  void load()
    .then((b) => fill(body, card, b))
    .catch((error: unknown) => fail(body, error))
    .finally(() => body.removeAttribute('aria-busy'));
  return figure;
}

async function isPdf(blob: Blob): Promise<boolean> {
  if (blob.type !== 'application/pdf') return false;
  const head = new Uint8Array(await blob.slice(0, 5).arrayBuffer());
  return String.fromCharCode(...head) === '%PDF-';
}

function fail(body: HTMLElement, error: unknown): void {
  body.replaceChildren(
    h('p', { class: 'publish-note', role: 'status', text: error instanceof Error ? error.message : String(error) }),
  );
}

async function fill(body: HTMLElement, card: PublishedCard, blob: Blob): Promise<void> {
  const title = card.filename;
  switch (card.kind) {
    case 'image':
      body.replaceChildren(h('img', { src: objectUrl(blob), alt: title }));
      return;
    case 'video':
      body.replaceChildren(h('video', { src: objectUrl(blob), controls: true, preload: 'metadata', title }));
      return;
    case 'audio':
      body.replaceChildren(h('audio', { src: objectUrl(blob), controls: true, preload: 'metadata', title }));
      return;
    case 'html':
    case 'svg':
      // Empty sandbox: no scripts, no forms, no top navigation, an opaque origin.
      body.replaceChildren(h('iframe', { src: objectUrl(blob), sandbox: '', title, referrerpolicy: 'no-referrer' }));
      return;
    case 'pdf':
      // Chromium's PDF viewer does not run in a sandboxed frame, so this frame has none: it gets only bytes that are
      // a PDF (served as one and starting with the PDF signature); anything else is offered as a download.
      if (!(await isPdf(blob))) {
        body.replaceChildren(h('p', { class: 'publish-note', text: 'This file is not a PDF; no inline preview.' }));
        return;
      }
      body.replaceChildren(h('iframe', { src: objectUrl(blob), title, referrerpolicy: 'no-referrer' }));
      return;
    case 'text': {
      const text = await blob.text();
      const shown = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}\n…` : text;
      body.replaceChildren(h('pre', { class: 'publish-text' }, h('code', { text: shown })));
      return;
    }
    case 'model': {
      const canvas = h('canvas', { class: 'publish-model', 'aria-label': `3D view of ${title}`, role: 'img' });
      body.replaceChildren(canvas);
      const viewer = await import('./model-viewer.js');
      const format = viewer.modelFormatOf(card.filename, card.contentType);
      if (!format) throw new Error('No 3D preview for this format; download it instead.');
      try {
        await viewer.mountModel(canvas, await blob.arrayBuffer(), format);
        body.dataset.state = 'rendered';
      } catch (error) {
        throw new Error(
          `The 3D preview could not be shown (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
      return;
    }
  }
}
