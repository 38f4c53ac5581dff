/**
 * Issue 16 item 3 in the browser: the chat screen's "What the model sees"
 * panel shows Session.modelView — the cut tool result, the notices, the
 * prompt's token estimate — not the stored rows; and (issue 33 item 5) the
 * last turn's model calls with what changed between them. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import {
  E2eModelViewCreateSessionDocument,
  E2eModelViewPromptDocument,
  E2eModelViewSendDocument,
  E2eModelViewTurnDocument,
} from '../generated/graphql.js';

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

  it("lists the last turn's calls: the tool round's call names the tool result added", async () => {
    const created = await server.gql(E2eModelViewCreateSessionDocument, {});
    const id = created.data!.createSession.id;
    let n = 0;
    server.fake.responder = () =>
      n++ === 0 ? { toolCalls: [{ name: 'no_such_tool', arguments: {} }] } : { text: 'All done.' };
    const sent = await server.gql(E2eModelViewSendDocument, { input: { sessionId: id, content: 'use a tool' } });
    expect(sent.errors).toBeUndefined();
    const turnId = sent.data!.sendMessage.turn.id;
    const status = async () => (await server.gql(E2eModelViewTurnDocument, { id: turnId })).data!.turn!.status;
    await expect.poll(status, { timeout: 30_000 }).toBe('COMPLETED');
    server.fake.responder = undefined;
    const tool = (await server.app.store.allMessages(rawId(id))).find((m) => m.role === 'tool')!;
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
      await page.locator('.model-view summary', { hasText: 'What the model sees' }).click();
      const calls = page.locator('.model-call');
      await expect.poll(() => calls.count(), { timeout: 30_000 }).toBe(2);
      const second = calls.nth(1);
      expect(await second.locator('.model-call-head').textContent()).toContain('since call 1: 2 added, 0 removed');
      expect(await second.locator('.call-added').allTextContents()).toContainEqual(
        expect.stringContaining(`message tool ${tool.messageId.slice(0, 8)}`),
      );
      expect(await calls.nth(0).locator('.model-call-head').textContent()).toContain('first call of the conversation');
    } finally {
      await context.close();
    }
  });
});
