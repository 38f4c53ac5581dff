/**
 * The chat page's everyday features in a real headless Chromium against the
 * real server and the fake provider (issue 19, item 8): the profile (model)
 * picker, copy message / copy code, Retry that keeps one user message, fork,
 * undo / redo, branches, export and import, the keyboard, and no emoji.
 * Each test checks the page and the API, and saves a screenshot to
 * test-artifacts/web-*.png. Skipped when /usr/bin/chromium or playwright-core
 * is missing.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { NewMessage } from '../../src/domain/types.js';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import {
  WebFeaturesCreateSessionDocument,
  WebFeaturesExportDocument,
  WebFeaturesHistoryDocument,
  WebFeaturesPinDocument,
  WebFeaturesSessionsDocument,
} from '../generated/graphql.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const POLL = { timeout: 30_000 };

const CREATE = WebFeaturesCreateSessionDocument;
const HISTORY = WebFeaturesHistoryDocument;
const SESSIONS = WebFeaturesSessionsDocument;
const EXPORT = WebFeaturesExportDocument;

const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');
/** Emoji and pictographs that need an emoji font (U+00A9/U+00AE are ordinary text glyphs). */
const PICTOGRAPH = /(?![\u00a9\u00ae])(?:[\p{Extended_Pictographic}\u{1F000}-\u{1FAFF}]|\u{FE0F})/u;

