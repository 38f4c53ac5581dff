/**
 * `npm start` (scripts/start.mjs) serves in production mode unless NODE_ENV
 * says otherwise: set before dist/ (and graphql) is loaded.
 */
import { describe, expect, it } from 'vitest';

const { productionDefaults } = (await import(new URL('../../scripts/start.mjs', import.meta.url).href)) as {
  productionDefaults(env: Record<string, string | undefined>): Record<string, string | undefined>;
};

describe('npm start environment', () => {
  it('defaults NODE_ENV to production', () => {
    expect(productionDefaults({}).NODE_ENV).toBe('production');
    expect(productionDefaults({ NODE_ENV: '' }).NODE_ENV).toBe('production');
  });

  it('keeps a NODE_ENV that is set', () => {
    expect(productionDefaults({ NODE_ENV: 'development' }).NODE_ENV).toBe('development');
    expect(productionDefaults({ NODE_ENV: 'test' }).NODE_ENV).toBe('test');
  });
});
