/**
 * Who may read or change a session, asked of the policy on the stored row.
 * Its own object so that the services a session's delete depends on (turns)
 * can check access without depending on SessionService.
 */
import { can, type Viewer } from '../domain/policy.js';
import { NotFound } from '../store/errors.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';

export class SessionAccess {
  constructor(private readonly store: Pick<SessionStore, 'get'>) {}

  /** The session if the viewer may read it; NOT_FOUND otherwise (same answer as a missing one). */
  async readable(viewer: Viewer, id: string): Promise<SessionRow> {
    const session = await this.store.get(id);
    if (!session || !can(viewer, 'read', session)) throw new NotFound();
    return session;
  }

  async findReadable(viewer: Viewer, id: string): Promise<SessionRow | null> {
    const session = await this.store.get(id);
    return session && can(viewer, 'read', session) ? session : null;
  }

  /** The session if the viewer may change it. Readable but not writable → FORBIDDEN. */
  async writable(viewer: Viewer, id: string): Promise<SessionRow> {
    const session = await this.readable(viewer, id);
    if (!can(viewer, 'write', session)) throw new NotFound();
    return session;
  }
}
