/** Every operation the chat page sends: only fields of the API contract (shared/design/api.graphql). */
import type { ContextMode } from './context-mode.js';
import type { MessageView } from './render.js';
import { HISTORY, MESSAGE_FIELDS } from './first-page.js';

export { MESSAGE_FIELDS, OPEN_SESSION } from './first-page.js';

export const SESSION_FIELDS = `fragment Summary on Session {
  id name pinned lastActive displayMessageCount preview profile { name }
}`;

export interface Message extends MessageView {
  id: string;
  isDisplay: boolean;
  /** pinned to or excluded from what the model is sent (setMessageContext) */
  contextMode?: ContextMode;
  /** a user message's newest turn: how its answer ended (a reload shows a failure or a stop with Retry) */
  turn?: { id: string; status: string; error: string | null } | null;
}

export interface SessionSummary {
  id: string;
  name: string | null;
  pinned: boolean;
  lastActive: string;
  displayMessageCount: number;
  preview: string | null;
  profile: { name: string };
}

export interface HistoryPage {
  pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; displayIndex: number; node: Message }[];
}

export interface SessionDetail {
  id: string;
  name: string | null;
  createdAt: string;
  profile: { name: string; model: string };
  activeTurn: { id: string; status: string } | null;
  history: HistoryPage;
}

export interface SessionFileView {
  filename: string;
  size: number;
  contentType: string;
  url: string;
}

export const OLDER = `query Older($id: ID!, $last: Int!, $before: String) {
  session(id: $id) { id history(last: $last, before: $before) { ${HISTORY} } }
}
${MESSAGE_FIELDS}`;

/** Off the first-render path: the token count may cost the server more than the page does. */
export const CONTEXT_METER = `query Meter($id: ID!) { session(id: $id) { id contextTokens contextWindow } }`;

export const FILES = `query Files($id: ID!) { session(id: $id) { id files { filename size contentType url } } }`;

export const TURN_STATUS = `query TurnStatus($id: ID!) { turn(id: $id) { id status } }`;

export const SEND = `mutation Send($input: SendMessageInput!) {
  sendMessage(input: $input) { turn { id status } userMessage { ...Msg } queued { id } }
}
${MESSAGE_FIELDS}`;

/** What a send answers; `queued` when the message waits (QUEUE, STEER): `userMessage` is then provisional. */
export interface SendAnswer {
  turn: { id: string; status: string };
  userMessage: Message;
  queued: { id: string } | null;
}

/** While a turn runs, what a sent message does (SendMessageInput.whileRunning). */
export type WhileRunning = 'QUEUE' | 'INTERRUPT' | 'STEER';

/** Messages waiting for the running turn (owner only). */
export const QUEUED = `query Queued($id: ID!) {
  session(id: $id) { id queuedMessages { id content createdAt position kind status } }
}`;

export const CANCEL_QUEUED = `mutation CancelQueued($id: ID!) { cancelQueuedMessage(id: $id) { id status } }`;

export interface QueuedView {
  id: string;
  content: string;
  createdAt: string;
  position: number | null;
  kind: 'QUEUE' | 'STEER';
  status: string;
}

/** Edit-and-resend of a user message: the old text and what followed it become a branch (a sibling). */
export const EDIT_MESSAGE = `mutation EditMessage($messageId: ID!, $content: String!) {
  editMessage(messageId: $messageId, content: $content) { turn { id status } userMessage { ...Msg } }
}
${MESSAGE_FIELDS}`;

export const REGENERATE = `mutation Regenerate($messageId: ID!) {
  regenerate(messageId: $messageId) { turn { id status } userMessage { ...Msg } }
}
${MESSAGE_FIELDS}`;

export const SWITCH_SIBLING = `mutation SwitchSibling($messageId: ID!, $index: Int!) {
  switchSibling(messageId: $messageId, index: $index) { id }
}`;

/** Pending scheduled recalls of the open conversation (owner only: a reader is answered FORBIDDEN). */
export const RECALLS = `query Recalls($id: ID!) { session(id: $id) { id recalls { id dueAt text status } } }`;

export const CANCEL_RECALL = `mutation CancelRecall($id: ID!) { cancelRecall(id: $id) { id status } }`;

export interface RecallView {
  id: string;
  dueAt: string;
  text: string;
  status: string;
}

export const CANCEL = `mutation Cancel($turnId: ID!) { cancelTurn(turnId: $turnId) { id status } }`;

export const SHARE = `mutation Share($id: ID!, $expiresAt: DateTime, $snapshot: Boolean) {
  shareSession(id: $id, expiresAt: $expiresAt, snapshot: $snapshot) { token url createdAt expiresAt snapshot }
}`;

