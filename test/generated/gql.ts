/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "mutation CreateSession($input: CreateSessionInput!) {\n  createSession(input: $input) {\n    id\n    name\n    titleSource\n    pinned\n    displayMessageCount\n    preview\n    createdAt\n    lastActive\n    profile {\n      id\n      key\n    }\n  }\n}\n\nmutation RenameSession($id: ID!, $name: String!) {\n  renameSession(id: $id, name: $name) {\n    id\n    name\n    titleSource\n  }\n}\n\nmutation DeleteSession($id: ID!) {\n  deleteSession(id: $id) {\n    deletedSessionId\n  }\n}\n\nquery SessionsPage($first: Int, $after: String, $search: String, $orderBy: SessionOrderField, $direction: SortDirection) {\n  sessions(\n    first: $first\n    after: $after\n    search: $search\n    orderBy: $orderBy\n    direction: $direction\n  ) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      matches {\n        displayIndices\n        snippet\n      }\n      node {\n        id\n        name\n        pinned\n        lastActive\n        displayMessageCount\n        preview\n      }\n    }\n  }\n}\n\nquery HistoryPage($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {\n  session(id: $id) {\n    id\n    displayMessageCount\n    history(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        displayIndex\n        node {\n          id\n          sequenceNumber\n          role\n          content\n          archived\n          createdAt\n        }\n      }\n    }\n  }\n}": typeof types.CreateSessionDocument,
};
const documents: Documents = {
    "mutation CreateSession($input: CreateSessionInput!) {\n  createSession(input: $input) {\n    id\n    name\n    titleSource\n    pinned\n    displayMessageCount\n    preview\n    createdAt\n    lastActive\n    profile {\n      id\n      key\n    }\n  }\n}\n\nmutation RenameSession($id: ID!, $name: String!) {\n  renameSession(id: $id, name: $name) {\n    id\n    name\n    titleSource\n  }\n}\n\nmutation DeleteSession($id: ID!) {\n  deleteSession(id: $id) {\n    deletedSessionId\n  }\n}\n\nquery SessionsPage($first: Int, $after: String, $search: String, $orderBy: SessionOrderField, $direction: SortDirection) {\n  sessions(\n    first: $first\n    after: $after\n    search: $search\n    orderBy: $orderBy\n    direction: $direction\n  ) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      matches {\n        displayIndices\n        snippet\n      }\n      node {\n        id\n        name\n        pinned\n        lastActive\n        displayMessageCount\n        preview\n      }\n    }\n  }\n}\n\nquery HistoryPage($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {\n  session(id: $id) {\n    id\n    displayMessageCount\n    history(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        displayIndex\n        node {\n          id\n          sequenceNumber\n          role\n          content\n          archived\n          createdAt\n        }\n      }\n    }\n  }\n}": types.CreateSessionDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateSession($input: CreateSessionInput!) {\n  createSession(input: $input) {\n    id\n    name\n    titleSource\n    pinned\n    displayMessageCount\n    preview\n    createdAt\n    lastActive\n    profile {\n      id\n      key\n    }\n  }\n}\n\nmutation RenameSession($id: ID!, $name: String!) {\n  renameSession(id: $id, name: $name) {\n    id\n    name\n    titleSource\n  }\n}\n\nmutation DeleteSession($id: ID!) {\n  deleteSession(id: $id) {\n    deletedSessionId\n  }\n}\n\nquery SessionsPage($first: Int, $after: String, $search: String, $orderBy: SessionOrderField, $direction: SortDirection) {\n  sessions(\n    first: $first\n    after: $after\n    search: $search\n    orderBy: $orderBy\n    direction: $direction\n  ) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      matches {\n        displayIndices\n        snippet\n      }\n      node {\n        id\n        name\n        pinned\n        lastActive\n        displayMessageCount\n        preview\n      }\n    }\n  }\n}\n\nquery HistoryPage($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {\n  session(id: $id) {\n    id\n    displayMessageCount\n    history(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        displayIndex\n        node {\n          id\n          sequenceNumber\n          role\n          content\n          archived\n          createdAt\n        }\n      }\n    }\n  }\n}"): (typeof documents)["mutation CreateSession($input: CreateSessionInput!) {\n  createSession(input: $input) {\n    id\n    name\n    titleSource\n    pinned\n    displayMessageCount\n    preview\n    createdAt\n    lastActive\n    profile {\n      id\n      key\n    }\n  }\n}\n\nmutation RenameSession($id: ID!, $name: String!) {\n  renameSession(id: $id, name: $name) {\n    id\n    name\n    titleSource\n  }\n}\n\nmutation DeleteSession($id: ID!) {\n  deleteSession(id: $id) {\n    deletedSessionId\n  }\n}\n\nquery SessionsPage($first: Int, $after: String, $search: String, $orderBy: SessionOrderField, $direction: SortDirection) {\n  sessions(\n    first: $first\n    after: $after\n    search: $search\n    orderBy: $orderBy\n    direction: $direction\n  ) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      matches {\n        displayIndices\n        snippet\n      }\n      node {\n        id\n        name\n        pinned\n        lastActive\n        displayMessageCount\n        preview\n      }\n    }\n  }\n}\n\nquery HistoryPage($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {\n  session(id: $id) {\n    id\n    displayMessageCount\n    history(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        displayIndex\n        node {\n          id\n          sequenceNumber\n          role\n          content\n          archived\n          createdAt\n        }\n      }\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;