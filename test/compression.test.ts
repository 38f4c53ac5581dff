/** Forced compaction, the save transaction, the dual buffer, the raw-history index and recall. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NewMessage } from '../src/domain/types.js';
import { MemoryIndex } from '../src/store/memory.js';
import { termQuery } from '../src/domain/memory-text.js';
import { codeOf, createTestServer, dbKind, type SessionEvent, type ServerContext } from './support/harness.js';
import { ollamaRequest } from './support/fake-provider.js';
import {
  CompressionDeleteSessionDocument,
  CompressionLastHistoryDocument,
  CompressionMemorySearchDocument,
  CompressionMemorySearchEverywhereDocument,
  CompressionMemorySearchIdsDocument,
  CompressionMemorySearchUnderscoresDocument,
  CompressionSendDocument,
} from './generated/graphql.js';
import {
  COMPACT_DOC,
  PLAN_DOC,
  compressed,
  exchanges,
  isSummaryCall,
  isSummaryRequest,
  lastUserText,
  profileSession,
  respond,
  sendAndWait,
  withEvents,
} from './support/compression.js';

let t: ServerContext;
/** Runs inside the compression save transaction after every write (throw to simulate a store failure). */
const saveHooks: { afterWrites?: (sessionId: string) => Promise<void> | void } = {};
beforeAll(async () => {
  t = await createTestServer(
    { titleGenerationEnabled: false },
    {},
    { afterCompressionWrites: (sessionId) => saveHooks.afterWrites?.(sessionId) },
  );
});
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
  saveHooks.afterWrites = undefined;
});

const SUMMARY =
  '- The user asked about the gateway.\n- Decided to deploy on port 8443.\nKEYS: port 8443, gateway rollout';

const compactEvents = (es: SessionEvent[]) => es.some((e) => e.__typename === 'ContextCompressed');

