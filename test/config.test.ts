import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, configTable, envName, loadConfig } from '../src/config.js';
import { CONFIGURATION_MD, ENV_EXAMPLE, envExample } from '../scripts/config-docs.js';

describe('configuration', () => {
  it("has the seed's defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      contextCompressionEnabled: true,
      contextCompressionThreshold: 0.9,
      contextCompressionTarget: 0.65,
      contextKeepRecent: 4,
      contextSummaryTemperature: 0.3,
      contextSummaryMaxTokens: 6000,
      outputReserveTokens: 2048,
      contextMessageTokenBudget: 0,
      contextImageTokens: 1024,
      sessionFilesMaxSizeMb: 200,
      memoryRecallK: 2,
    });
    expect(envName('contextCompressionThreshold')).toBe('CONTEXT_COMPRESSION_THRESHOLD');
  });

  it('reads SCREAMING_CASE variables and rejects bad values naming the variable', () => {
    expect(loadConfig({ CONTEXT_KEEP_RECENT: '7', AUTH_ENABLED: 'true' })).toMatchObject({
      contextKeepRecent: 7,
      authEnabled: true,
    });
    expect(() => loadConfig({ CONTEXT_COMPRESSION_THRESHOLD: '1.5' })).toThrow(
      /^Invalid CONTEXT_COMPRESSION_THRESHOLD="1.5"/,
    );
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODEL_PRICES: '{nope' })).toThrow(/MODEL_PRICES/);
    expect(() => loadConfig({ CONTEXT_COMPRESSION_TARGET: '0.95' })).toThrow(/CONTEXT_COMPRESSION_TARGET/);
  });

  it('the pending mechanism has its own settings; the old RECALL_* names are aliases', () => {
    expect(loadConfig({})).toMatchObject({ pendingPollMs: 5000, pendingLeaseMs: 60000, pendingMaxAttempts: 5 });
    expect(loadConfig({ RECALL_POLL_MS: '300', RECALL_LEASE_MS: '900' })).toMatchObject({
      pendingPollMs: 300,
      pendingLeaseMs: 900,
    });
    expect(loadConfig({ PENDING_POLL_MS: '400', RECALL_POLL_MS: '300' }).pendingPollMs).toBe(400);
    expect(() => loadConfig({ RECALL_LEASE_MS: '5' })).toThrow(/^Invalid RECALL_LEASE_MS="5"/);
  });

  it('stops start-up with one clear line', async () => {
    const run = promisify(execFile);
    const error = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, CONTEXT_KEEP_RECENT: 'many' },
    }).catch((e) => e);
    expect(error.code).toBe(2);
    expect(error.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Invalid CONTEXT_KEEP_RECENT="many"/)]);
  });
});

describe('the settings in docs/configuration.md and .env.example', () => {
  it('docs/configuration.md holds exactly configTable(), every setting in declaration order', () => {
    const lines = readFileSync(CONFIGURATION_MD, 'utf8').split('\n');
    const header = lines.indexOf('| Variable | Default | Meaning |');
    expect(header).toBeGreaterThanOrEqual(0);
    const rows: string[] = [];
    for (let i = header + 2; lines[i]?.startsWith('|'); i++) rows.push(lines[i]!);
    expect(rows).toEqual(configTable().map((r) => `| \`${r.env}\` | \`${r.default}\` | ${r.description} |`));
  });

  it('.env.example is what src/config.ts defines (npm run config:docs), and every value in it is accepted', () => {
    const text = readFileSync(ENV_EXAMPLE, 'utf8');
    expect(text).toBe(envExample());
    // Uncommented as it stands, the file configures the defaults.
    const env = Object.fromEntries(
      text
        .split('\n')
        .filter((l) => /^# [A-Z_]+=/.test(l))
        .map((l) => {
          const [name, ...value] = l.slice(2).split('=');
          const raw = value.join('=');
          return [name!, raw.startsWith('"') ? (JSON.parse(raw) as string) : raw];
        }),
    );
    expect(Object.keys(env)).toEqual(configTable().map((r) => r.env));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
