/**
 * The chat page's conversation control in a real headless Chromium against the
 * real server and the fake provider (issue 19, item 8): edit and resend,
 * regenerate and the sibling arrows; sending while a turn runs (Queue with the
 * queue panel and its Cancel, Interrupt); the share dialog (expiry, snapshot,
 * list, revoke). Each test checks the page and the API, and saves a screenshot
 * to test-artifacts/web-*.png. Skipped when /usr/bin/chromium or
 * playwright-core is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { NewMessage } from '../../src/domain/types.js';
import { messagesOf } from '../support/fake-provider.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import {
  WebConversationControlCreateSessionDocument,
  WebConversationControlHistoryDocument,
  WebConversationControlQueuedDocument,
  WebConversationControlSharedDocument,
  WebConversationControlShareLinksDocument,
} from '../generated/graphql.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const POLL = { timeout: 30_000 };

const CREATE = WebConversationControlCreateSessionDocument;
const HISTORY = WebConversationControlHistoryDocument;
const QUEUED = WebConversationControlQueuedDocument;
const SHARE_LINKS = WebConversationControlShareLinksDocument;
const SHARED = WebConversationControlSharedDocument;

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

interface Row {
  role: string;
  content: string;
  siblings: { index: number; count: number };
}

describe.skipIf(skipBrowser())('web client conversation control in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let context: BrowserContext;

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

  afterEach(async () => {
    await context?.close();
  });

  async function newPage(): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    return page;
  }

  async function seeded(name: string, messages: NewMessage[]): Promise<string> {
    const created = await server.gql(CREATE, { name });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), messages);
    return id;
  }

  async function history(id: string): Promise<Row[]> {
    const result = await server.gql(HISTORY, { id });
    expect(result.errors).toBeUndefined();
    return result.data!.session!.history.edges.map((e) => e.node);
  }
  const texts = async (id: string) => (await history(id)).map((m) => `${m.role}:${m.content}`);

  const open = async (page: Page, id: string) => {
    await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    await page.locator('.msg').first().waitFor();
  };

  /** The user-message text of the newest request the fake provider got. */
  const lastPrompt = () =>
    messagesOf(server.fake.requests.at(-1))
      .filter((m) => m.role === 'user')
      .map((m) => String(m.content));

  /** The session's turn statuses, sorted (the order of two turns is not what is checked). */
  const turnStatuses = async (id: string) =>
    (await server.app.db.prisma.turn.findMany({ where: { sessionId: rawId(id) } })).map((t) => t.status).sort();

  it('edits a user message (Enter saves, Esc cancels), regenerates, switches versions', async () => {
    const id = await seeded('Editable', [
      { role: 'user', content: 'Question zero' },
      { role: 'assistant', content: 'Answer zero' },
    ]);
    const page = await newPage();
    await open(page, id);
    const user = page.locator('.msg-user');

    // Esc cancels: nothing is sent, the text stays.
    const requests = server.fake.requests.length;
    await page.getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Edited message' });
    await expect.poll(() => editor.inputValue(), POLL).toBe('Question zero');
    await editor.fill('Never sent');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(await user.locator('.md').textContent()).toBe('Question zero');
    expect(server.fake.requests.length).toBe(requests);

    // Enter saves: editMessage, and the turn answers the edited text only.
    server.fake.enqueue({ text: 'Answer to the edit' });
    await page.getByRole('button', { name: 'Edit message' }).click();
    await editor.fill('Question zero, edited');
    await editor.press('Enter');
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'Answer to the edit' }).waitFor();
    await expect.poll(() => texts(id), POLL).toEqual(['USER:Question zero, edited', 'ASSISTANT:Answer to the edit']);
    expect((await history(id))[0]!.siblings).toEqual({ index: 1, count: 2 });
    expect(lastPrompt()).toEqual(['Question zero, edited']);
    await expect.poll(() => user.locator('.sibling-count').textContent(), POLL).toBe('2/2');
    expect(await page.locator('.msg').count()).toBe(2);
    expect(await page.locator('.msg', { hasText: 'Answer zero' }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'web-edit-siblings.png') });

    // Back to version 1: the old text and its answer again.
    await page.getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(() => user.locator('.sibling-count').textContent(), POLL).toBe('1/2');
    await page.locator('.msg-assistant', { hasText: 'Answer zero' }).waitFor();
    expect(await user.locator('.md').textContent()).toBe('Question zero');
    expect(await texts(id)).toEqual(['USER:Question zero', 'ASSISTANT:Answer zero']);
    expect(await page.getByRole('button', { name: 'Previous version' }).isDisabled()).toBe(true);

    // Regenerate: a new answer to the same question, a sibling of the old one.
    server.fake.enqueue({ text: 'A second answer' });
    await page.getByRole('button', { name: 'Regenerate answer' }).click();
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'A second answer' }).waitFor();
    await expect.poll(() => texts(id), POLL).toEqual(['USER:Question zero', 'ASSISTANT:A second answer']);
    expect((await history(id))[1]!.siblings).toEqual({ index: 1, count: 2 });
    expect(lastPrompt()).toEqual(['Question zero']);
    await expect.poll(() => page.locator('.msg-assistant .sibling-count').textContent(), POLL).toBe('2/2');
    expect(await page.locator('.msg').count()).toBe(2);
    await page.screenshot({ path: join(ARTIFACTS, 'web-regenerate.png') });
  });

  it('queues messages sent during a turn, lists them with Cancel, and runs the rest after the turn', async () => {
    const id = await seeded('Queue here', [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi' },
    ]);
    const page = await newPage();
    await open(page, id);
    let release: () => void = () => undefined;
    server.fake.enqueue({
      text: ['First ', 'answer'],
      holdBeforeChunk: 1,
      hold: new Promise((r) => (release = () => r(null))),
    });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Long question');
    await box.press('Enter');
    await page.locator('.msg-assistant.streaming', { hasText: 'First' }).waitFor();

    // While the turn runs, the composer offers the policies, Queue first; the button says what it does.
    const mode = page.getByLabel('While answering');
    await mode.waitFor();
    expect(await mode.inputValue()).toBe('QUEUE');
    await page.getByRole('button', { name: 'Queue', exact: true }).waitFor();
    const queued = page.locator('.queued li');
    await box.fill('Queued one');
    await box.press('Enter');
    await expect.poll(() => queued.count(), POLL).toBe(1);
    await expect.poll(() => box.inputValue(), POLL).toBe('');
    // The first send has its answer (the button is enabled again) before the second goes.
    await expect.poll(() => page.getByRole('button', { name: 'Queue', exact: true }).isEnabled(), POLL).toBe(true);
    await box.fill('Queued two');
    await box.press('Enter');
    await expect.poll(() => queued.count(), POLL).toBe(2);
    expect(await queued.locator('.queued-text').allTextContents()).toEqual(['Queued one', 'Queued two']);
    expect((await server.gql(QUEUED, { id })).data!.session!.queuedMessages.map((q) => q.content)).toEqual([
      'Queued one',
      'Queued two',
    ]);
    // Not in the conversation yet.
    expect(await page.locator('.msg-user', { hasText: 'Queued' }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'web-queue.png') });

    await page.getByRole('button', { name: 'Cancel queued message “Queued two”' }).click();
    await expect.poll(() => queued.count(), POLL).toBe(1);
    expect((await server.gql(QUEUED, { id })).data!.session!.queuedMessages.map((q) => q.content)).toEqual([
      'Queued one',
    ]);

    // The first turn ends; the queued message becomes the next turn, the cancelled one never runs.
    server.fake.enqueue({ text: 'Answer to the queued one' });
    release();
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'Answer to the queued one' }).waitFor();
    await expect
      .poll(() => texts(id), POLL)
      .toEqual([
        'USER:Hello',
        'ASSISTANT:Hi',
        'USER:Long question',
        'ASSISTANT:First answer',
        'USER:Queued one',
        'ASSISTANT:Answer to the queued one',
      ]);
    expect(lastPrompt().at(-1)).toBe('Queued one');
    await expect.poll(() => page.locator('.queued').isHidden(), POLL).toBe(true);
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect(await page.locator('.msg-user', { hasText: 'Queued two' }).count()).toBe(0);
    expect(await page.getByLabel('While answering').isHidden()).toBe(true);
  });

  it('interrupts the running turn: the partial answer stays, the new message is answered', async () => {
    const id = await seeded('Interrupt me', [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi' },
    ]);
    const page = await newPage();
    await open(page, id);
    let release: () => void = () => undefined;
    server.fake.enqueue({
      text: ['Partial ', 'never finished'],
      holdBeforeChunk: 1,
      hold: new Promise((r) => (release = () => r(null))),
    });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Slow question');
    await box.press('Enter');
    await page.locator('.msg-assistant.streaming', { hasText: 'Partial' }).waitFor();

    // The policy picker is a labelled select (in the tab order); the Send button then says "Interrupt".
    await page.getByLabel('While answering').selectOption('INTERRUPT');
    await page.getByRole('button', { name: 'Interrupt', exact: true }).waitFor();
    server.fake.enqueue({ text: 'Fresh answer' });
    await box.fill('Change of plan');
    await box.press('Enter');
    await page.locator('.msg-assistant:not(.streaming)', { hasText: 'Fresh answer' }).waitFor();
    release();

    // The cancelled turn's partial answer is kept, on the page and in the history.
    await page.locator('.msg-assistant', { hasText: 'Partial' }).waitFor();
    await expect
      .poll(() => texts(id), POLL)
      .toEqual([
        'USER:Hello',
        'ASSISTANT:Hi',
        'USER:Slow question',
        'ASSISTANT:Partial ',
        'USER:Change of plan',
        'ASSISTANT:Fresh answer',
      ]);
    expect(await turnStatuses(id)).toEqual(['CANCELLED', 'COMPLETED']);
    expect(lastPrompt().at(-1)).toBe('Change of plan');
    expect(await page.locator('.msg-user').allTextContents()).toHaveLength(3);
    await page.screenshot({ path: join(ARTIFACTS, 'web-interrupt.png') });
  });

  it('shares from the dialog: live link with an expiry, clear it, a snapshot, list, revoke one, all', async () => {
    const id = await seeded('Shared talk', [
      { role: 'user', content: 'Share this' },
      { role: 'assistant', content: 'Shared' },
    ]);
    const page = await newPage();
    await open(page, id);
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this conversation' });
    await dialog.waitFor();
    const state = dialog.locator('.share-live-state');
    await expect.poll(() => state.textContent(), POLL).toBe('Not shared yet.');

    await dialog.getByRole('button', { name: 'Create live link' }).click();
    const liveField = dialog.getByRole('textbox', { name: 'Live share link' });
    await expect.poll(() => liveField.inputValue(), POLL).toContain('/#share=');
    const links = async () => (await server.gql(SHARE_LINKS, { id })).data!.session!;
    const token = (await links()).share!.token;
    expect(await liveField.inputValue()).toBe(`${server.url}/#share=${token}`);
    await expect.poll(() => state.textContent(), POLL).toBe('No expiry');

    // An expiry (the page runs in UTC): shown, and the API has it.
    const when = new Date(Date.now() + 3 * 86_400_000);
    const local = `${when.toISOString().slice(0, 10)}T09:30`;
    await dialog.getByLabel('Link expires at').fill(local);
    await dialog.getByRole('button', { name: 'Set expiry' }).click();
    await expect.poll(() => state.textContent(), POLL).toBe(`Expires ${local.replace('T', ' ')}`);
    expect((await links()).share).toEqual({ token, expiresAt: `${local}:00.000Z` });
    await page.screenshot({ path: join(ARTIFACTS, 'web-share-dialog.png') });

    await dialog.getByRole('button', { name: 'Remove expiry' }).click();
    await expect.poll(() => state.textContent(), POLL).toBe('No expiry');
    expect((await links()).share).toEqual({ token, expiresAt: null });

    // A snapshot: a second, separate link in the list.
    await dialog.getByRole('button', { name: 'New snapshot link' }).click();
    const items = dialog.locator('.share-links li');
    await expect.poll(() => items.count(), POLL).toBe(2);
    const all = (await links()).shareLinks;
    expect(all.map((l) => l.snapshot)).toEqual([false, true]);
    const snapshotToken = all[1]!.token;
    expect(await items.locator('.share-kind').allTextContents()).toEqual([
      'Live link',
      expect.stringMatching(/^Snapshot of /),
    ]);

    // Revoke the live link: its token no longer resolves, the snapshot still does.
    expect((await server.gql(SHARED, { token })).data!.sharedSession).toEqual({ name: 'Shared talk' });
    await dialog.getByRole('button', { name: 'Revoke live link' }).click();
    await expect.poll(() => items.count(), POLL).toBe(1);
    expect((await server.gql(SHARED, { token })).data!.sharedSession).toBeNull();
    expect((await server.gql(SHARED, { token: snapshotToken })).data!.sharedSession).not.toBeNull();
    await expect.poll(() => state.textContent(), POLL).toBe('Not shared yet.');

    // Revoke all: nothing resolves any more.
    await dialog.getByRole('button', { name: 'Revoke all links' }).click();
    await expect.poll(() => dialog.locator('.share-links li.empty').count(), POLL).toBe(1);
    expect((await links()).shareLinks).toEqual([]);
    expect((await server.gql(SHARED, { token: snapshotToken })).data!.sharedSession).toBeNull();

    // Esc closes the dialog.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('sends a message typed while "New conversation" is on its way to that new conversation', async () => {
    const before = await seeded('Open before', [
      { role: 'user', content: 'Old question' },
      { role: 'assistant', content: 'Old answer' },
    ]);
    const page = await newPage();
    await open(page, before);
    // The page's createSession is held until the message has been sent.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const creating = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/graphql', async (route) => {
      if ((route.request().postData() ?? '').includes('createSession')) {
        reached();
        await held;
      }
      await route.continue();
    });
    server.fake.enqueue({ text: 'Answer in the new one' });
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await creating;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Meant for the new one');
    await box.press('Enter');
    release();
    await page.locator('.msg-assistant', { hasText: 'Answer in the new one' }).waitFor();
    const id = await page.evaluate(() => decodeURIComponent(location.hash.replace('#session=', '')));
    expect(id).not.toBe(before);
    expect(await texts(id)).toEqual(['USER:Meant for the new one', 'ASSISTANT:Answer in the new one']);
    expect(await texts(before)).toEqual(['USER:Old question', 'ASSISTANT:Old answer']);
  });
});
