/** The Pothos builder, its plugins, scalars and the Context type. Defines no types. */
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import type { Config } from '../config.js';
import type { CompactResult } from '../compression/compact.js';
import type { CompressionService } from '../compression/service.js';
import { isCanonicalIsoTimestamp } from '../domain/timestamps.js';
import type { EditingService } from '../editing/service.js';
import type { SessionFiles } from '../files/store.js';
import type { RecallService } from '../recalls/service.js';
import type { SearchService } from '../search/service.js';
import type { ProfileService } from '../sessions/profiles.js';
import type { SessionService } from '../sessions/service.js';
import type { ReadService } from '../sessions/reads.js';
import type { ShareService } from '../sessions/share.js';
import type { TransferService } from '../sessions/transfer.js';
import type { TurnService } from '../turns/service.js';
import type { CallManifestStore } from '../store/manifests.js';
import type { KeyService } from '../auth/keys.js';
import type { CompressionStrategy } from '../domain/compression-kinds.js';
import type { Profile } from '../generated/prisma/client.js';
import type { Prompt } from '../domain/prompt.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { can, type Viewer } from '../domain/policy.js';
import { ErrorCode } from '../domain/error-codes.js';
import { decodeArgGlobalId } from './ids.js';
// Before any type is defined: Node ids resolve without a promise per object.
import './sync-global-id.js';

/**
 * What resolvers reach: the services the composition root (src/app.ts) built. Declared here, by what the
 * schema needs, so the schema depends on the services and not on the root; the root's App satisfies it.
 */
export interface SchemaServices {
  /** the settings resolvers read: page sizes, whether auth is on, prices, the paths a share redacts */
  settings: SchemaSettings;
  /** rows, node lookups, per-request batches, history pages, event feeds (src/sessions/reads.ts) */
  reads: ReadService;
  /** the per-call manifests of turns (Turn.calls) */
  callManifests: CallManifestStore;
  /** a session's next prompt as it stands (src/turns/prompt.ts sessionPrompt), null when the session is gone */
  prompts: { next(sessionId: string): Promise<{ prompt: Prompt; profile: Profile; window: number } | null> };
  /** forced /compact (src/compression/compact.ts compactSession) */
  compaction: { compact(viewer: Viewer, sessionId: string, strategy: CompressionStrategy): Promise<CompactResult> };
  /** users and API keys: create, revoke, rotate, disable (admin only) */
  keys: KeyService;
  profiles: ProfileService;
  sessions: SessionService;
  search: SearchService;
  files: SessionFiles;
  compression: CompressionService;
  turns: TurnService;
  editing: EditingService;
  recalls: RecallService;
  shares: ShareService;
  transfer: TransferService;
}

/** The configuration values the schema reads. */
export type SchemaSettings = Pick<Config, 'maxPageSize' | 'authEnabled' | 'modelPrices'> & {
  /** the directories a share's redaction replaces in paths (src/sessions/share.ts shareRoots) */
  shareRoots: readonly string[];
};

export interface Context {
  app: SchemaServices;
  /** null when auth is on and the request carried no valid credentials */
  viewer: Viewer | null;
}

/** The context of a field behind `t.withAuth({ authenticated: true })`: the viewer is known. */
export interface AuthenticatedContext extends Context {
  viewer: Viewer;
}

const unauthenticated = () =>
  new GraphQLError('Authentication required', { extensions: { code: ErrorCode.UNAUTHENTICATED } });

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; admin: boolean; manageUsers: boolean };
  AuthContexts: {
    authenticated: AuthenticatedContext;
    admin: AuthenticatedContext;
    manageUsers: AuthenticatedContext;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    File: { Input: File; Output: never };
    ID: { Input: string; Output: string | number };
  };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, DataloaderPlugin],
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (context) => ({
      authenticated: context.viewer !== null,
      admin: can(context.viewer, 'manageProfiles'),
      manageUsers: can(context.viewer, 'manageUsers'),
    }),
    unauthorizedError: (_parent, context) =>
      context.viewer === null
        ? unauthenticated()
        : new GraphQLError('Not allowed', { extensions: { code: ErrorCode.FORBIDDEN } }),
  },
  prisma: {
    client: (ctx) => ctx.app.reads.selectionClient,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    // A prismaField that drops `query` loads its selection field by field: fail loudly outside production.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // node(id:) is defined in node.ts, with one access policy for every Node type.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    // Pothos maps arguments before scope-auth runs: without credentials no id is looked at, so
    // an anonymous caller is UNAUTHENTICATED whatever the id, as before ids were parsed here.
    // Every field that takes a global id is an authenticated one.
    decodeGlobalID: (globalID, context) => {
      if (context.viewer === null) throw unauthenticated();
      return decodeArgGlobalId(globalID);
    },
  },
});

// graphql-scalars' DateTime (RFC 3339, with a zone; a Date or a date-time string out) and JSON (variables inside
// literals included), under this API's descriptions and without a @specifiedBy the contract does not declare.
const dateTime = DateTimeResolver.toConfig();
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    ...dateTime,
    // The same checks, answered as the ISO string a Date serializes to in JSON: a result holding Date objects makes
    // JSON.stringify call toJSON on each and leave V8's fast serializer (3-4x slower on a history page).
    serialize: (value) => {
      // The common cases first (a valid Date, what the store returns; the very string a Date would give, what a
      // prefetched history page holds); anything else is graphql-scalars' to judge.
      if (typeof value === 'string' && isCanonicalIsoTimestamp(value)) return value;
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      const serialized = dateTime.serialize(value);
      return serialized instanceof Date ? serialized.toISOString() : serialized;
    },
    description: 'ISO-8601 UTC timestamp',
    specifiedByURL: null,
  }),
);
builder.addScalarType(
  'JSON',
  new GraphQLScalarType({ ...JSONResolver.toConfig(), description: 'Any JSON value', specifiedByURL: null }),
);

const notAFile = () =>
  new GraphQLError('File: expected a file uploaded through a GraphQL multipart request', {
    extensions: { code: ErrorCode.BAD_USER_INPUT },
  });

/** An upload as the multipart parser hands it over (src/files/multipart.ts's SpooledFile, or a fetch `File`). */
function isUpload(value: unknown): value is File {
  const v = value as { name?: unknown; stream?: unknown; arrayBuffer?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    typeof v.stream === 'function' &&
    typeof v.arrayBuffer === 'function'
  );
}

// Only an upload: a JSON value in a File variable ("x", {}, [..]) and any literal are BAD_USER_INPUT, never a value
// that reaches a resolver and fails there ("f.stream is not a function").
builder.scalarType('File', {
  description: 'A file uploaded through GraphQL multipart requests',
  serialize: () => {
    throw new GraphQLError('File is an input-only scalar');
  },
  parseValue: (value) => {
    if (!isUpload(value)) throw notAFile();
    return value;
  },
  parseLiteral: () => {
    throw notAFile();
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