describe.skipIf(skipBrowser())('web client features in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let context: BrowserContext;
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
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    page.on('request', (request) => {
      const url = request.url();
      if (
        !/^(data:|blob:)/.test(url) &&
        !url.startsWith(server.url) &&
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

  async function seeded(name: string, messages: NewMessage[]): Promise<string> {
    const created = await server.gql(CREATE, { name });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createSession.id;
    await server.app.store.append(rawId(id), messages);
    return id;
  }

  const turns = (n: number): NewMessage[] =>
    Array.from({ length: n * 2 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: i % 2 === 0 ? `Question ${i / 2}` : `Answer ${(i - 1) / 2}`,
    }));

  async function history(id: string): Promise<{ role: string; content: string }[]> {
    const result = await server.gql(HISTORY, { id });
    expect(result.errors).toBeUndefined();
    return result.data!.session!.history.edges.map((e) => e.node);
  }

  const open = async (page: Page, id: string) => {
    await page.goto(`${server.url}/#session=${encodeURIComponent(id)}`);
    await page.locator('.msg').first().waitFor();
  };

  it('starts a new conversation with the profile chosen in the picker and shows it in the header', async () => {
    await server.app.profiles.upsert({ key: 'fast', name: 'Fast', model: 'fast-model' });
    const page = await newPage();
    await page.goto(`${server.url}/`);
    const picker = page.getByLabel('Model for new conversations');
    await picker.locator('option', { hasText: 'Fast · fast-model' }).waitFor({ state: 'attached' });
    await picker.selectOption({ label: 'Fast · fast-model' });
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await expect
      .poll(() => page.locator('.conversation-header .profile').textContent(), POLL)
      .toBe('Fast · fast-model');

    // The API agrees, and the model call goes to that profile's model.
    const hash = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    expect((await server.gql(HISTORY, { id: hash })).data!.session!.profile).toEqual({
      name: 'Fast',
      model: 'fast-model',
    });
    server.fake.enqueue({ text: 'From the fast one' });
    const before = server.fake.requests.length;
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Which model?');
    await page.keyboard.press('Enter');
    await page.locator('.msg-assistant', { hasText: 'From the fast one' }).waitFor();
    expect(server.fake.requests.slice(before).some((r) => r.model === 'fast-model')).toBe(true);

    // The choice is remembered in this browser.
    await page.reload();
    await page.getByLabel('Model for new conversations').locator('option', { hasText: 'Fast' }).waitFor({
      state: 'attached',
    });
    await expect
      .poll(() =>
        page.getByLabel('Model for new conversations').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text),
      )
      .toBe('Fast · fast-model');
    await page.screenshot({ path: join(ARTIFACTS, 'web-model-picker.png') });
  });

  it('copies a message and a code block, with the clipboard API and with the fallback, and says "Copied"', async () => {
    const code = 'const answer = 42;\nconsole.log(answer);';
    const reply = `Here is the code:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
    const id = await seeded('Copy me', [
      { role: 'user', content: 'Give me **code**' },
      { role: 'assistant', content: reply },
    ]);
    const page = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await open(page, id);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const live = page.locator('.copy-status');

    await page.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(clipboard, POLL).toBe(code);
    await expect.poll(() => live.textContent(), POLL).toBe('Copied to the clipboard');
    await page.screenshot({ path: join(ARTIFACTS, 'web-copy.png') });

    // The message's Copy copies its markdown source.
    await page.getByRole('button', { name: 'Copy message (Assistant)' }).click();
    await expect.poll(clipboard, POLL).toBe(reply);

    // Without navigator.clipboard (an older browser, a refusal) the hidden-textarea fallback copies.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    });
    await page.getByRole('button', { name: 'Copy message (You)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.msg-user .copy-caption').textContent(), POLL).not.toBe('Copy');
    expect(await page.locator('.msg-user .copy-caption').textContent()).toBe('Copied');
    // navigator.clipboard is gone for the page: read what the fallback put on the clipboard from a fresh page.
    const reader = await context.newPage();
    await reader.goto(`${server.url}/healthz`);
    expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe('Give me **code**');
    expect(await page.locator('textarea.copy-buffer').count()).toBe(0);
  });

  it('is not left busy, and retries, when a turn fails before the answer to its sendMessage arrives', async () => {
    server.fake.enqueue({ status: 400, errorBody: { error: 'refused at once' } });
    const page = await newPage();
    // The answer to sendMessage is held until the turn's failure has reached the page over the socket.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const isSend = (body: string | null) => /mutation Send\b/.test(body ?? '');
    await page.route('**/graphql', async (route) => {
      if (!isSend(route.request().postData())) return route.continue();
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Refused at once');
    const answered = page.waitForResponse((response) => isSend(response.request().postData()));
    await page.keyboard.press('Enter');
    await page.locator('.turn-error').waitFor();
    release();
    await answered;
    await page.unrouteAll({ behavior: 'wait' });
    // The late answer neither marks the page busy (a Stop that never goes) nor blocks the Retry of the failure.
    server.fake.enqueue({ text: 'Second time lucky' });
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('.msg-assistant', { hasText: 'Second time lucky' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden' });
  });

  it('retries a failed turn without a second copy of the user message in the history', async () => {
    server.fake.enqueue({ status: 400, errorBody: { error: 'bad option' } });
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Retry me once');
    await page.keyboard.press('Enter');
    await page.locator('.turn-error').waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    expect((await history(id)).filter((m) => m.role === 'USER')).toHaveLength(1);

    server.fake.enqueue({ text: 'Worked this time' });
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('.msg-assistant', { hasText: 'Worked this time' }).waitFor();
    await expect
      .poll(async () => (await history(id)).map((m) => `${m.role}:${m.content}`), POLL)
      .toEqual(['USER:Retry me once', 'ASSISTANT:Worked this time']);
    // The page shows it once too.
    expect(await page.locator('.msg-user', { hasText: 'Retry me once' }).count()).toBe(1);
    expect(await page.locator('.turn-error').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'web-retry.png') });
  });

  it('forks the open conversation into a new one and opens it', async () => {
    const id = await seeded('Original', turns(2));
    const page = await newPage();
    await open(page, id);
    await page.getByRole('button', { name: 'Fork' }).click();
    await expect.poll(() => page.locator('.conversation-title').textContent(), POLL).toBe('Original (fork)');
    const forkId = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    expect(forkId).not.toBe(id);
    expect((await history(forkId)).map((m) => m.content)).toEqual((await history(id)).map((m) => m.content));
    await expect
      .poll(() => page.locator('.session-list .session-name', { hasText: 'Original (fork)' }).count())
      .toBe(1);
    expect(await page.locator('.msg').count()).toBe(4);
    await page.screenshot({ path: join(ARTIFACTS, 'web-fork.png') });
  });

  it('undoes the last turn and redoes it', async () => {
    const id = await seeded('Undo me', turns(2));
    const page = await newPage();
    await open(page, id);
    await page.getByRole('button', { name: 'Undo last turn' }).click();
    await expect.poll(() => page.locator('.msg').count(), POLL).toBe(2);
    expect((await history(id)).map((m) => m.content)).toEqual(['Question 0', 'Answer 0']);
    await page.screenshot({ path: join(ARTIFACTS, 'web-undo.png') });
    await page.getByRole('button', { name: 'Redo undone turn' }).click();
    await expect.poll(() => page.locator('.msg').count(), POLL).toBe(4);
    expect((await history(id)).map((m) => m.content)).toEqual(['Question 0', 'Answer 0', 'Question 1', 'Answer 1']);
    // Nothing left to redo: the server's answer is shown.
    await page.getByRole('button', { name: 'Redo undone turn' }).click();
    await expect.poll(() => page.locator('.alert').isVisible(), POLL).toBe(true);
  });

  it('marks a branch, lists it and switches to it', async () => {
    const id = await seeded('Branchy', turns(2));
    const page = await newPage();
    await open(page, id);
    await page.locator('.branches-panel > summary').click();
    await page.getByLabel('Branch name').fill('full');
    await page.getByRole('button', { name: 'Mark branch here' }).click();
    await page.getByRole('button', { name: 'Switch to branch “full”' }).waitFor();
    expect((await server.gql(HISTORY, { id })).data!.session!.branches.map((b) => b.name)).toEqual(['full']);

    await page.getByRole('button', { name: 'Undo last turn' }).click();
    await expect.poll(() => page.locator('.msg').count(), POLL).toBe(2);
    await page.locator('.branches-panel > summary').click();
    await page.getByRole('button', { name: 'Switch to branch “full”' }).click();
    await expect.poll(() => page.locator('.msg').count(), POLL).toBe(4);
    expect((await history(id)).map((m) => m.content)).toEqual(['Question 0', 'Answer 0', 'Question 1', 'Answer 1']);
    await page.screenshot({ path: join(ARTIFACTS, 'web-branches.png') });
  });

  it('exports as JSON and Markdown, and imports the JSON as a new conversation', async () => {
    const id = await seeded('Round trip', turns(2));
    const page = await newPage();
    await open(page, id);
    await page.locator('.export-panel > summary').click();
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as JSON' }).click(),
    ]);
    expect(json.suggestedFilename()).toBe('Round_trip.json');
    const jsonText = readFileSync((await json.path())!, 'utf8');
    // What the API exports (but for the time stamp of the export itself).
    const fromApi = JSON.parse((await server.gql(EXPORT, { id, f: 'JSON' })).data!.session!.export) as object;
    expect({ ...JSON.parse(jsonText), exportedAt: null }).toEqual({ ...fromApi, exportedAt: null });
    const [markdown] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as Markdown' }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe('Round_trip.md');
    expect(readFileSync((await markdown.path())!, 'utf8')).toContain('Question 1');
    await page.screenshot({ path: join(ARTIFACTS, 'web-export.png') });

    const before = (await server.gql(SESSIONS, {})).data!.sessions.edges.length;
    await page.getByLabel('Import conversation (JSON)').setInputFiles({
      name: 'round-trip.json',
      mimeType: 'application/json',
      buffer: Buffer.from(jsonText),
    });
    await expect.poll(() => page.url(), POLL).not.toContain(encodeURIComponent(id));
    const importedId = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    const sessions = (await server.gql(SESSIONS, {})).data!.sessions.edges.map((e) => e.node.id);
    expect(sessions).toHaveLength(before + 1);
    expect(sessions).toContain(importedId);
    expect((await history(importedId)).map((m) => m.content)).toEqual((await history(id)).map((m) => m.content));
    await expect.poll(() => page.locator('.msg').count(), POLL).toBe(4);
    await page.screenshot({ path: join(ARTIFACTS, 'web-import.png') });
  });

  it('works from the keyboard: Ctrl+K, list arrows, Enter / Shift+Enter, Esc stops, focus rings, names', async () => {
    await seeded('Keyboard one', turns(1));
    await seeded('Keyboard two', turns(1));
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.locator('.session-list .session-name', { hasText: 'Keyboard one' }).waitFor();
    await page.locator('body').press('Control+k');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type')), POLL).toBe('search');
    await page.keyboard.press('ArrowDown');
    const focusedName = () =>
      page.evaluate(() => document.activeElement?.querySelector('.session-name')?.textContent ?? null);
    // Newest first: "Keyboard two", then "Keyboard one".
    await expect.poll(focusedName, POLL).toBe('Keyboard two');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedName, POLL).toBe('Keyboard one');
    // A keyboard-focused button shows a visible focus ring.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focusedName, POLL).toBe('Keyboard two');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.conversation-title').textContent(), POLL).toBe('Keyboard two');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), POLL).toBe('TEXTAREA');

    // Shift+Enter is a new line, Enter sends; Esc stops the running answer.
    let release: () => void = () => undefined;
    server.fake.enqueue({
      text: ['Partial ', 'never ', 'finished'],
      holdBeforeChunk: 1,
      hold: new Promise((r) => (release = () => r(null))),
    });
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await page.locator('textarea').inputValue()).toBe('line one\nline two');
    await page.keyboard.press('Enter');
    await page.locator('.msg-user', { hasText: 'line two' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await page.locator('.msg-assistant.streaming', { hasText: 'Partial' }).waitFor();
    await page.keyboard.press('Escape');
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#session=', ''));
    const statuses = async () =>
      (await server.app.db.prisma.turn.findMany({ where: { sessionId: rawId(id) } })).map((t) => t.status);
    await expect.poll(statuses, POLL).toEqual(['CANCELLED']);
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden' });
    release();
    const sent = (await history(id)).filter((m) => m.role === 'USER').at(-1);
    expect(sent?.content).toBe('line one\nline two');

    // Every button has a name (its text or an aria-label).
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, summary, [role="button"]')]
        .filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim()))
        .map((b) => b.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'web-keyboard.png') });
  });

  it('shows no emoji: icons are inline SVG, and no web source holds a pictograph', async () => {
    const id = await seeded('Icons everywhere', [
      {
        role: 'user',
        content: 'Look at these',
        images: ['session_files/x/photo.png'],
        files: ['session_files/x/a.pdf'],
      },
      { role: 'assistant', content: 'Seen' },
      { role: 'user', content: 'sent by a recall', isRecall: true },
    ]);
    expect((await server.gql(WebFeaturesPinDocument, { id })).errors).toBeUndefined();
    const page = await newPage();
    await open(page, id);
    await page.locator('.session-list .session-name svg.icon-pin').waitFor();
    await page
      .getByLabel('Attach files')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.locator('.attachments.pending li', { hasText: 'notes.txt' }).waitFor();
    expect(await page.locator('.msg .attachments svg').count()).toBe(2);
    expect(await page.locator('.msg-recall .msg-role svg.icon-clock').count()).toBe(1);
    const text = await page.evaluate(() => {
      const pseudo = [...document.querySelectorAll('*')].flatMap((el) =>
        ['::before', '::after'].map((p) => getComputedStyle(el, p).content),
      );
      return `${document.body.innerText}\n${pseudo.join('\n')}\n${document.title}`;
    });
    expect(text.match(PICTOGRAPH)).toBeNull();

    const dir = join(process.cwd(), 'web/src');
    const offenders = readdirSync(dir)
      .filter((f) => /\.(ts|css)$/.test(f))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .map((line, i) => (PICTOGRAPH.test(line) ? `${f}:${i + 1}: ${line.trim()}` : null))
          .filter(Boolean),
      );
    expect(offenders).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'web-icons.png') });
  });
});
