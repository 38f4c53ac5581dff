/**
 * Compaction fidelity (issue "Compaction you can prove", item 2; docs/performance-compression.md). 50 synthetic
 * sessions, 5 planted facts each in every round (250 facts by round 5, every anchor kind), spread over filler
 * exchanges; each session is compacted 5 times (compactSession, forced), more history arriving between rounds,
 * so later rounds merge earlier summaries. Two fake summarizers at the provider's HTTP boundary:
 *   (a) drops everything: a vague summary naming no fact;
 *   (b) paraphrases and keeps half: every other planted fact it was sent, in its own words around it.
 * After rounds 1, 3 and 5 it reads each session's `modelView` (what the model is sent) and its receipts, and
 * reports per case: the share of planted facts in what the model is sent, the facts lost silently (neither sent
 * nor listed as dropped by a receipt; goal 0) and the share the anchor extractor recognises, per kind.
 *
 *   npx tsx bench/compaction-fidelity.ts                  # embedded PGlite; DATABASE_URL for PostgreSQL
 *   SESSIONS=10 npx tsx bench/compaction-fidelity.ts
 *   REAL_OLLAMA_HOST=http://127.0.0.1:11434 REAL_MODEL=qwen3:8b npx tsx bench/compaction-fidelity.ts   # + a real model
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { ANCHOR_KINDS, type AnchorKind, extractAnchors } from '../src/domain/compression/anchors.js';
import { parseGlobalId } from '../src/schema/ids.js';
import {
  CompressionReceiptsDocument,
  SupportCompressionCompactDocument,
  SupportCompressionCreateSessionDocument,
  SupportCompressionUpsertProfileDocument,
} from '../test/generated/graphql.js';
import { createServerDatabase } from '../test/support/durability.js';
import { type FakeCall, jsonList, jsonRecord, startFakeProvider } from '../test/support/fake-provider.js';
import { benchServer } from './lib.js';

const SESSIONS = Number(process.env.SESSIONS ?? 50);
const ROUNDS = 5;
const REPORT_AFTER = [1, 3, 5];
const FILLER_EXCHANGES = 4;

interface Fact {
  kind: AnchorKind;
  value: string;
  sentence: string;
}

/** One planted fact of each kind, made unique by (session, round, slot). */
function factOf(kind: AnchorKind, s: number, r: number, i: number): Fact {
  const n = s * 100 + r * 10 + i;
  const v = (value: string, sentence: string): Fact => ({ kind, value, sentence });
  switch (kind) {
    case 'identifier':
      return v(`ZX-${4000 + n}`, `The outage is tracked in ZX-${4000 + n}, assigned to the platform team.`);
    case 'number':
      return v(`${n + 17} ms`, `The p99 latency settled at ${n + 17} ms after the cache warmed up.`);
    case 'version':
      return v(`v3.${s}.${r * 10 + i}-rc2`, `We pin the gateway to v3.${s}.${r * 10 + i}-rc2 until the fix lands.`);
    case 'date':
      return v(
        `2027-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}`,
        `The freeze starts on 2027-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}.`,
      );
    case 'path':
      return v(`/etc/gateway/site-${n}.conf`, `The override lives in /etc/gateway/site-${n}.conf on every node.`);
    case 'url':
      return v(
        `https://status.example.com/incidents/${n}`,
        `See https://status.example.com/incidents/${n} for the timeline.`,
      );
    case 'email':
      return v(`oncall-${n}@example.com`, `Page oncall-${n}@example.com if the job fails again.`);
    case 'code':
      return v(`rotateKeys${n}()`, `The nightly job calls \`rotateKeys${n}()\` before the backup.`);
    case 'quoted':
      return v(`Blue Harbor ${n}`, `The customer calls the project "Blue Harbor ${n}" in every ticket.`);
    case 'key':
      return v(`CACHE_TTL_${n}`, `Set CACHE_TTL_${n} to 300 in the environment of the workers.`);
  }
}

