/**
 * Pin and exclude in the web client (issue 33, item 4) in a real headless Chromium against the real server and
 * the fake provider: the Pin and Exclude toggles (aria-pressed) on each message, the mark on a pinned or excluded
 * message, a tool pair changing together, a change made by another client arriving live (MessageContextChanged),
 * and the refusals (CONTEXT_TOO_LARGE, CONFLICT) in the alert line. Each check reads the page and the API.
 * Skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { NewMessage } from '../../src/domain/types.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import {
  WebContextModeCreateSessionDocument,
  WebContextModeHistoryDocument,
  WebContextModeSetDocument,
  WebContextModeUndoDocument,
} from '../generated/graphql.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const POLL = { timeout: 30_000 };
const PIN = 'Pin to the model context';
const EXCLUDE = 'Exclude from the model context';

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');

describe.skipIf(skipBrowser())('web client pin and exclude in Chromium', () => {
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
    const created = await server.gql(WebContextModeCreateSessionDocument, { name });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), messages);
    return id;
  }
  async function state(id: string) {
    const r = await server.gql(WebContextModeHistoryDocument, { id });
    expect(r.errors).toBeUndefined();
    const s = r.data!.session!;
    return { rows: s.history.edges.map((e) => e.node), sent: s.modelView.messages.map((m) => m.content) };
  }
  const modes = async (id: string) => (await state(id)).rows.map((m) => m.contextMode);
  const open = async (page: Page, id: string) => {
    await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    await page.locator('.msg').first().waitFor();
  };
  const pressed = (msg: Locator, name: string) => msg.getByRole('button', { name }).getAttribute('aria-pressed');
  const mark = (msg: Locator) =>
    msg
      .locator('.context-mark')
      .count()
      .then(async (n) => (n ? msg.locator('.context-mark').textContent() : null));

  it('pins and excludes from the message controls; a tool pair follows; a change elsewhere arrives live', async () => {
    const id = await seeded('Pin here', [
      { role: 'user', content: 'Read the notes' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'n.md' } }] },
      { role: 'tool', content: 'the notes body', toolCallId: 'c1', name: 'read_file' },
      { role: 'assistant', content: 'The notes say hello' },
    ]);
    const page = await newPage();
    await open(page, id);
    const user = page.locator('.msg-user', { hasText: 'Read the notes' });
    const tool = page.locator('.msg-tool');
    const call = page.locator('.msg-assistant', { hasText: 'Tool call: read_file' });
    expect(await pressed(user, PIN)).toBe('false');
    expect(await pressed(user, EXCLUDE)).toBe('false');

    // Pin: the button is pressed, the mark shows, the server has it.
    await user.getByRole('button', { name: PIN }).click();
    await expect.poll(() => pressed(user, PIN), POLL).toBe('true');
    await expect.poll(() => mark(user), POLL).toMatch(/Pinned/);
    expect(await modes(id)).toEqual(['PINNED', 'DEFAULT', 'DEFAULT', 'DEFAULT']);

    // Exclude the tool result: its call goes with it (the event marks both), and the model is sent neither.
    await tool.getByRole('button', { name: EXCLUDE }).click();
    await expect.poll(() => mark(tool), POLL).toMatch(/Excluded/);
    await expect.poll(() => mark(call), POLL).toMatch(/Excluded/);
    expect(await pressed(call, EXCLUDE)).toBe('true');
    expect(await tool.evaluate((el) => el.classList.contains('msg-excluded'))).toBe(true);
    const after = await state(id);
    expect(after.rows.map((m) => m.contextMode)).toEqual(['PINNED', 'EXCLUDED', 'EXCLUDED', 'DEFAULT']);
    expect(after.sent).not.toContain('the notes body');
    await page.screenshot({ path: join(ARTIFACTS, 'web-context-mode.png') });

    // Pressing the pressed button resets the message.
    await user.getByRole('button', { name: PIN }).click();
    await expect.poll(() => pressed(user, PIN), POLL).toBe('false');
    await expect.poll(() => mark(user), POLL).toBeNull();
    expect((await modes(id))[0]).toBe('DEFAULT');

    // Another client excludes the answer: this page shows it without a reload.
    const answer = after.rows[3]!.id;
    expect((await server.gql(WebContextModeSetDocument, { m: answer, mode: 'EXCLUDED' })).errors).toBeUndefined();
    const last = page.locator('.msg-assistant', { hasText: 'The notes say hello' });
    await expect.poll(() => mark(last), POLL).toMatch(/Excluded/);
    expect(await pressed(last, EXCLUDE)).toBe('true');

    // Reloaded, the page reads the modes from the history.
    await page.reload();
    await last.waitFor();
    expect(await mark(last)).toMatch(/Excluded/);
    expect(await mark(tool)).toMatch(/Excluded/);
    expect(await mark(user)).toBeNull();
  });

  it('shows the refusal of a pin the window cannot hold (CONTEXT_TOO_LARGE)', async () => {
    const rows: NewMessage[] = [];
    for (let i = 0; i < 10; i++)
      rows.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `big ${i} ${'word '.repeat(9000)}` });
    const id = await seeded('Too big', rows);
    // Pin through the API until the next pin would not fit; the page then tries that one.
    const ids = (await state(id)).rows.map((m) => m.id);
    let next = -1;
    for (let i = 0; i < ids.length && next < 0; i++) {
      const r = await server.gql(WebContextModeSetDocument, { m: ids[i]!, mode: 'PINNED' });
      if (r.errors) next = i;
    }
    expect(next).toBeGreaterThan(0);
    const page = await newPage();
    await open(page, id);
    const target = page.locator('.msg', { hasText: `big ${next} ` });
    await target.scrollIntoViewIfNeeded();
    await target.getByRole('button', { name: PIN }).click();
    const alert = page.locator('.alert');
    await expect.poll(() => alert.textContent(), POLL).toMatch(/Cannot pin this message\. Pinned messages would take/);
    expect(await pressed(target, PIN)).toBe('false');
    expect((await modes(id))[next]).toBe('DEFAULT');
  });

  it('shows CONFLICT when another client undid the message, and reloads the conversation', async () => {
    const small = await seeded('Undone', [
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
      { role: 'assistant', content: 'Second answer' },
    ]);
    const page = await newPage();
    await open(page, small);
    const alert = page.locator('.alert');
    const second = page.locator('.msg-user', { hasText: 'Second question' });
    await second.waitFor();
    expect((await server.gql(WebContextModeUndoDocument, { id: small })).errors).toBeUndefined();
    await second.getByRole('button', { name: PIN }).click();
    await expect.poll(() => alert.textContent(), POLL).toMatch(/Cannot change this message now\. .*current path/);
    await second.waitFor({ state: 'detached' });
    expect(await modes(small)).toEqual(['DEFAULT', 'DEFAULT']);
  });
});
