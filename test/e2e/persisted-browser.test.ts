/**
 * The web client in Chromium against a server with PERSISTED_OPERATIONS=only:
 * the page's boot request, the chat (list, create, send, the event
 * subscription over graphql-ws) and a deep-linked conversation all work, and
 * no request the page sends carries a document, only manifest ids.
 * Skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import { PersistedBrowserAdHocDocument } from '../generated/graphql.js';

const POLL = { timeout: 30_000 };

describe.skipIf(skipBrowser())('web client with PERSISTED_OPERATIONS=only', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startE2EServer({ persistedOperations: 'only' });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('chats and opens a deep link sending only persisted ids', async () => {
    // An ad-hoc document is refused by this server.
    expect((await server.gql(PersistedBrowserAdHocDocument, {})).errors?.[0]?.extensions?.code).toBe(
      'PERSISTED_QUERY_ONLY',
    );
    const profile = await server.app.profiles.default();
    const seeded = await server.app.store.create({ profileId: profile.id, userId: 'anonymous', name: 'Seeded' });
    await server.app.store.append(seeded.id, [
      { role: 'user', content: 'Seeded question' },
      { role: 'assistant', content: 'Seeded answer' },
    ]);

    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const bodies: string[] = [];
    const frames: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') bodies.push(request.postData() ?? '');
    });
    page.on('websocket', (socket) => socket.on('framesent', (frame) => frames.push(String(frame.payload))));

    server.fake.enqueue({ text: ['Persisted ', 'answer'] });
    await page.goto(`${server.url}/`);
    const gid = Buffer.from(`Session:${seeded.id}`).toString('base64');
    await page.getByRole('button', { name: '+ New conversation' }).click();
    // The new conversation is open (its id in the address, the composer focused) before typing: a message typed
    // while it is still being created would go to the conversation open before it.
    await expect
      .poll(
        () =>
          page.evaluate(
            (seededId) =>
              location.hash.startsWith('#session=') &&
              !location.hash.includes(encodeURIComponent(seededId)) &&
              document.activeElement?.tagName === 'TEXTAREA',
            gid,
          ),
        POLL,
      )
      .toBe(true);
    await page.locator('textarea').fill('Hello there');
    await page.locator('textarea').press('Enter');
    await page.locator('.msg-user', { hasText: 'Hello there' }).waitFor();
    await expect
      .poll(async () => (await page.locator('.msg-assistant .md').last().textContent())?.trim(), POLL)
      .toBe('Persisted answer');
    expect(await page.locator('.alert').isHidden()).toBe(true);

    await page.goto(`${server.url}/#session=${encodeURIComponent(gid)}`);
    await page.reload();
    await page.locator('.msg-assistant', { hasText: 'Seeded answer' }).waitFor();
    expect(await page.locator('.alert').isHidden()).toBe(true);

    const subscribes = frames.filter((f) => f.includes('"subscribe"'));
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    expect(subscribes.length).toBeGreaterThanOrEqual(2);
    for (const sent of [...bodies, ...subscribes]) {
      expect(sent).toContain('"persistedQuery"');
      expect(sent).not.toMatch(/"query":"[^"]/);
    }
    await context.close();
  }, 180_000);
});
