/** The per-call manifest's pure parts: injected entries, their hashes, the fold and the diff across it. */
import { describe, expect, it } from 'vitest';
import {
  buildCallManifest,
  type CallManifest,
  diffManifests,
  MANIFEST_MAX_ENTRIES,
  shortHash,
} from '../../src/domain/call-manifest.js';
import { buildPrompt } from '../../src/domain/prompt.js';
import { type ChatMessage, makeMessage } from '../../src/domain/types.js';

const rules = { model: 'm', vision: true, window: 100_000, messageTokenBudget: 0, fallbackImageTokens: 85 };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');

function manifestOf(context: ChatMessage[], opts: { system?: string; recall?: { id: string; text: string }[] } = {}) {
  const recallText = opts.recall ? `[Recalled:]\n${opts.recall.map((c) => c.text).join('\n\n')}` : null;
  const images = new Map([
    ['session_files/s/image_1.png', { path: 'session_files/s/image_1.png', bytes: 33, tokens: 85, b64: PNG }],
  ]);
  const prompt = buildPrompt({ ...rules, context, systemPrompt: opts.system ?? '', turnContext: recallText, images });
  return buildCallManifest({
    sent: prompt.messages,
    context,
    recall: recallText ? { text: recallText, chunks: opts.recall! } : null,
    tokens: (chars) => Math.ceil(chars / 4),
  });
}

describe('buildCallManifest', () => {
  it('names injected parts beside their message, which hashes only its own text', () => {
    const user = makeMessage({
      sequenceNumber: 1,
      role: 'user',
      content: 'look at this',
      images: ['session_files/s/image_1.png'],
      metadata: { contextNotice: '[Uploaded files on disk:\n- a.txt → session_files/s/a.txt]' },
    });
    const plain = makeMessage({ ...user, metadata: {}, images: [] });
    const m = manifestOf([user], { system: 'Be brief.', recall: [{ id: 'chunk-1', text: 'the code is ZX-4471' }] });
    expect(m.entries.map((e) => [e.kind, e.ref])).toEqual([
      ['SYSTEM_PROMPT', 'system'],
      ['MESSAGE', user.messageId],
      ['NOTICE', user.messageId],
      ['IMAGE', `${user.messageId}/image_1.png`],
      ['RECALL', 'chunk-1'],
    ]);
    expect(m.entries[0]!.hash).toBe(shortHash('Be brief.'));
    expect(m.entries[3]!).toMatchObject({ hash: shortHash(Buffer.from(PNG, 'base64')), tokens: 85 });
    expect(m.entries[4]!.hash).toBe(shortHash('the code is ZX-4471'));
    // The message's own hash is the same without the notice, the image and the recall.
    expect(m.entries[1]!.hash).toBe(manifestOf([plain]).entries[0]!.hash);
    expect(m.tokens).toBe(m.entries.reduce((n, e) => n + e.tokens, 0));
  });
});

describe('diffManifests', () => {
  const many = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) =>
      makeMessage({ sequenceNumber: from + i, role: i % 2 ? 'assistant' : 'user', content: `m${from + i}` }),
    );

  it('names a changed hash under the same ref, and nothing else', () => {
    const rows = many(3);
    const before = manifestOf(rows);
    const after = manifestOf([rows[0]!, { ...rows[1]!, content: 'edited' }, rows[2]!]);
    const d = diffManifests(before, after);
    expect(d.changed.map((e) => e.ref)).toEqual([rows[1]!.messageId]);
    expect([d.added, d.removed, d.unchanged]).toEqual([[], [], 2]);
  });

  it('across the fold: an entry that moved into the folded part is not "removed"; the fold is flagged', () => {
    const rows = many(MANIFEST_MAX_ENTRIES + 10);
    const before: CallManifest = manifestOf(rows);
    const grown = [...rows, ...many(2, rows.length)];
    const after = manifestOf(grown);
    expect(after.entries).toHaveLength(MANIFEST_MAX_ENTRIES);
    expect(after.omitted!.count).toBe(12);
    const d = diffManifests(before, after);
    expect(d.added.map((e) => e.seq)).toEqual([rows.length, rows.length + 1]);
    expect(d.removed).toEqual([]);
    expect(d.omittedChanged).toBe(true);
    expect(JSON.stringify(after).length).toBeLessThan(48_000);
  });

  it('an entry the previous call folded, listed now (the context shrank), is not "added"', () => {
    const rows = many(MANIFEST_MAX_ENTRIES + 10);
    const d = diffManifests(manifestOf(rows), manifestOf(rows.slice(0, 20)));
    expect(d.added).toEqual([]);
    expect(d.removed.map((e) => e.seq)).toEqual(rows.slice(20).map((r) => r.sequenceNumber));
  });

  it('the first call ever: everything added', () => {
    const m = manifestOf(many(2));
    expect(diffManifests(null, m).added).toHaveLength(2);
  });
});
