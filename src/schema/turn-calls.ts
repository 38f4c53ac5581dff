/**
 * Turn.calls: each model call of a turn with its manifest (what was sent, by reference and hash: src/domain/
 * call-manifest.ts) and the diff to the call before it: the previous call of the same turn, or for a turn's first
 * call the last call of the session's previous turn. Owner or admin only, as Session.modelView.
 */
import {
  type CallManifest,
  diffManifests,
  type ManifestDiff,
  type ManifestEntry,
  type ManifestOmitted,
} from '../domain/call-manifest.js';
import { can } from '../domain/policy.js';
import { Forbidden } from '../store/errors.js';
import type { TurnCallRow } from '../store/manifests.js';
import { builder } from './builder.js';
import { MessageRoleEnum } from './message.js';
import { loadTurn, TurnRef } from './turn.js';

const ManifestEntryKindEnum = builder.enumType('ManifestEntryKind', {
  values: {
    MESSAGE: { description: 'a stored message, by its message id' },
    SYSTEM_PROMPT: { description: "the profile's system prompt (its hash is its version)" },
    SUMMARY: { description: 'a summary (or native compaction block), by its message id' },
    RECALL: { description: 'a recall excerpt appended to the request, by its memory chunk id' },
    NOTICE: { description: 'a context notice (uploads, pasted images), by the message it rides on' },
    IMAGE: { description: 'an image sent, as <message id>/<file name>; its hash is of its bytes' },
  } as const,
});

const ManifestEntryRef = builder.objectRef<ManifestEntry>('ManifestEntry').implement({
  description: 'One part of what a model call was sent: a reference and a hash, never the text.',
  fields: (t) => ({
    kind: t.field({ type: ManifestEntryKindEnum, resolve: (e) => e.kind }),
    ref: t.exposeString('ref', {
      description: 'message id (MESSAGE, SUMMARY, NOTICE), `system`, chunk id (RECALL), <message id>/<file> (IMAGE)',
    }),
    sequenceNumber: t.int({
      nullable: true,
      description: 'the stored message it was sent with (null for the system prompt)',
      resolve: (e) => e.seq ?? null,
    }),
    role: t.field({
      type: MessageRoleEnum,
      nullable: true,
      resolve: (e) => (e.role ? (e.role.toUpperCase() as 'USER') : null),
    }),
    hash: t.exposeString('hash', { description: 'first 16 hex digits of the SHA-256 of what was sent' }),
    tokens: t.exposeInt('tokens', { description: 'estimated tokens (calibrated; an image its own price)' }),
  }),
});

const ManifestOmittedRef = builder.objectRef<ManifestOmitted>('ManifestOmitted').implement({
  description: 'The oldest entries past the per-call cap (200 entries), folded into one line.',
  fields: (t) => ({
    count: t.exposeInt('count'),
    tokens: t.exposeInt('tokens'),
    hash: t.exposeString('hash', { description: 'over the folded entries’ refs and hashes' }),
  }),
});

const CallManifestRef = builder.objectRef<CallManifest>('CallManifest').implement({
  description: 'What one model call was sent, by reference: at most 200 entries, the older rest folded.',
  fields: (t) => ({
    entries: t.field({ type: [ManifestEntryRef], resolve: (m) => m.entries }),
    omitted: t.field({ type: ManifestOmittedRef, nullable: true, resolve: (m) => m.omitted }),
    tokens: t.exposeInt('tokens', { description: "the sum of every entry's tokens, folded ones included" }),
  }),
});

interface DiffShape extends ManifestDiff {
  against: TurnCallRow | null;
}

const CallPointerRef = builder.objectRef<TurnCallRow>('ModelCallPointer').implement({
  description: 'Another model call, by turn and index.',
  fields: (t) => ({
    turn: t.field({
      type: TurnRef,
      nullable: true,
      resolve: async (c, _a, ctx) => {
        const turn = await loadTurn(c.turnId, ctx);
        return turn instanceof Error ? null : turn;
      },
    }),
    index: t.exposeInt('callIndex'),
  }),
});

const CallManifestDiffRef = builder.objectRef<DiffShape>('CallManifestDiff').implement({
  description:
    "What changed since the call before: the same turn's previous call, or for a turn's first call the last call " +
    "of the session's previous turn (none: everything is added).",
  fields: (t) => ({
    against: t.field({ type: CallPointerRef, nullable: true, resolve: (d) => d.against }),
    added: t.field({ type: [ManifestEntryRef], resolve: (d) => d.added }),
    removed: t.field({ type: [ManifestEntryRef], resolve: (d) => d.removed }),
    changed: t.field({
      type: [ManifestEntryRef],
      description: 'sent before under the same ref with another hash (the entry as sent now)',
      resolve: (d) => d.changed,
    }),
    unchanged: t.exposeInt('unchanged'),
    tokenDelta: t.exposeInt('tokenDelta'),
    omittedChanged: t.exposeBoolean('omittedChanged', { description: 'the folded older entries differ' }),
  }),
});

interface CallShape {
  row: TurnCallRow;
  previous: TurnCallRow | null;
}

const ModelCallRef = builder.objectRef<CallShape>('ModelCall').implement({
  description: 'One model call of a turn (a turn with tools makes several).',
  fields: (t) => ({
    index: t.int({ description: "0 for the turn's first call", resolve: (c) => c.row.callIndex }),
    at: t.field({ type: 'DateTime', resolve: (c) => c.row.createdAt }),
    model: t.string({ resolve: (c) => c.row.model }),
    estimatedTokens: t.int({ resolve: (c) => c.row.estimatedTokens }),
    promptTokens: t.int({
      nullable: true,
      description: "the provider's prompt count (null when it did not answer or reported none)",
      resolve: (c) => c.row.promptTokens,
    }),
    manifest: t.field({ type: CallManifestRef, resolve: (c) => c.row.manifest }),
    diff: t.field({
      type: CallManifestDiffRef,
      resolve: (c) => ({ ...diffManifests(c.previous?.manifest ?? null, c.row.manifest), against: c.previous }),
    }),
  }),
});

builder.objectFields(TurnRef, (t) => ({
  calls: t.field({
    type: [ModelCallRef],
    description: 'Each model call of the turn with its manifest and the diff to the call before (owner or admin).',
    resolve: async (turn, _a, ctx) => {
      const session = ctx.viewer ? await ctx.app.sessions.findReadable(ctx.viewer, turn.sessionId) : null;
      if (!session || !can(ctx.viewer, 'readContext', session))
        throw new Forbidden('Only the owner or an admin may read what the model was sent');
      const rows = await ctx.app.callManifests.ofTurn(turn.id);
      const first = rows[0];
      const before = first ? await ctx.app.callManifests.before(turn.sessionId, first.id) : null;
      return rows.map((row, i) => ({ row, previous: i === 0 ? before : rows[i - 1]! }));
    },
  }),
}));
