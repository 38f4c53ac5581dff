/** The loopback check before listening with auth off, and the CORS_ORIGINS setting. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createOriginPolicy, isLoopbackHost } from '../../src/http/origin.js';

/** A resolver answering from a table, as dns.lookup({ all: true }) would. */
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const addresses = table[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('isLoopbackHost', () => {
  it('takes localhost, 127.0.0.0/8 and ::1 as loopback, resolving names for real', async () => {
    for (const host of ['localhost', '127.0.0.1', '127.5.6.7', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(await isLoopbackHost(host), host).toBe(true);
    }
  });

  it('takes the wildcard addresses and any other address as reachable from outside', async () => {
    for (const host of ['0.0.0.0', '::', '[::]', '192.168.1.10', '10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1']) {
      expect(await isLoopbackHost(host), host).toBe(false);
    }
  });

  it('judges a name by every address it resolves to, not by how it is spelled', async () => {
    const lookup = resolver({
      // looks like 127.x to a string compare, resolves elsewhere
      '127.attacker.example': ['203.0.113.7'],
      'dual.example': ['127.0.0.1', '192.168.1.10'],
      'box.local': ['127.0.1.1', '::1'],
    });
    expect(await isLoopbackHost('127.attacker.example', lookup)).toBe(false);
    expect(await isLoopbackHost('dual.example', lookup)).toBe(false);
    expect(await isLoopbackHost('box.local', lookup)).toBe(true);
    await expect(isLoopbackHost('nowhere.example', lookup)).rejects.toThrow(/ENOTFOUND/);
  });
});

describe('CORS_ORIGINS', () => {
  it('is empty by default and normalizes origins as browsers send them', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ CORS_ORIGINS: ' http://App.Example:80/ , https://b.example:8443,http://app.example' }).corsOrigins,
    ).toEqual(['http://app.example', 'https://b.example:8443']);
  });

  it('rejects what is not an origin, naming the variable', () => {
    for (const bad of [
      'app.example',
      'http://app.example/path',
      'ftp://app.example',
      'http://user:pw@app.example',
      'null',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });

  it('accepts * only with auth enabled', () => {
    const config = loadConfig({ CORS_ORIGINS: '*' });
    expect(() => createOriginPolicy(config)).toThrow(/CORS_ORIGINS=\* needs AUTH_ENABLED=true/);
    expect(() => createOriginPolicy({ ...config, authEnabled: true })).not.toThrow();
  });
});
