import { describe, expect, it } from 'vitest';
import { splitKeysLine } from '../../src/domain/compression/format.js';
import {
  fullReplaceCarrier,
  fullReplacePrefix,
  localStubSummary,
  nativeCompactionCarrier,
  nativeCompactionPrefix,
  type CompactionPrefix,
} from '../../src/domain/compression/full-replace.js';
import { maxSequence, orderContext } from '../../src/domain/context-order.js';
import { isSystemMessage } from '../../src/domain/turns.js';
import type { ChatMessage } from '../../src/domain/types.js';
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

  it('is null when all that precedes the last user turn is a lone summary', () => {
    expect(fullReplacePrefix([summary('s'), user('c'), assistant('d')])).toBeNull();
    expect(fullReplacePrefix([summary('s'), assistant('b'), user('c')])).not.toBeNull();
  });
});

/**
 * The context after compaction, as the store builds it: prefix
 * demoted, the carrier saved with the next sequence number.
 */
function compacted(context: readonly ChatMessage[], prefix: CompactionPrefix, carrier: ChatMessage): ChatMessage[] {
  const dropped = new Set(prefix.messages);
  const saved = { ...carrier, sequenceNumber: maxSequence(context) + 1 };
  return orderContext([...context.filter((m) => !dropped.has(m)), saved]);
}

const withoutSystem = (context: readonly ChatMessage[]) => context.filter((m) => !isSystemMessage(m));

describe('fullReplaceCarrier', () => {
  it('produces [lastUser, recent…, continuationSummary]', () => {
    const [u1, a1, u2, c, r] = [user('a'), assistant('b'), user('c'), call('1'), result('1', 'out')];
    const before = snapshot([u1, a1, u2, c, r]);
    const prefix = fullReplacePrefix([u1, a1, u2, c, r])!;
    expect(prefix.messages).toEqual([u1, a1]);
    const carrier = fullReplaceCarrier(prefix, { summary: '- did a and b', keys: ['KEY_ONE'] });
    const out = compacted([u1, a1, u2, c, r], prefix, carrier);
    expect(out.slice(0, 3)).toEqual([u2, c, r]);
    expect(out).toHaveLength(4);
    const last = out[3];
    expect(last.isSummary).toBe(true);
    expect(last.role).toBe('user');
    expect(last.content).toContain('- did a and b');
    expect(last.metadata).toMatchObject({
      breadcrumbs: ['KEY_ONE'],
      continuation: true,
      covers: [u1.sequenceNumber, a1.sequenceNumber],
    });
    expect(snapshot([u1, a1, u2, c, r])).toEqual(before);
  });

  it('system messages stay first', () => {
    const ctx = [system('s'), user('a'), assistant('b'), user('c')];
    const prefix = fullReplacePrefix(withoutSystem(ctx))!;
    const out = compacted(ctx, prefix, fullReplaceCarrier(prefix, { summary: 'sum', keys: [] }));
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(out[0]).toBe(ctx[0]);
    expect(out[1]).toBe(ctx[3]);
    expect(out[2].isSummary).toBe(true);
  });

  it('with the local stub (compact LLM off or failed) names the tools and keeps breadcrumbs', () => {
    const ctx = [user('fix src/app.ts'), call('1', 'read_file'), result('1', 'x'), user('now test it')];
    const prefix = fullReplacePrefix(ctx)!;
    expect(prefix.messages).toEqual(ctx.slice(0, 3));
    const carrier = fullReplaceCarrier(prefix, splitKeysLine(localStubSummary(prefix.messages)));
    expect(carrier.content).toContain('read_file');
    expect(carrier.metadata.breadcrumbs).toContain('src/app.ts');
    expect(compacted(ctx, prefix, carrier).at(-1)?.content).toBe(carrier.content);
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

  it('refuses to compact a lone native compaction block again', () => {
    const block = assistant('opaque', { metadata: { nativeCompaction: true } });
    expect(nativeCompactionPrefix([block, user('c'), assistant('d')])).toBeNull();
  });

  it('replaces the prefix with one assistant message holding the block; kept turns unchanged', () => {
    const ctx = [system('s'), user('a'), assistant('b'), user('c'), assistant('d', { thinking: 'keep me' })];
    const rest = withoutSystem(ctx);
    const prefix = nativeCompactionPrefix(rest)!;
    const block = { content: '<compaction/>', provider: 'x' };
    const out = compacted(ctx, prefix, nativeCompactionCarrier(rest, prefix, block));
    expect(out).toHaveLength(4);
    expect(out[0]).toBe(ctx[0]);
    expect(out[1].role).toBe('assistant');
    expect(out[1].content).toBe('<compaction/>');
    expect(out[1].isDisplay).toBe(false);
    expect(out[1].metadata).toMatchObject({
      nativeCompaction: true,
      compactionBlock: block,
      covers: [ctx[1].sequenceNumber, ctx[2].sequenceNumber],
    });
    expect(out[2]).toBe(ctx[3]);
    expect(out[3]).toBe(ctx[4]);
    expect(prefix.messages).toEqual(ctx.slice(1, 3));
  });
});
