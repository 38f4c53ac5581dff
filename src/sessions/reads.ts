/**
 * What the schema reads beside the services' own operations: rows by id and
 * by key, the node lookups behind `node(id:)`, the per-request batches
 * (previews, titles, owners, turns), history pages, the raw-history search,
 * and the event feeds a subscription follows. Resolvers call these; they
 * never hold the database, the stores or the bus (docs/architecture.md).
 */
import type { Database } from '../db/client.js';
import { sessionScope, type Viewer } from '../domain/policy.js';
import type { PageArgs } from './paging.js';
import type { EventBus } from '../events/bus.js';
import { sessionEventStream } from '../events/stream.js';
import type { SessionEvent, SessionListEvent } from '../events/types.js';
import { compressionMarkers } from '../store/compressions.js';
import * as lookups from '../store/lookups.js';
import type { MemoryHit, MemoryIndex, MemorySearchInput } from '../store/memory.js';
import type { ProfileQuery, ProfileStore } from '../store/profiles.js';
import type { MessageColumn } from '../store/rows.js';
import type { SessionQuery, SessionStore, SnapshotCut } from '../store/sessions.js';
import { type ApiKeyQuery, type UserQuery, type UserStore, usersByIds } from '../store/users.js';
import { historyPage, type HistoryPage, readableWithHistoryPage } from './history-page.js';
import { historyTitles } from './history-title.js';
import { sessionListEvents } from './list-events.js';
import { type SessionListArgs, type SessionListPage, listSessions } from './list.js';
import type { SearchService } from '../search/service.js';

export interface ReadDeps {
  db: Database;
  store: SessionStore;
  profileStore: ProfileStore;
  users: UserStore;
  memory: MemoryIndex;
  bus: EventBus;
  search: SearchService;
  /** MAX_PAGE_SIZE */
  maxPageSize: number;
}

export class ReadService {
  private readonly db: Database;
  private readonly store: SessionStore;
  private readonly profileStore: ProfileStore;
  private readonly users: UserStore;
  private readonly memory: MemoryIndex;
  private readonly bus: EventBus;
  private readonly search: SearchService;
  private readonly maxPageSize: number;

  constructor(deps: ReadDeps) {
    ({
      db: this.db,
      store: this.store,
      profileStore: this.profileStore,
      users: this.users,
      memory: this.memory,
      bus: this.bus,
      search: this.search,
      maxPageSize: this.maxPageSize,
    } = deps);
  }

  /**
   * The client Pothos' prisma plugin runs its selections on (src/schema/builder.ts) and nothing else: the schema's
   * own reads go through the methods here.
   */
  get selectionClient(): Database['prisma'] {
    return this.store.selectionClient;
  }

  // ---- sessions and their rows

  session(id: string) {
    return this.store.get(id);
  }

  /** One session the viewer may read, or null; `query` is Pothos' selection. */
  readableSession(viewer: Viewer, id: string, query: SessionQuery = {}) {
    return this.store.findReadable(viewer, id, query);
  }

  /** One page of the viewer's sessions (`sessions`); `query` is Pothos' selection of the page's sessions. */
  sessionList(viewer: Viewer, args: SessionListArgs, query: SessionQuery): Promise<SessionListPage> {
    const { store, search, maxPageSize } = this;
    return listSessions({ store, search, maxPageSize }, viewer, args, query);
  }

  previews(sessionIds: readonly string[]) {
    return this.store.previews(sessionIds);
  }

  /** The session's context rows (what the model is sent). */
  context(sessionId: string) {
    return this.store.context(sessionId);
  }

  historyTitles(sessionIds: readonly string[]) {
    return historyTitles(this.db, sessionIds);
  }

  /** One page of a session's display history (MAX_PAGE_SIZE applies); a snapshot share passes its cut. */
  historyPage(session: { id: string; displayCount: number }, args: PageArgs, cut?: SnapshotCut): Promise<HistoryPage> {
    return historyPage(this.store, session, args, this.maxPageSize, cut);
  }

  /**
   * `session(id:)` with one page of its history in one statement (null when the viewer may not read it); `columns`:
   * only those message columns.
   */
  readableWithHistoryPage(viewer: Viewer, id: string, args: PageArgs, columns: ReadonlySet<MessageColumn> | null) {
    return readableWithHistoryPage(this.store, viewer, id, args, this.maxPageSize, columns);
  }

  compressionMarkers(sessionId: string) {
    return compressionMarkers(this.db, sessionId);
  }

  messageById(sessionId: string, messageId: string) {
    return lookups.messageById(this.db, sessionId, messageId);
  }

  messageByKey(sessionId: string, sequenceNumber: number) {
    return lookups.messageByKey(this.db, sessionId, sequenceNumber);
  }

  turn(id: string) {
    return lookups.turnById(this.db, id);
  }

  turnsOfUserMessages(keys: readonly { sessionId: string; sequenceNumber: number }[]) {
    return lookups.turnsOfUserMessages(this.db, keys);
  }

  /** Hits in the raw-history index (memorySearch). */
  memorySearch(input: MemorySearchInput): Promise<MemoryHit[]> {
    return this.memory.search(input);
  }

  // ---- users, keys, profiles

  user(id: string, query: UserQuery = {}) {
    return this.users.get(id, query);
  }

  usersByIds(ids: readonly string[]) {
    return usersByIds(this.db, ids);
  }

  apiKey(id: string, query: ApiKeyQuery = {}) {
    return this.users.key(id, query);
  }

  profile(id: string, query: ProfileQuery = {}) {
    return this.profileStore.get(id, query);
  }

  profiles(query: ProfileQuery = {}) {
    return this.profileStore.list(query);
  }

  // ---- node(id:) lookups: whether a node exists where the viewer may see it

  /** The session exists and the viewer may read it (the policy's read rule, in the query). */
  sessionVisible(viewer: Viewer, id: string): Promise<boolean> {
    return lookups.sessionExists(this.db, id, this.store.readWhere(viewer));
  }

  /** The session row if the viewer may read it (for the rules on its children). */
  readableSessionRow(viewer: Viewer, id: string) {
    return lookups.readableSession(this.db, id, this.store.readWhere(viewer));
  }

  sessionIdOfTurn(id: string) {
    return lookups.sessionIdOfTurn(this.db, id);
  }

  sessionIdOfRecall(id: string) {
    return lookups.sessionIdOfRecall(this.db, id);
  }

  sessionIdOfQueuedMessage(id: string) {
    return lookups.sessionIdOfQueuedMessage(this.db, id);
  }

  /** Whether the viewer may see the user: themselves, an owner of a session they may read, or anyone (admin). */
  async userVisible(viewer: Viewer, id: string): Promise<boolean> {
    if (!('all' in sessionScope(viewer, 'read')) && id !== viewer.userId) {
      const owned = await lookups.countOwnedSessions(this.db, id, this.store.readWhere(viewer));
      if (owned === 0) return false;
    }
    return lookups.userExists(this.db, id);
  }

  userIdOfApiKey(id: string) {
    return lookups.userIdOfApiKey(this.db, id);
  }

  profileExists(id: string) {
    return lookups.profileExists(this.db, id);
  }

  // ---- event feeds

  /** A session's live events after an optional cursor (src/events/stream.ts). */
  sessionEvents(sessionId: string, after: string | null | undefined): AsyncIterableIterator<SessionEvent> {
    return sessionEventStream(this.bus, sessionId, after);
  }

  /** The viewer's session-list events. */
  listEvents(viewer: Viewer): AsyncIterable<SessionListEvent> {
    return sessionListEvents(this.bus, viewer);
  }
}
