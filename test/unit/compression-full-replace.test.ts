import { describe, expect, it } from 'vitest';
import {
  applyFullReplace,
  applyNativeCompaction,
  compactFullReplaceLocal,
  fullReplacePrefix,
  localStubSummary,
  nativeCompactionPrefix,
} from '../../src/domain/compression/full-replace.js';
import { assistant, call, note, result, snapshot, summary, system, user } from './compression-fixtures.js';

describe('fullReplacePrefix', () => {
  it('is everything before the last real user turn', () => {
    const ctx = [user('a'), assistant('b'), user('c'), note('n'), assistant('d')];
    expect(fullReplacePrefix(ctx)).toEqual({ end: 2, messages: ctx.slice(0, 2) });
  });

  it('is null when there is no user turn or nothing precedes it', () => {
    expect(fullReplacePrefix([note('n'), assistant('a')])).toBeNull();
    expect(fullReplacePrefix([user('only'), assistant('a')])).toBeNull();
  });
});

describe('applyFullReplace', () => {
  it('produces [lastUser, recent…, continuationSummary]', () => {
    const [u1, a1, u2, c, r] = [user('a'), assistant('b'), user('c'), call('1'), result('1', 'out')];
    const before = snapshot([u1, a1, u2, c, r]);
    const out = applyFullReplace([u1, a1, u2, c, r], '- did a and b', ['KEY_ONE']);
    expect(out.context.slice(0, 3)).toEqual([u2, c, r]);
    const carrier = out.context[3];
    expect(out.context).toHaveLength(4);
    expect(carrier.isSummary).toBe(true);
    expect(carrier.role).toBe('user');
    expect(carrier.content).toContain('- did a and b');
    expect(carrier.metadata.breadcrumbs).toEqual(['KEY_ONE']);
    expect(out.dropped).toEqual([u1, a1]);
    expect(snapshot([u1, a1, u2, c, r])).toEqual(before);
  });

  it('without a user turn, only the summary carrier remains (system messages stay)', () => {
    const s = system('s');
    const out = applyFullReplace([s, note('n'), assistant('a')], 'sum');
    expect(out.context[0]).toBe(s);
    expect(out.context).toHaveLength(2);
    expect(out.dropped).toHaveLength(2);
  });

  it('compactFullReplaceLocal uses the local stub, and changes nothing when nothing precedes the request', () => {
    const ctx = [user('fix src/app.ts'), call('1', 'read_file'), result('1', 'x'), user('now test it')];
    const out = compactFullReplaceLocal(ctx);
    expect(out.dropped).toEqual(ctx.slice(0, 3));
    const carrier = out.context.at(-1);
    expect(carrier?.content).toContain('read_file');
    expect(carrier?.metadata.breadcrumbs).toContain('src/app.ts');
    const single = [user('hi')];
    expect(compactFullReplaceLocal(single)).toEqual({ context: single, dropped: [] });
  });
});

describe('localStubSummary', () => {
  it('reports counts, requests, tools, earlier summaries and breadcrumbs without an LLM', () => {
    const text = localStubSummary([
      summary('we chose Postgres'),
      user('deploy ticket OPS-42'),
      call('1', 'shell'),
      result('1', 'ok'),
      call('2', 'shell'),
      result('2', 'ok'),
      assistant('done'),
    ]);
    expect(text).toContain('7 message(s) — 1 user request(s), 3 assistant message(s), 2 tool result(s)');
    expect(text).toContain('Earlier summary: we chose Postgres');
    expect(text).toContain('- deploy ticket OPS-42');
    expect(text).toContain('Tools used: shell ×2');
    expect(text).toMatch(/KEYS: .*OPS-42/);
  });
});

describe('native compaction', () => {
  it('cuts before the last real user turn when an assistant reply without tool calls precedes it', () => {
    const ctx = [user('a'), assistant('b', { thinking: 't1' }), user('c'), assistant('d', { thinking: 't2' })];
    expect(nativeCompactionPrefix(ctx)).toEqual({ end: 2, messages: ctx.slice(0, 2) });
  });

  it('refuses when the previous message is an open tool call, a tool result or a user-role message', () => {
    expect(nativeCompactionPrefix([user('a'), call('1'), user('c')])).toBeNull();
    expect(nativeCompactionPrefix([user('a'), call('1'), result('1', 'r'), user('c')])).toBeNull();
    expect(nativeCompactionPrefix([user('a'), note('n'), user('c')])).toBeNull();
  });

  it('refuses when nothing precedes the last user turn', () => {
    expect(nativeCompactionPrefix([user('a'), assistant('b')])).toBeNull();
    expect(nativeCompactionPrefix([assistant('b')])).toBeNull();
  });

  it('replaces the prefix with one assistant message holding the block; kept turns unchanged', () => {
    const ctx = [user('a'), assistant('b'), user('c'), assistant('d', { thinking: 'keep me' })];
    const out = applyNativeCompaction(ctx, 2, { content: '<compaction/>', metadata: { provider: 'x' } });
    expect(out.context).toHaveLength(3);
    expect(out.context[0].role).toBe('assistant');
    expect(out.context[0].content).toBe('<compaction/>');
    expect(out.context[0].metadata).toMatchObject({ provider: 'x', nativeCompaction: true });
    expect(out.context[1]).toBe(ctx[2]);
    expect(out.context[2]).toBe(ctx[3]);
    expect(out.dropped).toEqual(ctx.slice(0, 2));
    expect(() => applyNativeCompaction(ctx, 1, { content: 'x' })).toThrow(RangeError);
  });
});
