/**
 * Node ids resolve synchronously (src/schema/sync-global-id.ts): the `id`
 * field of a Node answers the plugin's global id as a value, not a promise,
 * so the executor completes a page of Nodes without a promise per object; an
 * asynchronous inner resolver still resolves, and a builder's own
 * `relay.encodeGlobalID` is still used.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SchemaBuilder from '@pothos/core';
import RelayPlugin, { encodeGlobalID } from '@pothos/plugin-relay';
import { type GraphQLObjectType, type GraphQLResolveInfo, graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/schema/index.js';

const info = {} as GraphQLResolveInfo;
const isThenable = (v: unknown) => typeof (v as { then?: unknown } | null)?.then === 'function';

describe('Node ids without a promise', () => {
  it("the service's Message and Session ids are values, encoded as the relay plugin encodes them", () => {
    const schema = buildSchema();
    const message = (schema.getType('Message') as GraphQLObjectType).getFields().id!;
    const messageId = '00000000-0000-4000-8000-000000000007';
    const id = message.resolve!({ sessionId: 's-1', sequenceNumber: 7, messageId }, {}, { viewer: null }, info);
    expect(isThenable(id)).toBe(false);
    expect(id).toBe(encodeGlobalID('Message', `s-1:${messageId}`));
    const session = (schema.getType('Session') as GraphQLObjectType).getFields().id!;
    const sid = session.resolve!({ id: '00000000-0000-4000-8000-000000000001' }, {}, { viewer: null }, info);
    expect(isThenable(sid)).toBe(false);
    expect(sid).toBe(encodeGlobalID('Session', '00000000-0000-4000-8000-000000000001'));
  });

  it('an asynchronous inner resolver still resolves, and a custom encodeGlobalID is used', async () => {
    for (const custom of [false, true]) {
      // The options' type requires every plugin the service's builder registers (module augmentation): cast.
      const options = {
        plugins: [RelayPlugin],
        relay: custom ? { encodeGlobalID: (type: string, id: string | number | bigint) => `${type}/${id}` } : {},
      };
      const builder = new SchemaBuilder<{ Context: object }>(options as never);
      const Thing = builder.objectRef<{ id: string }>('Thing');
      builder.node(Thing, { id: { resolve: (t) => t.id }, isTypeOf: () => true, fields: () => ({}) });
      builder.queryType({
        fields: (t) => ({
          thing: t.field({ type: Thing, resolve: () => ({ id: 'a' }) }),
          later: t.globalID({ resolve: async () => ({ type: Thing, id: 'b' }) }),
        }),
      });
      const result = await graphql({ schema: builder.toSchema(), source: '{ thing { id } later }', contextValue: {} });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({
        thing: { id: custom ? 'Thing/a' : encodeGlobalID('Thing', 'a') },
        later: custom ? 'Thing/b' : encodeGlobalID('Thing', 'b'),
      });
    }
  });
});

/**
 * The pin: sync-global-id.ts re-implements the plugin's `globalID` field builder and its `internalEncodeGlobalID`.
 * When the installed @pothos/plugin-relay changes either (or its version), this fails and names what to re-check:
 * compare the plugin's new code with src/schema/sync-global-id.ts, then record the new version and hashes here.
 */
describe('the pin on @pothos/plugin-relay', () => {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.resolve('@pothos/plugin-relay'))));
  const source = (file: string) => fs.readFileSync(path.join(root, 'esm', file), 'utf8');
  /** the text of one top-level function assignment or declaration, up to its closing line */
  const body = (text: string, start: string) => {
    const from = text.indexOf(start);
    if (from < 0) return '';
    const end = text.indexOf('\n}', from);
    return text.slice(from, end + 2);
  };
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const pinned = {
    version: '4.8.1',
    globalID: '7a64bcfb23772056',
    encode: '2c53d022b05f3ee2',
  };

  it('the installed plugin is the one sync-global-id.ts was written against', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const now = {
      version,
      globalID: hash(body(source('field-builder.js'), 'fieldBuilderProto.globalID = function globalID(')),
      encode: hash(body(source('utils/internal.js'), 'export function internalEncodeGlobalID(')),
    };
    expect(
      now,
      'plugin-relay changed: re-check src/schema/sync-global-id.ts against its globalID, then re-pin',
    ).toEqual(pinned);
  });

  it("the patch is in place: the builder's globalID is the synchronous one, not the plugin's async one", async () => {
    const { RootFieldBuilder } = await import('@pothos/core');
    await import('../../src/schema/sync-global-id.js');
    const proto = RootFieldBuilder.prototype as unknown as { globalID: () => unknown };
    expect(proto.globalID.toString()).toContain('completeValue');
    expect(proto.globalID.toString()).not.toContain('async');
  });
});
