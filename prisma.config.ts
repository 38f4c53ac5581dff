import { defineConfig } from 'prisma/config';

// No datasource URL here: the service connects through driver adapters
// (src/db/client.ts) and applies migrations itself (src/db/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
