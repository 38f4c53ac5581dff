/**
 * The MCP server behind `/mcp` (docs/api.md "MCP"), on the official SDK's
 * Streamable HTTP transport in stateless mode: a new McpServer and transport
 * per request, so any process answers any request and nothing is kept
 * between them. Only src/protocols/mcp/route.ts loads this module, with a
 * dynamic import on the first `/mcp` request: the SDK costs no memory in a
 * server that never serves MCP.
 *
 * The tools and the resource template call src/protocols/mcp/operations.ts
 * with the viewer the route resolved from the request's credentials, which
 * reaches every handler as the request's auth (`extra.authInfo`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import { isLockTimeout } from '../../db/faults.js';
import { ErrorCode } from '../../domain/error-codes.js';
import { DomainError, Unauthenticated } from '../../store/errors.js';
import { WHILE_RUNNING } from '../../turns/service.js';
import { compact, historyOf, sendAndWait, sessionIdOf, sessionPage } from './operations.js';

const SERVER_INFO = { name: 'chat-session-service', version: '1.0.0' };
const INSTRUCTIONS =
  'Chat sessions of this service: list and search them, read a history page, send a message (answered by the ' +
  "session's model) and compact a session. Session ids are the ids list_sessions returns.";
/** The history resource of one session: `session://<session uuid>/history` (its newest page). */
export const HISTORY_TEMPLATE = 'session://{sessionId}/history';

/** The request's auth as the SDK passes it to every handler: the token, and the viewer it resolved to. */
export function authInfoFor(viewer: Viewer, token: string): AuthInfo {
  return { token, clientId: viewer.userId ?? 'anonymous', scopes: [...viewer.permissions], extra: { viewer } };
}

function viewerOf(extra: { authInfo?: AuthInfo }): Viewer {
  const viewer = extra.authInfo?.extra?.viewer as Viewer | undefined;
  if (!viewer) throw new Unauthenticated();
  return viewer;
}

/** A tool's answer: the JSON as text (what a model reads) and as structured content. */
function ok(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** Why a call failed, as a tool error the model can read: the service's code and message (as GraphQL gives them). */
function failure(app: App, error: unknown): CallToolResult {
  let code: string = ErrorCode.INTERNAL_SERVER_ERROR;
  let message = 'Unexpected error.';
  if (error instanceof DomainError) ({ code, message } = error);
  else if (isLockTimeout(error)) {
    code = ErrorCode.BUSY;
    message = 'The session is locked by another write; nothing was saved, try again.';
  } else app.log.error({ err: error }, 'mcp.tool_failed');
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } },
    isError: true,
  };
}

const page = {
  first: z.number().int().optional().describe('page size (default 50, at most MAX_PAGE_SIZE)'),
  after: z.string().optional().describe('pageInfo.endCursor of the previous page'),
};

