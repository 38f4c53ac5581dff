/**
 * Issue 16 item 3 in the browser: the chat screen's "What the model sees"
 * panel shows Session.modelView — the cut tool result, the notices, the
 * prompt's token estimate — not the stored rows. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import { E2eModelViewCreateSessionDocument, E2eModelViewPromptDocument } from '../generated/graphql.js';

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

describe.skipIf(skipBrowser())('"What the model sees" in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startE2EServer();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens from the chat screen and shows the prompt as sent, not the stored rows', async () => {
    const created = await server.gql(E2eModelViewCreateSessionDocument, {});
    expect(created.errors).toBeUndefined();
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), [
      {
        role: 'user',
        content: 'run the build',
        metadata: { contextNotice: '[Uploaded files on disk:\n- build.cfg → session_files/x/build.cfg]' },
      },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'dump_log', arguments: {} }] },
      { role: 'tool', content: `LOG START ${'z'.repeat(60_000)} LOG END`, toolCallId: 'c1', name: 'dump_log' },
      { role: 'assistant', content: 'It failed.' },
    ]);
    const expected = await server.gql(E2eModelViewPromptDocument, { id });
    const view = expected.data!.session!.modelView;
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
      await page.locator('.model-view summary', { hasText: 'What the model sees' }).click();
      const items = page.locator('.model-view-message');
      await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(view.messages.length);
      const tool = items.filter({ hasText: 'dump_log' }).last();
      const shownTool = (await tool.locator('pre').first().textContent()) ?? '';
      expect(shownTool).toBe(view.messages.find((m) => m.role === 'TOOL')!.content);
      expect(shownTool).toContain('chars truncated');
      expect(shownTool.length).toBeLessThan(30_000);
      expect(await items.nth(view.messages.findIndex((m) => m.role === 'USER')).textContent()).toContain(
        '[Uploaded files on disk:',
      );
      expect(await page.locator('.model-view-total').textContent()).toContain(
        `~${view.estimatedTokens.toLocaleString('en-US')} /`,
      );
    } finally {
      await context.close();
    }
  });
});
