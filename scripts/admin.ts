/**
 * Administration from the command line:
 *   npm run admin -- create-user NAME [--admin] [--permission sessions.read_all]
 *   npm run admin -- create-key NAME
 * Prints the API key once; only its hash is stored.
 */
import { Auth } from '../src/auth/auth.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

async function main() {
  const [command, name, ...rest] = process.argv.slice(2);
  if (!command || !name || !['create-user', 'create-key'].includes(command)) {
    console.error('usage: npm run admin -- create-user NAME [--admin] [--permission P]... | create-key NAME');
    process.exit(2);
  }
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const auth = new Auth(db, config);
    if (command === 'create-user') {
      const permissions = rest.flatMap((arg, i) => (arg === '--permission' && rest[i + 1] ? [rest[i + 1]!] : []));
      const { user, key } = await auth.createUser(name, { admin: rest.includes('--admin'), permissions });
      console.log(`created user ${user.name}${user.isAdmin ? ' (admin)' : ''}`);
      console.log(`API key (shown once): ${key}`);
    } else {
      const user = await db.prisma.user.findFirst({ where: { name, jwtSubject: null } });
      if (!user) throw new Error(`no user named ${name}`);
      console.log(`API key (shown once): ${await auth.createApiKey(user.id)}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : `admin: ${(error as Error).message}`);
  process.exit(1);
});
