/**
 * GraphiQL offline: the page at /graphql loads every asset from this server
 * (any other request is aborted, as on a machine with no internet), runs a
 * query, and runs a live subscription over graphql-ws — in local mode, and in
 * auth mode with the key typed into GraphiQL's headers editor. Screenshots go
 * to test-artifacts/. Skipped when /usr/bin/chromium or playwright-core is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createRequire as requireFrom } from 'node:module';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowser, startE2EServer, type E2EServer } from '../support/e2e.js';
import { GraphiqlCreateSessionDocument, GraphiqlSendHiDocument } from '../generated/graphql.js';
import { GRAPHIQL_TABS } from '../../src/web/graphiql.js';
import { buildSchema } from '../../src/schema/index.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const graphql = requireFrom(import.meta.url)('graphql') as typeof import('graphql');

describe('GraphiQL default tabs', () => {
  it('are valid operations of this schema', () => {
    const schema = buildSchema();
    for (const tab of GRAPHIQL_TABS) {
      const errors = graphql.validate(schema, graphql.parse(tab.query!)).map((e) => e.message);
      expect(errors).toEqual([]);
    }
  });
});

async function openGraphiQL(browser: Browser, server: E2EServer, query: string, foreign: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const origin = new URL(server.url).host;
  // No internet: anything not served by this server is aborted (and recorded).
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === origin || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/graphql?query=${encodeURIComponent(query)}`, { waitUntil: 'load' });
  await page.locator('.graphiql-execute-button').waitFor({ state: 'visible', timeout: 30_000 });
  return page;
}

/** The text of the visible editor of GraphiQL's editor tools (monaco renders non-breaking spaces). */
async function toolEditorText(page: Page): Promise<string> {
  const lines = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .view-lines');
  return ((await lines.count()) ? await lines.first().innerText() : '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
}

/**
 * Types the headers into GraphiQL's headers editor and waits until the editor shows them: under load the editor
 * can take the click before it has focus (the keys then go nowhere), so the typing is checked and repeated
 * rather than assumed.
 */
async function setHeaders(page: Page, headers: Record<string, string>) {
  const wanted = JSON.stringify(headers);
  await page.getByText('Headers', { exact: true }).click();
  const editor = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)');
  await editor.waitFor({ state: 'visible', timeout: 60_000 });
  for (let attempt = 0; ; attempt++) {
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    // insertText, not type: no per-key events, so the editor's auto-closing brackets and quotes add nothing.
    await page.keyboard.insertText(wanted);
    // the editor may have auto-closed a bracket or quote after the cursor: drop whatever follows the typed text
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
    try {
      await expect.poll(() => toolEditorText(page), { timeout: 10_000, interval: 100 }).toBe(wanted);
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

/** Text of GraphiQL's result pane (white space folded) once it contains `needle`. */
async function resultContaining(page: Page, needle: string): Promise<string> {
  const pane = page.locator('.result-window');
  const text = async () => (await pane.innerText()).replace(/\s+/g, ' ');
  await expect.poll(text, { timeout: 60_000, interval: 200 }).toContain(needle);
  return text();
}

describe.skipIf(skipBrowser())('GraphiQL offline in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a query and a live subscription with no request leaving the server (local mode)', async () => {
    const server = await startE2EServer();
    const foreign: string[] = [];
    try {
      const created = await server.gql(GraphiqlCreateSessionDocument, { name: 'GraphiQL offline' });
      const id = created.data!.createSession.id;

      const page = await openGraphiQL(browser, server, `{ session(id: "${id}") { name } }`, foreign);
      await page.locator('.graphiql-execute-button').click();
      expect(await resultContaining(page, 'GraphiQL offline')).toContain('"name": "GraphiQL offline"');

      await page.goto(`${server.url}/graphql?query=${encodeURIComponent(deltas(id))}`);
      await page.locator('.graphiql-execute-button').waitFor({ state: 'visible', timeout: 30_000 });
      const before = server.fake.requests.length;
      const subscribed = watchSubscriptions(server);
      await page.locator('.graphiql-execute-button').click();
      // The subscription is live once the server holds a graphql-ws socket for it; then a turn streams into it.
      await expect.poll(() => subscribed.has(rawSessionId(id)), { timeout: 30_000 }).toBe(true);
      server.fake.enqueue({ text: ['offline ', 'graphiql ', 'streams'] });
      const sent = await server.gql(GraphiqlSendHiDocument, { id });
      expect(sent.errors).toBeUndefined();
      // GraphiQL shows a subscription's latest result: the turn's end arrived live over the socket.
      await resultContaining(page, '"__typename": "TurnEnded"');
      expect(server.fake.requests.length).toBeGreaterThan(before);
      await page.screenshot({ path: join(ARTIFACTS, 'graphiql-offline.png') });
      await page.context().close();
      expect(foreign).toEqual([]);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('sends the key from its headers editor over HTTP and graphql-ws (auth mode)', async () => {
    // In auth mode introspection is off unless enabled; GraphiQL needs it for its schema, docs and subscriptions.
    const server = await startE2EServer({ authEnabled: true, introspection: true });
    const foreign: string[] = [];
    try {
      const { key } = await server.app.auth.createUser('graphiql-user');
      const created = await server.gql(GraphiqlCreateSessionDocument, { name: 'Keyed' }, key);
      const id = created.data!.createSession.id;

      const page = await openGraphiQL(browser, server, `{ viewer { user { name } } }`, foreign);
      await setHeaders(page, { Authorization: `Bearer ${key}` });
      await page.locator('.graphiql-execute-button').click();
      expect(await resultContaining(page, 'graphiql-user')).toContain('"name": "graphiql-user"');

      await page.goto(`${server.url}/graphql?query=${encodeURIComponent(deltas(id))}`);
      await page.locator('.graphiql-execute-button').waitFor({ state: 'visible', timeout: 30_000 });
      // GraphiQL saves its editors with a debounce: type the key
      // again rather than race that save across the navigation.
      await setHeaders(page, { Authorization: `Bearer ${key}` });
      const subscribed = watchSubscriptions(server);
      await page.locator('.graphiql-execute-button').click();
      // Established on the server (its bus listener) before the turn is started; a refusal shows in the pane at once.
      await expect
        .poll(
          async () =>
            subscribed.has(rawSessionId(id)) || /"errors"/.test(await page.locator('.result-window').innerText()),
          { timeout: 120_000 },
        )
        .toBe(true);
      expect(subscribed.has(rawSessionId(id)), await page.locator('.result-window').innerText()).toBe(true);
      server.fake.enqueue({ text: ['keyed ', 'subscription ', 'works'] });
      const sent = await server.gql(GraphiqlSendHiDocument, { id }, key);
      expect(sent.errors).toBeUndefined();
      const text = await resultContaining(page, '"__typename": "TurnEnded"');
      expect(text).not.toContain('UNAUTHENTICATED');
      await page.screenshot({ path: join(ARTIFACTS, 'graphiql-auth-subscription.png') });
      await page.context().close();
      expect(foreign).toEqual([]);
    } finally {
      await server.close();
    }
  }, 300_000);
  it("shows each example tab's own operation on a fresh visit, and Run on every tab answers data", async () => {
    const server = await startE2EServer();
    const foreign: string[] = [];
    try {
      // Something for the History tab to show: a session with one exchange.
      const created = await server.gql(GraphiqlCreateSessionDocument, { name: 'Tab tour' });
      const id = created.data!.createSession.id;
      server.fake.enqueue({ text: ['tab ', 'tour ', 'answer'] });
      expect((await server.gql(GraphiqlSendHiDocument, { id })).errors).toBeUndefined();
      await expect.poll(async () => (await server.app.turns.activeTurn(rawSessionId(id))) === null).toBe(true);

      // A new browser context: empty localStorage, as on a first visit; no ?query= in the URL.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const origin = new URL(server.url).host;
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.host === origin || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
        foreign.push(url.href);
        return route.abort();
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/graphql`, { waitUntil: 'load' });
      await page.locator('.graphiql-execute-button').waitFor({ state: 'visible', timeout: 30_000 });
      const tabs = page.locator('.graphiql-tab');
      await expect.poll(() => tabs.count(), { timeout: 30_000 }).toBe(GRAPHIQL_TABS.length);
      expect(await tabs.allInnerTexts()).toEqual(['Sessions', 'History', 'Events', 'Create']);

      const expected: Record<string, string> = {
        Sessions: '"displayMessageCount": 2',
        History: '"content": "tab tour answer"',
        Create: '"name": "From GraphiQL"',
      };
      for (const [index, tab] of GRAPHIQL_TABS.entries()) {
        const title = (await tabs.nth(index).innerText()).trim();
        // A mouse click on the tab, as a person would (a stale drag transform used to swallow the first one).
        await tabs.nth(index).getByRole('button', { name: title, exact: true }).click();
        await expect.poll(() => tabs.nth(index).getAttribute('aria-selected')).toBe('true');
        const operationLine = tab.query!.split('\n').find((line) => !line.startsWith('#'))!;
        await expect.poll(() => queryEditorText(page), { timeout: 30_000 }).toContain(operationLine);
        expect(await queryEditorText(page)).not.toContain('Welcome to');
        // GraphiQL takes the tab's operation name from its editor a moment after the switch (a debounce): Run before
        // that would name the previous tab's operation. The saved tab state is written after it (a longer debounce).
        const operationName = /^(?:query|mutation|subscription) (\w+)/m.exec(tab.query!)![1]!;
        const settled = () =>
          page.evaluate(
            ([at, name]) => {
              const state = JSON.parse(localStorage.getItem('graphiql:tabState') ?? '{}');
              return state.activeTabIndex === at && state.tabs?.[at]?.operationName === name;
            },
            [index, operationName] as const,
          );
        await expect.poll(settled, { timeout: 30_000 }).toBe(true);

        if (title === 'Events') {
          const listening = watchListSubscriptions(server);
          await page.locator('.graphiql-execute-button').click();
          await expect.poll(() => listening.count, { timeout: 30_000 }).toBeGreaterThan(0);
          await server.gql(GraphiqlCreateSessionDocument, { name: 'Seen live' });
          const text = await resultContaining(page, '"kind": "created"');
          expect(text).toContain('"name": "Seen live"');
          expect(text).not.toContain('"errors"');
          // Stop the subscription before leaving the tab.
          await page.locator('.graphiql-execute-button').click();
          continue;
        }
        await page.locator('.graphiql-execute-button').click();
        const text = await resultContaining(page, expected[title]!);
        expect(text).toContain('"data"');
        expect(text).not.toContain('"errors"');
      }
      await page.screenshot({ path: join(ARTIFACTS, 'graphiql-tabs.png') });
      await context.close();
      expect(foreign).toEqual([]);
    } finally {
      await server.close();
    }
  }, 300_000);
});

/** The text of GraphiQL's query editor (monaco renders non-breaking spaces). */
async function queryEditorText(page: Page): Promise<string> {
  return (await page.locator('.graphiql-query-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
}

/** Counts the list subscriptions the bus serves from now on (the server side of a live sessionListEvents). */
function watchListSubscriptions(server: E2EServer): { count: number } {
  const seen = { count: 0 };
  const bus = server.app.bus;
  const onList = bus.onList.bind(bus);
  bus.onList = (listener) => {
    seen.count++;
    return onList(listener);
  };
  return seen;
}

/** Session ids the bus has been asked to deliver to, from now on (the server side of a live subscription). */
function watchSubscriptions(server: E2EServer): Set<string> {
  const ids = new Set<string>();
  const bus = server.app.bus;
  const onSession = bus.onSession.bind(bus);
  bus.onSession = (sessionId, listener) => {
    ids.add(sessionId);
    return onSession(sessionId, listener);
  };
  return ids;
}

/** The text deltas of one session's events, as GraphiQL opens the subscription from its URL. */
function deltas(id: string): string {
  return `subscription { sessionEvents(sessionId: "${id}") { __typename ... on TextDelta { text } } }`;
}

function rawSessionId(globalId: string): string {
  return Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');
}
