/**
 * Properties of what the pipeline saves (pure part): whatever the strategy,
 * no display row is changed or lost (only demoted; new rows are context-only),
 * tool groups are never split in the new context, context order holds, and
 * the LOCAL result fits the target unless only the newest turn is left.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  diffContext,
  hardTruncateOutcome,
  localStrategy,
  planFor,
  runsOutcome,
  type StrategyEnv,
} from '../../src/compression/strategies.js';
import { summaryRuns } from '../../src/domain/compression/planner.js';
import { orderContext } from '../../src/domain/context-order.js';
import { splitTurns } from '../../src/domain/turns.js';
import type { ChatMessage } from '../../src/domain/types.js';
import { makeMessage } from '../../src/domain/types.js';
import { charTokens } from './compression-fixtures.js';

const step = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), size: fc.integer({ min: 1, max: 300 }) }),
  fc.record({
    kind: fc.constant('tools' as const),
    results: fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: 3 }),
  }),
);

function build(turns: { steps: { kind: 'text' | 'tools'; size?: number; results?: number[] }[] }[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let seq = 0;
  const add = (m: Parameters<typeof makeMessage>[0]) => out.push(makeMessage({ ...m, sequenceNumber: seq++ }));
  turns.forEach((turn, t) => {
    add({ role: 'user', content: `request ${t}` });
    for (const s of turn.steps) {
      if (s.kind === 'text') add({ role: 'assistant', content: 'a'.repeat(s.size!) });
      else {
        const ids = s.results!.map((_, i) => `c${seq}_${i}`);
        add({ role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'shell', arguments: {} })) });
        s.results!.forEach((n, i) => add({ role: 'tool', content: 'r'.repeat(n), toolCallId: ids[i]!, name: 'shell' }));
      }
    }
  });
  return out;
}

function groupsIntact(context: readonly ChatMessage[]): boolean {
  const open = new Set<string>();
  for (const m of context) {
    for (const c of m.toolCalls) open.add(c.id);
    if (m.role === 'tool' && !open.has(m.toolCallId!)) return false;
  }
  return true;
}

const env = (window: number): StrategyEnv => ({
  deps: {} as never,
  profile: {} as never,
  settings: {
    window,
    model: 'm',
    threshold: 0.9,
    target: 0.65,
    keepRecent: 2,
    midTurnKeepMessages: 12,
    temperature: 0.3,
    maxTokens: 100,
    prompt: null,
    vision: false,
  },
  estimate: charTokens,
  price: () => 0,
  keepRecentMessages: 12,
  onStart: async () => undefined,
});

const turnsArb = fc.array(fc.record({ steps: fc.array(step, { maxLength: 6 }) }), { minLength: 1, maxLength: 8 });

describe('compression outcome properties', () => {
  it('LOCAL and hard truncation: display rows untouched, groups intact, target met', async () => {
    await fc.assert(
      fc.asyncProperty(turnsArb, fc.integer({ min: 2_000, max: 40_000 }), async (turns, window) => {
        const context = build(turns);
        for (const outcome of [
          await localStrategy(context, env(window)),
          hardTruncateOutcome(context, env(window), planFor(context, env(window))),
        ]) {
          if (!outcome) continue;
          // Demoted rows are existing rows (flag flip only); every new row is context-only.
          for (const d of outcome.dropped) expect(context).toContain(d);
          for (const a of outcome.added) expect(a.isDisplay).toBe(false);
          const next = applyOutcome(context, outcome);
          expect(groupsIntact(next)).toBe(true);
          expect(orderContext(next)).toEqual(next);
        }
        const local = await localStrategy(context, env(window));
        if (local) {
          const next = applyOutcome(context, local);
          const onlyNewest = next.filter((m) => m.role === 'user' && !m.isSummary).length <= 1;
          expect(charTokens(next) <= window * 0.65 || onlyNewest).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it(
    'SUMMARY after an adaptive swap: the model view stays ' +
      'chronological (one summary per run, where the run stood)',
    () => {
      const turnKind = fc.record({
        kind: fc.constantFrom('filler', 'important', 'normal', 'normal'),
        size: fc.integer({ min: 1, max: 2_000 }),
      });
      let swaps = 0;
      fc.assert(
        fc.property(
          fc.array(turnKind, { minLength: 2, maxLength: 14 }),
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1_000, max: 30_000 }),
          (turns, keepRecent, window) => {
            const context: ChatMessage[] = [];
            let seq = 0;
            const add = (m: Parameters<typeof makeMessage>[0]) =>
              context.push(makeMessage({ ...m, sequenceNumber: seq++ }));
            for (const [i, t] of turns.entries()) {
              if (t.kind === 'filler') add({ role: 'user', content: 'ok' });
              else if (t.kind === 'important')
                add({
                  role: 'user',
                  content: `remember: we decided on plan ${i}. ${'d'.repeat(Math.max(400, t.size))}`,
                });
              else add({ role: 'user', content: `request ${i} ${'q'.repeat(t.size)}` });
              add({ role: 'assistant', content: `answer ${i} ${'a'.repeat(t.size)}` });
              if (i % 3 === 1) add({ role: 'system', content: `note ${i}`, metadata: { source: 'task_note' } });
            }
            const e = { ...env(window), settings: { ...env(window).settings, keepRecent } };
            const plan = planFor(context, e);
            if (!plan.wouldCompress) return;
            const runs = summaryRuns(plan, context);
            if (runs.length > 1) swaps++;
            const outcome = runsOutcome(
              context,
              runs,
              runs.map((_, i) => ({ summary: `summary ${i}`, keys: [] })),
            );
            expect(new Set(outcome.dropped)).toEqual(new Set(plan.toSummarize));
            const next = applyOutcome(context, outcome);
            // Each row's span of the history: a summary covers its run, any other row is its own position.
            const span = (m: ChatMessage): [number, number] =>
              m.isSummary ? (m.metadata.covers as [number, number]) : [m.sequenceNumber, m.sequenceNumber];
            const rows = next.filter((m) => m.role !== 'system');
            for (let i = 1; i < rows.length; i++) expect(span(rows[i - 1]!)[1]).toBeLessThan(span(rows[i]!)[0]);
            // Nothing summarized stays, nothing kept is lost.
            for (const m of plan.toKeep) expect(next).toContain(m);
          },
        ),
        { numRuns: 400 },
      );
      expect(swaps).toBeGreaterThan(0);
    },
  );

  it(
    'hard truncation: the kept view, the stub summary included, ' +
      'is under half the window unless only the newest turn is left',
    () => {
      fc.assert(
        fc.property(turnsArb, fc.integer({ min: 500, max: 40_000 }), (turns, window) => {
          const context = build(turns);
          const outcome = hardTruncateOutcome(context, env(window), planFor(context, env(window)));
          const next = applyOutcome(context, outcome);
          expect(next.filter((m) => m.isSummary)).toHaveLength(1);
          const newest = new Set(splitTurns(context).at(-1)!.messages);
          const onlyNewest = next.every((m) => m.isSummary || newest.has(m));
          expect(charTokens(next) < window * 0.5 || onlyNewest).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
  );

  it('LOCAL spill: results sharing a tool-call id each get the pointer of their own row', async () => {
    const context: ChatMessage[] = [];
    let seq = 0;
    const add = (m: Parameters<typeof makeMessage>[0]) => context.push(makeMessage({ ...m, sequenceNumber: seq++ }));
    for (let t = 0; t < 5; t++) {
      add({ role: 'user', content: `request ${t}` });
      add({ role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'shell', arguments: {} }] });
      add({ role: 'tool', content: `OUT-${t} ${'r'.repeat(9_000)}`, toolCallId: 'call_0', name: 'shell' });
    }
    const outcome = (await localStrategy(context, env(1_000_000)))!;
    const spilled = outcome.added.filter((m) => typeof m.metadata.spilled === 'string');
    expect(spilled).toHaveLength(2);
    for (const copy of spilled) {
      const original = context.find((m) => m.sequenceNumber === copy.metadata.contextCopyOf)!;
      expect(copy.metadata.spilled).toBe(`spill:${original.sequenceNumber}`);
      expect(original.content.slice(0, 6)).toBe(copy.content.slice(0, 6));
    }
  });

  it('diffContext keeps copies at their original place', () => {
    const context = build([
      {
        steps: [
          { kind: 'tools', results: [50, 60] },
          { kind: 'text', size: 5 },
        ],
      },
    ]);
    const changed = context.map((m) => (m.role === 'tool' ? { ...m, content: 'short' } : m));
    const { dropped, added } = diffContext(context, changed);
    expect(dropped.map((m) => m.sequenceNumber)).toEqual([2, 3]);
    const next = applyOutcome(context, { dropped, added, summary: '', keys: [] });
    expect(next.map((m) => m.content.slice(0, 7))).toEqual(['request', '', 'short', 'short', 'aaaaa']);
    expect(next.filter((m) => m.role === 'tool').map((m) => m.metadata.contextCopyOf)).toEqual([2, 3]);
  });
});
