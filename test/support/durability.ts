/**
 * A scripted write load against a real server (a child process) and a ledger
 * of what the server acknowledged, for the kill -9 tests and bench/faults-kill.ts:
 *
 *   const ledger = newLedger();
 *   await writeRound(server.url, ledger, 'r1', token);   // create, send + turn end, rename, upload, share
 *   server.kill('SIGKILL'); ... restart ...
 *   const { lost, duplicates } = await verifyLedger(restarted.url, ledger, token);
 *
 * A write enters the ledger only once its response arrived without errors; a
 * write in flight when the process died is `pending` (it may or may not be
 * there afterwards, both are fine).
 */
import { randomBytes } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import {
  DurabilityCreateSessionDocument,
  DurabilityRenameDocument,
  DurabilitySendDocument,
  DurabilitySessionDocument,
  DurabilityShareDocument,
  DurabilitySharedSessionDocument,
  DurabilityTurnEventsDocument,
  type DurabilityTurnEventsSubscription,
  DurabilityTurnStatusDocument,
  DurabilityUploadDocument,
  type DurabilityUploadMutation,
} from '../generated/graphql.js';
import { messagesOf } from './fake-provider.js';

export interface SessionEntry {
  id: string;
  /** last acknowledged name, and a later one that was sent but not answered */
  name: string | null;
  pendingName?: string;
  /** acknowledged user messages, and assistant replies whose turn was seen COMPLETED */
  messages: { role: 'USER' | 'ASSISTANT'; content: string }[];
  files: { filename: string; size: number }[];
  shareToken?: string;
}

export interface Ledger {
  sessions: SessionEntry[];
  /** acknowledged writes in all */
  acknowledged: number;
}

export const newLedger = (): Ledger => ({ sessions: [], acknowledged: 0 });

/** The reply the fake provider gives to a message: derived from it, so every reply is unique. */
export const replyTo = (content: string) => `reply to ${content}`;

/**
 * Sends one operation and answers its data, throwing on errors: a generated typed document (test/generated), whose
 * variables and data are typed by it, or a query string, whose data is `T`.
 */
export interface Gql {
  <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V): Promise<R>;
  <T = unknown>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

const textOf = (query: string | TypedDocumentNode<unknown, never>) =>
  typeof query === 'string' ? query : print(query);

export function client(url: string, token?: string): Gql {
  return async (query: string | TypedDocumentNode<unknown, never>, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: textOf(query), variables }),
    });
    const body = (await response.json()) as { data?: never; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`GraphQL: ${body.errors.map((e) => e.message).join('; ')}`);
    return body.data as never;
  };
}

async function uploadFile(url: string, sessionId: string, filename: string, content: string, token?: string) {
  const fd = new FormData();
  fd.set(
    'operations',
    JSON.stringify({ query: textOf(DurabilityUploadDocument), variables: { sessionId, files: [null] } }),
  );
  fd.set('map', JSON.stringify({ 0: ['variables.files.0'] }));
  fd.set('0', new Blob([content], { type: 'text/plain' }), filename);
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'x-graphql-yoga-csrf': '1', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: fd,
  });
  const body = (await response.json()) as { data?: DurabilityUploadMutation; errors?: { message: string }[] };
  if (body.errors?.length || !body.data) throw new Error(`upload: ${JSON.stringify(body.errors)}`);
  return body.data.uploadSessionFiles[0]!;
}

/**
 * Waits for the turn's end event (TurnEnded or TurnFailed on sessionEvents, replayed from the start of the session's
 * log, so an end that came before the subscription counts), then answers the server's own record of its status.
 * A server that dies meanwhile ends the socket: that rejects, like any failed request.
 */
async function waitTurnEnd(
  url: string,
  gql: Gql,
  sessionId: string,
  turnId: string,
  token: string | undefined,
  timeoutMs = 60_000,
): Promise<string> {
  const ws = createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`turn ${turnId} did not end within ${timeoutMs} ms`)), timeoutMs);
      const done = (error?: unknown) => {
        clearTimeout(timer);
        if (error) reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
        else resolve();
      };
      ws.subscribe(
        { query: textOf(DurabilityTurnEventsDocument), variables: { sessionId } },
        {
          next: (value) => {
            const event = (value.data as DurabilityTurnEventsSubscription | undefined)?.sessionEvents;
            if (value.errors?.length) done(value.errors);
            else if (event && 'turn' in event && event.turn.id === turnId) done();
          },
          error: (error) => done(error),
          complete: () => done(new Error(`sessionEvents ended before turn ${turnId} did`)),
        },
      );
    });
  } finally {
    await ws.dispose();
  }
  const { turn } = await gql(DurabilityTurnStatusDocument, { id: turnId });
  if (!turn) throw new Error(`turn ${turnId} not found`);
  return turn.status;
}

