/**
 * Pins src/schema/sync-global-id.ts to the @pothos/plugin-relay it patches.
 * The module replaces `RootFieldBuilder.prototype.globalID` with a
 * synchronous copy of the plugin's own; that copy is only right while the
 * plugin's `globalID` and its encoder stay what they were when it was
 * written. When the installed plugin changes (version, the patched function,
 * or the encoder it calls), these tests fail: re-read the plugin's
 * `field-builder.js` and `utils/internal.js`, bring sync-global-id.ts in
 * line (or drop it if the plugin now resolves ids synchronously), then update
 * the pins below.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RootFieldBuilder } from '@pothos/core';
import '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';

const PINNED_VERSION = '4.8.1';
const require = createRequire(import.meta.url);
// The package exports no package.json: its CommonJS entry is lib/index.js.
const pluginRoot = dirname(dirname(require.resolve('@pothos/plugin-relay')));
const squash = (source: string) => source.replace(/\s+/g, '');
const proto = RootFieldBuilder.prototype as unknown as Record<string, unknown>;
// Captured before sync-global-id.ts is imported (dynamically, below).
const pluginGlobalID = proto.globalID as (...args: unknown[]) => unknown;

/** The plugin's globalID as 4.8.1 ships it (esm/field-builder.js). */
const PATCHED_SOURCE = `function globalID({ resolve, ...options }) {
    return this.field({
        ...options,
        type: 'ID',
        resolve: async (parent, args, context, info)=>{
            const result = await resolve(parent, args, context, info);
            if (!result || typeof result !== 'object') {
                return result;
            }
            const item = result;
            return internalEncodeGlobalID(this.builder, this.builder.configStore.getTypeConfig(item.type).name,
              String(item.id), context);
        }
    });
}`;

/** The encoder the plugin's globalID calls (esm/utils/internal.js), which sync-global-id.ts re-implements. */
const ENCODER_SOURCE = `export function internalEncodeGlobalID(builder, typename, id, ctx) {
    var _builder_options_relay;
    if ((_builder_options_relay = builder.options.relay) === null || _builder_options_relay === void 0 ? void 0
      : _builder_options_relay.encodeGlobalID) {
        return builder.options.relay.encodeGlobalID(typename, id, ctx);
    }
    return encodeGlobalID(typename, id);
}`;

const hint = 'the installed @pothos/plugin-relay changed: re-check src/schema/sync-global-id.ts, then update this pin';

describe('sync-global-id.ts is pinned to the relay plugin it patches', () => {
  it(`the installed @pothos/plugin-relay is ${PINNED_VERSION}`, () => {
    const pkg = JSON.parse(readFileSync(join(pluginRoot, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version, hint).toBe(PINNED_VERSION);
  });

  it('the plugin installs the globalID it patches, with the same body', () => {
    expect(typeof pluginGlobalID, hint).toBe('function');
    expect(squash(String(pluginGlobalID)), hint).toBe(squash(PATCHED_SOURCE));
  });

  it('the encoder that globalID calls is the one sync-global-id.ts copies', () => {
    const internal = readFileSync(join(pluginRoot, 'esm/utils/internal.js'), 'utf8');
    expect(squash(internal), hint).toContain(squash(ENCODER_SOURCE));
  });

  it('importing sync-global-id.ts replaces exactly that function', async () => {
    await import('../../src/schema/sync-global-id.js');
    expect(proto.globalID).not.toBe(pluginGlobalID);
    expect(String(proto.globalID)).toContain('completeValue');
  });
});
