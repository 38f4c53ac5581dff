/**
 * Writes what src/config.ts defines into the two files that list every setting:
 *   - docs/configuration.md: the table between its `<!-- settings -->` markers;
 *   - .env.example: every variable, commented out at its default, with its description.
 * `npm run config:docs` (test/config.test.ts fails when either is stale); `--check` only compares.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configTable } from '../src/config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CONFIGURATION_MD = `${root}docs/configuration.md`;
export const ENV_EXAMPLE = `${root}.env.example`;
const START = '<!-- settings: generated from src/config.ts by `npm run config:docs` -->';
const END = '<!-- /settings -->';

/** The markdown table of every setting, in declaration order. */
export function settingsTable(): string[] {
  return [
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...configTable().map((r) => `| \`${r.env}\` | \`${r.default}\` | ${r.description} |`),
  ];
}

/** .env.example: every variable commented out at its default (a value with spaces or quotes in double quotes). */
export function envExample(): string {
  const lines = [
    '# Settings of the chat session service, generated from src/config.ts (`npm run config:docs`): do not edit here.',
    '# Copy to .env (read by `npm start`, `npm run admin` and compose.yaml) and uncomment what you change.',
    '# Each line shows the default; a variable left unset keeps it. Details: docs/configuration.md.',
  ];
  for (const row of configTable()) {
    const value = row.default === '(unset)' ? '' : row.default;
    const quoted = /[\s"'#$\\`]/.test(value) ? JSON.stringify(value) : value;
    lines.push('', `# ${row.description.replace(/`/g, '')}`, `# ${row.env}=${quoted}`);
  }
  return `${lines.join('\n')}\n`;
}

/** docs/configuration.md with its table replaced. */
export function configurationMarkdown(current: string): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/configuration.md has no ${START} … ${END} block`);
  return `${current.slice(0, start + START.length)}\n${settingsTable().join('\n')}\n${current.slice(end)}`;
}

const self = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (self) {
  const check = process.argv.includes('--check');
  const md = readFileSync(CONFIGURATION_MD, 'utf8');
  const wanted: [string, string, string][] = [
    [CONFIGURATION_MD, md, configurationMarkdown(md)],
    [ENV_EXAMPLE, readFileSync(ENV_EXAMPLE, { encoding: 'utf8', flag: 'a+' }), envExample()],
  ];
  let stale = false;
  for (const [path, now, want] of wanted) {
    if (now === want) continue;
    stale = true;
    if (check) console.error(`${path.slice(root.length)} is stale: run npm run config:docs`);
    else writeFileSync(path, want);
  }
  if (check && stale) process.exit(1);
}
