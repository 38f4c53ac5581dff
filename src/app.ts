/** The service container: configuration, database, store, services, event bus. Built once per process. */
import { pino, type Logger } from 'pino';
import { Auth } from './auth/auth.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { ensureSearchIndexes, migrate } from './db/migrate.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { ProfileService } from './sessions/profiles.js';
import { SearchService } from './search/service.js';
import { SessionService } from './sessions/service.js';
import { SessionStore } from './store/sessions.js';

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
  const log = options.log ?? pino({ level: config.logLevel });
  const db = options.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const trigram = await ensureSearchIndexes(db, (msg) => log.warn(msg));
  const store = new SessionStore(db);
  const bus = createEventBus({ redisUrl: config.redisUrl, retention: config.eventRetention });
  const profiles = new ProfileService(db, config);
  await profiles.ensureDefault();
  const app: App = {
    config,
    log,
    db,
    store,
    auth: new Auth(db, config),
    bus,
    profiles,
    sessions: new SessionService(store, profiles, bus, config),
    search: new SearchService(db, store, config.searchStatementTimeoutMs),
    trigram,
    close: async () => {
      await bus.close();
      if (!options.db) await db.close();
    },
  };
  return app;
}
