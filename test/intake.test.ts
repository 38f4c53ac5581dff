/**
 * Issue 31 item 3: one write path for what enters a session (src/sessions/intake.ts), on the test database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), the provider faked at its HTTP boundary.
 *
 * - Every door refuses the same over-limit input with the same code and writes nothing: sendMessage REJECT, QUEUE,
 *   STEER and INTERRUPT (text over MAX_MESSAGE_CHARS, more attachments than MAX_MESSAGE_ATTACHMENTS, a file or image
 *   over the size limit, an executable, a corrupt or non-image paste), and scheduleRecall, editMessage,
 *   recordSessionEvent, submitToolResult and importSession (the text limit).
 * - importSession refuses a 1 MiB message (our export and ChatGPT's), naming it; no session is stored.
 * - A steered or queued image is admitted, demoted or refused exactly as a sent one: with a 4,096-token vision
 *   profile, 6 images steered into a tool loop no longer replace the answer with the "too large" notice.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IntakeCreateSessionDocument,
  IntakeEditDocument,
  IntakeExportDocument,
  IntakeHistoryDocument,
  IntakeImportDocument,
  IntakeRecordEventDocument,
  IntakeScheduleDocument,
  IntakeSendDocument,
  IntakeSubmitToolResultDocument,
  IntakeUpsertProfileDocument,
} from './generated/graphql.js';
import { makePng, PNG_1x1, PNG_2x2, SHEBANG } from './fixtures/files/images.js';
import { gate, ollamaRequest } from './support/fake-provider.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  type GqlResult,
  isEvent,
  SESSION_EVENTS,
  type ServerContext,
} from './support/harness.js';
import { multipart, rawId, type UploadPart } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;
let visionProfile: string;
/** MAX_FILE bytes: SESSION_FILES_MAX_SIZE_MB below */
const MAX_FILE = Math.floor(0.05 * 1024 * 1024);
const MAX_ATTACHMENTS = 6;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-intake-${process.pid}-${Date.now()}`;
  t = await createTestServer({
    titleGenerationEnabled: false,
    contextCompressionEnabled: false,
    sessionFilesDir: filesDir,
    sessionFilesMaxSizeMb: 0.05,
    maxMessageAttachments: MAX_ATTACHMENTS,
  });
  const r = await t.http(IntakeUpsertProfileDocument, { k: 'vision-4k', w: 4096 });
  expect(r.errors).toBeUndefined();
  visionProfile = r.data!.upsertProfile.id;
});
afterAll(async () => {
  await t?.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

async function newSession(profileId: string | null = null) {
  const r = await t.http(IntakeCreateSessionDocument, { p: profileId });
  expect(r.errors).toBeUndefined();
  return r.data!.createSession.id;
}

interface Attachments {
  images?: UploadPart[];
  files?: UploadPart[];
}

/** sendMessage as a GraphQL multipart request (JSON when nothing is attached). */
async function send(input: Record<string, unknown>, attachments: Attachments = {}) {
  const images = attachments.images ?? [];
  const files = attachments.files ?? [];
  const r = await multipart(
    t,
    IntakeSendDocument,
    { input: { ...input, images: images.map(() => null), files: files.map(() => null) } },
    [...images, ...files],
    [...images.map((_, i) => `variables.input.images.${i}`), ...files.map((_, i) => `variables.input.files.${i}`)],
  );
  return r.body;
}

/** Everything a door could have written for a session: rows, queue, recalls, turns (with status), files. */
async function written(sessionId: string) {
  const sid = rawId(sessionId);
  const db = t.app.db.prisma;
  return {
    messages: await db.sessionMessage.count({ where: { sessionId: sid } }),
    queued: await db.pendingTurn.count({ where: { sessionId: sid, kind: { not: 'RECALL' } } }),
    recalls: await db.pendingTurn.count({ where: { sessionId: sid, kind: 'RECALL' } }),
    turns: (await db.turn.findMany({ where: { sessionId: sid }, select: { id: true, status: true } })).sort((a, b) =>
      a.id.localeCompare(b.id),
    ),
    files: (await fs.readdir(path.join(filesDir, 'session_files', sid)).catch(() => [] as string[])).sort(),
  };
}

const tooLong = () => 'x'.repeat(t.app.config.maxMessageChars + 1);
const file = (name: string, bytes: UploadPart['bytes']): UploadPart => ({ name, bytes });
const image = (name: string, bytes: Buffer): UploadPart => ({ name, bytes, type: 'image/png' });

/** The same over-limit inputs for every sendMessage door, each with the code it must answer. */
const OVER_LIMIT: { name: string; content: () => string; attachments: Attachments; code: string }[] = [
  { name: 'text over MAX_MESSAGE_CHARS', content: tooLong, attachments: {}, code: 'BAD_USER_INPUT' },
  {
    name: 'more files than MAX_MESSAGE_ATTACHMENTS',
    content: () => 'files',
    attachments: { files: Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => file(`f${i}.txt`, `file ${i}`)) },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'more images and files together than MAX_MESSAGE_ATTACHMENTS',
    content: () => 'both',
    attachments: {
      images: Array.from({ length: 4 }, (_, i) => image(`i${i}`, makePng(2, 2, i))),
      files: Array.from({ length: 3 }, (_, i) => file(`g${i}.txt`, `file ${i}`)),
    },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a file over SESSION_FILES_MAX_SIZE_MB (beside a good one)',
    content: () => 'big file',
    attachments: { files: [file('ok.txt', 'fine'), file('big.txt', 'y'.repeat(MAX_FILE + 1))] },
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'an image over SESSION_FILES_MAX_SIZE_MB',
    content: () => 'big image',
    attachments: { images: [image('big', Buffer.concat([PNG_1x1, Buffer.alloc(MAX_FILE)]))] },
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'an executable file (beside a good one)',
    content: () => 'exe',
    attachments: { files: [file('ok.txt', 'fine'), file('notes.txt', SHEBANG)] },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a paste that is not an image (beside a good image)',
    content: () => 'not an image',
    attachments: { images: [image('good', PNG_2x2), image('bad', Buffer.from('not an image at all'))] },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a truncated image (beside a good file)',
    content: () => 'truncated',
    attachments: { images: [image('cut', PNG_1x1.subarray(0, 40))], files: [file('ok.txt', 'fine')] },
    code: 'BAD_USER_INPUT',
  },
];

async function waitForEnd(sessionId: string, turnId: string) {
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
  const events = await sub.waitFor((es) =>
    es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
  );
  sub.dispose();
  return events.find((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId)!;
}

async function history(sessionId: string) {
  const r = await t.http(IntakeHistoryDocument, { id: sessionId });
  expect(r.errors).toBeUndefined();
  return r.data!.session!.history.edges.map((e) => e.node);
}

function expectRefused(result: GqlResult<unknown>, code: string, door: string) {
  expect({ door, code: codeOf(result) }).toEqual({ door, code });
}

describe(`one write path for what enters a session (${dbKind})`, () => {
  it('every sendMessage door refuses the same over-limit input with the same code and writes nothing', async () => {
    const idle = await newSession();
    const busy = await newSession();
    const held = gate();
    t.fake.enqueue({ text: 'busy answer', hold: held.promise });
    const running = await send({ sessionId: busy, content: 'busy' });
    expect(running.errors).toBeUndefined();
    const turnId = running.data!.sendMessage.turn.id;
    const doors = [
      { door: 'REJECT', sessionId: idle },
      { door: 'QUEUE', sessionId: busy },
      { door: 'STEER', sessionId: busy },
      { door: 'INTERRUPT', sessionId: busy },
    ];
    try {
      for (const input of OVER_LIMIT)
        for (const { door, sessionId } of doors) {
          const before = await written(sessionId);
          const r = await send(
            { sessionId, content: input.content(), whileRunning: door, idempotencyKey: null },
            input.attachments,
          );
          expectRefused(r, input.code, `${door}: ${input.name}`);
          // Nothing written, and (INTERRUPT) the running turn was not touched.
          expect({ door, input: input.name, after: await written(sessionId) }).toEqual({
            door,
            input: input.name,
            after: before,
          });
        }
      // Within the limits a door accepts: as many attachments as allowed.
      const full = await send(
        { sessionId: idle, content: 'six' },
        { files: Array.from({ length: MAX_ATTACHMENTS }, (_, i) => file(`ok${i}.txt`, `ok ${i}`)) },
      );
      expect(full.errors).toBeUndefined();
      await waitForEnd(idle, full.data!.sendMessage.turn.id);
      expect((await written(idle)).files).toHaveLength(MAX_ATTACHMENTS);
    } finally {
      held.open();
    }
    const end = await waitForEnd(busy, turnId);
    expect(end).toMatchObject({ __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
    expect((await history(busy)).map((m) => m.content)).toEqual(['busy', 'busy answer']);
  });

  it('recall, edit, service record, tool result and import refuse the same text as sendMessage', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({ text: 'first answer' });
    const first = await send({ sessionId, content: 'first' });
    await waitForEnd(sessionId, first.data!.sendMessage.turn.id);
    const userId = (await history(sessionId)).find((m) => m.role === 'USER')!.id;
    const exported = (await t.http(IntakeExportDocument, { id: sessionId })).data!.session!.export;
    const sessionsBefore = await t.app.db.prisma.session.count();

    const text = tooLong();
    const before = await written(sessionId);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const doc = JSON.parse(exported) as { messages: { content: string }[] };
    doc.messages[0]!.content = text;
    const refusals = {
      scheduleRecall: await t.http(IntakeScheduleDocument, { s: sessionId, at, text }),
      editMessage: await t.http(IntakeEditDocument, { m: userId, c: text }),
      recordSessionEvent: await t.http(IntakeRecordEventDocument, { i: { sessionId, source: 'task_note', text } }),
      submitToolResult: await t.http(IntakeSubmitToolResultDocument, {
        i: { turnId: first.data!.sendMessage.turn.id, toolCallId: 'call_1', content: text },
      }),
      importSession: await t.http(IntakeImportDocument, { data: JSON.stringify(doc) }),
      sendMessage: await t.http(IntakeSendDocument, { input: { sessionId, content: text } }),
    };
    for (const [door, r] of Object.entries(refusals)) {
      expectRefused(r, 'BAD_USER_INPUT', door);
      expect(r.errors![0]!.message).toContain(`longer than ${t.app.config.maxMessageChars} characters`);
    }
    expect(await written(sessionId)).toEqual(before);
    expect(await t.app.db.prisma.session.count()).toBe(sessionsBefore);
  });

  it('importSession refuses a 1 MiB message, naming it, and stores nothing; at the limit it imports', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({ text: 'an answer' });
    const first = await send({ sessionId, content: 'a question' });
    await waitForEnd(sessionId, first.data!.sendMessage.turn.id);
    const exported = (await t.http(IntakeExportDocument, { id: sessionId })).data!.session!.export;
    const sessionsBefore = await t.app.db.prisma.session.count();
    const messagesBefore = await t.app.db.prisma.sessionMessage.count();
    const mib = 'z'.repeat(1024 * 1024);

    // Our own export: the answer (messages[1]) is 1 MiB.
    const ours = JSON.parse(exported) as { messages: { content: string; role: string }[] };
    expect(ours.messages[1]!.role).toBe('assistant');
    ours.messages[1]!.content = mib;
    const refused = await t.http(IntakeImportDocument, { data: JSON.stringify(ours) });
    expect(codeOf(refused)).toBe('BAD_USER_INPUT');
    expect(refused.errors![0]!.message).toMatch(/^Imported message messages\[1\] \(sequence 1, assistant\) is longer/);

    // A ChatGPT conversations.json whose second conversation holds a 1 MiB prompt.
    const chatgpt = (id: string, prompt: string) => ({
      id,
      title: id,
      create_time: 1_700_000_000,
      update_time: 1_700_000_100,
      current_node: 'b',
      mapping: {
        a: {
          id: 'a',
          parent: null,
          children: ['b'],
          message: {
            id: 'a',
            author: { role: 'user' },
            create_time: 1_700_000_000,
            content: { content_type: 'text', parts: [prompt] },
          },
        },
        b: {
          id: 'b',
          parent: 'a',
          children: [],
          message: {
            id: 'b',
            author: { role: 'assistant' },
            create_time: 1_700_000_050,
            content: { content_type: 'text', parts: ['ok'] },
          },
        },
      },
    });
    const gpt = await t.http(IntakeImportDocument, {
      data: JSON.stringify([chatgpt('small', 'hello'), chatgpt('huge', mib)]),
    });
    expect(codeOf(gpt)).toBe('BAD_USER_INPUT');
    expect(gpt.errors![0]!.message).toMatch(/^Imported message conversations\[1\]\.messages\[0\] \(sequence 0, user\)/);
    expect(gpt.errors![0]!.message).toContain(`longer than ${t.app.config.maxMessageChars} characters (1048576)`);
    // Nothing of either file was stored, not even the conversation that was within the limit.
    expect(await t.app.db.prisma.session.count()).toBe(sessionsBefore);
    expect(await t.app.db.prisma.sessionMessage.count()).toBe(messagesBefore);

    // And sendMessage still refuses 300,000 characters.
    expect(codeOf(await t.http(IntakeSendDocument, { input: { sessionId, content: 'w'.repeat(300_000) } }))).toBe(
      'BAD_USER_INPUT',
    );

    // At the limit, the same import is stored.
    ours.messages[1]!.content = 'q'.repeat(t.app.config.maxMessageChars);
    const ok = await t.http(IntakeImportDocument, { data: JSON.stringify(ours) });
    expect(ok.errors).toBeUndefined();
    const imported = await history(ok.data!.importSession.id);
    expect(imported.map((m) => m.content.length)).toEqual(['a question'.length, t.app.config.maxMessageChars]);
  });

  describe('the image budget is the same for a sent, a queued and a steered image', () => {
    // Six 1024×1024 images cost 1,026 tokens each: far over a 4,096-token window (limit 3,072 with the reserve).
    const six = () => Array.from({ length: 6 }, (_, i) => image(`shot${i}.png`, makePng(1024, 1024, 10 + i)));

    /** What the model was sent for the message with the images, and how the turn ended. */
    function outcome(end: Awaited<ReturnType<typeof waitForEnd>>) {
      const user = ollamaRequest(t.fake.requests.at(-1))
        .messages!.filter((m) => m.role === 'user')
        .at(-1)!;
      const notLoaded = /open them with image_view: (.*)\]$/.exec(user.content)?.[1]?.split(', ') ?? [];
      return {
        status: end.__typename === 'TurnEnded' ? end.turn.status : end.__typename,
        answer: end.__typename === 'TurnEnded' ? end.assistantMessage?.content : null,
        imagesSent: (user.images ?? []).length,
        notLoaded: notLoaded.length,
        startsWithText: user.content.startsWith('look at these\n\n[6 images attached inline — '),
      };
    }

    it('sent, queued and steered into a tool loop: the same images admitted, the answer kept', async () => {
      // Sent.
      const sentSession = await newSession(visionProfile);
      t.fake.enqueue({ text: 'final answer' });
      const sent = await send({ sessionId: sentSession, content: 'look at these' }, { images: six() });
      expect(sent.errors).toBeUndefined();
      const sentOutcome = outcome(await waitForEnd(sentSession, sent.data!.sendMessage.turn.id));
      // Demoted, not refused and not all loaded: the budget decided.
      expect(sentOutcome).toMatchObject({ status: 'COMPLETED', answer: 'final answer', startsWithText: true });
      expect(sentOutcome.imagesSent).toBeGreaterThan(0);
      expect(sentOutcome.imagesSent + sentOutcome.notLoaded).toBe(6);
      expect(sentOutcome.notLoaded).toBeGreaterThan(0);

      // Queued behind a running turn.
      const queuedSession = await newSession(visionProfile);
      const held = gate();
      t.fake.enqueue({ text: 'first', hold: held.promise }, { text: 'final answer' });
      const firstTurn = await send({ sessionId: queuedSession, content: 'first' });
      const queued = await send(
        { sessionId: queuedSession, content: 'look at these', whileRunning: 'QUEUE' },
        { images: six() },
      );
      expect(queued.errors).toBeUndefined();
      expect(queued.data!.sendMessage.queued?.kind).toBe('QUEUE');
      held.open();
      await waitForEnd(queuedSession, firstTurn.data!.sendMessage.turn.id);
      const queuedOutcome = outcome(await waitForEnd(queuedSession, queued.data!.sendMessage.turn.id));
      expect(queuedOutcome).toEqual(sentOutcome);

      // Steered into a tool loop: the turn waits for a client tool's result, the images join it before the next call.
      const steerSession = await newSession(visionProfile);
      t.fake.enqueue(
        { toolCalls: [{ name: 'look_closer', arguments: {}, id: 'call_look' }] },
        { text: 'final answer' },
      );
      const sub = t.subscribe(SESSION_EVENTS, { sessionId: steerSession, after: '0' });
      const loop = await send({
        sessionId: steerSession,
        content: 'inspect',
        clientTools: [{ name: 'look_closer', description: 'Look closer', parameters: { type: 'object' } }],
      });
      expect(loop.errors).toBeUndefined();
      const turnId = loop.data!.sendMessage.turn.id;
      await sub.waitFor((es) => es.some(isEvent('ToolCallRequested')));
      sub.dispose();
      const steered = await send(
        { sessionId: steerSession, content: 'look at these', whileRunning: 'STEER' },
        { images: six() },
      );
      expect(steered.errors).toBeUndefined();
      expect(steered.data!.sendMessage).toMatchObject({ turn: { id: turnId }, queued: { kind: 'STEER' } });
      const submitted = await t.http(IntakeSubmitToolResultDocument, {
        i: { turnId, toolCallId: 'call_look', content: 'nothing more to see' },
      });
      expect(submitted.errors).toBeUndefined();
      const steeredOutcome = outcome(await waitForEnd(steerSession, turnId));
      expect(steeredOutcome).toEqual(sentOutcome);
      // The answer is the model's, never the synthesized notice.
      const answers = (await history(steerSession)).filter((m) => m.role === 'ASSISTANT').map((m) => m.content);
      expect(answers.at(-1)).toBe('final answer');
      expect(answers.join('\n')).not.toContain('too large');
    });
  });
});
