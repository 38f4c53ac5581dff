/** Imports every type module and builds the schema. */
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './viewer.js';
import './profile.js';
import './message.js';
import './usage.js';
import './session.js';
import './history.js';
import './model-view.js';
import './turn.js';
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

export function printableSchema() {
  return lexicographicSortSchema(builder.toSchema());
}