describe(`compression: forced compaction and the dual buffer (${dbKind})`, () => {
  it(
    'compacts: history unchanged plus a visible marker, ' + 'context = summary first + kept turns, events, meter reset',
    async () => {
      const s = await profileSession(t, { keepRecent: 2, maxTokens: 777 });
      await t.app.store.append(s.raw, exchanges(6));
      const before = await t.app.store.allMessages(s.raw);
      await t.app.db.prisma.session.update({
        where: { id: s.raw },
        data: { metadata: { baseline: { promptTokens: 999, lastSequence: 11 }, keep: 1 }, contextTokenCount: 999 },
      });
      respond(t, SUMMARY);

      const { result, events } = await withEvents(t, s.id, () => t.http(COMPACT_DOC, { id: s.id }), compactEvents);
      expect(result.errors).toBeUndefined();
      const payload = result.data!.compactSession;
      expect(payload).toMatchObject({ messagesBefore: 12, messagesAfter: 5 });
      expect(payload.summary).toContain('Decided to deploy on port 8443.');
      expect(payload.summary).not.toContain('KEYS:');

      const types = events.map((e) => e.__typename);
      expect(types.indexOf('CompressionStarted')).toBeGreaterThanOrEqual(0);
      expect(types.indexOf('CompressionStarted')).toBeLessThan(types.indexOf('ContextCompressed'));
      const done = compressed(events)[0]!;
      expect(done).toMatchObject({
        reason: 'FORCED',
        strategy: 'SUMMARY',
        messagesBefore: 12,
        messagesAfter: 5,
        maxContextTokens: 2048,
      });

      // Dual buffer: every display row unchanged, one marker appended to the history.
      const after = await t.app.store.allMessages(s.raw);
      const display = after.filter((m) => m.isDisplay);
      expect(display.slice(0, 12).map((m) => [m.sequenceNumber, m.content])).toEqual(
        before.map((m) => [m.sequenceNumber, m.content]),
      );
      expect(display).toHaveLength(13);
      const marker = display[12]!;
      expect(marker).toMatchObject({
        role: 'system',
        isCompression: true,
        isContext: false,
        content: 'Context compressed: 12 → 5 messages',
      });
      expect(marker.metadata.summary).toBe(payload.summary);
      const history = await t.http(CompressionLastHistoryDocument, { id: s.id });
      expect(history.data!.session!.displayMessageCount).toBe(13);
      expect(history.data!.session!.history.edges[0].node.content).toBe('Context compressed: 12 → 5 messages');

      // Context: the summary sits before the kept turns although it was appended last.
      const context = await t.app.store.context(s.raw);
      expect(context.map((m) => m.content.slice(0, 16))).toEqual([
        '[Summary of the ',
        'turn 4 question:',
        'turn 4 answer: a',
        'turn 5 question:',
        'turn 5 answer: a',
      ]);
      expect(context[0]).toMatchObject({ role: 'user', isSummary: true, isDisplay: false, isContext: true });
      expect(context[0]!.metadata.breadcrumbs).toEqual(['port 8443', 'gateway rollout']);
      expect(after.filter((m) => m.sequenceNumber < 8).every((m) => !m.isContext)).toBe(true);

      // The summary call: think off, temperature 0.3, the profile's max tokens, the window as num_ctx.
      const call = ollamaRequest(t.fake.requests.find((b) => isSummaryRequest(b)));
      expect(call.think).toBe(false);
      expect(call.options).toMatchObject({ temperature: 0.3, num_predict: 777, num_ctx: 2048 });
      expect(lastUserText(call)).toContain('turn 0 question');
      expect(lastUserText(call)).not.toContain('turn 5 question');

      // Meter reset to the calibrated estimate of the new context; baseline and flag cleared, other metadata kept.
      const row = (await t.app.store.get(s.raw))!;
      expect(row.contextTokenCount).toBe(done.contextTokens);
      expect(payload.session.contextTokens).toBe(done.contextTokens);
      expect(row.contextTokenCount).toBeLessThan(999);
      expect(row.metadata).not.toHaveProperty('baseline');
      expect(row.metadata).toMatchObject({ keep: 1 });
    },
  );

  it('answers NOTHING_TO_COMPACT when nothing can shrink, for every strategy', async () => {
    const empty = await profileSession(t);
    expect(codeOf(await t.http(COMPACT_DOC, { id: empty.id }))).toBe('NOTHING_TO_COMPACT');
    const one = await profileSession(t);
    await t.app.store.append(one.raw, [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ]);
    for (const s of ['SUMMARY', 'FULL_REPLACE', 'LOCAL'] as const) {
      expect(codeOf(await t.http(COMPACT_DOC, { id: one.id, s }))).toBe('NOTHING_TO_COMPACT');
    }
    const plan = await t.http(PLAN_DOC, { id: one.id });
    expect(plan.data!.compressionPlan).toMatchObject({
      wouldCompress: false,
      messagesToSummarize: 0,
      messagesToKeep: 2,
    });
    expect(t.fake.requests.some((b) => isSummaryRequest(b) && JSON.stringify(b).includes('hello'))).toBe(false);
    expect(codeOf(await t.http(COMPACT_DOC, { id: one.id, s: 'NATIVE' }))).toBe('BAD_USER_INPUT');
  });

  it('forced four times in a row: one summary, then NOTHING_TO_COMPACT before any model call', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(6));
    respond(t, SUMMARY);
    const first = await t.http(COMPACT_DOC, { id: s.id });
    expect(first.errors).toBeUndefined();
    expect(first.data!.compactSession).toMatchObject({ messagesBefore: 12, messagesAfter: 5 });
    const context = await t.app.store.context(s.raw);
    const requests = t.fake.requests.length;
    for (let i = 0; i < 3; i++) expect(codeOf(await t.http(COMPACT_DOC, { id: s.id }))).toBe('NOTHING_TO_COMPACT');
    // No request reached the provider, and the context is the one the first pass left.
    expect(t.fake.requests.length).toBe(requests);
    expect((await t.app.store.context(s.raw)).map((m) => m.sequenceNumber)).toEqual(
      context.map((m) => m.sequenceNumber),
    );
    const plan = await t.http(PLAN_DOC, { id: s.id });
    expect(plan.data!.compressionPlan).toMatchObject({ wouldCompress: false, messagesToSummarize: 0 });
  });

  it(
    'an important old turn kept in place of a recent filler: ' + 'one summary per run, the context stays chronological',
    async () => {
      const s = await profileSession(t, { keepRecent: 2, window: 4096 });
      const turn = (q: string, a: string): NewMessage[] => [
        { role: 'user', content: q },
        { role: 'assistant', content: a },
      ];
      await t.app.store.append(s.raw, [
        ...turn(`early question ${'q'.repeat(300)}`, `early answer ${'a'.repeat(300)}`),
        ...turn(`remember: we decided the gateway listens on 8443 ${'d'.repeat(400)}`, 'Agreed: 8443 it is.'),
        ...turn(`middle question ${'q'.repeat(300)}`, `middle answer ${'a'.repeat(300)}`),
        ...turn(`later question ${'q'.repeat(300)}`, `later answer ${'a'.repeat(300)}`),
        ...turn('ok', 'Glad to help.'),
        ...turn('latest request', 'latest answer'),
      ]);
      const before = t.fake.requests.length;
      let n = 0;
      t.fake.responder = (call) =>
        isSummaryCall(call) ? { text: `- run summary ${++n}\nKEYS: k${n}` } : { text: 'ok' };
      const r = await t.http(COMPACT_DOC, { id: s.id });
      t.fake.responder = undefined;
      expect(r.errors).toBeUndefined();
      expect(t.fake.requests.slice(before).filter((b) => isSummaryRequest(b))).toHaveLength(2);
      const context = await t.app.store.context(s.raw);
      expect(context.map((m) => (m.isSummary ? `S:${m.content.split('\n').at(-1)}` : m.content.slice(0, 14)))).toEqual([
        'S:- run summary 1',
        'remember: we d',
        'Agreed: 8443 i',
        'S:- run summary 2',
        'latest request',
        'latest answer',
      ]);
      expect(context[3]!.metadata.covers).toEqual([context[2]!.sequenceNumber + 1, context[4]!.sequenceNumber - 1]);
    },
  );

  it('the dry run shares the planner with the real run', async () => {
    const s = await profileSession(t, { keepRecent: 3 });
    await t.app.store.append(s.raw, exchanges(7));
    const plan = (await t.http(PLAN_DOC, { id: s.id })).data!.compressionPlan;
    expect(plan).toMatchObject({
      wouldCompress: true,
      strategy: 'SUMMARY',
      contextWindow: 2048,
      messagesToSummarize: 8,
      messagesToKeep: 6,
    });
    expect(plan.estimatedTokensAfter).toBeLessThan(plan.contextTokens);
    respond(t, SUMMARY);
    const done = (await t.http(COMPACT_DOC, { id: s.id })).data!.compactSession;
    expect(done.messagesBefore - done.messagesAfter + 1).toBe(plan.messagesToSummarize);
  });

  it('old summaries never resurrect: context-only rows are demoted in the database', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(5, 200, 'first'));
    respond(t, '- first summary\nKEYS: alpha');
    await t.http(COMPACT_DOC, { id: s.id });
    await t.app.store.append(s.raw, exchanges(5, 200, 'second'));
    respond(t, '- second summary\nKEYS: beta');
    const second = await t.http(COMPACT_DOC, { id: s.id });
    expect(second.errors).toBeUndefined();
    const all = await t.app.store.allMessages(s.raw);
    const summaries = all.filter((m) => m.isSummary);
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toMatchObject({ isContext: false, isDisplay: false });
    // Rebuilt from rows (what a reload sees): exactly one live summary, the newest, first.
    const context = await t.app.store.context(s.raw);
    // The first summary's KEYS (alpha) the second one lost are kept verbatim (the fidelity receipt).
    expect(context.filter((m) => m.isSummary).map((m) => m.content)).toEqual([
      '[Summary of the earlier conversation]\n- second summary\n\n' +
        '[Kept facts, verbatim from the compacted messages:\n- alpha]',
    ]);
    expect(context[0]!.isSummary).toBe(true);
    const summaryCall = t.fake.requests.filter((b) => isSummaryRequest(b)).at(-1);
    expect(lastUserText(summaryCall)).toContain(
      'PREVIOUS SUMMARY: [Summary of the earlier conversation]\n- first summary',
    );
  });

  it('summarizer failing twice falls back to hard truncation, with no display loss', async () => {
    const s = await profileSession(t, { keepRecent: 2, window: 2048 });
    await t.app.store.append(s.raw, exchanges(10, 300));
    t.fake.responder = (call) => (isSummaryCall(call) ? { status: 500 } : { text: 'ok' });
    const before = t.fake.requests.length;
    const { result, events } = await withEvents(t, s.id, () => t.http(COMPACT_DOC, { id: s.id }), compactEvents);
    expect(result.errors).toBeUndefined();
    expect(t.fake.requests.slice(before).filter((b) => isSummaryRequest(b)).length).toBeGreaterThanOrEqual(2);
    const all = await t.app.store.allMessages(s.raw);
    expect(all.filter((m) => m.isDisplay && !m.isCompression)).toHaveLength(20);
    const marker = all.find((m) => m.isCompression)!;
    expect(marker.metadata.fallback).toBe('hard_truncate');
    const context = await t.app.store.context(s.raw);
    expect(context[0]).toMatchObject({ isSummary: true });
    expect(context[0]!.metadata).toMatchObject({ hardTruncated: true });
    expect(context.at(-1)!.content).toContain('turn 9 answer');
    // Under half the window (hard-truncate budget) as the compressor measures it, the stub summary included.
    expect(compressed(events)[0]!.contextTokens).toBeLessThan(2048 * 0.5);
  });

  it('a store failure mid-save rolls everything back', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(6));
    await t.app.db.prisma.session.update({
      where: { id: s.raw },
      data: { metadata: { baseline: { promptTokens: 500, lastSequence: 11 } }, contextTokenCount: 500 },
    });
    const before = await t.app.store.allMessages(s.raw);
    const chunksBefore = await t.app.db.prisma.memoryChunk.count({ where: { sessionId: s.raw } });
    respond(t, SUMMARY);
    saveHooks.afterWrites = () => {
      throw new Error('disk full');
    };
    const r = await t.http(COMPACT_DOC, { id: s.id });
    expect(r.errors?.length).toBeGreaterThan(0);
    const after = await t.app.store.allMessages(s.raw);
    expect(after).toEqual(before);
    const row = (await t.app.store.get(s.raw))!;
    expect(row.contextTokenCount).toBe(500);
    expect(row.metadata).toMatchObject({ baseline: { promptTokens: 500 } });
    expect(await t.app.db.prisma.memoryChunk.count({ where: { sessionId: s.raw } })).toBe(chunksBefore);
    // And it works once the store does.
    saveHooks.afterWrites = undefined;
    expect((await t.http(COMPACT_DOC, { id: s.id })).errors).toBeUndefined();
  });

  it('CONFLICT while a turn is running', async () => {
    const s = await profileSession(t);
    await t.app.store.append(s.raw, exchanges(6));
    t.fake.responder = () => ({ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 300 });
    const sent = await t.http(CompressionSendDocument, {
      input: { sessionId: s.id, content: 'long one' },
    });
    expect(sent.errors).toBeUndefined();
    expect(codeOf(await t.http(COMPACT_DOC, { id: s.id }))).toBe('CONFLICT');
    await t.app.turns.drain();
  });
});

