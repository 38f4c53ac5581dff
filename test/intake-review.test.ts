/**
 * Review of issue 31 item 3 (the one write path): doors that still let a message past MAX_MESSAGE_CHARS.
 *
 * - importSession: a session export carries the session's metadata, whose redo stack (`metadata.redo.segments[].
 *   messages`) holds whole messages that `redo` writes back into the history. A message over MAX_MESSAGE_CHARS there
 *   is refused at import as one in `messages` is, naming it; the same export within the limit imports and redoes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IntakeCreateSessionDocument,
  IntakeExportDocument,
  IntakeImportDocument,
  IntakeSendDocument,
} from './generated/graphql.js';
import { rawId } from './support/uploads.js';
import { codeOf, createTestServer, dbKind, SESSION_EVENTS, type ServerContext } from './support/harness.js';

let t: ServerContext;

beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, contextCompressionEnabled: false });
});
afterAll(async () => {
  await t?.close();
});

const UNDO = 'mutation ($id: ID!) { undoLastTurn(id: $id) { id } }';
const REDO = 'mutation ($id: ID!) { redo(id: $id) { id } }';

interface ExportDoc {
  session: { metadata: { redo?: { segments: { messages: { content: string; role: string }[] }[] } } };
}

describe(`intake review: every door obeys MAX_MESSAGE_CHARS (${dbKind})`, () => {
  const name = 'importSession refuses an over-limit message in the redo stack; within the limit it imports and redoes';
  it(name, async () => {
    const created = await t.http(IntakeCreateSessionDocument, { p: null });
    const sessionId = created.data!.createSession.id;
    const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
    t.fake.enqueue({ text: 'the answer' });
    const sent = await t.http(IntakeSendDocument, { input: { sessionId, content: 'the question' } });
    expect(sent.errors).toBeUndefined();
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    sub.dispose();
    expect((await t.http(UNDO, { id: sessionId })).errors).toBeUndefined();
    const exported = (await t.http(IntakeExportDocument, { id: sessionId })).data!.session!.export;

    const doc = JSON.parse(exported) as ExportDoc;
    const segment = doc.session.metadata.redo!.segments[0]!;
    expect(segment.messages.map((m) => m.content)).toContain('the question');
    const sessionsBefore = await t.app.db.prisma.session.count();
    segment.messages[0]!.content = 'z'.repeat(t.app.config.maxMessageChars + 1);
    const refused = await t.http(IntakeImportDocument, { data: JSON.stringify(doc) });
    expect(codeOf(refused)).toBe('BAD_USER_INPUT');
    expect(refused.errors![0]!.message).toMatch(
      /^Imported message session\.metadata\.redo\.segments\[0\]\.messages\[0\]/,
    );
    expect(await t.app.db.prisma.session.count()).toBe(sessionsBefore);

    // At the limit: imported, and redo brings the message back.
    segment.messages[0]!.content = 'z'.repeat(t.app.config.maxMessageChars);
    const imported = await t.http(IntakeImportDocument, { data: JSON.stringify(doc) });
    expect(imported.errors).toBeUndefined();
    const id = imported.data!.importSession.id;
    expect((await t.http(REDO, { id })).errors).toBeUndefined();
    const rows = await t.app.db.prisma.sessionMessage.findMany({ where: { sessionId: rawId(id) } });
    expect(rows.some((m) => m.content.length === t.app.config.maxMessageChars)).toBe(true);
  });
});
