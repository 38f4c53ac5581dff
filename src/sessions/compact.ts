/**
 * The forced compaction (`compactSession`, `/compact`): it bypasses the
 * threshold, refuses while a turn runs, and keeps as many recent messages as
 * a mid-turn pass would.
 */
import type { App } from '../app.js';
import type { Viewer } from '../auth/policy.js';
import { compressAndSaveSession } from '../compression/compress.js';
import { compressionSettings } from '../compression/estimate.js';
import type { CompressionStrategy } from '../compression/strategies.js';
import { Conflict, NothingToCompact, NotFound } from '../store/errors.js';
import type { SessionRow } from '../store/sessions.js';

export interface CompactResult {
  session: SessionRow;
  summary: string;
  messagesBefore: number;
  messagesAfter: number;
}

export async function compactSession(app: App, viewer: Viewer, sessionId: string, strategy: CompressionStrategy): Promise<CompactResult> {
  const session = await app.sessions.writable(viewer, sessionId);
  if (await app.turns.activeTurn(session.id)) throw new Conflict('A turn is running in this session');
  const profile = await app.profiles.get(session.profileId);
  if (!profile) throw new NotFound('Profile');
  const result = await compressAndSaveSession(app, session.id, {
    reason: 'FORCED',
    strategy,
    keepRecentMessages: compressionSettings(app, profile).midTurnKeepMessages,
  });
  if (!result) throw new NothingToCompact();
  const fresh = await app.store.get(session.id);
  return { session: fresh!, summary: result.summary, messagesBefore: result.messagesBefore, messagesAfter: result.messagesAfter };
}