describe(`compression: raw-history index and recall (${dbKind})`, () => {
  it('writes demoted messages verbatim, idempotently, with breadcrumbs; memorySearch finds them', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    const special =
      'We configured the zebrafish gateway in `deploy/gateway.yaml` with GATEWAY_PORT=8443 for ticket OPS-42.';
    await t.app.store.append(s.raw, [
      { role: 'user', content: special },
      { role: 'assistant', content: 'Done, the zebrafish gateway listens on 8443.' },
      ...exchanges(4),
    ]);
    respond(t, SUMMARY);
    expect((await t.http(COMPACT_DOC, { id: s.id })).errors).toBeUndefined();
    const chunks = await t.app.db.prisma.memoryChunk.findMany({
      where: { sessionId: s.raw },
      orderBy: { turnStart: 'asc' },
    });
    expect(chunks.length).toBeGreaterThan(0);
    const text = chunks.map((c) => c.content).join('\n\n');
    expect(text).toContain(special);
    expect(text).toContain(`turn 1 answer: ${'a'.repeat(200)}`);
    expect(text).not.toContain('turn 3 question');
    expect(chunks[0]).toMatchObject({ turnStart: 0 });
    expect(chunks[0]!.breadcrumbs).toEqual(
      expect.arrayContaining(['port 8443', 'deploy/gateway.yaml', 'GATEWAY_PORT', 'OPS-42']),
    );

    // Idempotent: the same demoted rows index to nothing new.
    const demoted = (await t.app.store.allMessages(s.raw)).filter((m) => !m.isContext && !m.isCompression);
    expect(
      await new MemoryIndex(t.app.db.prisma, t.app.trigram).indexDemoted(s.raw, demoted, [
        'port 8443',
        'gateway rollout',
      ]),
    ).toBe(0);
    expect(await t.app.db.prisma.memoryChunk.count({ where: { sessionId: s.raw } })).toBe(chunks.length);

    const found = await t.http(CompressionMemorySearchDocument, { id: s.id, q: 'zebrafish gateway' });
    expect(found.errors).toBeUndefined();
    expect(found.data!.memorySearch[0].content).toContain(special);
    expect(found.data!.memorySearch[0].score).toBeGreaterThan(0.3);
    const everywhere = await t.http(CompressionMemorySearchEverywhereDocument, { q: 'zebrafish' });
    expect(everywhere.data!.memorySearch.length).toBeGreaterThan(0);
    const nothing = await t.http(CompressionMemorySearchIdsDocument, { id: s.id, q: 'platypus' });
    expect(nothing.data!.memorySearch).toEqual([]);
    // Fallback ranking without pg_trgm (word overlap over ILIKE).
    const plain = await new MemoryIndex(t.app.db.prisma, false).search({
      scope: { sessionIds: [s.raw] },
      query: 'zebrafish gateway',
      first: 2,
    });
    expect(plain[0]!.content).toContain(special);
    expect(plain[0]!.score).toBe(1);
    // Deleted with the session.
    await t.http(CompressionDeleteSessionDocument, { id: s.id });
    expect(await t.app.db.prisma.memoryChunk.count({ where: { sessionId: s.raw } })).toBe(0);
  });

  it(
    'memorySearch matches words through the search vector first, ' +
      'substrings (partial words) as the fallback, scope unchanged',
    async () => {
      const profile = await t.app.profiles.default();
      const mine = await t.app.store.create({ profileId: profile.id, userId: 'searcher' });
      const other = await t.app.store.create({ profileId: profile.id, userId: 'someone-else' });
      const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
      const chunk = (sessionId: string, content: string, minutes: number) => ({
        sessionId,
        content,
        contentHash: `${sessionId}:${content}`,
        breadcrumbs: [],
        turnStart: minutes,
        turnEnd: minutes,
        firstAt: at(minutes),
        lastAt: at(minutes),
      });
      await t.app.db.prisma.memoryChunk.createMany({
        data: [
          chunk(mine.id, 'USER: please deploy the kiwi gateway', 1),
          chunk(mine.id, 'ASSISTANT: the kiwi deployment finished', 2),
          chunk(mine.id, 'TOOL RESULT (shell): kiwi redeploying in 5 s', 3),
          chunk(mine.id, 'USER: I edited src/compression/memory.ts and set KIWI_PORT=8443', 4),
          chunk(mine.id, 'ASSISTANT: nothing to see here', 5),
          chunk(other.id, 'USER: deploy the kiwi gateway elsewhere', 6),
        ],
      });
      // The generated column holds the words, punctuation split: the path and the variable word by word.
      const [vector] = await t.app.db.prisma.$queryRawUnsafe<{ v: string }[]>(
        `SELECT search_vector::text AS v FROM memory_chunks WHERE session_id = $1::uuid AND turn_start = 4`,
        mine.id,
      );
      expect(vector!.v.split(' ').map((w) => w.split(':')[0])).toEqual(
        expect.arrayContaining(["'src'", "'compression'", "'memory'", "'ts'", "'kiwi'", "'port'", "'8443'"]),
      );
      expect(termQuery('deploy')).toBe("'deploy':*");
      expect(termQuery('memory.ts')).toBe("'memory' <-> 'ts':*");
      expect(termQuery("x'|!y")).toBe("'x' <-> 'y':*");
      expect(termQuery('___')).toBeNull();

      for (const trigram of [t.app.trigram, false]) {
        const index = new MemoryIndex(t.app.db.prisma, trigram);
        const search = async (
          query: string,
          first: number,
          scope: Parameters<MemoryIndex['search']>[0]['scope'] = { sessionIds: [mine.id] },
        ) => {
          const hits = await index.search({ scope, query, first });
          return { contents: hits.map((h) => h.content), passes: index.lastPasses, hits };
        };
        // Words (and word prefixes) come from the GIN-indexed vector; enough hits: no substring pass.
        const words = await search('deploy', 2);
        expect(words.passes).toEqual(['words']);
        expect(words.contents.sort()).toEqual([
          'ASSISTANT: the kiwi deployment finished',
          'USER: please deploy the kiwi gateway',
        ]);
        // A dotted/underscored term matches its parts as consecutive words, whatever the separator in the text:
        // neither `%compression.memory%` nor `%kiwi-port%` is a substring of the chunk.
        for (const q of ['compression.memory', 'kiwi-port', 'memory.ts']) {
          const dotted = await search(q, 1);
          expect(dotted.passes, q).toEqual(['words']);
          expect(dotted.contents, q).toEqual(['USER: I edited src/compression/memory.ts and set KIWI_PORT=8443']);
        }
        // A partial word is no word: the substring pass finds it.
        const partial = await search('ploy', 5);
        expect(partial.passes).toEqual(['words', 'substrings']);
        expect(partial.contents).toHaveLength(3);
        expect(partial.contents.every((c) => /ploy/i.test(c))).toBe(true);
        // Too few word hits: the substring pass fills the page, a superset of the word hits.
        const filled = await search('deploy', 5);
        expect(filled.passes).toEqual(['words', 'substrings']);
        expect(filled.contents).toEqual(
          expect.arrayContaining([...words.contents, 'TOOL RESULT (shell): kiwi redeploying in 5 s']),
        );
        expect(filled.contents).toHaveLength(3);
        expect(filled.hits.every((h, i) => i === 0 || filled.hits[i - 1]!.score >= h.score)).toBe(true);
        // Ranking: the chunk holding every term comes first.
        const both = await search('kiwi gateway deploy', 1);
        expect(both.contents).toEqual(['USER: please deploy the kiwi gateway']);
        expect(both.hits[0]!.score).toBeGreaterThan(trigram ? 0.5 : 0.99);
        // Scope and ownership are unchanged by either pass.
        expect((await search('deploy', 10)).hits.every((h) => h.sessionId === mine.id)).toBe(true);
        expect((await search('ploy', 10)).hits.every((h) => h.sessionId === mine.id)).toBe(true);
        expect((await search('deploy', 10, { userId: 'someone-else' })).contents).toEqual([
          'USER: deploy the kiwi gateway elsewhere',
        ]);
        expect((await search('elsewhere', 10, { userId: 'searcher' })).contents).toEqual([]);
        expect((await search('platypus', 10)).contents).toEqual([]);
        // Terms the parser drops or splits differently never break the query.
        expect((await search("²²² x²y ü-ß 日本語テキスト ___ it's", 5)).contents).toEqual([]);
      }
    },
  );

  it('memorySearch answers a query none of whose terms is a word (only substrings) instead of failing', async () => {
    const profile = await t.app.profiles.default();
    const s = await t.app.store.create({ profileId: profile.id, userId: 'no-words' });
    const at = new Date(Date.UTC(2026, 0, 1));
    const run = 'q'.repeat(120);
    await t.app.db.prisma.memoryChunk.createMany({
      data: [
        {
          sessionId: s.id,
          content: `USER: call __ then ___ and ${run}!`,
          contentHash: 'no-words',
          breadcrumbs: [],
          turnStart: 1,
          turnEnd: 1,
          firstAt: at,
          lastAt: at,
        },
      ],
    });
    // `___` has no letters or digits and the 120-letter run is too long for a word lookup: substring pass alone.
    for (const trigram of [t.app.trigram, false]) {
      const index = new MemoryIndex(t.app.db.prisma, trigram);
      for (const query of ['___', run]) {
        const hits = await index.search({ scope: { sessionIds: [s.id] }, query, first: 3 });
        expect(index.lastPasses, query.slice(0, 8)).toEqual(['substrings']);
        expect(
          hits.map((h) => h.sessionId),
          query.slice(0, 8),
        ).toEqual([s.id]);
      }
    }
    const viaGql = await t.http(CompressionMemorySearchUnderscoresDocument, {});
    expect(viaGql.errors).toBeUndefined();
  });

  it(
    'memorySearch answers a term of thousands of dotted parts as ' +
      'a substring (no phrase query deeper than the server stack)',
    async () => {
      // A phrase tsquery of 20,000 parts is "stack depth limit exceeded" on a server and seconds of
      // to_tsquery on PGlite: such a term is matched as a substring only.
      const long = `${'v.'.repeat(20_000)}v`;
      const dotted = `${'w.'.repeat(40)}w`;
      const profile = await t.app.profiles.default();
      const s = await t.app.store.create({ profileId: profile.id, userId: 'dotted' });
      const at = new Date(Date.UTC(2026, 0, 1));
      await t.app.db.prisma.memoryChunk.createMany({
        data: [
          {
            sessionId: s.id,
            content: `TOOL RESULT: v.v.v and ${dotted} end`,
            contentHash: 'dotted',
            breadcrumbs: [],
            turnStart: 1,
            turnEnd: 1,
            firstAt: at,
            lastAt: at,
          },
        ],
      });
      for (const trigram of [t.app.trigram, false]) {
        const index = new MemoryIndex(t.app.db.prisma, trigram);
        expect(await index.search({ scope: { sessionIds: [s.id] }, query: long, first: 5 })).toEqual([]);
        const hits = await index.search({ scope: { sessionIds: [s.id] }, query: dotted, first: 5 });
        expect(hits.map((h) => h.sessionId)).toEqual([s.id]);
      }
      expect(termQuery(long) === null).toBe(true);
      expect(termQuery(dotted) === null).toBe(true);
      expect(termQuery('src/compression/memory.ts')).toBe("'src' <-> 'compression' <-> 'memory' <-> 'ts':*");
    },
  );

  it('an indexing failure never fails the compression', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(5));
    respond(t, SUMMARY);
    const original = MemoryIndex.prototype.indexDemoted;
    MemoryIndex.prototype.indexDemoted = async () => {
      throw new Error('index down');
    };
    try {
      const r = await t.http(COMPACT_DOC, { id: s.id });
      expect(r.errors).toBeUndefined();
      expect((await t.app.store.context(s.raw))[0]!.isSummary).toBe(true);
    } finally {
      MemoryIndex.prototype.indexDemoted = original;
    }
  });

  it('recall injects relevant excerpts once per chunk when the context holds a summary', async () => {
    const s = await profileSession(t, { keepRecent: 2, window: 4096 });
    await t.app.store.append(s.raw, [
      { role: 'user', content: 'Remember: the staging gateway port is 8443 and the walrus token rotates weekly.' },
      { role: 'assistant', content: 'Noted: staging gateway on 8443, walrus token weekly.' },
      ...exchanges(4),
    ]);
    respond(t, SUMMARY);
    expect((await t.http(COMPACT_DOC, { id: s.id })).errors).toBeUndefined();

    let seen = '';
    respond(t, SUMMARY, (call) => {
      seen = lastUserText(call.body);
      return { text: 'It is 8443.' };
    });
    await sendAndWait(t, s.id, 'Which port does the staging gateway use?');
    expect(seen).toContain('Which port does the staging gateway use?');
    expect(seen).toContain('[Recalled from earlier in this conversation');
    expect(seen).toContain('the staging gateway port is 8443');
    const meta = (await t.app.store.get(s.raw))!.metadata as { injected_chunk_ids?: string[] };
    expect(meta.injected_chunk_ids).toHaveLength(1);
    // Never stored: the user message in the history is what the user wrote.
    const stored = (await t.app.store.allMessages(s.raw)).filter((m) => m.content.startsWith('Which port'));
    expect(stored[0]!.content).toBe('Which port does the staging gateway use?');

    await sendAndWait(t, s.id, 'And the staging gateway port again?');
    expect(seen).not.toContain('[Recalled from earlier');
    const meta2 = (await t.app.store.get(s.raw))!.metadata as { injected_chunk_ids?: string[] };
    expect(meta2.injected_chunk_ids).toEqual(meta.injected_chunk_ids);
  });

  it('no recall without a summary in the context', async () => {
    const s = await profileSession(t, { window: 4096 });
    await t.app.db.prisma.memoryChunk.create({
      data: {
        sessionId: s.raw,
        content: 'USER: the staging gateway port is 8443',
        contentHash: 'x',
        turnStart: 0,
        turnEnd: 1,
        firstAt: new Date(),
        lastAt: new Date(),
      },
    });
    let seen = '';
    respond(t, SUMMARY, (call) => {
      seen = lastUserText(call.body);
      return { text: 'ok' };
    });
    await sendAndWait(t, s.id, 'Which port does the staging gateway use?');
    expect(seen).toBe('Which port does the staging gateway use?');
  });
});
