/**
 * Compression benchmark. Planning + formatting (the LLM excluded) for sessions
 * of 2,000 and 20,000 messages built in memory, priced by buildPrompt as the
 * pipeline prices them; and memorySearch over 100,000 chunks in a fresh database
 * (DATABASE_URL if set, else embedded PGlite). Goals: planning ≤ 50 ms at
 * 20,000 messages; memorySearch p50 ≤ 20 ms.
 *
 *   npx tsx bench/compression.ts
 */
import { createApp } from '../src/app.js';
import { MemoryIndex } from '../src/store/memory.js';
import { selectForSummary } from '../src/compression/summarize.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { formatForSummary } from '../src/domain/compression/format.js';
import { planCompression } from '../src/domain/compression/planner.js';
import { buildPrompt } from '../src/domain/prompt.js';
import type { ChatMessage } from '../src/domain/types.js';
import { makeMessage } from '../src/domain/types.js';
import { measure } from './lib.js';

const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec ' +
  'romeo sierra tango uniform victor whiskey xray yankee zulu deploy ' +
  'gateway config server client token cache index query shell build release'
).split(' ');

function session(messages: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  let seq = 0;
  const add = (m: Parameters<typeof makeMessage>[0]) => out.push(makeMessage({ ...m, sequenceNumber: seq++ }));
  while (out.length < messages) {
    const t = out.length;
    add({ role: 'user', content: `request ${t}: ${WORDS.slice(t % 20, (t % 20) + 12).join(' ')}` });
    for (let i = 0; i < 3 && out.length < messages; i++) {
      const id = `call_${t}_${i}`;
      add({
        role: 'assistant',
        content: '',
        toolCalls: [{ id, name: 'shell', arguments: { cmd: `grep -r ${WORDS[(t + i) % WORDS.length]} src/` } }],
      });
      add({
        role: 'tool',
        content: `output ${t}/${i}\n${'line of tool output\n'.repeat(40 + ((t + i) % 60))}`,
        toolCallId: id,
        name: 'shell',
      });
    }
    add({ role: 'assistant', content: `Done with ${t}. ${'explanation '.repeat(30)}` });
  }
  return out.slice(0, messages);
}

async function planning() {
  const rules = {
    model: 'bench-model',
    vision: false,
    window: 32_768,
    messageTokenBudget: 0,
    fallbackImageTokens: 0,
    systemPrompt: '',
    images: new Map(),
  };
  const estimate = (messages: readonly ChatMessage[]) => buildPrompt({ ...rules, context: messages }).estimate;
  const rows: Record<string, unknown>[] = [];
  for (const n of [2_000, 20_000]) {
    const context = session(n);
    const run = () => {
      const plan = planCompression(context, { keepRecent: 4, keepRecentMessages: 12, window: 32_768, estimate });
      return formatForSummary(selectForSummary(plan.toSummarize));
    };
    const plan = await measure(
      `plan (${n} messages)`,
      30,
      async () => planCompression(context, { keepRecent: 4, keepRecentMessages: 12, window: 32_768, estimate }),
      3,
    );
    const both = await measure(`plan + format (${n} messages)`, 30, async () => run(), 3);
    rows.push({ n, planP50: plan.p50, planP95: plan.p95, bothP50: both.p50, bothP95: both.p95 });
  }
  return rows;
}

async function search() {
  const url = process.env.DATABASE_URL;
  const db = await openDatabase(url ? { url } : { dataDir: 'memory://' });
  const app = await createApp(loadConfig({}, { logLevel: 'silent', databaseUrl: url, port: 0 }), { db });
  const prisma = app.db.prisma;
  const profile = await prisma.profile.findFirstOrThrow();
  const SESSIONS = 100;
  const CHUNKS = 100_000;
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++)
    ids.push((await prisma.session.create({ data: { profileId: profile.id, userId: 'anonymous' } })).id);
  const started = performance.now();
  const batch = 10_000;
  for (let from = 0; from < CHUNKS; from += batch) {
    await prisma.$executeRawUnsafe(
      `INSERT INTO memory_chunks (id, session_id, content, content_hash, breadcrumbs, ` +
        `turn_start, turn_end, first_at, last_at, created_at)
       SELECT gen_random_uuid(), ($1::uuid[])[1 + (i % ${SESSIONS})],
              'USER: chunk ' || i || ' about ' || ($2::text[])[1 + (i % ${WORDS.length})] ` +
        `|| ' and ' || ($2::text[])[1 + ((i / ${WORDS.length}) % ${WORDS.length})]
                || ' marker' || (i % 5000) || E'\\n\\nASSISTANT: ' || repeat(md5(i::text) || ' ', 40),
              md5('chunk' || i), '{}', i, i + 1, now(), now(), now()
         FROM generate_series($3::int, $4::int) AS i`,
      ids,
      WORDS,
      from,
      from + batch - 1,
    );
  }
  await prisma.$executeRawUnsafe('ANALYZE memory_chunks');
  console.log(
    `inserted ${CHUNKS} chunks in ${((performance.now() - started) / 1000).toFixed(1)}` +
      ` s (${app.db.kind}, pg_trgm: ${app.trigram})`,
  );
  const index = new MemoryIndex(prisma, app.trigram);
  let q = 0;
  const rare = await measure('memorySearch, one session, rare term', 100, () =>
    index.search({ scope: { sessionIds: [ids[q++ % SESSIONS]!] }, query: `marker${(q * 37) % 5000} deploy`, first: 5 }),
  );
  const all = await measure('memorySearch, all sessions, rare term', 100, () =>
    index.search({ scope: { all: true }, query: `marker${(q++ * 53) % 5000}`, first: 5 }),
  );
  const common = await measure('memorySearch, one session, common words', 100, () =>
    index.search({ scope: { sessionIds: [ids[q++ % SESSIONS]!] }, query: 'gateway deploy', first: 5 }),
  );
  await app.close();
  return { rare, all, common, kind: app.db.kind, trigram: app.trigram };
}

async function main() {
  console.log('— planning + formatting (LLM excluded), goal ≤ 50 ms at 20,000 messages');
  const plans = await planning();
  console.log('\n— memorySearch over 100,000 chunks, goal p50 ≤ 20 ms');
  const s = await search();
  const at20k = plans.find((r) => r.n === 20_000)!;
  console.log(
    `\nplanning goal (≤ 50 ms p50 at 20k, plan + format): ${(at20k.bothP50 as number) <= 50 ? 'MET' : 'MISSED'}` +
      ` (${(at20k.bothP50 as number).toFixed(1)} ms)`,
  );
  const worst = Math.max(s.rare.p50, s.all.p50, s.common.p50);
  console.log(`memorySearch goal (p50 ≤ 20 ms): ${worst <= 20 ? 'MET' : 'MISSED'} (worst p50 ${worst.toFixed(1)} ms)`);
}

void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
