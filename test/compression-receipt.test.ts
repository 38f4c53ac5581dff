/** The fidelity receipt: planted facts survive a vague summary, and the receipt says what became of each. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_FACTS_HEADER } from '../src/domain/compression/receipt.js';
import { CompressionReceiptsDocument } from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { COMPACT_DOC, compressed, exchanges, profileSession, respond, withEvents } from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());

const VAGUE = '- The user and the assistant discussed a release and some dates.\nKEYS: release';

describe(`compression: the fidelity receipt (${dbKind})`, () => {
  it('a vague summary: the planted v3.14.15-rc2 and 2027-02-19 are in modelView, the receipt lists them', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, [
      { role: 'user', content: 'We ship v3.14.15-rc2 on 2027-02-19, tracked in ZX-4471.' },
      { role: 'assistant', content: 'Noted: `deployGateway()` reads /etc/gateway/app.conf.' },
      ...exchanges(5),
    ]);
    respond(t, VAGUE);
    const { result, events } = await withEvents(
      t,
      s.id,
      () => t.http(COMPACT_DOC, { id: s.id }),
      (es) => compressed(es).length > 0,
    );
    expect(result.errors).toBeUndefined();

    const view = await t.http(CompressionReceiptsDocument, { id: s.id });
    const sent = view.data!.session!.modelView.messages.map((m) => m.content).join('\n');
    for (const fact of ['v3.14.15-rc2', '2027-02-19', 'ZX-4471', 'deployGateway()', '/etc/gateway/app.conf']) {
      expect(sent).toContain(fact);
    }
    expect(sent).toContain(KEPT_FACTS_HEADER);

    const [record] = view.data!.session!.compressions;
    const receipt = record!.receipt!;
    expect(record).toMatchObject({ reason: 'FORCED', strategy: 'SUMMARY' });
    expect(receipt.reAppendedAnchors).toEqual(
      expect.arrayContaining([
        { kind: 'version', value: 'v3.14.15-rc2' },
        { kind: 'date', value: '2027-02-19' },
        { kind: 'identifier', value: 'ZX-4471' },
      ]),
    );
    expect(receipt.found).toBe(receipt.keptBySummary + receipt.reAppended + receipt.dropped);
    expect(receipt.dropped).toBe(0);
    expect(receipt.budgetTokens).toBeGreaterThanOrEqual(256);
    // The same receipt travels in ContextCompressed.
    expect(compressed(events)[0]!.receipt).toMatchObject({
      found: receipt.found,
      reAppended: receipt.reAppended,
      dropped: 0,
    });
  });

  it('a summary that keeps a fact is credited with it; nothing re-appended twice', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, [
      { role: 'user', content: 'Pin v3.14.15-rc2 and release on 2027-02-19.' },
      { role: 'assistant', content: 'ok' },
      ...exchanges(5),
    ]);
    respond(t, '- Pinned v3.14.15-rc2.\nKEYS: v3.14.15-rc2');
    expect((await t.http(COMPACT_DOC, { id: s.id })).errors).toBeUndefined();
    const view = await t.http(CompressionReceiptsDocument, { id: s.id });
    const receipt = view.data!.session!.compressions[0]!.receipt!;
    expect(receipt.keptBySummaryAnchors.map((a) => a.value)).toContain('v3.14.15-rc2');
    expect(receipt.reAppendedAnchors.map((a) => a.value)).toEqual(['2027-02-19']);
    const sent = view.data!.session!.modelView.messages.map((m) => m.content).join('\n');
    expect(sent.split('v3.14.15-rc2').length - 1).toBe(1);
  });
});
