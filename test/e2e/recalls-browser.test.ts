/**
 * Scheduled recalls in the web client (Chromium): a message a recall sent is
 * labelled "Scheduled recall" and styled apart from the user's own; the
 * conversation lists its pending recalls, each with a Cancel button that
 * cancels it on the server; a recall that fires while the page is open
 * arrives live, labelled the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import { eventually } from '../support/harness.js';
import { RecallsBrowserCreateSessionDocument, RecallsBrowserScheduleDocument } from '../generated/graphql.js';

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');
const SCHEDULE = RecallsBrowserScheduleDocument;

describe.skipIf(skipBrowser())('scheduled recalls in the web client', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startE2EServer({ pendingPollMs: 200 });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('labels recall messages, lists pending recalls with Cancel, and shows one that fires live', async () => {
    const id = (await server.gql(RecallsBrowserCreateSessionDocument, {})).data!.createSession.id;
    await server.app.store.append(rawId(id), [
      { role: 'user', content: 'typed by me' },
      { role: 'user', content: 'sent by a recall', isRecall: true },
      { role: 'assistant', content: 'answered' },
    ]);
    const later = await server.gql(SCHEDULE, {
      s: id,
      at: new Date(Date.now() + 3_600_000).toISOString(),
      t: 'water the plants',
    });
    expect(later.errors).toBeUndefined();

    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
      const recallMessage = page.locator('.msg.msg-recall');
      await recallMessage.getByText('sent by a recall').waitFor();
      await expect(recallMessage.locator('.msg-role').textContent()).resolves.toContain('Scheduled recall');
      expect(await page.locator('.msg.msg-recall').count()).toBe(1);
      expect(await page.locator('.msg:not(.msg-recall)').getByText('typed by me').count()).toBe(1);

      const panel = page.getByRole('region', { name: 'Scheduled recalls' });
      await panel.getByText('water the plants').waitFor();
      await panel.getByRole('button', { name: /Cancel the recall/ }).click();
      await panel.waitFor({ state: 'hidden' });
      const rows = await server.app.db.prisma.pendingTurn.findMany({ where: { sessionId: rawId(id) } });
      expect(rows.map((r) => [r.content, r.status])).toEqual([['water the plants', 'CANCELLED']]);

      // One that fires while the page is open: it arrives on the event stream, labelled as a recall.
      server.fake.enqueue({ text: 'fired and answered' });
      await server.gql(SCHEDULE, { s: id, at: new Date(Date.now() + 1_500).toISOString(), t: 'live recall' });
      await page.locator('.msg.msg-recall').getByText('live recall').waitFor({ timeout: 60_000 });
      await page.locator('.msg').getByText('fired and answered').waitFor({ timeout: 60_000 });
      await eventually(
        () => server.app.db.prisma.pendingTurn.findMany({ where: { sessionId: rawId(id), status: 'FIRED' } }),
        (r) => r.length === 1,
        60_000,
      );
      expect(await page.locator('.msg.msg-recall').count()).toBe(2);
    } finally {
      await context.close();
    }
  }, 180_000);
});
