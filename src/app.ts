/** The service container: configuration, database, store, services, event bus. Built once per process. */
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { Auth } from './auth/auth.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { ensureSearchIndexes, migrate } from './db/migrate.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { ProfileService } from './sessions/profiles.js';
import { SearchService } from './search/service.js';
import { SessionFiles } from './files/store.js';
import { createProvider, type ProviderKind } from './llm/index.js';
import type { LlmProvider } from './llm/types.js';
import type { ProfileRow as Profile } from './store/profiles.js';
import { ProfileStore } from './store/profiles.js';
import { TurnStore } from './store/turns.js';
import { UserStore } from './store/users.js';
import { SearchStore } from './store/search.js';
import { MemoryIndex } from './store/memory.js';
import { startTurnRunner, type TurnHooks } from './turns/runner.js';
import { TurnService } from './turns/service.js';
import { ToolRegistry } from './turns/tools.js';
import { generateTitle } from './turns/titles.js';
import { SessionService } from './sessions/service.js';
import { SessionStore } from './store/sessions.js';
import { registerFileTools } from './files/tools.js';
import { sessionLocks } from './compression/compress.js';
import { registerCompression } from './compression/index.js';
import { EditStore } from './store/edits.js';
import { EditingService } from './editing/service.js';
import { RecallStore } from './store/recalls.js';
import { RecallService } from './recalls/service.js';
import { registerRecallTool } from './recalls/tool.js';

export interface App {
  config: Config;
  log: Logger;
  db: Database;
  store: SessionStore;
  auth: Auth;
  bus: EventBus;
  profiles: ProfileService;
  sessions: SessionService;
  search: SearchService;
  files: SessionFiles;
  tools: ToolRegistry;
  turns: TurnService;
  editing: EditingService;
  recalls: RecallService;
  /** the raw-history index (compression writes it, recall and memorySearch read it) */
  memory: MemoryIndex;
  hooks: TurnHooks;
  provider(profile: Pick<Profile, 'provider'>): LlmProvider;
  trigram: boolean;
  /** background work: orphan recovery, cleanup loops */
  start?(): Promise<void>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** an already-open database (tests share one per file) */
  db?: Database;
  log?: Logger;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const log = options.log ?? createLogger(config);
  const db =
    options.db ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      lockTimeoutMs: config.databaseLockTimeoutMs,
      onConnectionError: (err) => log.warn({ err }, 'db.idle_connection_lost'),
    }));
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const trigram = await ensureSearchIndexes(db, (msg) => log.warn(msg));
  const store = new SessionStore(db);
  const bus = createEventBus({ redisUrl: config.redisUrl, retention: config.eventRetention, log });
  const profiles = new ProfileService(new ProfileStore(db), config);
  await profiles.ensureDefault();
  const sessions = new SessionService(store, profiles, bus, config);
  const files = new SessionFiles({ root: config.sessionFilesDir, maxBytes: config.sessionFilesMaxSizeMb * 1024 * 1024, logger: log });
  const tools = new ToolRegistry();
  const turnStore = new TurnStore(db);
  const turns = new TurnService(store, turnStore, sessions, bus, config, files, log, tools);
  sessions.beforeDelete = (sessionId) => turns.stopForDelete(sessionId);
  // Delete means gone: the directory goes with the committed delete; the cleanup loop stays for what this misses.
  sessions.afterDelete = (sessionId) =>
    files.removeSession(sessionId).catch((err: unknown) => {
      log.warn({ event: 'session_files.remove_failed', sessionId, err: err instanceof Error ? err.message : String(err) }, 'session_files.remove_failed');
    });
  // The embedded database is this process's alone: any turn left active in it is a previous run's.
  turns.exclusiveStore = !options.db && db.kind === 'pglite';
  const providers = new Map<string, LlmProvider>();
  const provider = (profile: Pick<Profile, 'provider'>) => {
    let p = providers.get(profile.provider);
    if (!p) {
      p = createProvider(profile.provider as ProviderKind, {
        ollamaHost: config.ollamaHost,
        openaiBaseUrl: config.openaiBaseUrl,
        openaiApiKey: config.openaiApiKey,
        anthropicBaseUrl: config.anthropicBaseUrl,
        anthropicApiKey: config.anthropicApiKey,
        timeoutMs: config.providerTimeoutMs,
        connectRetries: config.providerConnectRetries,
      });
      providers.set(profile.provider, p);
    }
    return p;
  };
  const recalls = new RecallService(new RecallStore(db), sessions, turns, config, log);
  const hooks: TurnHooks = {};
  let sweeper: NodeJS.Timeout | null = null;
  let stopCleanup: (() => Promise<void>) | null = null;
  const app: App = {
    config,
    log,
    db,
    store,
    auth: new Auth(new UserStore(db), config),
    bus,
    profiles,
    sessions,
    search: new SearchService(new SearchStore(db, store, config.searchStatementTimeoutMs)),
    files,
    tools,
    turns,
    editing: new EditingService(store, new EditStore(store), sessions, bus),
    recalls,
    memory: MemoryIndex.over(db, trigram),
    hooks,
    provider,
    trigram,
    start: async () => {
      const staleMs = Math.max(5_000, config.partialFlushMs * 5);
      const own = await turns.recoverOwn();
      if (own > 0) log.info({ turns: own, instanceId: turns.instanceId }, 'turn.recovered_own');
      await turns.recoverOrphans(staleMs);
      sweeper = setInterval(() => void turns.recoverOrphans(staleMs).catch((e) => log.warn({ err: e }, 'turn.recovery_failed')), staleMs);
      sweeper.unref();
      recalls.start();
      stopCleanup = files.startCleanupLoop(config.sessionFilesCleanupIntervalMs, (ids) => store.existing(ids));
    },
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      await recalls.stop();
      await stopCleanup?.();
      turns.abortAll();
      await turns.drain();
      await bus.close();
      if (!options.db) await db.close();
    },
  };
  turns.startRunner = (turn, clientTools) =>
    startTurnRunner(
      {
        store,
        turns: turnStore,
        profiles,
        bus,
        config,
        files,
        tools,
        log,
        provider,
        hooks,
        afterTurn: (session, profile, turnId) => generateTitle(app, session.id, profile, turnId),
      },
      turn,
      clientTools,
    );
  registerCompression(app);
  // History edits and compression passes on one session never interleave (in this process;
  // across processes the compression save re-checks the history under the row lock).
  app.editing.serialize = (sessionId, fn) => sessionLocks(app).run(sessionId, fn);
  app.editing.copySessionFiles = (from, to) => files.copySession(from, to);
  registerFileTools(app);
  if (config.recallToolEnabled) registerRecallTool(app);
  return app;
}
