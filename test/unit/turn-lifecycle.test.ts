/**
 * The turn lifecycle without a database: the pure table (every legal
 * transition allowed, every other pair refused), TurnLifecycle against an
 * in-memory TurnStore (each write moves a turn only along the table), the
 * scan that keeps it the only writer of turn status and publisher of turn
 * events, and the diagram in docs/architecture.md equal to the table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  FINAL_TURN_STATUSES,
  IllegalTurnTransition,
  NEW,
  sourcesOf,
  TURN_TRANSITIONS,
  type TurnState,
} from '../../src/domain/turn-lifecycle.js';
import { TURN_STATUSES, TurnStatus } from '../../src/domain/turn-status.js';
import { makeMessage } from '../../src/domain/types.js';
import type { EventBus } from '../../src/events/bus.js';
import type { SessionEventBody } from '../../src/events/types.js';
import { TURN_STATUS_WRITES, type TurnRow, type TurnStore } from '../../src/store/turns.js';
import { TurnLifecycle } from '../../src/turns/lifecycle.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STATES: TurnState[] = [NEW, ...TURN_STATUSES];

/** The lifecycle, written out: what the module must allow, and nothing else. */
const EXPECTED = [
  'NEW>RUNNING:TurnStarted',
  'NEW>QUEUED:-',
  'QUEUED>RUNNING:TurnStarted',
  'QUEUED>CANCELLED:-',
  'RUNNING>WAITING_FOR_TOOL:-',
  'WAITING_FOR_TOOL>RUNNING:-',
  ...['RUNNING', 'WAITING_FOR_TOOL'].flatMap((from) => [
    `${from}>COMPLETED:TurnEnded`,
    `${from}>CANCELLED:TurnEnded`,
    `${from}>FAILED:TurnFailed`,
    `${from}>INTERRUPTED:TurnFailed`,
  ]),
];

describe('turn lifecycle table', () => {
  it('allows exactly the legal transitions, each with its event', () => {
    const table = TURN_TRANSITIONS.map((t) => `${t.from}>${t.to}:${t.event ?? '-'}`);
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual([...EXPECTED].sort());
  });

  it('refuses every other pair of states', () => {
    let refused = 0;
    for (const from of STATES)
      for (const to of TURN_STATUSES) {
        const legal = EXPECTED.some((e) => e.startsWith(`${from}>${to}:`));
        expect(canTransition(from, to), `${from} → ${to}`).toBe(legal);
        if (legal) expect(assertTransition(from, to).to).toBe(to);
        else {
          expect(() => assertTransition(from, to)).toThrow(IllegalTurnTransition);
          refused++;
        }
      }
    expect(refused).toBe(STATES.length * TURN_STATUSES.length - EXPECTED.length);
  });

  it('names the final statuses and the guards of each write', () => {
    expect([...FINAL_TURN_STATUSES].sort()).toEqual(['CANCELLED', 'COMPLETED', 'FAILED', 'INTERRUPTED']);
    expect(sourcesOf(TurnStatus.COMPLETED).sort()).toEqual(['RUNNING', 'WAITING_FOR_TOOL']);
    expect(sourcesOf(TurnStatus.CANCELLED).sort()).toEqual(['QUEUED', 'RUNNING', 'WAITING_FOR_TOOL']);
    expect(sourcesOf(TurnStatus.RUNNING).sort()).toEqual(['QUEUED', 'WAITING_FOR_TOOL']);
  });
});

/** A TurnStore kept in memory: `transition` moves a row only from the statuses it is given, as the SQL guard does. */
function memoryTurns() {
  const rows = new Map<string, TurnRow>();
  const store = {
    get: async (id: string) => rows.get(id) ?? null,
    insertTurn: async (data: Partial<TurnRow> & { id: string; status: string }) => {
      const row = { ...blankTurn(data.id), ...data } as TurnRow;
      rows.set(row.id, row);
      return row;
    },
    transition: async (id: string, from: readonly string[], data: Partial<TurnRow>) => {
      const row = rows.get(id);
      if (!row || !from.includes(row.status)) return null;
      Object.assign(row, data);
      return { ...row };
    },
  };
  return { rows, store: store as unknown as TurnStore };
}