/** The kinds planted in round r of session s: 5 of the 10, rotating, so every kind is planted often. */
function plantedKinds(s: number, r: number): AnchorKind[] {
  return [0, 1, 2, 3, 4].map((i) => ANCHOR_KINDS[(s + r * 5 + i) % ANCHOR_KINDS.length]!);
}

function summaryText(call: FakeCall): string {
  return jsonList(jsonRecord(call.body).messages)
    .map(jsonRecord)
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
}

const isSummaryCall = (call: FakeCall) => {
  const first = jsonList(jsonRecord(call.body).messages).map(jsonRecord)[0];
  return first?.role === 'system' && /^You (compress|merge|write a continuation)/.test(String(first.content));
};

type Case = 'drops everything' | 'paraphrases, keeps half' | 'real model';

interface RoundResult {
  planted: number;
  sent: number;
  droppedListed: number;
  lostSilently: number;
  recognised: Map<AnchorKind, { planted: number; recognised: number }>;
  lostExamples: string[];
}

async function runCase(label: Case, allFacts: Fact[][][], real?: { host: string; model: string }) {
  const fake = await startFakeProvider();
  const dir = mkdtempSync(join(tmpdir(), 'bench-fidelity-'));
  const databaseUrl = process.env.DATABASE_URL;
  // The fake summarizer: it sees the region as the service formats it and answers as the case says.
  fake.responder = (call) => {
    if (!isSummaryCall(call)) return { text: 'fine' };
    if (label === 'drops everything') return { text: '- The user and the assistant discussed operations work.' };
    const text = summaryText(call);
    const seen = allFacts.flat(2).filter((f) => text.includes(f.value));
    const kept = seen.filter((_, i) => i % 2 === 0);
    const lines = kept.map((f) => `- They noted ${f.value} among the details.`);
    return { text: ['- The user and the assistant worked through incidents and settings.', ...lines].join('\n') };
  };
  // A fresh store per case: PostgreSQL when DATABASE_URL is set (its own database), else PGlite in a temp dir.
  const db = databaseUrl ? await createServerDatabase(databaseUrl) : null;
  const { app, server, gql } = await benchServer(db?.url ?? '', {
    ollamaHost: real?.host ?? fake.url,
    ...(db ? {} : { databaseUrl: undefined, dataDir: join(dir, 'data') }),
    sessionFilesDir: join(dir, 'files'),
  });
  const call = async <R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<R> =>
    (await gql(print(doc), variables as object)) as R;
  const results = new Map<number, RoundResult>();
  try {
    const profile = await call(SupportCompressionUpsertProfileDocument, {
      i: {
        key: `fidelity-${label.replace(/\W+/g, '-')}`,
        name: label,
        model: real?.model ?? 'fake:latest',
        provider: 'ollama',
        contextWindow: 32_768,
        compressionKeepRecent: 2,
        systemPrompt: '',
      },
    });
    const sessions: { id: string; raw: string }[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const id = (await call(SupportCompressionCreateSessionDocument, { p: profile.upsertProfile.id })).createSession
        .id;
      sessions.push({ id, raw: parseGlobalId(id, 'Session') });
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (let s = 0; s < SESSIONS; s++) {
        const facts = allFacts[s]![r]!;
        const messages = [];
        for (let e = 0; e < FILLER_EXCHANGES; e++) {
          const fact = facts[e] ?? null;
          const filler = `Round ${r}, step ${e}: we went through the runbook and the dashboards again.`;
          messages.push({
            role: 'user' as const,
            content: fact && e % 2 === 0 ? `${filler} ${fact.sentence}` : filler,
          });
          messages.push({
            role: 'assistant' as const,
            content: fact && e % 2 === 1 ? `Understood. ${fact.sentence}` : 'Understood, nothing else changes.',
          });
        }
        // The fifth fact rides on the newest exchange's question: it is recent at this round, compacted at the next.
        const fifth = facts[4]!;
        messages.push({ role: 'user' as const, content: `One more thing. ${fifth.sentence}` });
        messages.push({ role: 'assistant' as const, content: 'Noted.' });
        await app.store.append(sessions[s]!.raw, messages);
        await call(SupportCompressionCompactDocument, { id: sessions[s]!.id });
      }
      if (!REPORT_AFTER.includes(r + 1)) continue;
      const result: RoundResult = {
        planted: 0,
        sent: 0,
        droppedListed: 0,
        lostSilently: 0,
        recognised: new Map(ANCHOR_KINDS.map((k) => [k, { planted: 0, recognised: 0 }])),
        lostExamples: [],
      };
      for (let s = 0; s < SESSIONS; s++) {
        const view = await call(CompressionReceiptsDocument, { id: sessions[s]!.id });
        const sent = view.session!.modelView.messages.map((m) => m.content).join('\n');
        const dropped = new Set(
          view.session!.compressions.flatMap((c) => c.receipt?.droppedAnchors.map((a) => a.value) ?? []),
        );
        for (const fact of allFacts[s]!.slice(0, r + 1).flat()) {
          result.planted++;
          const tally = result.recognised.get(fact.kind)!;
          tally.planted++;
          const recognised = extractAnchors(fact.sentence).some((a) => a.value === fact.value);
          if (recognised) tally.recognised++;
          if (sent.includes(fact.value)) result.sent++;
          else if (dropped.has(fact.value)) result.droppedListed++;
          else if (recognised) {
            result.lostSilently++;
            if (result.lostExamples.length < 5) result.lostExamples.push(`${fact.kind}: ${fact.value}`);
          }
        }
      }
      results.set(r + 1, result);
    }
  } finally {
    await server.close();
    await app.close();
    await fake.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);

async function main() {
  const allFacts: Fact[][][] = [];
  for (let s = 0; s < SESSIONS; s++) {
    allFacts.push([]);
    for (let r = 0; r < ROUNDS; r++) allFacts[s]!.push(plantedKinds(s, r).map((k, i) => factOf(k, s, r, i)));
  }
  console.log(
    `${SESSIONS} sessions, ${SESSIONS * ROUNDS * 5} planted facts by round ${ROUNDS}, compacted once a round`,
  );
  const cases: [Case, { host: string; model: string } | undefined][] = [
    ['drops everything', undefined],
    ['paraphrases, keeps half', undefined],
  ];
  if (process.env.REAL_OLLAMA_HOST && process.env.REAL_MODEL) {
    cases.push(['real model', { host: process.env.REAL_OLLAMA_HOST, model: process.env.REAL_MODEL }]);
  }
  console.log('| summarizer | after round | planted | in what the model is sent | listed as dropped | lost silently |');
  console.log('|---|---:|---:|---:|---:|---:|');
  let recognisedTable: RoundResult['recognised'] | null = null;
  for (const [label, real] of cases) {
    const started = performance.now();
    const results = await runCase(label, allFacts, real);
    for (const [round, r] of results) {
      const lost = `${r.lostSilently}${r.lostExamples.length ? ` (${r.lostExamples.join('; ')})` : ''}`;
      const sent = `${r.sent} (${pct(r.sent, r.planted)})`;
      console.log(`| ${label} | ${round} | ${r.planted} | ${sent} | ${r.droppedListed} | ${lost} |`);
      recognisedTable = r.recognised;
    }
    console.error(`  (${label}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  if (recognisedTable) {
    console.log('\n| anchor kind | planted | recognised by the extractor |');
    console.log('|---|---:|---:|');
    for (const [kind, t] of recognisedTable) {
      console.log(`| ${kind} | ${t.planted} | ${t.recognised} (${pct(t.recognised, t.planted)}) |`);
    }
  }
}

await main();
