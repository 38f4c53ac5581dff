/**
 * Administration from the command line (`npm run admin -- help` lists the commands):
 *   create-user, create-key, list-users, list-keys, revoke-key, rotate-key, disable-user, enable-user.
 * A key is printed once, when made; only its hash is stored.
 *
 * With the embedded database, a running server owns DATA_DIR (one process at a
 * time may open it): the command is then sent to that server through its admin
 * socket, DATA_DIR/admin.sock. With DATABASE_URL, or no server running, the
 * database is opened directly, and with REDIS_URL a revocation is announced to
 * every server process through Redis.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_USAGE,
  AdminCommandError,
  requestFromArgv,
  runAdminCommand,
  type AdminRequest,
} from '../src/admin/commands.js';
import { adminSocketPath, sendAdminRequest } from '../src/admin/socket.js';
import { Auth } from '../src/auth/auth.js';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { DataDirLockedError, dataDirOwner } from '../src/db/datadir-lock.js';
import { migrate } from '../src/db/migrate.js';
import { localCredentialChanges, redisCredentialChanges } from '../src/events/credential-changes.js';
import { UserStore } from '../src/store/users.js';

async function runDirect(config: Config, request: AdminRequest): Promise<string[]> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const changes = config.redisUrl ? redisCredentialChanges(config.redisUrl) : localCredentialChanges();
  try {
    await migrate(db);
    return await runAdminCommand(new Auth(new UserStore(db), config, { changes }).keys, request);
  } finally {
    await changes.close();
    await db.close();
  }
}

/** Through the server that holds DATA_DIR; it may still be starting (socket not yet listening). */
async function runThroughServer(config: Config, request: AdminRequest, owner: number): Promise<string[]> {
  const path = adminSocketPath(config.dataDir);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await sendAdminRequest(path, request);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const retry =
        (code === 'ENOENT' || code === 'ECONNREFUSED') &&
        dataDirOwner(config.dataDir) === owner &&
        Date.now() < deadline;
      if (!retry) {
        if (error instanceof AdminCommandError) throw error;
        throw new Error(
          `DATA_DIR ${config.dataDir} is in use by process ${owner}, and its admin socket ${path}` +
            ` does not answer (${(error as Error).message}); stop that process first`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === 'help' || argv[0] === '--help') {
    console.log(ADMIN_USAGE);
    return;
  }
  const request = requestFromArgv(argv);
  if (!request) {
    console.error(ADMIN_USAGE);
    process.exit(2);
  }
  // The settings `npm start` reads: .env beside package.json, under what the environment sets.
  const dotEnv = fileURLToPath(new URL('../.env', import.meta.url));
  if (existsSync(dotEnv)) process.loadEnvFile(dotEnv);
  const config = loadConfig();
  let lines: string[];
  try {
    lines = await runDirect(config, request);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    lines = await runThroughServer(config, request, error.ownerPid);
  }
  for (const line of lines) console.log(line);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : `admin: ${(error as Error).message}`);
  process.exit(1);
});
