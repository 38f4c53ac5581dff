/**
 * How long adversarial text takes end to end: a 200,000-character message of
 * one repeated character into an unnamed session, through the real
 * sendMessage path (in-memory PGlite, HTTP + WebSocket, fake model), timed
 * from sendMessage to TurnEnded and to the small-model title; plus the longest
 * event-loop stall meanwhile and the title heuristic alone.
 *
 *   npx tsx bench/adversarial-text.ts            # shapes: [ ( * ` ![ <a
 *   npx tsx bench/adversarial-text.ts '[' 100000
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { heuristicTitle, TITLE_PROMPT } from '../src/domain/titles.js';
import { createTestServer, EVENTS_SUBSCRIPTION, type Subscription } from '../test/support/harness.js';
import { messagesOf } from '../test/support/fake-provider.js';

const shapes = process.argv[2] ? [process.argv[2]] : ['[', '(', '*', '`', '![', '<a'];
const size = Number(process.argv[3] ?? 200_000);
const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

const t = await createTestServer({ titleGenerationEnabled: true, providerTimeoutMs: 120_000 });
const rows: string[] = [];
try {
  for (const unit of shapes) {
    const content = fill(unit);
    const heuristicStart = performance.now();
    heuristicTitle(content);
    const heuristicMs = performance.now() - heuristicStart;
    const created = await t.http<{ createSession: { id: string } }>(`mutation { createSession(input: {}) { id } }`);
    const sessionId = created.data!.createSession.id;
    t.fake.responder = (call) =>
      messagesOf(call.body)[0]?.content === TITLE_PROMPT ? { text: 'A generated title' } : { text: 'ok' };
    const sub = t.subscribe(EVENTS_SUBSCRIPTION, { sessionId, after: '0' }) as Subscription<{
      __typename: string;
      titleSource?: string;
    }>;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const start = performance.now();
    const sent = await t.http(`mutation($input: SendMessageInput!) { sendMessage(input: $input) { turn { id } } }`, {
      input: { sessionId, content },
    });
    if (sent.errors) throw new Error(JSON.stringify(sent.errors));
    const accepted = performance.now() - start;
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'), 600_000);
    const ended = performance.now() - start;
    await sub.waitFor(
      (es) => es.some((e) => e.__typename === 'SessionRenamed' && e.titleSource === 'GENERATED'),
      600_000,
    );
    const titled = performance.now() - start;
    delay.disable();
    sub.dispose();
    rows.push(
      `${JSON.stringify(unit).padEnd(6)} sendMessage ${accepted.toFixed(0).padStart(6)} ms ` +
        ` TurnEnded ${ended.toFixed(0).padStart(6)} ms  ` +
        `title ${titled.toFixed(0).padStart(6)} ms ` +
        ` max loop stall ${(delay.max / 1e6).toFixed(0).padStart(5)} ms ` +
        ` heuristicTitle ${heuristicMs.toFixed(1)} ms`,
    );
    console.log(rows.at(-1));
  }
} finally {
  await t.close();
}
console.log(`\n${size} characters per message, node ${process.version}`);