/** Keeps the live link's expiry (the argument left out). */
export const SHARE_KEEP_EXPIRY = `mutation ShareKeep($id: ID!) {
  shareSession(id: $id) { token url createdAt expiresAt snapshot }
}`;

export const SHARE_LINKS = `query ShareLinks($id: ID!) {
  session(id: $id) { id shareLinks { token url createdAt expiresAt expired snapshot } }
}`;

export const REVOKE_SHARE = `mutation RevokeShare($sessionId: ID!, $token: String) {
  revokeShare(sessionId: $sessionId, token: $token) { revokedCount }
}`;

export interface ShareLinkView {
  token: string;
  url: string;
  createdAt: string;
  expiresAt: string | null;
  expired: boolean;
  snapshot: boolean;
}

export const UPLOAD = `mutation Upload($sessionId: ID!, $files: [File!]!) {
  uploadSessionFiles(sessionId: $sessionId, files: $files) { filename size contentType url }
}`;

export const CREATE = `mutation Create($profileId: ID) {
  createSession(input: { profileId: $profileId }) { ...Summary }
}
${SESSION_FIELDS}`;

/** The profiles a new conversation may use (the picker beside "New conversation"). */
export const PROFILES = `query Profiles { profiles { id key name model vision } }`;

export interface ProfileView {
  id: string;
  key: string;
  name: string;
  model: string;
  vision: boolean;
}

export const FORK = `mutation Fork($id: ID!) { forkSession(id: $id) { ...Summary } }
${SESSION_FIELDS}`;

export const UNDO = `mutation Undo($id: ID!) { undoLastTurn(id: $id) { id } }`;

export const REDO = `mutation Redo($id: ID!) { redo(id: $id) { id } }`;

export const BRANCHES = `query Branches($id: ID!) { session(id: $id) { id branches { name messageCount createdAt } } }`;

export interface BranchView {
  name: string;
  messageCount: number;
  createdAt: string;
}

export const MARK_BRANCH = `mutation MarkBranch($id: ID!, $name: String) {
  markBranch(id: $id, name: $name) { name messageCount createdAt }
}`;

export const SWITCH_BRANCH = `mutation SwitchBranch($id: ID!, $branch: String!) {
  switchBranch(id: $id, branch: $branch) { id }
}`;

export const EXPORT = `query Export($id: ID!, $format: ExportFormat!) {
  session(id: $id) { id name export(format: $format) }
}`;

export const IMPORT = `mutation Import($data: String!, $profileId: ID) {
  importSession(input: { data: $data, profileId: $profileId }) { ...Summary }
}
${SESSION_FIELDS}`;

export const RENAME = `mutation Rename($id: ID!, $name: String!) { renameSession(id: $id, name: $name) { ...Summary } }
${SESSION_FIELDS}`;

export const PIN = `mutation Pin($id: ID!, $pinned: Boolean!) {
  setSessionPinned(id: $id, pinned: $pinned) { ...Summary }
}
${SESSION_FIELDS}`;

export const DELETE = `mutation Delete($id: ID!) { deleteSession(id: $id) { deletedSessionId } }`;

export const LIST = `query List($after: String, $search: String) {
  sessions(first: 50, after: $after, search: $search) {
    pageInfo { hasNextPage endCursor }
    edges { node { ...Summary } matches { displayIndices snippet } }
  }
}
${SESSION_FIELDS}`;

/** A search's first page, with the count: exact up to the server's cap, else a lower bound ("10,000+"). */
export const SEARCH = `query Search($search: String!) {
  sessions(first: 50, search: $search) {
    totalCount totalCountIsExact
    edges { node { ...Summary } matches { displayIndices snippet } }
  }
}
${SESSION_FIELDS}`;

export const LIST_EVENTS = `subscription ListEvents { sessionListEvents { kind sessionId session { ...Summary } } }
${SESSION_FIELDS}`;

export const VIEWER = `query Viewer { viewer { authEnabled isAdmin user { name } } }`;

/**
 * Same-named fields of different types (turnId: ID! / ID, message: Message! / String!) are aliased: GraphQL forbids the
 * conflict.
 */
