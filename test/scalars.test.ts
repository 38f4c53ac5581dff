/**
 * DateTime and JSON are graphql-scalars' (RFC 3339 date-times with a zone): a time without one would be read in
 * the server's zone, so it is refused as the client's mistake, inline and as a variable, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScalarsCreateSessionDocument, ScalarsRecallsDocument, ScalarsScheduleDocument } from './generated/graphql.js';
import { codeOf, createTestServer, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const SCHEDULE = ScalarsScheduleDocument;

describe('DateTime and JSON scalars', () => {
  it('take RFC 3339 date-times with a zone; a zone-less or invalid one is refused, nothing written', async () => {
    const s = (await t.http(ScalarsCreateSessionDocument, {})).data!.createSession.id;
    const due = new Date(Date.now() + 30 * 86_400_000);
    const zoneless = due.toISOString().slice(0, 19);
    for (const at of [zoneless, zoneless.slice(0, 10), due.toDateString(), 'nope']) {
      expect(codeOf(await t.http(SCHEDULE, { s, at })), at).toBe('BAD_USER_INPUT');
    }
    const inline = await t.http(
      `mutation($s: ID!) { scheduleRecall(sessionId: $s, at: "${zoneless}", text: "x") { id } }`,
      { s },
    );
    expect(codeOf(inline)).toBe('GRAPHQL_VALIDATION_FAILED');
    const listed = await t.http(ScalarsRecallsDocument, { id: s });
    expect(listed.data!.session!.recalls).toEqual([]);

    // The same instant written at +01:00 comes back in UTC.
    const atPlusOne = new Date(due.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    const ok = await t.http(SCHEDULE, { s, at: atPlusOne });
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(ok.data!.scheduleRecall.dueAt).toBe(due.toISOString());
  });
});
