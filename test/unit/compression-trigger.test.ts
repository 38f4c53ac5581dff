/** The effective automatic trigger and the figure the docs give for the default window. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable, loadConfig } from '../../src/config.js';
import { triggerTokens } from '../../src/compression/triggers.js';
import type { CompressionDeps } from '../../src/compression/deps.js';

const config = loadConfig({});
const deps = { config } as unknown as CompressionDeps;
const trigger = (window: number) => triggerTokens(deps, config.contextCompressionThreshold, window);
const figure = (n: number) => n.toLocaleString('en-US');

describe('the automatic compression trigger', () => {
  it('is min(threshold × W, W − min(reserve, W/4)): 75% of the default 8,192-token window', () => {
    expect(config.ollamaNumCtx).toBe(8192);
    expect(trigger(8192)).toBe(6144);
    expect(trigger(4096)).toBe(3072); // the reserve capped at a quarter of the window
    expect(trigger(32_768)).toBeCloseTo(0.9 * 32_768); // large windows: the threshold decides
    expect(trigger(20_480)).toBe(18_432); // the crossing point the docs name
  });

  it('is documented with its figure where the settings are documented', () => {
    const expected = `${figure(trigger(config.ollamaNumCtx))} tokens (75%)`;
    const row = configTable().find((r) => r.env === 'CONTEXT_COMPRESSION_THRESHOLD')!;
    expect(row.description).toContain('min(threshold × W, W − min(OUTPUT_RESERVE_TOKENS, W/4))');
    expect(row.description).toContain(expected);
    const docs = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    expect(docs).toContain(`**${figure(trigger(config.ollamaNumCtx))} tokens, 75% of the window**`);
  });
});
