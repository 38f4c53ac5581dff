/**
 * Adversarial text through the real sendMessage path: a 200,000-character
 * message of one repeated markdown-ish character (the shapes that make naive
 * title, entity, repeat-guard and markdown regexes backtrack) goes into an
 * unnamed session, the fake model answers with the same shape streamed in
 * small pieces, and the small-model title reply starts with it too. Every
 * turn must end, the text must come back whole, and the generated title must
 * land. No timings are asserted: test/regex-safety.test.ts is the guard, this
 * proves the whole path holds together (docs/security.md has the figures).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TITLE_PROMPT } from '../src/domain/titles.js';
import { AdversarialTextCreateSessionDocument, AdversarialTextSendDocument } from './generated/graphql.js';
import { createTestServer, dbKind, isEvent, type ServerContext, SESSION_EVENTS } from './support/harness.js';
import { messagesOf } from './support/fake-provider.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: true, providerTimeoutMs: 120_000 });
}, 300_000);
afterAll(() => t?.close(), 300_000);

const SIZE = 200_000;
const SHAPES = [
  '[',
  '(',
  '*',
  '`',
  '_',
  '~',
  '![',
  '[a](',
  '<a',
  '**a',
  '- ',
  '#',
  'x\t',
  'a@',
  '0,',
  '-/',
  'n.p',
  '~~ ',
  '```\n',
];

const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe(`adversarial text (${dbKind})`, () => {
  it.each(SHAPES)(
    'a %j message of 200,000 characters completes, with its reply and its title',
    async (unit) => {
      const content = fill(unit);
      const created = await t.http(AdversarialTextCreateSessionDocument, {});
      const sessionId = created.data!.createSession.id;
      const title = `Shape ${SHAPES.indexOf(unit)} title`;
      // The reply streams the same shape in small pieces (the repeat guard sees every one);
      // the title reply hides a long run of it in a reasoning block before the title.
      t.fake.responder = (call) =>
        messagesOf(call.body)[0]?.content === TITLE_PROMPT
          ? { text: `<think>${content.slice(0, 100_000)}</think>\n${title}` }
          : { text: chunks(content, 997) };
      const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
      const sent = await t.http(AdversarialTextSendDocument, { input: { sessionId, content } });
      expect(sent.errors).toBeUndefined();
      expect(sent.data!.sendMessage.userMessage.content).toBe(content);
      const turnId = sent.data!.sendMessage.turn.id;
      const events = await sub.waitFor(
        (es) => es.some((e) => e.__typename === 'TurnEnded' && e.turn.id === turnId),
        300_000,
      );
      const ended = events.find(isEvent('TurnEnded'))!;
      expect(ended.turn.status).toBe('COMPLETED');
      expect(ended.assistantMessage!.content).toBe(content);
      const renamed = await sub.waitFor(
        (es) => es.some((e) => e.__typename === 'SessionRenamed' && e.titleSource === 'GENERATED'),
        300_000,
      );
      expect(renamed.filter(isEvent('SessionRenamed')).find((e) => e.titleSource === 'GENERATED')!.name).toBe(title);
      sub.dispose();
    },
    600_000,
  );
});
