/**
 * Issue 16 ("Seed fidelity") items 3–5: Session.modelView is exactly what the
 * provider receives; Session.contextTokens is the last real count + the
 * calibrated delta of everything saved since; pasted images are budgeted
 * against the size guard's limit and images that are not sent cost nothing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message as OllamaMessage } from 'ollama';
import {
  ModelViewDocument,
  type ModelViewQuery,
  PromptFidelityContextTokensDocument,
  PromptFidelityLastMessageDocument,
  PromptFidelityRecordEventDocument,
  PromptFidelityTurnStatusDocument,
  PromptFidelityUpsertProfileDocument,
  PromptFidelityUsageDocument,
} from './generated/graphql.js';
import { jsonRecord, ollamaRequest } from './support/fake-provider.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';
import { makePng } from './fixtures/files/images.js';
import { PLAN_DOC } from './support/compression.js';
import { multipart, newSession, rawId, SEND, type UploadPart } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-prompt-${process.pid}-${Date.now()}`;
  t = await createTestServer({ titleGenerationEnabled: false, sessionFilesDir: filesDir });
  // Inside the calibration's plausible slopes (1/4 … 1 token/char), not on the edge: the fake's
  // default 0.25 fits to 0.2499… or 0.2501… with its rounding, and half the fits are rejected.
  t.fake.tokensPerChar = 0.3;
  t.app.tools.register({
    name: 'dump_log',
    description: 'Prints the whole build log',
    parameters: { type: 'object', properties: {} },
    run: async () => ({ content: `BUILD LOG START\n${'0123456789'.repeat(6_000)}\nBUILD LOG END` }),
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

/** A profile of its own (unique model: calibration never leaks between tests). */
async function profile(opts: { window?: number; vision?: boolean; systemPrompt?: string } = {}) {
  const key = `pf_${randomBytes(4).toString('hex')}`;
  const r = await t.http(PromptFidelityUpsertProfileDocument, {
    i: {
      key,
      name: key,
      model: `model-${key}`,
      contextWindow: opts.window ?? 32_768,
      vision: opts.vision ?? true,
      systemPrompt: opts.systemPrompt ?? '',
    },
  });
  expect(r.errors).toBeUndefined();
  return { id: r.data!.upsertProfile.id, model: `model-${key}` };
}

const MODEL_VIEW = ModelViewDocument;
type ViewMessage = NonNullable<ModelViewQuery['session']>['modelView']['messages'][number];

/** One message in a provider-neutral shape: what the model reads. */
interface Seen {
  role: string;
  content: string;
  images: string[];
  toolCalls: { name: string; arguments: unknown }[];
  toolName: string | null;
}

