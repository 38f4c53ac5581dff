/**
 * Issue 16 item 11: content_publish results render as cards (not raw JSON) in
 * a real headless Chromium, in the owner's chat and in the share viewer, the
 * latter through share-scoped `/shared/files/<name>` URLs only. HTML and SVG
 * sit in `<iframe sandbox="">`; the STL is drawn on a canvas by three.js from
 * its own lazily loaded chunk. Skipped when /usr/bin/chromium or
 * playwright-core is missing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PNG_2x2 } from '../fixtures/files/images.js';
import { eventually } from '../support/harness.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import {
  PublishCardsCreateSessionDocument,
  PublishCardsHistoryDocument,
  PublishCardsSendDocument,
  PublishCardsShareDocument,
} from '../generated/graphql.js';

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

/** A binary STL: one triangle. */
function stlTriangle(): Buffer {
  const b = Buffer.alloc(84 + 50);
  b.write('binary stl', 0);
  b.writeUInt32LE(1, 80);
  const floats = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0];
  floats.forEach((f, i) => b.writeFloatLE(f, 84 + i * 4));
  return b;
}

/** A 0.1 s silent 8 kHz mono WAV. */
function wav(): Buffer {
  const samples = 800;
  const b = Buffer.alloc(44 + samples);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  b.fill(128, 44);
  return b;
}

const FILES: Record<string, Buffer | string> = {
  'chart.png': PNG_2x2,
  'paper.pdf':
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 ' +
    'obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'logo.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="teal"/></svg>',
  'page.html': '<!doctype html><h1 id="t">Published page</h1><script>parent.document.title = "escaped"</script>',
  'notes.py': 'def main():\n    print("hello from notes")\n',
  'part.stl': stlTriangle(),
  'beep.wav': wav(),
};

describe.skipIf(skipBrowser())('content_publish cards in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let filesDir: string;
  let sessionId: string;
  let token: string;

  beforeAll(async () => {
    filesDir = `/tmp/chat-test-cards-${process.pid}-${Date.now()}`;
    server = await startE2EServer({ sessionFilesDir: filesDir });
    const { chromium } = await import('playwright-core');
    // WebGL through SwiftShader (no GPU here) so the 3D card really draws.
    const args = [
      ...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'),
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ];
    browser = await chromium.launch({ executablePath: CHROMIUM, args });

    const created = await server.gql(PublishCardsCreateSessionDocument, {});
    sessionId = created.data!.createSession.id;
    const dir = path.join(filesDir, 'session_files', rawId(sessionId));
    await fs.mkdir(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(FILES)) await fs.writeFile(path.join(dir, name), bytes);
    server.fake.enqueue(
      {
        toolCalls: Object.keys(FILES).map((filename, i) => ({
          id: `c${i}`,
          name: 'content_publish',
          arguments: { filename },
        })),
      },
      { text: 'All published.' },
    );
    const sent = await server.gql(PublishCardsSendDocument, {
      input: { sessionId, content: 'publish everything' },
    });
    expect(sent.errors).toBeUndefined();
    await eventually(
      () => server.gql(PublishCardsHistoryDocument, { id: sessionId }),
      (r) => r.data?.session?.history.edges.some((e) => e.node.content === 'All published.') ?? false,
      60_000,
    );
    token = (await server.gql(PublishCardsShareDocument, { id: sessionId })).data!.shareSession.token;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (filesDir) await fs.rm(filesDir, { recursive: true, force: true });
  });

  async function open(hash: string): Promise<{ page: Page; requests: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server.url}/${hash}`);
    return { page, requests, close: () => context.close() };
  }

  /** Every card is there and filled; returns what the page shows. */
  async function expectCards(page: Page) {
    const card = (kind: string) => page.locator(`figure.publish-card[data-kind="${kind}"]`);
    await page.waitForFunction(() => document.querySelectorAll('figure.publish-card').length === 7, null, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => document.querySelectorAll('.publish-body[aria-busy]').length === 0, null, {
      timeout: 60_000,
    });
    // image: decoded from the served bytes
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('figure[data-kind="image"] img');
        return !!img && img.complete && img.naturalWidth === 2;
      },
      null,
      { timeout: 30_000 },
    );
    expect(await card('audio').locator('audio[controls]').count()).toBe(1);
    expect(await card('pdf').locator('iframe').count()).toBe(1);
    // HTML and SVG: an empty sandbox (no allow-scripts, no allow-same-origin)
    for (const kind of ['html', 'svg']) {
      const frame = card(kind).locator('iframe');
      expect(await frame.getAttribute('sandbox')).toBe('');
      expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    }
    const html = page
      .frames()
      .find((f) => f.url().startsWith('blob:') && f !== page.mainFrame() && f.parentFrame() === page.mainFrame());
    expect(html).toBeTruthy();
    // the page's own script never ran against the parent
    expect(await page.title()).not.toBe('escaped');
    expect(await card('text').locator('pre code').textContent()).toContain('print("hello from notes")');
    // STL: a canvas drawn by the lazily loaded three.js chunk
    expect(await card('model').locator('canvas').count()).toBe(1);
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLElement>('figure[data-kind="model"] .publish-body')?.dataset.state === 'rendered',
      null,
      { timeout: 60_000 },
    );
    // no raw tool JSON on screen
    expect(await page.locator('main').innerText()).not.toContain('"contentType"');
    return card;
  }

  it('renders every card in the owner chat, with three.js loaded only for the model', async () => {
    const { page, requests, close } = await open(`#session=${encodeURIComponent(sessionId)}`);
    try {
      await expectCards(page);
      const fileRequests = requests.filter((u) => new URL(u).pathname.includes('/files/'));
      expect(fileRequests.length).toBeGreaterThanOrEqual(7);
      expect(fileRequests.every((u) => new URL(u).pathname.startsWith(`/sessions/${rawId(sessionId)}/files/`))).toBe(
        true,
      );
      const viewerChunk = requests.filter((u) => /\/assets\/model-viewer-[^/]+\.js$/.test(new URL(u).pathname));
      expect(viewerChunk).toHaveLength(1);
      // nothing from another host (the PDF viewer's own chrome-extension: frame aside)
      const network = requests.filter((u) => /^(?:https?|wss?):/.test(u));
      expect(
        network.filter((u) => !u.startsWith(server.url) && !u.startsWith(server.url.replace('http', 'ws'))),
      ).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('renders every card in the share viewer through share-scoped URLs, with no session id anywhere', async () => {
    const { page, requests, close } = await open(`#share=${token}`);
    try {
      await expectCards(page);
      const fileRequests = requests.filter((u) => new URL(u).pathname.includes('/files/'));
      expect(fileRequests.length).toBeGreaterThanOrEqual(7);
      expect(fileRequests.every((u) => new URL(u).pathname.startsWith('/shared/files/'))).toBe(true);
      // the token never travels in a URL other than the page's own hash
      expect(requests.filter((u) => u.includes(token) && !u.includes('#share='))).toEqual([]);
      expect(
        requests.filter(
          (u) =>
            /^(?:https?|wss?):/.test(u) && !u.startsWith(server.url) && !u.startsWith(server.url.replace('http', 'ws')),
        ),
      ).toEqual([]);
      const sid = rawId(sessionId);
      expect(requests.some((u) => u.includes(sid))).toBe(false);
      expect((await page.content()).includes(sid)).toBe(false);
    } finally {
      await close();
    }
  }, 120_000);

  it('the app page CSP allows the cards from this origin and blob: only', async () => {
    const response = await fetch(`${server.url}/`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-src 'self' blob:");
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).not.toMatch(/https?:/);
  });
});
