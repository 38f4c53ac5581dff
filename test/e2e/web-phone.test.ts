/**
 * The web client keeps its word, on a phone (390 px) and a tablet (768 px), in a real headless Chromium against the
 * real server and the fake provider (issue 35, item 2):
 * - a stopped answer carries a "Stopped" mark that is stored, so it is still there after a reload, and Retry is
 *   offered after a reload for a stopped and for a failed turn;
 * - the session list says "1 message", and its counts and previews follow stop, retry, undo, redo, edit and
 *   regenerate;
 * - no label breaks inside a word and nothing overflows horizontally (buttons may show only their icon; their
 *   accessible names stay). Screenshots: test-artifacts/web-phone-*.png, web-tablet-*.png.
 * Skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserUnavailable, CHROMIUM, CHROMIUM_ARGS, startE2EServer, type E2EServer } from '../support/e2e.js';
import { gate } from '../support/fake-provider.js';
import { WebPhoneCreateSessionDocument, WebPhoneHistoryDocument } from '../generated/graphql.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const POLL = { timeout: 30_000 };
const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

interface LayoutProblems {
  /** words of labels, buttons and headings drawn on more than one line */
  broken: string[];
  /** visible elements reaching past the right edge of the screen with nothing clipping them */
  overflowing: string[];
  /** the page or a container other than a code block scrolls sideways */
  scrollers: string[];
}

/**
 * What at this width breaks a word or overflows. Message bodies (`.md`) and code may wrap long words
 * (overflow-wrap: anywhere) and scroll sideways in their own box (pre): that is not checked.
 */
function layoutProblems(page: Page): Promise<LayoutProblems> {
  return page.evaluate(() => {
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    const inCode = (el: Element) => el.closest('pre, .md, textarea, input, select, .sr-only, .copy-buffer') !== null;
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || inCode(parent) || !visible(parent)) continue;
      for (const word of (node.textContent ?? '').matchAll(/[^\s\-/·]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index!);
        range.setEnd(node, word.index! + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`${word[0]} in ${describe(parent)}`);
      }
    }
    const clippedBy = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return p;
      return null;
    };
    const overflowing: string[] = [];
    const scrollers: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el) || el.closest('.sr-only, .skip-link')) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > innerWidth + 1 && !clippedBy(el)) overflowing.push(describe(el));
      const style = getComputedStyle(el);
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (scrolls && !el.closest('pre') && el.scrollWidth > el.clientWidth + 1) scrollers.push(describe(el));
    }
    const doc = document.scrollingElement!;
    if (doc.scrollWidth > doc.clientWidth) scrollers.push(`the page (${doc.scrollWidth} > ${doc.clientWidth})`);
    return { broken, overflowing, scrollers };
  });
}