/** What the fake Ollama server received. */
const received = (m: OllamaMessage): Seen => ({
  role: m.role,
  content: m.content,
  // JSON on the wire: base64 strings
  images: (m.images ?? []) as string[],
  toolCalls: (m.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
  toolName: m.tool_name ?? null,
});

/** What modelView says will be sent, with each referenced image read from disk. */
async function shown(m: ViewMessage): Promise<Seen> {
  return {
    role: m.role.toLowerCase(),
    content: m.content,
    images: await Promise.all(
      m.images.map(async (i) => (await fs.readFile(path.join(filesDir, i.path))).toString('base64')),
    ),
    toolCalls: m.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
    toolName: m.role === 'TOOL' ? m.name : null,
  };
}

/** The bodies the fake Ollama server received on /api/chat. */
const chatCalls = () => t.fake.calls.filter((c) => c.path === '/api/chat').map((c) => ollamaRequest(c.body));

/**
 * One turn, waited for by polling its status (no subscription to miss on a
 * loaded machine); answers the prompt tokens it used and its last assistant message.
 */
async function turn(
  sessionId: string,
  content: string,
  attachments: { images?: UploadPart[]; files?: UploadPart[] } = {},
) {
  const usage = async () =>
    (await t.http(PromptFidelityUsageDocument, { id: sessionId })).data!.session!.usage.promptTokens;
  const before = await usage();
  const images = attachments.images ?? [];
  const files = attachments.files ?? [];
  const sent = await multipart(
    t,
    SEND,
    { input: { sessionId, content, images: images.map(() => null), files: files.map(() => null) } },
    [...images, ...files],
    [...images.map((_, i) => `variables.input.images.${i}`), ...files.map((_, i) => `variables.input.files.${i}`)],
  );
  expect(sent.body.errors).toBeUndefined();
  const turnId = sent.body.data!.sendMessage.turn.id;
  const ended = await eventually(
    async () => (await t.http(PromptFidelityTurnStatusDocument, { id: turnId })).data!.turn!.status,
    (status) => !['RUNNING', 'WAITING_FOR_TOOL'].includes(status),
    90_000,
  );
  expect(ended).toBe('COMPLETED');
  const last = await t.http(PromptFidelityLastMessageDocument, { id: sessionId });
  return { promptTokens: (await usage()) - before, answer: last.data!.session!.history.edges[0].node };
}

describe(`what the model sees (${dbKind})`, () => {
  it('modelView is, message by message, what the provider receives on the next call', async () => {
    const p = await profile({ systemPrompt: 'You are the build assistant.' });
    const id = await newSession(t, undefined, p.id);
    const sid = rawId(id);
    const screenshot = makePng(1024, 1024, 7);
    t.fake.enqueue(
      { toolCalls: [{ name: 'dump_log', arguments: {}, id: 'call_1' }] },
      { text: 'The build failed at the end.' },
    );
    await turn(id, 'why did the build fail?', {
      images: [{ name: 'shot.png', bytes: screenshot, type: 'image/png' }],
      files: [{ name: 'build.cfg', bytes: 'target=all\n' }],
    });

    const r = await t.http(MODEL_VIEW, { id });
    expect(r.errors).toBeUndefined();
    const view = r.data!.session!.modelView;
    expect(view).toMatchObject({ contextWindow: 32_768, model: p.model, profile: { id: p.id } });
    expect(view.estimatedTokens).toBe(r.data!.session!.contextTokens);
    const [system, user, call, tool, answer] = view.messages;
    expect(view.messages).toHaveLength(5);
    expect(system).toMatchObject({ role: 'SYSTEM', content: 'You are the build assistant.', sequenceNumber: null });
    // the upload and image notices are in the text the model reads
    expect(user!.content).toContain(`[Uploaded files on disk:\n- build.cfg → session_files/${sid}/build.cfg]`);
    expect(user!.content).toContain(
      '[1 image attached inline — already in your context, no extra ' +
        `loading needed.\nOn disk: session_files/${sid}/image_1.png]`,
    );
    expect(user!.images).toEqual([
      { path: `session_files/${sid}/image_1.png`, name: 'image_1.png', bytes: screenshot.length, tokens: 1026 },
    ]);
    expect(call!.toolCalls).toMatchObject([{ name: 'dump_log', arguments: {} }]);
    // the 60,000-char result is shown as cut, not whole
    expect(tool).toMatchObject({ role: 'TOOL', name: 'dump_log', toolCallId: call!.toolCalls[0]!.id });
    expect(tool!.content.length).toBeLessThan(30_000);
    expect(tool!.content).toMatch(/^BUILD LOG START[\s\S]*chars truncated[\s\S]*BUILD LOG END$/);
    expect(answer).toMatchObject({ role: 'ASSISTANT', content: 'The build failed at the end.' });

    // the next turn sends exactly that, then the new request
    const before = chatCalls().length;
    await turn(id, 'and now?');
    const next = chatCalls()[before]!;
    const sent: Seen[] = next.messages!.map(received);
    expect(sent.slice(0, -1)).toEqual(await Promise.all(view.messages.map(shown)));
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'and now?', images: [], toolCalls: [], toolName: null });
  });

  it("a new session shows the profile's system prompt alone, priced like the meter", async () => {
    const p = await profile({ systemPrompt: 'Answer in French.' });
    const id = await newSession(t, undefined, p.id);
    const r = await t.http(MODEL_VIEW, { id });
    expect(r.errors).toBeUndefined();
    expect(r.data!.session!.modelView.messages.map((m) => [m.role, m.content])).toEqual([
      ['SYSTEM', 'Answer in French.'],
    ]);
    expect(r.data!.session!.modelView.estimatedTokens).toBe(r.data!.session!.contextTokens);
  });
});

