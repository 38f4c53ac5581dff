/**
 * Session use-cases behind the GraphQL layer: access checks, validation,
 * events. Resolvers call these and return what they return.
 */
import type { Config } from '../config.js';
import type { EventBus } from '../events/bus.js';
import { BadInput, Conflict, NotFound } from '../store/errors.js';
import type { SessionAccess } from './access.js';
import type { StoredMessage } from '../store/rows.js';
import type { Viewer } from '../auth/policy.js';
import { type SessionRow, SessionStore } from '../store/sessions.js';
import type { ProfileService } from './profiles.js';

export const MAX_NAME_LENGTH = 200;
const ALLOWED_EVENT_SOURCES = new Set(['task_note', 'synapse_event']);

/** What a delete does around the row's removal, given by the composition root. */
export interface SessionDeleteHooks {
  /** stops a running turn before its session goes */
  beforeDelete(sessionId: string): Promise<void>;
  /**
   * Removes what the session kept outside the database (its files directory)
   * once the delete has committed. Never throws: a failure is logged and the
   * orphan cleanup loop removes the directory later.
   */
  afterDelete(sessionId: string): Promise<void>;
}

export class SessionService {
  constructor(
    readonly store: SessionStore,
    private readonly access: SessionAccess,
    private readonly profiles: ProfileService,
    private readonly bus: EventBus,
    private readonly config: Config,
    private readonly deleteHooks: SessionDeleteHooks,
  ) {}

  /** The session if the viewer may read it; NOT_FOUND otherwise (same answer as a missing one). */
  readable(viewer: Viewer, id: string): Promise<SessionRow> {
    return this.access.readable(viewer, id);
  }

  findReadable(viewer: Viewer, id: string): Promise<SessionRow | null> {
    return this.access.findReadable(viewer, id);
  }

  /** The session if the viewer may change it. Readable but not writable → FORBIDDEN. */
  writable(viewer: Viewer, id: string): Promise<SessionRow> {
    return this.access.writable(viewer, id);
  }

  async create(viewer: Viewer, input: { profileId?: string | null; name?: string | null }) {
    const name = input.name == null ? null : validName(input.name);
    const profile = input.profileId ? await this.profiles.get(input.profileId) : await this.profiles.default();
    if (!profile) throw new NotFound('Profile');
    const session = await this.store.create({ profileId: profile.id, userId: viewer.userId, name });
    await this.bus.publishList({ kind: 'created', sessionId: session.id, userId: session.userId });
    return session;
  }

  async delete(viewer: Viewer, id: string) {
    const session = await this.writable(viewer, id);
    await this.deleteHooks.beforeDelete(session.id);
    await this.store.delete(session.id);
    await this.deleteHooks.afterDelete(session.id);
    await this.bus.publishList({ kind: 'deleted', sessionId: session.id, userId: session.userId });
    return session.id;
  }

  async rename(viewer: Viewer, id: string, rawName: string) {
    const session = await this.writable(viewer, id);
    const name = validName(rawName);
    const updated = await this.store.setName(session.id, name, 'MANUAL');
    await this.bus.publish(session.id, { type: 'SessionRenamed', name, titleSource: 'MANUAL' });
    await this.bus.publishList({ kind: 'renamed', sessionId: session.id, userId: session.userId });
    return updated;
  }

  async setPinned(viewer: Viewer, id: string, pinned: boolean) {
    const session = await this.writable(viewer, id);
    const updated = await this.store.setPinned(session.id, pinned);
    await this.bus.publishList({ kind: 'pinned', sessionId: session.id, userId: session.userId });
    return updated;
  }

  /** Stores a service record (role=system, metadata.source); only allowlisted sources ever reach the model. */
  async recordEvent(
    viewer: Viewer,
    input: { sessionId: string; source: string; text: string },
  ): Promise<StoredMessage> {
    const session = await this.writable(viewer, input.sessionId);
    const source = input.source.trim();
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(source)) throw new BadInput('source must be a short snake_case name');
    if (input.text.trim() === '') throw new BadInput('text must not be empty');
    if (input.text.length > this.config.maxMessageChars) throw new BadInput('text is too long');
    const [message] = await this.store.append(session.id, [
      { role: 'system', content: input.text, metadata: { source }, isContext: ALLOWED_EVENT_SOURCES.has(source) },
    ]);
    await this.bus.publish(session.id, { type: 'MessageSaved', turnId: null, message: messageJson(message!) });
    return message!;
  }

  assertIdle(activeTurn: unknown) {
    if (activeTurn) throw new Conflict('A turn is running in this session');
  }
}

export function validName(raw: string): string {
  const name = raw.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (name === '') throw new BadInput('Name must not be empty');
  if (name.length > MAX_NAME_LENGTH) throw new BadInput(`Name must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

export function messageJson(m: StoredMessage) {
  return { ...m, createdAt: m.createdAt.toISOString() };
}
