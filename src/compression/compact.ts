/**
 * The forced compaction (`compactSession`, `/compact`): it bypasses the
 * threshold, refuses while a turn runs, and keeps as many recent messages as
 * a mid-turn pass would.
 */
import type { Viewer } from '../domain/policy.js';
import type { CompressionService } from './service.js';
import type { CompressionStrategy } from '../domain/compression-kinds.js';
import { Conflict, NothingToCompact, NotFound } from '../store/errors.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import type { TurnService } from '../turns/service.js';
import type { ProfileService } from '../sessions/profiles.js';
import type { SessionService } from '../sessions/service.js';

export interface CompactDeps {
  sessions: Pick<SessionService, 'writable'>;
  turns: Pick<TurnService, 'activeTurn'>;
  profiles: Pick<ProfileService, 'get'>;
  compression: Pick<CompressionService, 'compress' | 'settings'>;
  store: Pick<SessionStore, 'get'>;
}

export interface CompactResult {
  session: SessionRow;
  summary: string;
  messagesBefore: number;
  messagesAfter: number;
}

export async function compactSession(
  app: CompactDeps,
  viewer: Viewer,
  sessionId: string,
  strategy: CompressionStrategy,
): Promise<CompactResult> {
  const session = await app.sessions.writable(viewer, sessionId);
  if (await app.turns.activeTurn(session.id)) throw new Conflict('A turn is running in this session');
  const profile = await app.profiles.get(session.profileId);
  if (!profile) throw new NotFound('Profile');
  const result = await app.compression.compress(session.id, {
    reason: 'FORCED',
    strategy,
    keepRecentMessages: app.compression.settings(profile).midTurnKeepMessages,
  });
  if (!result) throw new NothingToCompact();
  const fresh = await app.store.get(session.id);
  return {
    session: fresh!,
    summary: result.summary,
    messagesBefore: result.messagesBefore,
    messagesAfter: result.messagesAfter,
  };
}