describe.skipIf(browserUnavailable)('the web client on a phone and a tablet, in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startE2EServer();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 844 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    return page;
  }

  const history = async (id: string) =>
    (await server.gql(WebPhoneHistoryDocument, { id })).data!.session!.history.edges.map((e) => e.node);
  const texts = async (id: string) => (await history(id)).map((m) => `${m.role}:${m.content}`);

  it('marks a stopped answer for good, offers Retry after a reload, and keeps the list current', async () => {
    const created = await server.gql(WebPhoneCreateSessionDocument, { name: 'Keeps its word' });
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), [
      { role: 'user', content: 'Plan a trip' },
      { role: 'assistant', content: 'Lisbon, in May.' },
    ]);
    const page = await pageAt(390);
    await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    await page.locator('.msg').first().waitFor();
    const row = page.locator('.session-list li.session', { hasText: 'Keeps its word' });
    const listed = async () =>
      `${await row.locator('.session-preview').textContent()} | ${await row.locator('.session-meta').textContent()}`;
    await expect.poll(listed, POLL).toMatch(/^Lisbon, in May\. \| 2 messages · /);

    // Stop: the partial answer is marked Stopped, with Retry; the list shows it.
    const held = gate();
    server.fake.enqueue({ text: ['Partial ', 'answer ', 'never sent'], hold: held.promise, holdBeforeChunk: 2 });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Tell me more');
    await box.press('Enter');
    await page.locator('.msg-assistant.streaming', { hasText: 'Partial answer' }).waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    const stopped = page.locator('.msg-assistant.msg-stopped', { hasText: 'Partial answer' });
    await stopped.locator('.stopped-mark', { hasText: 'Stopped' }).waitFor();
    held.open();
    await page.getByRole('button', { name: 'Retry', exact: true }).waitFor();
    await expect.poll(listed, POLL).toMatch(/^Partial answer\s*\| 4 messages · /);
    expect((await history(id)).at(-1)).toMatchObject({ role: 'ASSISTANT', stopped: true });
    expect((await history(id)).at(-2)).toMatchObject({ role: 'USER', turn: { status: 'CANCELLED' } });

    // After a reload: still marked, and Retry is still offered.
    await page.reload();
    await stopped.locator('.stopped-mark', { hasText: 'Stopped' }).waitFor();
    await page.getByRole('button', { name: 'Retry', exact: true }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'web-phone-stopped.png'), fullPage: true });
    expect(await layoutProblems(page)).toEqual({ broken: [], overflowing: [], scrollers: [] });

    server.fake.enqueue({ text: 'The full answer' });
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'The full answer' }).waitFor();
    await expect
      .poll(() => texts(id), POLL)
      .toEqual(['USER:Plan a trip', 'ASSISTANT:Lisbon, in May.', 'USER:Tell me more', 'ASSISTANT:The full answer']);
    await expect.poll(listed, POLL).toMatch(/^The full answer \| 4 messages · /);

    // Undo and redo, edit and regenerate: each shows in the list.
    await page.getByRole('button', { name: 'Undo last turn' }).click();
    await expect.poll(listed, POLL).toMatch(/^Lisbon, in May\. \| 2 messages · /);
    await page.getByRole('button', { name: 'Redo undone turn' }).click();
    await expect.poll(listed, POLL).toMatch(/^The full answer \| 4 messages · /);

    server.fake.enqueue({ text: 'Everything, then' });
    await page.getByRole('button', { name: 'Edit message' }).last().click();
    const editor = page.getByRole('textbox', { name: 'Edited message' });
    await editor.fill('Tell me everything');
    await editor.press('Enter');
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'Everything, then' }).waitFor();
    await expect.poll(listed, POLL).toMatch(/^Everything, then \| 4 messages · /);

    server.fake.enqueue({ text: 'Once more, with feeling' });
    await page.getByRole('button', { name: 'Regenerate answer' }).last().click();
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'Once more, with feeling' }).waitFor();
    await expect.poll(listed, POLL).toMatch(/^Once more, with feeling \| 4 messages · /);
    await page.screenshot({ path: join(ARTIFACTS, 'web-phone-conversation.png'), fullPage: true });
    expect(await layoutProblems(page)).toEqual({ broken: [], overflowing: [], scrollers: [] });
    await page.context().close();
  });

  it('offers Retry for a failed turn after a reload, and says "1 message"', async () => {
    const page = await pageAt(390);
    await page.goto(`${server.url}/`);
    server.fake.enqueue({ status: 400, errorBody: { error: 'model "tiny" not found' } });
    await page.getByRole('button', { name: '+ New conversation' }).click();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Only me');
    await box.press('Enter');
    await page.locator('.turn-error').waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    const row = page.locator('.session-list li.session', { hasText: 'Only me' });
    await expect.poll(() => row.locator('.session-meta').textContent(), POLL).toMatch(/^1 message · /);

    await page.reload();
    const failure = page.locator('.turn-error');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('rejected the request');
    server.fake.enqueue({ text: 'Found it' });
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('.msg-assistant', { hasText: 'Found it' }).waitFor();
    await expect.poll(() => texts(id), POLL).toEqual(['USER:Only me', 'ASSISTANT:Found it']);
    await expect.poll(() => row.locator('.session-meta').textContent(), POLL).toMatch(/^2 messages · /);
    await page.context().close();
  });

  it('fits a phone and a tablet: no word broken, nothing wider than the screen', async () => {
    const created = await server.gql(WebPhoneCreateSessionDocument, { name: 'A conversation with a long name' });
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), [
      { role: 'user', content: 'Show me some code and a very long link please' },
      {
        role: 'assistant',
        content:
          'Here it is:\n\n```js\n' +
          'const itinerary = ["Alfama", "Belém", "Sintra"].map((place) => visit(place, { slow: true }));\n```\n\n' +
          'And https://example.com/a/very/long/path/that/does/not/fit/on/a/phone/screen/at/all/really',
        metadata: { cancelled: true },
      },
    ]);
    for (const [width, name] of [
      [390, 'phone'],
      [768, 'tablet'],
    ] as const) {
      const page = await pageAt(width);
      await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
      await page.locator('.msg-stopped .stopped-mark').waitFor();
      await page.locator('.session-list li.session').first().waitFor();
      await page.screenshot({ path: join(ARTIFACTS, `web-${name}-layout.png`), fullPage: true });
      expect(await layoutProblems(page), `${width} px`).toEqual({ broken: [], overflowing: [], scrollers: [] });
      // Icon-only buttons keep their names.
      for (const label of ['Edit message', 'Regenerate answer', 'Copy message (Assistant)'])
        expect(await page.getByRole('button', { name: label }).count(), label).toBeGreaterThan(0);
      await page.context().close();
    }
  });
});
