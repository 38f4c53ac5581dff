/**
 * The composition root: configuration, database, store, services, event bus.
 * Built once per process; every service gets what it needs as constructor
 * arguments, in dependency order (docs/architecture.md lists the order).
 * Nothing below this module imports it.
 */
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import type { SchemaServices } from './schema/builder.js';
import { Auth } from './auth/auth.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { ensureSearchIndexes, migrate } from './db/migrate.js';
import { CalibrationRegistry } from './domain/tokens.js';
import type { EventBus } from './events/bus.js';
import { createEventBus } from './events/create-bus.js';
import { localCredentialChanges, redisCredentialChanges } from './events/credential-changes.js';
import { subscriptionCounter, type SubscriptionCounter } from './http/limits.js';
import { ProfileService } from './sessions/profiles.js';
import { SearchService } from './search/service.js';
import { SessionFiles } from './files/store.js';
import { createProvider, type ProviderKind } from './llm/index.js';
import { type ModelCallObserver, observeProvider, type TurnSpans } from './llm/observed.js';
import { observeBus } from './events/observed.js';
import type { Metrics } from './http/metrics.js';
import type { LlmProvider } from './llm/types.js';
import type { ProfileRow as Profile } from './store/profiles.js';
import { ProfileStore } from './store/profiles.js';
import { TurnStore } from './store/turns.js';
import { UserStore } from './store/users.js';
import { SearchStore } from './store/search.js';
import { turnRunnerFactory, type TurnHooks } from './turns/runner.js';
import { TurnService } from './turns/service.js';
import { TurnLifecycle } from './turns/lifecycle.js';
import { recoveryTimes } from './turns/recovery.js';
import { ToolRegistry } from './turns/tools.js';
import { TitleService } from './turns/titles.js';
import { SessionAccess } from './sessions/access.js';
import { SessionLocks } from './sessions/locks.js';
import { SessionService } from './sessions/service.js';
import { ReadService } from './sessions/reads.js';
import { ShareService, shareRoots } from './sessions/share.js';
import { compactSession } from './compression/compact.js';
import { pinnedFitCheck, sessionPrompt } from './turns/prompt.js';
import { TransferService } from './sessions/transfer.js';
import { SessionStore } from './store/sessions.js';
import { CompressionStore } from './store/compression.js';
import { fileTools } from './turns/file-tools.js';
import { MemoryIndex } from './store/memory.js';
import { CompressionService } from './compression/service.js';
import { EditStore } from './store/edits.js';
import { EditingService } from './editing/service.js';
import { RecallStore } from './store/recalls.js';
import { QueuedStore } from './store/queued.js';
import { CallManifestStore } from './store/manifests.js';
import { callRecorder } from './turns/manifest.js';
import { PendingDispatcher } from './turns/dispatcher.js';
import { PendingStore } from './store/pending-turns.js';
import { RecallService } from './recalls/service.js';
import { scheduleRecallTool } from './recalls/tool.js';
import { StorageCondition, type StorageDir } from './store/storage-full.js';

/** Everything the root built: what the schema's resolvers reach (SchemaServices) and what the edge needs besides. */
export interface App extends SchemaServices {
  config: Config;
  log: Logger;
  /** the handles below the services, for the HTTP layer (health, the fast path, the other doors) and tests */
  db: Database;
  store: SessionStore;
  profileStore: ProfileStore;
  users: UserStore;
  bus: EventBus;
  /** the raw-history index compression writes and memorySearch reads */
  memory: MemoryIndex;
  /** per-model token calibration of this process: the runner records, every estimate reads */
  calibration: CalibrationRegistry;
  auth: Auth;
  tools: ToolRegistry;
  /** the hooks the turn runner calls (compression's) */
  hooks: TurnHooks;
  /** live subscriptions per user and socket, counted across SSE and graphql-ws */
  subscriptions: SubscriptionCounter;
  provider(profile: Pick<Profile, 'provider'>): LlmProvider;
  trigram: boolean;
  /** double-texting: starts the turns of queued messages */
  /** the one dispatcher of queued messages, steers and recalls */
  queue: PendingDispatcher;
  /** METRICS=true: what /metrics serves (null otherwise: prom-client is then never loaded) */
  metrics: Metrics | null;
  /** the last storage failure (disk full, read-only), remembered for a while: /readyz */
  storage: StorageCondition;
  /** the directories the service writes to, with the setting naming each: /readyz checks them */
  storageDirs: StorageDir[];
  /** background work: orphan recovery, cleanup loops */
  start?(): Promise<void>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** an already-open database (tests share one per file) */
  db?: Database;
  log?: Logger;
  /**
   * Runs inside every compression save transaction after its writes (a test throws here to simulate a store failure).
   */
  afterCompressionWrites?(sessionId: string): Promise<void> | void;
}

