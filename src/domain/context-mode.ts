/**
 * Pin and exclude one message (issue 33): a message's context mode lives in its metadata
 * (`metadata.contextMode`), so it moves with the row through archive moves, branches, fork and
 * export/import. PINNED: never summarised, truncated or archived out of the model's context.
 * EXCLUDED: kept in the history and search, never sent to the model.
 */
import type { ChatMessage } from './types.js';

export const CONTEXT_MODES = ['DEFAULT', 'PINNED', 'EXCLUDED'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

type ModeCarrier = Pick<ChatMessage, 'metadata'>;

export function contextModeOf(m: ModeCarrier): ContextMode {
  const mode = m.metadata.contextMode;
  return mode === 'PINNED' || mode === 'EXCLUDED' ? mode : 'DEFAULT';
}

export const isPinned = (m: ModeCarrier): boolean => contextModeOf(m) === 'PINNED';
export const isExcluded = (m: ModeCarrier): boolean => contextModeOf(m) === 'EXCLUDED';

/** The metadata with `mode` set (DEFAULT removes the key, so an untouched row stays as it was). */
export function withContextMode(metadata: Record<string, unknown>, mode: ContextMode): Record<string, unknown> {
  const { contextMode: _old, ...rest } = metadata;
  return mode === 'DEFAULT' ? rest : { ...rest, contextMode: mode };
}

/** What the model may be sent of a context: the EXCLUDED rows are left out. */
export function withoutExcluded<T extends ModeCarrier>(context: readonly T[]): T[] {
  return context.filter((m) => !isExcluded(m));
}