function blankTurn(id: string): TurnRow {
  return {
    id,
    sessionId: 's',
    status: 'RUNNING',
    startedAt: new Date(0),
    endedAt: null,
    error: null,
    pendingToolCalls: [],
    partialText: '',
    partialThinking: '',
    usage: {},
  } as unknown as TurnRow;
}

function memoryBus() {
  const published: SessionEventBody[] = [];
  const bus = { publish: async (_s: string, body: SessionEventBody) => void published.push(body) };
  return { published, bus: bus as unknown as EventBus };
}

describe('TurnLifecycle (in memory)', () => {
  /** Every write the lifecycle offers, named by the status it moves to. */
  const writes: { to: TurnStatus; run: (l: TurnLifecycle, id: string) => Promise<TurnRow | null | boolean> }[] = [
    {
      to: TurnStatus.RUNNING,
      run: (l, id) => l.startQueued({} as never, id, { userSequence: 1, ownerProcess: 'p', ownerInstance: null }),
    },
    { to: TurnStatus.RUNNING, run: (l, id) => l.resumeAfterTools(id) },
    { to: TurnStatus.WAITING_FOR_TOOL, run: (l, id) => l.waitForTools(id, []) },
    { to: TurnStatus.CANCELLED, run: (l, id) => l.cancelQueued(id) },
    { to: TurnStatus.CANCELLED, run: (l, id) => l.cancelActive(id) },
    ...(['COMPLETED', 'CANCELLED', 'FAILED', 'INTERRUPTED'] as const).map((to) => ({
      to,
      run: (l: TurnLifecycle, id: string) => l.end(id, to, null),
    })),
  ];

  it('moves a turn only along a legal transition; any other write leaves it as it was', async () => {
    let moved = 0;
    for (const from of TURN_STATUSES)
      for (const write of writes) {
        const { rows, store } = memoryTurns();
        rows.set('t', { ...blankTurn('t'), status: from });
        const lifecycle = new TurnLifecycle(store, memoryBus().bus);
        const result = await write.run(lifecycle, 't');
        const after = rows.get('t')!.status;
        if (result) {
          expect(canTransition(from, write.to), `${from} → ${write.to}`).toBe(true);
          expect(after).toBe(write.to);
          moved++;
        } else expect(after, `${from} → ${write.to} refused`).toBe(from);
      }
    // every legal move out of a stored status is reachable through some write
    expect(moved).toBeGreaterThanOrEqual(TURN_TRANSITIONS.filter((t) => t.from !== NEW).length);
  });

  it('creates RUNNING and QUEUED turns only', async () => {
    const { rows, store } = memoryTurns();
    const lifecycle = new TurnLifecycle(store, memoryBus().bus);
    const owner = { ownerProcess: 'p', ownerInstance: null };
    await lifecycle.create({} as never, { id: 'a', sessionId: 's', userSequence: 0, ...owner });
    await lifecycle.createQueued({} as never, { id: 'b', sessionId: 's', idempotencyKey: null });
    expect([rows.get('a')!.status, rows.get('b')!.status]).toEqual(['RUNNING', 'QUEUED']);
  });

  it('announces a turn only with the event of the transition into its status', async () => {
    const { published, bus } = memoryBus();
    const lifecycle = new TurnLifecycle(memoryTurns().store, bus);
    const message = {
      ...makeMessage({ role: 'user', content: 'x' }),
      sequenceNumber: 0,
      sessionId: 's',
      displayIndex: null,
      archived: false,
    };
    const usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, cacheWriteTokens: 0 };
    const announce = {
      TurnStarted: (t: TurnRow) => lifecycle.started(t, message),
      TurnEnded: (t: TurnRow) => lifecycle.ended(t, null, usage),
      TurnFailed: (t: TurnRow) => lifecycle.failed(t, 'INTERRUPTED', 'x'),
    };
    for (const status of TURN_STATUSES)
      for (const [event, run] of Object.entries(announce)) {
        const legal = TURN_TRANSITIONS.some((t) => t.to === status && t.event === event);
        const turn = { ...blankTurn('t'), status };
        if (legal) await run(turn);
        else await expect(run(turn), `${event} for ${status}`).rejects.toThrow(/cannot announce/);
      }
    expect(published.map((p) => p.type).sort()).toEqual(
      ['TurnStarted', 'TurnEnded', 'TurnEnded', 'TurnFailed', 'TurnFailed'].sort(),
    );
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const LIFECYCLE = 'src/turns/lifecycle.ts';
const TURN_STORE = 'src/store/turns.ts';

/** What only the lifecycle may do, each as a pattern over one source file (comments included: keep them honest). */
function offences(rel: string, text: string): string[] {
  const found: string[] = [];
  if (rel !== LIFECYCLE) {
    for (const m of text.matchAll(/type:\s*['"`](Turn(?:Started|Ended|Failed|Interrupted))['"`]\s*[,}]/g))
      found.push(`publishes ${m[1]}`);
    const writes = new RegExp(`\\.(${TURN_STATUS_WRITES.join('|')})\\(`, 'g');
    if (rel !== TURN_STORE) for (const m of text.matchAll(writes)) found.push(`calls TurnStore.${m[1]}`);
  }
  if (rel !== TURN_STORE) {
    for (const m of text.matchAll(/\.turn\.(create|update|upsert)\w*\(/g)) found.push(`writes turns (prisma ${m[1]})`);
    for (const m of text.matchAll(/(UPDATE\s+turns\b|INSERT\s+INTO\s+turns\b)/gi)) found.push(`writes turns (${m[1]})`);
  } else {
    // In the store itself, only insertTurn and transition may set a status.
    for (const m of text.matchAll(/data:\s*\{[^}]*\bstatus\s*:\s*(TurnStatus\.|['"])/g))
      found.push(`sets status at ${m.index}`);
    for (const m of text.matchAll(/UPDATE\s+turns\s+SET[^;`]*\bstatus\s*=/gi)) found.push(`sets status at ${m.index}`);
  }
  return found;
}

describe('one writer, one publisher', () => {
  it('no module but src/turns/lifecycle.ts writes a turn status or publishes a turn event', () => {
    const found = sourceFiles(join(root, 'src')).flatMap((path) => {
      const rel = relative(root, path).replaceAll('\\', '/');
      return offences(rel, readFileSync(path, 'utf8')).map((o) => `${rel}: ${o}`);
    });
    expect(found).toEqual([]);
  });

  it('the scan catches each kind of offence', () => {
    expect(offences('src/turns/runner.ts', "await bus.publish(id, { type: 'TurnEnded', turn })")).toHaveLength(1);
    expect(offences('src/turns/service.ts', 'await this.turns.transition(id, from, data)')).toHaveLength(1);
    expect(offences('src/sessions/x.ts', 'await tx.turn.updateMany({ where, data })')).toHaveLength(1);
    expect(offences('src/store/x.ts', "`UPDATE turns SET status = 'FAILED'`")).toHaveLength(1);
    expect(offences(TURN_STORE, "data: { status: 'CANCELLED' }")).toHaveLength(1);
    expect(offences(LIFECYCLE, "await bus.publish(id, { type: 'TurnEnded', turn })")).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it("draws the lifecycle's transitions, no more and no fewer", () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The turn lifecycle'));
    const block = /```mermaid\n(stateDiagram-v2\n[\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const arrows = [...block!.matchAll(/^\s*(\[\*\]|\w+)\s*-->\s*(\w+)\s*:\s*(\w+)\s*\/\s*(\w+|-)\s*$/gm)].map(
      ([, from, to, on, event]) => `${from === '[*]' ? NEW : from}>${to}:${on}/${event}`,
    );
    const lines = block!.split('\n').filter((l) => l.includes('-->'));
    expect(arrows.length).toBe(lines.length);
    const table = TURN_TRANSITIONS.map((t) => `${t.from}>${t.to}:${t.on}/${t.event ?? '-'}`);
    expect([...arrows].sort()).toEqual([...table].sort());
  });
});