describe(`the context meter (${dbKind})`, () => {
  /** |estimate − real| within the calibration's tolerance: 3% of the real count (+2 for rounding). */
  const close = (estimate: number, real: number) =>
    expect(Math.abs(estimate - real)).toBeLessThanOrEqual(Math.ceil(real * 0.03) + 2);

  it(
    'after a long answer, contextTokens is close to the ' + "next prompt's real count; a recorded note moves it too",
    async () => {
      const p = await profile({ vision: false });
      const id = await newSession(t, undefined, p.id);
      // two calls of different sizes give the model a calibration line
      await turn(id, 'hello');
      await turn(id, `please read this: ${'lorem ipsum dolor sit amet '.repeat(120)}`);
      const words = Array.from({ length: 1_500 }, (_, i) => `word${i % 97}`).join(' ');
      t.fake.enqueue({ text: words });
      const long = await turn(id, 'write me a long essay');
      const meter = async () =>
        (await t.http(PromptFidelityContextTokensDocument, { id })).data!.session!.contextTokens;
      const afterAnswer = await meter();
      // the answer is in it: well above the prompt that produced it
      expect(afterAnswer).toBeGreaterThan(long.promptTokens + words.length / 8);

      const next = await turn(id, 'ok');
      close(afterAnswer, next.promptTokens);

      // a message saved without a turn (a task note) moves the meter by its calibrated size
      const before = await meter();
      const note = `build watcher: ${'step passed; '.repeat(300)}`;
      const r = await t.http(PromptFidelityRecordEventDocument, {
        i: { sessionId: id, source: 'task_note', text: note },
      });
      expect(r.errors).toBeUndefined();
      const afterNote = await meter();
      expect(afterNote - before).toBeGreaterThan(note.length / 8);
      const third = await turn(id, 'ok');
      close(afterNote, third.promptTokens);
    },
  );
});

describe(`images against the size guard (${dbKind})`, () => {
  it(
    'on the default 8,192 window, screenshots the guard ' + 'would refuse are not admitted: the turn is answered',
    async () => {
      // ~3,120 tokens of system prompt: three 1024² screenshots (3 × 1,026) fit 0.8 × 8,192 but not the guard's 6,144
      const p = await profile({ window: 8_192, systemPrompt: `You read screenshots. ${'Be precise. '.repeat(465)}` });
      const id = await newSession(t, undefined, p.id);
      const sid = rawId(id);
      const shots = [1, 2, 3].map((n) => ({ name: `s${n}.png`, bytes: makePng(1024, 1024, n), type: 'image/png' }));
      const before = chatCalls().length;
      const { answer } = await turn(id, 'compare these three', { images: shots });
      expect(jsonRecord(answer.metadata).contextTooLarge).toBeUndefined();
      expect(answer.content).toBe('ok');
      const sentCall = chatCalls()[before];
      expect(sentCall).toBeDefined();
      const user = sentCall!.messages!.filter((m) => m.role === 'user').at(-1)!;
      expect(user.images).toEqual([shots[0]!.bytes.toString('base64'), shots[1]!.bytes.toString('base64')]);
      expect(user.content).toBe(
        `compare these three\n\n[3 images attached inline — 2 are in your context, the rest were not loaded;\n` +
          `open them with image_view: session_files/${sid}/image_3.png]`,
      );
      const v = await t.http(MODEL_VIEW, { id });
      expect(v.data!.session!.modelView.messages[1]!.images.map((i) => i.tokens)).toEqual([1026, 1026]);
    },
  );

  it(
    'a non-vision profile is not charged for an image it ' + 'never gets: estimate and dry run agree with what is sent',
    async () => {
      const p = await profile({ vision: false });
      const id = await newSession(t, undefined, p.id);
      const before = chatCalls().length;
      // no real count comes back (reported 0): every estimate is
      // the whole prompt's, images included if they were counted
      t.fake.enqueue({ text: 'I cannot see images.', promptTokens: 0 });
      await turn(id, 'look', { images: [{ name: 'a.png', bytes: makePng(1024, 1024, 9), type: 'image/png' }] });
      expect(chatCalls()[before]!.messages!.some((m) => m.images)).toBe(false);
      const v = await t.http(MODEL_VIEW, { id });
      const view = v.data!.session!.modelView;
      expect(view.messages.flatMap((m) => m.images)).toEqual([]);
      const plan = await t.http(PLAN_DOC, { id, s: 'SUMMARY' });
      expect(plan.errors).toBeUndefined();
      // the dry run prices the prompt that is sent: a few words, not a 1,026-token screenshot
      expect(plan.data!.compressionPlan.contextTokens).toBe(view.estimatedTokens);
      expect(view.estimatedTokens).toBeLessThan(200);
    },
  );
});