function buildServer(app: App): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const run =
    <A>(fn: (viewer: Viewer, args: A, signal: AbortSignal) => Promise<Record<string, unknown>>) =>
    async (args: A, extra: { authInfo?: AuthInfo; signal: AbortSignal }): Promise<CallToolResult> => {
      try {
        return ok(await fn(viewerOf(extra), args, extra.signal));
      } catch (error) {
        return failure(app, error);
      }
    };

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description: 'Your sessions, most recently active first (pinned first), one page at a time.',
      inputSchema: page,
      annotations: { readOnlyHint: true },
    },
    run((viewer, args: { first?: number; after?: string }) => sessionPage(app, viewer, args)),
  );
  server.registerTool(
    'search_sessions',
    {
      title: 'Search sessions',
      description:
        'Your sessions whose displayed messages contain the text (literal, case-insensitive), with the matching ' +
        'message positions (displayIndices, for read_history) and a snippet per session.',
      inputSchema: { query: z.string().min(1).describe('the text to find'), ...page },
      annotations: { readOnlyHint: true },
    },
    run((viewer, args: { query: string; first?: number; after?: string }) =>
      sessionPage(app, viewer, { first: args.first, after: args.after, search: args.query }),
    ),
  );
  server.registerTool(
    'read_history',
    {
      title: 'Read a history page',
      description:
        "A page of a session's displayed messages, oldest first. Without arguments the newest page; " +
        'first/after pages forward, last/before backward (cursors from pageInfo).',
      inputSchema: {
        sessionId: z.string().describe('a session id from list_sessions'),
        first: z.number().int().optional(),
        after: z.string().optional(),
        last: z.number().int().optional(),
        before: z.string().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    run((viewer, args: { sessionId: string; first?: number; after?: string; last?: number; before?: string }) =>
      historyOf(app, viewer, args),
    ),
  );
  server.registerTool(
    'send_message',
    {
      title: 'Send a message',
      description:
        `Sends a user message to the session and waits up to ${Math.round(app.config.mcpSendWaitMs / 1000)} s ` +
        "for the model's answer. If the answer takes longer, returns the turn id and its status: read the " +
        'answer later with read_history.',
      inputSchema: {
        sessionId: z.string().describe('a session id from list_sessions'),
        content: z.string().describe('the message'),
        idempotencyKey: z.string().optional().describe('the same key within 24 h returns the same turn'),
        whileRunning: z
          .enum(WHILE_RUNNING)
          .optional()
          .describe('when a turn is already running: REJECT (default), QUEUE, INTERRUPT or STEER'),
      },
    },
    async (args, extra) => {
      const answer = await run((viewer, a: typeof args, signal) =>
        sendAndWait(app, viewer, a, app.config.mcpSendWaitMs, signal),
      )(args, extra);
      // A turn that failed (the provider refused, the context cannot fit) is the call's failure: its code first.
      const failed = answer.structuredContent as { status?: string; error?: { code?: string; message: string } };
      if (answer.isError || failed.status !== 'FAILED' || !failed.error) return answer;
      const text = `${failed.error.code ?? 'FAILED'}: ${failed.error.message}`;
      return { content: [{ type: 'text', text }, ...answer.content], structuredContent: failed, isError: true };
    },
  );
  server.registerTool(
    'compact_session',
    {
      title: 'Compact a session',
      description:
        "Compresses the session's context now (as /compact does): older messages become a summary the model " +
        'keeps; the displayed history stays. Refused while a turn runs.',
      inputSchema: {
        sessionId: z.string().describe('a session id from list_sessions'),
        strategy: z.enum(['SUMMARY', 'FULL_REPLACE', 'LOCAL', 'NATIVE']).optional().describe('default SUMMARY'),
      },
    },
    run((viewer, args: { sessionId: string; strategy?: 'SUMMARY' | 'FULL_REPLACE' | 'LOCAL' | 'NATIVE' }) =>
      compact(app, viewer, args.sessionId, args.strategy ?? 'SUMMARY'),
    ),
  );

  server.registerResource(
    'session-history',
    new ResourceTemplate(HISTORY_TEMPLATE, {
      list: async (extra) => {
        const { sessions } = await sessionPage(app, viewerOf(extra), {});
        return {
          resources: sessions.map((s) => ({
            uri: historyUri(sessionIdOf(s.id)),
            name: s.name ?? 'Untitled session',
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Session history',
      description: "The newest page of a session's displayed messages (read_history pages further).",
      mimeType: 'application/json',
    },
    async (uri, variables, extra) => {
      try {
        const id = decodeURIComponent(String(variables.sessionId));
        const history = await historyOf(app, viewerOf(extra), { sessionId: id });
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(history) }] };
      } catch (error) {
        const { structuredContent } = failure(app, error);
        const { code, message } = (structuredContent as { error: { code: string; message: string } }).error;
        throw new McpError(code === ErrorCode.NOT_FOUND ? -32002 : -32603, `${code}: ${message}`, { code });
      }
    },
  );
  return server;
}

export const historyUri = (sessionUuid: string) => `session://${sessionUuid}/history`;

/** Answers one `/mcp` POST with a server and transport of its own (stateless mode). */
export async function handleMcpRequest(
  app: App,
  auth: AuthInfo,
  req: IncomingMessage,
  res: ServerResponse,
  /** the request's JSON body, read by the route */
  body: unknown,
): Promise<void> {
  const server = buildServer(app);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The client went away (or the answer is sent): in-flight handlers see their signal aborted.
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(Object.assign(req, { auth }), res, body);
}
