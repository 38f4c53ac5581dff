/**
 * No regular expression in the server or the web client can be made to
 * backtrack for long: every `/…/` literal and every `new RegExp('…')` in src/
 * and web/src/ (found by parsing the sources with the TypeScript compiler) is
 * checked with the ReDoS checker recheck, and anything it does not prove safe
 * fails with its file:line and the attack string it found.
 *
 * The fuzzer's limits are step counts, not times, and its seed is fixed, so a
 * loaded machine gets the same verdict (only the overall timeout is a time, and
 * generous). Recall validation stays off: it replays an attack against a clock.
 */
import { check, type Diagnostics } from 'recheck';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/child-server.js';
import { regexSites, type RegexSite } from './support/regex-literals.js';

const PARAMS = {
  timeout: 300_000,
  randomSeed: 42,
  incubationTimeout: null,
  seedingTimeout: null,
} as const;

/** Two checks at a time: the machine running the suite is shared. */
async function checkAll(sites: RegexSite[]): Promise<{ site: RegexSite; result: Diagnostics }[]> {
  const unique = new Map<string, RegexSite[]>();
  for (const site of sites) {
    const key = `${site.flags}/${site.source}`;
    unique.set(key, [...(unique.get(key) ?? []), site]);
  }
  const queue = [...unique.values()];
  const out: { site: RegexSite; result: Diagnostics }[] = [];
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const result = await check(group[0]!.source, group[0]!.flags, PARAMS);
      for (const site of group) out.push({ site, result });
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

function describeResult({ site, result }: { site: RegexSite; result: Diagnostics }): string {
  const where = `${site.file}:${site.line} /${site.source}/${site.flags}`;
  if (result.status === 'vulnerable')
    return `${where}: vulnerable (${result.complexity.summary}), attack ${result.attack.pattern}`;
  if (result.status === 'unknown') return `${where}: unknown (${result.error.kind})`;
  return `${where}: ${result.status}`;
}

describe('regular expressions', () => {
  const sites = regexSites(repoRoot, ['src', 'web/src'], (path) => path.includes('/generated'));

  it('are found by parsing, literals and RegExp constructors alike', () => {
    // The collector must see the patterns the service actually runs on user text.
    expect(sites.length).toBeGreaterThan(100);
    expect(sites.some((s) => s.file === 'src/domain/titles.ts')).toBe(true);
    expect(sites.some((s) => s.file === 'web/src/markdown.ts')).toBe(true);
    // A pattern built from a variable cannot be checked: there must be none.
    expect(sites.filter((s) => s.dynamic).map((s) => `${s.file}:${s.line} ${s.source}`)).toEqual([]);
  });

  it('recheck flags a quadratic pattern (the checker works under vitest)', async () => {
    const result = await check('\\[([^\\]]+)\\]\\([^)]*\\)', 'g', PARAMS);
    expect(result.status).toBe('vulnerable');
  }, 300_000);

  it('are all proven safe by recheck', async () => {
    const results = await checkAll(sites.filter((s) => !s.dynamic));
    const bad = results.filter((r) => r.result.status !== 'safe').map(describeResult);
    expect(bad).toEqual([]);
  }, 1_800_000);
});
