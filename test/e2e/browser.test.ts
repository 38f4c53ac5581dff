/**
 * The web client in a real headless Chromium against the real server (issue 8):
 * share viewer (no ids in the page, "link not found"), streaming, a socket
 * dropped mid-turn, search with jump-to-match. Screenshots go to test-artifacts/.
 * Skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { NewMessage } from '../../src/domain/types.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import { ollamaRequest } from '../support/fake-provider.js';
import { BrowserCreateSessionDocument, BrowserMessageIdsDocument, BrowserShareDocument } from '../generated/graphql.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');

const CREATE = BrowserCreateSessionDocument;
const SHARE = BrowserShareDocument;

/** What the page's init scripts keep on `window` for the test to read back. */
type Recorded = typeof window & { __violations: string[]; __states: { chat: boolean; messages: number }[] };

/** The raw UUID behind a Relay global id (`Session:<uuid>`), for seeding through the store. */
/** expect.poll's own default is 1 s: a bound for a hang, not a guess at how fast a busy machine renders. */
const POLL = { timeout: 30_000 };
const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

describe.skipIf(skipBrowser())('web client in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const foreignRequests: string[] = [];

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

  async function newPage(): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    // Playwright's 30 s default bounds a hang; a loaded machine renders slowly, so every wait may take up to a minute.
    page.setDefaultTimeout(60_000);
    page.on('request', (request) => {
      const url = request.url();
      if (
        !url.startsWith(server.url) &&
        !url.startsWith('data:') &&
        !url.startsWith('blob:') &&
        !url.startsWith(server.url.replace('http', 'ws'))
      )
        foreignRequests.push(url);
    });
    return page;
  }

  afterEach(async () => {
    await context?.close();
    expect(foreignRequests).toEqual([]);
  });

  async function seededSession(name: string, messages: NewMessage[]): Promise<string> {
    const created = await server.gql(CREATE, { name });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), messages);
    return id;
  }

  const conversation = (n: number, extra: (i: number) => Partial<NewMessage> = () => ({})): NewMessage[] =>
    Array.from({ length: n }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: i % 2 === 0 ? `Question number ${i}` : `Answer number ${i} with **bold** and \`code\``,
      ...extra(i),
    }));

  it(
    'shows a shared session read-only, with no id anywhere ' + 'in the page, and loads older pages on scroll up',
    async () => {
      const messages: NewMessage[] = [
        ...conversation(60),
        { role: 'user', content: 'Show me code' },
        {
          role: 'assistant',
          content:
            'Here:\n\n```ts\nconst x = <b>1</b>;\n```\n\n- one\n- ' +
            'two\n\n[site](https://example.com) [bad](javascript:alert(1))',
          toolCalls: [{ id: 'call_secret_1', name: 'read_file', arguments: { path: 'a.ts' } }],
        },
        { role: 'assistant', content: '1. Look\n2. Fix', isPlan: true },
        { role: 'user', content: '<img src=x onerror=alert(1)> stays text' },
      ];
      const id = await seededSession('Shared one', messages);
      const share = await server.gql(SHARE, { id });
      expect(share.errors).toBeUndefined();
      const ids = await server.gql(BrowserMessageIdsDocument, { id });
      const messageIds: string[] = ids.data!.session!.history.edges.map((e) => e.node.id);

      const page = await newPage();
      const response = await page.goto(`${server.url}${share.data!.shareSession.url}`);
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
      await page.getByText('stays text').waitFor();

      await expect.poll(() => page.locator('h1').textContent(), POLL).toBe('Shared one');
      expect(await page.locator('textarea, [contenteditable]').count()).toBe(0);
      expect(await page.locator('.plan-card').count()).toBe(1);
      expect(await page.locator('details.tool summary').first().textContent()).toContain('read_file');
      expect(await page.locator('pre code').first().textContent()).toBe('const x = <b>1</b>;');
      expect(await page.locator('a[href="https://example.com"]').getAttribute('rel')).toBe('noopener noreferrer');
      expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
      expect(await page.locator('img').count()).toBe(0);

      // Older pages on scroll up, down to the first message.
      // Scrolls until the first message is there, however long each page takes to load on a busy machine.
      for (
        const deadline = Date.now() + 60_000;
        Date.now() < deadline && !(await page.getByText('Question number 0', { exact: true }).count());
      ) {
        await page.locator('main').evaluate((el) => (el.scrollTop = 0));
        await page.waitForTimeout(150);
      }
      await page.getByText('Question number 0', { exact: true }).waitFor();
      expect(await page.locator('.msg').count()).toBe(messages.length);

      const html = await page.evaluate(() => document.documentElement.outerHTML);
      for (const secret of [id, rawId(id), 'call_secret_1', ...messageIds]) expect(html).not.toContain(secret);
      await page.screenshot({ path: join(ARTIFACTS, 'share-viewer.png'), fullPage: true });
    },
  );

  it('shows "link not found" for an unknown token', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/#share=no-such-token-1234`);
    await page.getByText('link not found').waitFor({ timeout: 30_000 });
    expect(await page.locator('.msg').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'share-not-found.png') });
  });

  it('sends the first page request from the inline boot script, allowed by the CSP hash, and only once', async () => {
    const id = await seededSession('Deep link', conversation(80));
    const page = await newPage();
    const openSessionRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('query OpenSession'))
        openSessionRequests.push(request.url());
    });
    // Counted from the document's start: an inline script blocked by the CSP fires this event.
    await page.addInitScript(() => {
      (window as Recorded).__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as Recorded).__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const response = await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    await page.locator('.msg').getByText('Answer number 79').waitFor();
    // The boot script loaded the chat page's chunk itself (the entry
    // module's import() then finds it) and preloaded its imports.
    expect(await page.locator('head > script[type="module"][src*="/assets/chat-"]').count()).toBe(1);
    expect(await page.locator('link[rel="modulepreload"][href*="/assets/render-"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => (window as Recorded).__violations)).toEqual([]);
    expect(await page.evaluate(() => performance.getEntriesByName('first-message').length)).toBe(1);
    expect(openSessionRequests).toHaveLength(1);
  });

  it(
    'puts a deep link’s first page ahead of the rest: the viewer ' +
      'query waits for it, and the screen appears with the messages',
    async () => {
      const id = await seededSession('First page first', conversation(40));
      const page = await newPage();
      // The guarantee is an ordering within the page's bounded wait for the first page (FIRST_PAGE_WAIT_MS, a timer in
      // the page): the viewer query goes out after the first page's answer, and the chat screen never shows without
      // its messages. The page's clock is paused, so on a loaded machine that wait cannot run out before the answer
      // comes (which would be the by-design fallback, tested below) — the test is about order, not speed.
      await context.clock.install();
      await context.clock.pauseAt(Date.now() + 60_000);
      // Every DOM state the page could paint: after each change, the state once the changing task (and its
      // microtasks) is over — a paint only happens between tasks. A MessageChannel task, not rAF or a timer, which the
      // paused clock would stop. Is the chat screen up, and with how many messages?
      await page.addInitScript(() => {
        const states: { chat: boolean; messages: number }[] = [];
        (window as Recorded).__states = states;
        const channel = new MessageChannel();
        let pending = false;
        channel.port1.onmessage = () => {
          pending = false;
          states.push({
            chat: !!document.querySelector('.app.chat'),
            messages: document.querySelectorAll('.msg').length,
          });
        };
        new MutationObserver(() => {
          if (pending) return;
          pending = true;
          channel.port2.postMessage(null);
        }).observe(document, { childList: true, subtree: true, attributes: true });
      });
      // The first page's answer is held back 400 ms (real time; page time stands still), so "after it" and "with it"
      // are not a race: a viewer query that did not wait would be sent during the hold.
      const log: string[] = [];
      await page.route('**/graphql', async (route) => {
        const body = route.request().postData() ?? '';
        const name = /query (\w+)/.exec(body)?.[1] ?? 'other';
        log.push(`sent ${name}`);
        if (name === 'OpenSession') await new Promise((r) => setTimeout(r, 400));
        try {
          const response = await route.fetch();
          log.push(`answered ${name}`);
          await route.fulfill({ response });
        } catch {
          // the page was closed with this request still open (the test is over)
        }
      });
      await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
      await page.locator('.msg').getByText('Answer number 39').waitFor({ timeout: 60_000 });
      await expect.poll(() => log.includes('sent Viewer'), { timeout: 60_000 }).toBe(true);
      expect(log.indexOf('answered OpenSession')).toBeGreaterThan(-1);
      expect(log.indexOf('sent Viewer')).toBeGreaterThan(log.indexOf('answered OpenSession'));
      const states = await page.evaluate(() => (window as Recorded).__states);
      expect(states.some((f) => f.chat && f.messages > 0)).toBe(true);
      // No state showed the chat screen without the conversation's messages.
      expect(states.filter((f) => f.chat && f.messages === 0)).toEqual([]);
      await context.clock.resume();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    },
  );

  it('does not wait forever for a first page that never comes: the screen and the viewer query go ahead', async () => {
    const id = await seededSession('Stalled first page', conversation(4));
    const page = await newPage();
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/graphql', async (route) => {
      const name = /query (\w+)/.exec(route.request().postData() ?? '')?.[1] ?? 'other';
      sent.push(name);
      try {
        if (name === 'OpenSession') await held; // a stalled server
        await route.fulfill({ response: await route.fetch() });
      } catch {
        // the page was closed with this request still open
      }
    });
    await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    // The chat screen (composer included) is up while the first page is still outstanding.
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => sent.includes('Viewer'), { timeout: 30_000 }).toBe(true);
    release();
    await page.locator('.msg').getByText('Answer number 3').waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('sends a message with the keyboard and renders the answer token by token', async () => {
    const chunks = Array.from({ length: 12 }, (_, i) => `tok${String(i).padStart(2, '0')} `);
    server.fake.enqueue({ text: chunks, chunkDelayMs: 120 });
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: '+ New conversation' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), POLL).toBe('TEXTAREA');
    await page.keyboard.type('Hello there');
    await page.keyboard.press('Enter');

    await page.locator('.msg-user', { hasText: 'Hello there' }).waitFor();
    const states = new Set<string>();
    const answer = page.locator('.msg-assistant').last();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const text = ((await answer.count()) ? await answer.locator('.md').first().textContent() : '') ?? '';
      if (text) states.add(text.trim());
      if (text.includes('tok11')) break;
      await page.waitForTimeout(25);
    }
    expect(states.size).toBeGreaterThanOrEqual(4); // seen growing, not in one piece
    await expect
      .poll(async () => (await answer.locator('.md').textContent())?.trim(), POLL)
      .toBe(chunks.join('').trim());
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isHidden(), POLL).toBe(true);
    expect(await page.locator('.alert').isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'chat-streamed.png') });
  });

  it('shows why a turn failed and resends its message with Retry', async () => {
    server.fake.enqueue({ status: 400, errorBody: { error: 'option "num_ctx" must be positive' } });
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await page.locator('textarea').fill('Retry me');
    await page.keyboard.press('Enter');
    const failure = page.locator('.turn-error');
    await failure.waitFor();
    expect(await failure.textContent()).toContain(
      'The model provider (ollama) rejected the request (HTTP 400): option "num_ctx" must be positive',
    );
    const before = server.fake.requests.length;
    server.fake.enqueue({ text: 'Second time lucky' });
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('.msg-assistant', { hasText: 'Second time lucky' }).waitFor();
    // The resent request carried the failed turn's user message.
    const resent = server.fake.requests
      .slice(before)
      .map(ollamaRequest)
      .find((r) => r.messages?.some((m) => m.role === 'user'));
    expect(resent!.messages!.filter((m) => m.role === 'user').at(-1)!.content).toBe('Retry me');
    await expect.poll(() => page.getByRole('button', { name: 'Retry', exact: true }).count(), POLL).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'chat-retry.png') });
  });

  it('completes the answer exactly once after the socket drops mid-turn', async () => {
    const chunks = Array.from({ length: 30 }, (_, i) => `w${String(i).padStart(2, '0')} `);
    const full = chunks.join('').trim();
    server.fake.enqueue({ text: chunks, chunkDelayMs: 100 });
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Count for me');
    await page.getByRole('button', { name: 'Send' }).click();

    const answer = page.locator('.msg-assistant').last();
    const samples: string[] = [];
    let dropped = 0;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
      const text = ((await answer.count()) ? await answer.locator('.md').first().textContent() : '')?.trim() ?? '';
      samples.push(text);
      if (!dropped && text.includes('w05')) dropped = server.dropSockets();
      if (text === full && (await page.getByRole('button', { name: 'Stop' }).isHidden())) break;
      await page.waitForTimeout(40);
    }
    expect(dropped).toBeGreaterThan(0);
    expect(new Set(samples.filter(Boolean)).size).toBeGreaterThanOrEqual(5); // streamed, before and after the drop
    expect(await page.locator('.alert').isHidden()).toBe(true);
    // Every state on screen was a prefix of the answer: nothing duplicated, nothing skipped.
    for (const sample of samples) expect(full.startsWith(sample)).toBe(true);
    expect(samples.at(-1)).toBe(full);
    // Once in the conversation (the session list's preview shows the saved answer too).
    const shown = await page.locator('.messages').innerText();
    expect(shown.split('w17').length - 1).toBe(1);
    expect(await page.locator('.msg-assistant').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'chat-after-reconnect.png') });
  });

  it('searches and lands on the matching message, loading the pages before it', async () => {
    const messages = conversation(300, (i) => (i === 17 ? { content: 'The zebraneedle hides here' } : {}));
    await seededSession('Haystack', messages);
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('Search conversations').fill('zebraneedle');
    const jump = page.getByRole('button', { name: /Jump to match 1 in “Haystack”/ });
    await jump.waitFor();
    await jump.press('Enter');
    const match = page.locator('.msg.match');
    await match.waitFor();
    expect(await match.textContent()).toContain('zebraneedle');
    expect(await match.isVisible()).toBe(true);
    await expect
      .poll(
        () =>
          match.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        POLL,
      )
      .toBe(true);
    // The loaded window is contiguous: every message from the match to the newest is there.
    expect(await page.locator('.msg').count()).toBeGreaterThanOrEqual(300 - 17);
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toMatch(/data-id|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    await page.screenshot({ path: join(ARTIFACTS, 'chat-search-jump.png') });
  });
});
