/** Imports every type module and builds the schema. */
import { type GraphQLSchema, lexicographicSortSchema } from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { builder } from './builder.js';
import './viewer.js';
import './profile.js';
import './message.js';
import './usage.js';
import './session.js';
import './history.js';
import './model-view.js';
import './turn.js';
import './turn-calls.js';
import './events.js';
import './files.js';
import './share.js';
import './transfer.js';
import './compression.js';
import './editing.js';
import './recall.js';
import './users.js';
import './node.js';

export function buildSchema() {
  return builder.toSchema();
}

/**
 * The schema as Yoga serves it: the built schema plus the `@defer` and `@stream` directive definitions, added by the
 * very plugin the server runs (src/server.ts), so schema.graphql holds them exactly as served.
 */
export function servedSchema(): GraphQLSchema {
  let schema = buildSchema();
  useDeferStream().onSchemaChange?.({
    schema,
    replaceSchema: (next: GraphQLSchema) => {
      schema = next;
    },
  } as never);
  return schema;
}

/** The served schema, sorted: what `npm run schema:print` writes to schema.graphql. */
export function printableSchema() {
  return lexicographicSortSchema(servedSchema());
}