/** One provider client per kind, created on first use; each call traced (and counted with METRICS=true). */
function providerLookup(
  config: Config,
  turnSpans: TurnSpans,
  observer?: ModelCallObserver,
): (profile: Pick<Profile, 'provider'>) => LlmProvider {
  const providers = new Map<string, LlmProvider>();
  return (profile) => {
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
      p = observeProvider(p, profile.provider, turnSpans, observer);
      providers.set(profile.provider, p);
    }
    return p;
  };
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
      preparedStatements: config.databasePreparedStatements,
      onConnectionError: (err) => log.warn({ err }, 'db.idle_connection_lost'),
    }));
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const trigram = await ensureSearchIndexes(db, (msg) => log.warn(msg));

  // Stores, the bus, the leaf services.
  const store = new SessionStore(db);
  // Metrics only with METRICS=true (prom-client loaded then); traces through @opentelemetry/api, a no-op until an
  // SDK is registered. Both watch the bus and the providers from outside the turn code (docs/operations.md).
  const metrics = config.metrics ? (await import('./http/metrics.js')).createMetrics() : null;
  const observed = observeBus(
    createEventBus({ redisUrl: config.redisUrl, retention: config.eventRetention, log }),
    metrics ?? undefined,
  );
  const bus = observed.bus;
  const profileStore = new ProfileStore(db);
  const profiles = new ProfileService(profileStore, config);
  const users = new UserStore(db);
  const turnStore = new TurnStore(db);
  await profiles.ensureDefault();
  const files = new SessionFiles({
    root: config.sessionFilesDir,
    maxBytes: config.sessionFilesMaxSizeMb * 1024 * 1024,
    logger: log,
  });
  const provider = providerLookup(config, observed.turnSpan, metrics ?? undefined);
  const calibration = new CalibrationRegistry();
  const access = new SessionAccess(store);
  // History edits and compression passes on one session never interleave (in this process;
  // across processes the compression save re-checks the history under the row lock).
  const locks = new SessionLocks();
  const memory = MemoryIndex.over(db, trigram);

  // Compression and titles: what the turn runner calls around a turn.
  const compression = new CompressionService({
    config,
    store,
    compressionStore: new CompressionStore(store),
    provider,
    bus,
    locks,
    memory,
    files,
    calibration,
    log,
    afterSaveWrites: options.afterCompressionWrites,
  });
  const titles = new TitleService({ config, store, turns: turnStore, provider, bus });

  // The server tools, in the order the model is shown them (schedule_recall joins once recalls exist).
  const tools = new ToolRegistry();
  for (const tool of [...compression.tools(), ...fileTools(files)]) tools.register(tool);

  const hooks = compression.hooks;
  const callManifests = new CallManifestStore(db);
  const queuedStore = new QueuedStore(db);
  const lifecycle = new TurnLifecycle(turnStore, bus);
  const turns = new TurnService({
    store,
    turns: turnStore,
    lifecycle,
    queued: queuedStore,
    sessions: access,
    bus,
    config,
    files,
    log,
    serverTools: tools,
    startRunner: turnRunnerFactory({
      store,
      turns: turnStore,
      lifecycle,
      queued: queuedStore,
      profiles,
      bus,
      config,
      files,
      tools,
      log,
      provider,
      calibration,
      hooks,
      manifests: callRecorder({ manifests: callManifests, calibration, log }),
      afterTurn: (session, profile, turnId) => titles.generate(session.id, profile, turnId),
    }),
    // The embedded database is this process's alone: any turn left active in it is a previous run's.
    exclusiveStore: !options.db && db.kind === 'pglite',
  });
  const sessions = new SessionService(store, access, profiles, bus, config, {
    beforeDelete: (sessionId) => turns.stopForDelete(sessionId),
    // Delete means gone: the directory goes with the committed delete; the cleanup loop stays for what this misses.
    afterDelete: (sessionId) =>
      files.removeSession(sessionId).catch((err: unknown) => {
        log.warn(
          { event: 'session_files.remove_failed', sessionId, err: err instanceof Error ? err.message : String(err) },
          'session_files.remove_failed',
        );
      }),
  });
  const editing = new EditingService(store, new EditStore(store), sessions, bus, {
    serialize: (sessionId, fn) => locks.run(sessionId, fn),
    copySessionFiles: (from, to) => files.copySession(from, to),
    turns,
    maxMessageChars: config.maxMessageChars,
    pinnedFitCheck: (sessionId) => pinnedFitCheck({ store, profiles, config, files, calibration }, sessionId),
  });
  // Revoked keys and disabled users are refused at once on every process (through Redis when there are several).
  const auth = new Auth(users, config, {
    changes: config.redisUrl ? redisCredentialChanges(config.redisUrl, log) : localCredentialChanges(),
    onTouchError: (err) => log.warn({ err }, 'auth.last_used_failed'),
  });
  const recallStore = new RecallStore(db);
  const recalls = new RecallService(recallStore, sessions, turns, config, log);
  if (config.recallToolEnabled) tools.register(scheduleRecallTool(recalls));
  const queue = new PendingDispatcher(new PendingStore(db), recallStore, turns, config, log);
  recalls.useDispatcher(queue);
  // A session's preview and count in the list change when its answer is saved (or cut short, or fails): list
  // subscribers hear of it when the turn ends, as they do when it starts and after an edit.
  turns.onTurnDone((sessionId) => {
    void store
      .get(sessionId)
      .then((s) => (s ? bus.publishList({ kind: 'activity', sessionId, userId: s.userId }) : undefined))
      .catch((err: unknown) => log.warn({ err, sessionId }, 'session_list.activity_failed'));
  });

  const subscriptions = subscriptionCounter(config);
  const storage = new StorageCondition();
  // DATA_DIR matters only when this app opened the embedded database there itself.
  const ownDataDir = !options.db && db.kind === 'pglite' && !config.dataDir.startsWith('memory://');
  const storageDirs: StorageDir[] = [
    ...(ownDataDir ? [{ setting: 'DATA_DIR', dir: config.dataDir }] : []),
    { setting: 'SESSION_FILES_DIR', dir: config.sessionFilesDir },
  ];
  metrics?.subscriptions(() => subscriptions.live);
  let sweeper: NodeJS.Timeout | null = null;
  const transfer = new TransferService(store, profiles, bus, config);
  let retentionTimer: NodeJS.Timeout | null = null;
  let retentionRun: Promise<unknown> = Promise.resolve();
  // Retention (SESSION_RETENTION_DAYS, profiles' retentionDays): once at start, then every interval.
  const sweepRetention = () => {
    retentionRun = sessions
      .sweepRetention()
      .then((r) => {
        if (r.deleted > 0) log.info({ event: 'retention.deleted', sessions: r.deleted }, 'retention.deleted');
      })
      .catch((err: unknown) => log.warn({ err }, 'retention.sweep_failed'));
  };
  let stopCleanup: (() => Promise<void>) | null = null;
  const sessionSearch = new SearchService(
    new SearchStore(db, store, config.searchStatementTimeoutMs, { countCap: config.searchCountCap }),
  );
  return {
    config,
    settings: {
      maxPageSize: config.maxPageSize,
      authEnabled: config.authEnabled,
      modelPrices: config.modelPrices,
      shareRoots: shareRoots({ config, files }),
    },
    reads: new ReadService({
      db,
      store,
      profileStore,
      users,
      memory,
      bus,
      search: sessionSearch,
      maxPageSize: config.maxPageSize,
    }),
    callManifests,
    prompts: { next: (sessionId) => sessionPrompt({ store, profiles, config, files, calibration }, sessionId) },
    compaction: {
      compact: (viewer, sessionId, strategy) =>
        compactSession({ sessions, turns, profiles, compression, store }, viewer, sessionId, strategy),
    },
    log,
    db,
    store,
    profileStore,
    users,
    auth,
    keys: auth.keys,
    bus,
    profiles,
    sessions,
    search: sessionSearch,
    files,
    tools,
    calibration,
    memory,
    compression,
    turns,
    editing,
    recalls,
    queue,
    shares: new ShareService(store),
    transfer,
    hooks,
    subscriptions,
    metrics,
    storage,
    storageDirs,
    provider,
    trigram,
    start: async () => {
      const { staleMs, sweepMs } = recoveryTimes(config);
      const own = await turns.recoverOwn();
      if (own > 0) log.info({ turns: own, instanceId: turns.instanceId }, 'turn.recovered_own');
      await turns.recoverOrphans(staleMs);
      sweeper = setInterval(
        () => void turns.recoverOrphans(staleMs).catch((e) => log.warn({ err: e }, 'turn.recovery_failed')),
        sweepMs,
      );
      sweeper.unref();
      sweepRetention();
      // Sessions an import that died (kill -9) left staged: invisible, removed once stale.
      void transfer
        .sweepStaged()
        .then((n) => n > 0 && log.info({ sessions: n }, 'import.swept_staged'))
        .catch((err: unknown) => log.warn({ err }, 'import.sweep_failed'));
      retentionTimer = setInterval(sweepRetention, config.sessionRetentionIntervalMs);
      retentionTimer.unref();
      queue.start();
      stopCleanup = files.startCleanupLoop(config.sessionFilesCleanupIntervalMs, (ids) => store.existing(ids));
    },
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      if (retentionTimer) clearInterval(retentionTimer);
      await retentionRun;
      await queue.stop();
      await stopCleanup?.();
      turns.abortAll();
      await turns.drain();
      await bus.close();
      await auth.changes.close();
      if (!options.db) await db.close();
    },
  };
}