export const SESSION_EVENTS = `subscription Events($sessionId: ID!, $after: String) {
  sessionEvents(sessionId: $sessionId, after: $after) {
    __typename eventId
    ... on TurnStarted { turn { id status } userMessage { ...Msg } }
    ... on TextDelta { turnId text }
    ... on ThinkingDelta { turnId text }
    ... on ToolCallRequested { turnId clientSide toolCall { name arguments } }
    ... on MessageSaved { savedTurnId: turnId message { ...Msg } }
    ... on CompressionStarted { contextTokens maxContextTokens }
    ... on ContextCompressed { messagesBefore messagesAfter summary contextTokens maxContextTokens }
    ... on SessionRenamed { name }
    ... on TurnEnded { turn { id status } assistantMessage { ...Msg } }
    ... on TurnFailed { turn { id status } code errorMessage: message }
    ... on EventsReset { reason }
    ... on MessageQueued { queued { id } }
    ... on QueuedMessageDispatched { queuedId steered }
    ... on QueuedMessageCancelled { queuedId }
    ... on MessageSteered { queuedId }
    ... on TurnInterrupted { interruptedTurnId: turnId byTurnId }
    ... on MessageContextChanged { messageIds mode }
  }
}
${MESSAGE_FIELDS}`;

export type SessionEvent = { eventId: string } & (
  | { __typename: 'TurnStarted'; turn: { id: string }; userMessage: Message }
  | { __typename: 'TextDelta' | 'ThinkingDelta'; turnId: string; text: string }
  | {
      __typename: 'ToolCallRequested';
      turnId: string;
      clientSide: boolean;
      toolCall: { name: string; arguments: unknown };
    }
  | { __typename: 'MessageSaved'; savedTurnId: string | null; message: Message }
  | { __typename: 'CompressionStarted'; contextTokens: number; maxContextTokens: number }
  | {
      __typename: 'ContextCompressed';
      messagesBefore: number;
      messagesAfter: number;
      summary: string;
      contextTokens: number;
      maxContextTokens: number;
    }
  | { __typename: 'SessionRenamed'; name: string }
  | { __typename: 'TurnEnded'; turn: { id: string; status: string }; assistantMessage: Message | null }
  | { __typename: 'TurnFailed'; turn: { id: string; status: string }; code: string; errorMessage: string }
  | { __typename: 'EventsReset'; reason: 'RESTARTED' | 'TRIMMED' }
  | { __typename: 'MessageQueued'; queued: { id: string } }
  | { __typename: 'QueuedMessageDispatched'; queuedId: string; steered: boolean }
  | { __typename: 'QueuedMessageCancelled' | 'MessageSteered'; queuedId: string }
  | { __typename: 'TurnInterrupted'; interruptedTurnId: string; byTurnId: string }
  | { __typename: 'MessageContextChanged'; messageIds: string[]; mode: ContextMode }
);

/** What the next model call sends (Session.modelView): the text as sent, images by reference. */
export const MODEL_VIEW = `query ModelView($id: ID!) { session(id: $id) { id modelView {
  estimatedTokens contextWindow model profile { name }
  messages { role content sequenceNumber toolCallId name toolCalls { id name arguments } images { name bytes tokens } }
} } }`;

export interface ModelViewData {
  estimatedTokens: number;
  contextWindow: number;
  model: string;
  profile: { name: string };
  messages: {
    role: string;
    content: string;
    sequenceNumber: number | null;
    toolCallId: string | null;
    name: string | null;
    toolCalls: { id: string; name: string; arguments: unknown }[];
    images: { name: string; bytes: number; tokens: number }[];
  }[];
}

/** The newest turn of a conversation: the turn of its newest user message in the last page. */
export const LAST_TURN = `query LastTurn($id: ID!, $last: Int!) {
  session(id: $id) { id history(last: $last) { edges { node { id role turn { id } } } } }
}`;

/** The model calls of a turn (Turn.calls): what each was sent, by reference, and what changed since the one before. */
export const TURN_CALLS = `query TurnCalls($id: ID!) { turn(id: $id) { id calls {
  index model estimatedTokens promptTokens
  manifest { tokens entries { kind ref sequenceNumber role hash tokens } omitted { count tokens } }
  diff {
    against { index turn { id } }
    added { kind ref role tokens } removed { kind ref role tokens } changed { kind ref role tokens }
    unchanged tokenDelta omittedChanged
  }
} } }`;

export interface ManifestEntryData {
  kind: string;
  ref: string;
  role: string | null;
  tokens: number;
  sequenceNumber?: number | null;
  hash?: string;
}

export interface ModelCallData {
  index: number;
  model: string;
  estimatedTokens: number;
  promptTokens: number | null;
  manifest: { tokens: number; entries: ManifestEntryData[]; omitted: { count: number; tokens: number } | null };
  diff: {
    against: { index: number; turn: { id: string } | null } | null;
    added: ManifestEntryData[];
    removed: ManifestEntryData[];
    changed: ManifestEntryData[];
    unchanged: number;
    tokenDelta: number;
    omittedChanged: boolean;
  };
}