/**
 * One round of writes, each recorded as acknowledged once answered: create a session,
 * send a message (and see its turn end), rename, upload a file, create a share link.
 * Throws at the first failed request (the server died): what was answered stays in the ledger.
 */
export async function writeRound(url: string, ledger: Ledger, tag: string, token?: string): Promise<void> {
  const gql = client(url, token);
  const { createSession } = await gql(DurabilityCreateSessionDocument, { name: `session ${tag}` });
  const entry: SessionEntry = { id: createSession.id, name: createSession.name, messages: [], files: [] };
  ledger.sessions.push(entry);
  ledger.acknowledged++;

  const content = `message ${tag} ${randomBytes(4).toString('hex')}`;
  const { sendMessage } = await gql(DurabilitySendDocument, { input: { sessionId: entry.id, content } });
  entry.messages.push({ role: 'USER', content });
  ledger.acknowledged++;
  if ((await waitTurnEnd(url, gql, entry.id, sendMessage.turn.id, token)) === 'COMPLETED') {
    entry.messages.push({ role: 'ASSISTANT', content: replyTo(content) });
    ledger.acknowledged++;
  }

  const name = `renamed ${tag}`;
  entry.pendingName = name;
  await gql(DurabilityRenameDocument, { id: entry.id, name });
  entry.name = name;
  delete entry.pendingName;
  ledger.acknowledged++;

  const file = await uploadFile(url, entry.id, `notes-${tag}.txt`, `file body ${tag}\n`, token);
  entry.files.push(file);
  ledger.acknowledged++;

  const { shareSession } = await gql(DurabilityShareDocument, { id: entry.id });
  entry.shareToken = shareSession.token;
  ledger.acknowledged++;
}

export interface Verdict {
  /** acknowledged writes not found after the restart, described */
  lost: string[];
  /** writes found more than once */
  duplicates: string[];
}

/** Reads every session of the ledger back through the API. */
export async function verifyLedger(url: string, ledger: Ledger, token?: string): Promise<Verdict> {
  const gql = client(url, token);
  const lost: string[] = [];
  const duplicates: string[] = [];
  for (const entry of ledger.sessions) {
    const { session } = await gql(DurabilitySessionDocument, { id: entry.id });
    if (!session) {
      lost.push(`session ${entry.id}`);
      lost.push(...entry.messages.map((m) => `message ${m.content}`), ...entry.files.map((f) => `file ${f.filename}`));
      if (entry.name !== null && entry.name.startsWith('renamed')) lost.push(`rename ${entry.name}`);
      if (entry.shareToken) lost.push(`share ${entry.shareToken}`);
      continue;
    }
    if (session.name !== entry.name && session.name !== entry.pendingName)
      lost.push(`rename ${entry.name} (found ${session.name})`);
    const history = session.history.edges.map((e) => e.node);
    for (const m of entry.messages) {
      const found = history.filter((h) => h.role === m.role && h.content === m.content).length;
      if (found === 0) lost.push(`${m.role} message ${m.content}`);
      if (found > 1) duplicates.push(`${m.role} message ${m.content} ×${found}`);
    }
    for (const f of entry.files) {
      const found = session.files.filter((x) => x.filename === f.filename && x.size === f.size).length;
      if (found === 0) lost.push(`file ${f.filename}`);
      if (found > 1) duplicates.push(`file ${f.filename} ×${found}`);
    }
    if (entry.shareToken) {
      const { sharedSession } = await client(url)(DurabilitySharedSessionDocument, { token: entry.shareToken });
      if (!sharedSession || !session.shareUrl?.includes(entry.shareToken)) lost.push(`share ${entry.shareToken}`);
    }
  }
  return { lost, duplicates };
}

/** A fresh database on the PostgreSQL server of baseUrl (as the test harness makes them), dropped by drop(). */
export async function createServerDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `chat_fault_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Fake-provider responder answering replyTo(the last user message). */
export function replyResponder(call: { body: unknown }): { text: string } {
  const messages = messagesOf(call.body);
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return { text: replyTo(typeof last?.content === 'string' ? last.content : '') };
}

/** Runs a script (scripts/admin.ts, …) to its end; resolves with its exit code and output. */
export function runToEnd(
  child: import('node:child_process').ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * An initialized, migrated PGlite data directory to copy for each child server:
 * initdb in WebAssembly is the slow part of a first start on a loaded machine.
 */
export async function prepareTemplateDataDir(dir: string): Promise<string> {
  const { openDatabase } = await import('../../src/db/client.js');
  const { migrate } = await import('../../src/db/migrate.js');
  const db = await openDatabase({ dataDir: dir });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return dir;
}
