// Runs `prisma generate` without the schema-engine binary, which cannot be
// downloaded here: generation needs no engine, the CLI only checks that the
// path exists (see docs/architecture.md).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../node_modules/.bin', import.meta.url));
const env = {
  ...process.env,
  PATH: `${bin}:${process.env.PATH ?? ''}`,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
