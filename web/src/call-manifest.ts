/**
 * The model calls of the newest turn, under "What the model sees": per call, what changed since the call before
 * (entries added, removed, changed) and, folded, its whole manifest (references and hashes, tokens per part).
 */
import { gql } from './api.js';
import { h } from './dom.js';
import { LAST_TURN, type ManifestEntryData, type ModelCallData, TURN_CALLS } from './queries.js';

/** How far back the newest user message is looked for. */
const LAST_TURN_PAGE = 50;

type LastTurnData = {
  session: { history: { edges: { node: { role: string; turn: { id: string } | null } }[] } } | null;
};

/** The newest turn's calls, or null when the conversation has none. */
export async function loadLastTurnCalls(sessionId: string): Promise<{ turnId: string; calls: ModelCallData[] } | null> {
  const data = await gql<LastTurnData>(LAST_TURN, { id: sessionId, last: LAST_TURN_PAGE });
  const turnId = data.session?.history.edges.findLast((e) => e.node.turn)?.node.turn?.id;
  if (!turnId) return null;
  const calls = await gql<{ turn: { calls: ModelCallData[] } | null }>(TURN_CALLS, { id: turnId });
  return calls.turn ? { turnId, calls: calls.turn.calls } : null;
}

const short = (ref: string) => (/^[0-9a-f-]{36}/.test(ref) ? `${ref.slice(0, 8)}${ref.slice(36)}` : ref);

function entryText(e: ManifestEntryData): string {
  const role = e.role ? ` ${e.role.toLowerCase()}` : '';
  const seq = e.sequenceNumber === null || e.sequenceNumber === undefined ? '' : ` #${e.sequenceNumber}`;
  const hash = e.hash ? ` · ${e.hash}` : '';
  return `${e.kind.toLowerCase().replace('_', ' ')}${role} ${short(e.ref)}${seq}${hash} · ~${e.tokens} tokens`;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function diffList(call: ModelCallData): HTMLElement {
  const { diff } = call;
  const rows = [
    ...diff.added.map((e) => ['added', e] as const),
    ...diff.removed.map((e) => ['removed', e] as const),
    ...diff.changed.map((e) => ['changed', e] as const),
  ];
  return h(
    'ul',
    { class: 'call-diff' },
    ...rows.map(([change, e]) => h('li', { class: `call-${change}`, text: `${change} ${entryText(e)}` })),
    diff.omittedChanged ? h('li', { class: 'call-changed', text: 'older (folded) entries changed' }) : null,
  );
}

export function renderCalls(calls: readonly ModelCallData[]): HTMLElement {
  if (calls.length === 0) return h('p', { class: 'model-calls-empty', text: 'The last turn made no model call.' });
  return h(
    'ol',
    { class: 'model-calls' },
    ...calls.map((call) => {
      const d = call.diff;
      const against =
        call.index > 0
          ? `since call ${call.index}`
          : d.against
            ? "since the previous turn's last call"
            : 'first call of the conversation';
      const prompt = call.promptTokens === null ? '' : ` (model counted ${call.promptTokens.toLocaleString()})`;
      const m = call.manifest;
      return h(
        'li',
        { class: 'model-call' },
        h('strong', {
          class: 'model-call-head',
          text:
            `Call ${call.index + 1} · ${call.model} · ~${m.tokens.toLocaleString()} tokens${prompt} · ${against}: ` +
            `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ` +
            `${d.unchanged} unchanged (${signed(d.tokenDelta)} tokens)`,
        }),
        diffList(call),
        h(
          'details',
          { class: 'call-manifest' },
          h('summary', { text: `Manifest: ${m.entries.length} entries` }),
          h(
            'ol',
            {},
            ...m.entries.map((e) => h('li', { class: `manifest-${e.kind.toLowerCase()}`, text: entryText(e) })),
          ),
          m.omitted ? h('p', { text: `${m.omitted.count} older entries folded · ~${m.omitted.tokens} tokens` }) : null,
        ),
      );
    }),
  );
}
