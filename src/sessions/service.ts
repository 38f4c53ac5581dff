/**
 * Session use-cases behind the GraphQL layer: access checks, validation,
 * events. Resolvers call these and return what they return.
 */
import type { Config } from '../config.js';
import type { EventBus } from '../events/bus.js';
import { BadInput, Conflict, NotFound } from '../store/errors.js';
import type { SessionAccess } from './access.js';
import type { StoredMessage } from '../store/rows.js';
import type { Viewer } from '../domain/policy.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import type { ProfileService } from './profiles.js';
import { checkMessageText } from './intake.js';
import { type DeletedSession, type OwnSessionFilter, RetentionStore } from '../store/retention.js';

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
    private readonly retention: RetentionStore = new RetentionStore(store.db),
  ) {}

  /** The retention sweep running in this process, if any: sweeps queue behind it. */
  private sweeping: Promise<unknown> = Promise.resolve();

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

  /** `externalId`: a chat id the client made (POST /api/chat), unique per owner (a second one is a CONFLICT). */
  async create(viewer: Viewer, input: { profileId?: string | null; name?: string | null; externalId?: string | null }) {
    const name = input.name == null ? null : validName(input.name);
    const profile = input.profileId ? await this.profiles.get(input.profileId) : await this.profiles.default();
    if (!profile) throw new NotFound('Profile');
    const session = await this.store.create({
      profileId: profile.id,
      userId: viewer.userId,
      name,
      externalId: input.externalId ?? null,
    });
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

  /**
   * The viewer's bulk delete: their own sessions matching every given
   * criterion (admins too: only their own), at most `MAX_PAGE_SIZE` per call,
   * pinned ones only with `includePinned`. Each goes the way `delete` goes
   * (a running turn is stopped, the files follow the commit). BAD_USER_INPUT
   * without a criterion, with an empty or too long `ids`.
   */
  async deleteMany(viewer: Viewer, filter: OwnSessionFilter): Promise<{ deletedIds: string[]; hasMore: boolean }> {
    const limit = this.config.maxPageSize;
    if (filter.ids && filter.ids.length === 0) throw new BadInput('ids must not be empty');
    if (filter.ids && filter.ids.length > limit) throw new BadInput(`ids holds at most ${limit} ids`);
    if (!filter.ids && !filter.inactiveBefore && !filter.profileId) {
      throw new BadInput('deleteSessions needs at least one criterion: ids, inactiveBefore or profileId');
    }
    if (!viewer.userId) return { deletedIds: [], hasMore: false };
    const matching = await this.retention.ownMatching(viewer.userId, filter, limit + 1);
    const deletedIds: string[] = [];
    // The delete checks owner, pin and profile again: a session pinned (or moved to another profile) since the
    // read is kept. Activity is not re-checked: stopping the session's own running turn (beforeDelete) touches it.
    const still = {
      userId: viewer.userId,
      ...(!filter.includePinned && { pinned: false as const }),
      profileId: filter.profileId,
    };
    for (const id of matching.slice(0, limit)) {
      await this.deleteHooks.beforeDelete(id);
      if (!(await this.store.delete(id, still))) continue;
      await this.deleteHooks.afterDelete(id);
      await this.bus.publishList({ kind: 'deleted', sessionId: id, userId: viewer.userId });
      deletedIds.push(id);
    }
    return { deletedIds, hasMore: matching.length > limit };
  }

  /**
   * One retention pass: deletes at most `SESSION_RETENTION_BATCH` expired
   * sessions (store/retention.ts says which), then removes their files and
   * announces them like `delete`. Null when another process runs a pass now.
   */
  async retentionPass(): Promise<DeletedSession[] | null> {
    const deleted = await this.retention.deleteExpired(
      this.config.sessionRetentionDays,
      this.config.sessionRetentionBatch,
    );
    for (const row of deleted ?? []) {
      await this.deleteHooks.afterDelete(row.id);
      await this.bus.publishList({ kind: 'deleted', sessionId: row.id, userId: row.userId });
    }
    return deleted;
  }

  /**
   * Passes until one deletes less than a batch, or another process holds the
   * sweep (it carries on). Sweeps of this process run one after another.
   * Answers how many each pass deleted.
   */
  sweepRetention(): Promise<{ deleted: number; passes: number[] }> {
    const run = this.sweeping.then(async () => {
      const passes: number[] = [];
      for (;;) {
        const deleted = await this.retentionPass();
        if (deleted === null) break;
        passes.push(deleted.length);
        if (deleted.length < this.config.sessionRetentionBatch) break;
      }
      return { deleted: passes.reduce((a, b) => a + b, 0), passes };
    });
    this.sweeping = run.catch(() => undefined);
    return run;
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
    checkMessageText(input.text, this.config, 'text');
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
