/**
 * `t.globalID` without a promise per object. @pothos/plugin-relay 4.8 builds
 * every Node's `id` field (and any `t.globalID` field) on an `async` resolver,
 * so each Node in a result costs a promise, and graphql's executor then
 * completes the object, its list and every object above it on its promise
 * path. On a 50-message history page that is 50 promises and their
 * continuations for ids that are computed synchronously (measured: 2.36–2.58
 * ms of server CPU per page before, 2.00–2.15 after; docs/performance.md).
 *
 * This replaces the field builder's `globalID` with the same logic that stays
 * synchronous when the inner resolver is (`completeValue`), and encodes the
 * way the plugin does (the builder's `relay.encodeGlobalID`, else
 * `encodeGlobalID`). Imported by builder.ts before any type is defined;
 * test/unit/sync-global-id.test.ts holds the ids to the plugin's encoding and
 * to synchronous resolution, and fails when the installed plugin's version,
 * its `globalID` or its encoder changes.
 */
import { completeValue, RootFieldBuilder } from '@pothos/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';

type Resolve = (parent: unknown, args: object, context: object, info: GraphQLResolveInfo) => unknown;
interface GlobalIdBuilder {
  builder: PothosSchemaTypesBuilder;
  field(options: object): unknown;
}
interface PothosSchemaTypesBuilder {
  options: { relay?: { encodeGlobalID?: (typename: string, id: string, context: object) => string } };
  configStore: { getTypeConfig(ref: unknown): { name: string } };
}

const proto = RootFieldBuilder.prototype as unknown as Record<string, unknown>;
if (typeof proto.globalID !== 'function') throw new Error('sync-global-id: @pothos/plugin-relay is not loaded');

proto.globalID = function globalID(this: GlobalIdBuilder, { resolve, ...options }: { resolve: Resolve }) {
  const { builder } = this;
  const encode = (result: unknown, context: object) => {
    if (!result || typeof result !== 'object') return result;
    const item = result as { type: unknown; id: unknown };
    const typename = builder.configStore.getTypeConfig(item.type).name;
    const custom = builder.options.relay?.encodeGlobalID;
    return custom ? custom(typename, String(item.id), context) : encodeGlobalID(typename, String(item.id));
  };
  return this.field({
    ...options,
    type: 'ID',
    resolve: (parent: unknown, args: object, context: object, info: GraphQLResolveInfo) =>
      completeValue(resolve(parent, args, context, info), (result) => encode(result, context)),
  });
};
