/**
 * A real HTTP server (127.0.0.1, port 0) speaking the providers' wire formats:
 *   Ollama     POST /api/chat (NDJSON), GET /api/tags, GET /api/version
 *   OpenAI     POST /v1/chat/completions (SSE, usage chunk, [DONE]), GET /v1/models
 *   Anthropic  POST /v1/messages (SSE or JSON; compaction block with the compact beta)
 *
 *   const fake = await startFakeProvider();
 *   fake.enqueue({ text: ['Hel', 'lo'] });   // next request's reply
 *   ... fake.requests[0].options.num_ctx ...  // parsed request bodies
 *   await fake.stop();
 *
 * Like the real APIs, OpenAI and Anthropic requests whose tool calls and tool
 * results do not pair up are refused with HTTP 400 and the API's error JSON
 * (`enforceToolPairing`, on by default; each refusal is kept in `rejections`).
 *
 * Anthropic compaction (`enforceCompaction`, on by default): the fake signs
 * every thinking block and compaction block it sends and refuses (400) a later
 * request that sends an issued compaction summary as text, carries a
 * compaction block that is not one it issued (byte for byte), not first in
 * `messages`, more than one, or without the compact beta header, or whose
 * assistant turns after the block lost the thinking block (with its
 * signature) the fake sent with them.
 *
 * Prompt caching, as the real APIs report it (unless a script sets `cachedTokens`):
 *   Anthropic  more than 4 `cache_control` breakpoints, or one on a thinking or
 *              compaction block, is a 400. A breakpoint writes the prefix up to and
 *              including its block (tools, system, messages; `cache_control` itself
 *              is not part of the prefix) when it is at least `cacheMinTokens` long;
 *              a later request reads the longest written prefix found at one of its
 *              breakpoints or up to 20 blocks before one. Usage: input_tokens (the
 *              rest), cache_read_input_tokens, cache_creation_input_tokens.
 *   OpenAI     automatic: the longest run of leading messages (after the tools)
 *              that an earlier request with the same `prompt_cache_key` sent, when
 *              at least `cacheMinTokens`, in 128-token steps, is reported as
 *              prompt_tokens_details.cached_tokens (part of prompt_tokens).
 * Every cache figure is kept in `cacheReports`, in request order.
 */
import { createHash, type Hash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest as OllamaChatRequest } from 'ollama';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';

export type { OllamaChatRequest };
/** The body of POST /v1/chat/completions. */
export type OpenAIChatRequest = ChatCompletionCreateParams;

/** A content block of the Anthropic Messages API, as requests carry them. */
export type AnthropicBlock =
  | { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicBlock[]; is_error?: boolean }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'compaction'; content: string; signature?: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** The body of POST /v1/messages (the fields the service sends). */
export interface AnthropicMessagesRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }[];
  tools?: { name: string; description?: string; input_schema: unknown }[];
  stream?: boolean;
  temperature?: number;
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  context_management?: { edits: { type: string; [key: string]: unknown }[] };
}

/** A parsed POST body: narrow it with `ollamaRequest`, `openaiRequest` or `anthropicRequest`. */
export type FakeRequest = OllamaChatRequest | OpenAIChatRequest | AnthropicMessagesRequest;

/** The API each recorded body was posted to (bodies are kept as parsed, so the tag lives here). */
const apiOf = new WeakMap<object, FakeApi>();

/** Each API's request body. */
export interface FakeRequestOf {
  ollama: OllamaChatRequest;
  openai: OpenAIChatRequest;
  anthropic: AnthropicMessagesRequest;
}

function narrow<A extends FakeApi>(api: A) {
  return (body: unknown): FakeRequestOf[A] => {
    const actual = body && typeof body === 'object' ? apiOf.get(body) : undefined;
    if (actual !== api) throw new Error(`fake provider: expected a ${api} request, got ${actual ?? String(body)}`);
    return body as FakeRequestOf[A];
  };
}
/** The request as the Ollama body it is (throws for another API's body). */
export const ollamaRequest = narrow('ollama');
/** The request as the OpenAI chat.completions body it is (throws for another API's body). */
export const openaiRequest = narrow('openai');
/** The request as the Anthropic Messages body it is (throws for another API's body). */
export const anthropicRequest = narrow('anthropic');

export interface FakeScript {
  /** reply text, as one chunk or as the given chunks */
  text?: string | string[];
  thinking?: string | string[];
  /** a string `arguments` is sent raw (may be invalid JSON) */
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> | string; id?: string }>;
  /** delay before each content chunk (and the final one) */
  chunkDelayMs?: number;
  /**
   * destroy the socket after this many content chunks, once `dieWhen` settles: a gate the test opens when the client
   * has read them (a reset connection drops what the client's stream had received but not yet handed on)
   */
  failAfterChunks?: number;
  dieWhen?: Promise<unknown>;
  /** stop sending (socket left open) after this many content chunks */
  stallAfterChunks?: number;
  /**
   * hold the reply before content chunk `holdBeforeChunk` (default 0;
   * the final chunk counts) until this settles — a gate the test opens
   */
  hold?: Promise<unknown>;
  holdBeforeChunk?: number;
  /** answer this HTTP error status instead of streaming */
  status?: number;
  /** with `status`: this JSON body instead of the API's usual error shape */
  errorBody?: unknown;
  /** with `status`: extra response headers (e.g. retry-after) */
  headers?: Record<string, string>;
  /** true: the right content type with non-JSON lines; 'html': a text/html page */
  garbage?: boolean | 'html';
  /** reported prompt tokens; default: estimated from the request (chars × tokensPerChar) */
  promptTokens?: number;
  completionTokens?: number;
  /** OpenAI prompt_tokens_details.cached_tokens / Anthropic cache_read_input_tokens */
  cachedTokens?: number;
  /** hold the reply until this settles (the request has arrived: the test can act while it is held) */
  gate?: Promise<unknown>;
  /** Anthropic compaction summary (only when the compact beta is requested) */
  compaction?: string;
}

export type FakeApi = 'ollama' | 'openai' | 'anthropic';

interface FakeCallBase {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** the client closed the connection before the reply was finished */
  aborted: boolean;
}

/** One request; `body` is the parsed JSON (typed by `api`; GETs and unknown routes: whatever came). */
export type FakeCall =
  | (FakeCallBase & { api: 'ollama'; body: OllamaChatRequest })
  | (FakeCallBase & { api: 'openai'; body: OpenAIChatRequest })
  | (FakeCallBase & { api: 'anthropic'; body: AnthropicMessagesRequest })
  | (FakeCallBase & { api: 'other'; body: unknown });

export interface FakeProvider {
  url: string;
  /** parsed JSON bodies of every POST, in order (narrow with `ollamaRequest` etc.) */
  requests: FakeRequest[];
  /** every request with path, headers and whether the client hung up early */
  calls: FakeCall[];
  /** decides when the queue is empty; default `{ text: 'ok' }` */
  responder?: (call: FakeCall) => FakeScript;
  /** prompt-size estimate used for default prompt counts and Ollama truncation */
  tokensPerChar: number;
  /**
   * A strict OpenAI-compatible server: 'core' refuses (400, OpenAI's error body) every top-level field of a chat
   * completion request outside the core set, as strict implementations do; 'no-stream-options' refuses
   * `stream_options` too. Default 'off'. Refusals are kept in `rejections`.
   */
  strictOpenAI: 'off' | 'core' | 'no-stream-options';
  /** refuse unpaired tool calls/results as OpenAI and Anthropic do (default true) */
  enforceToolPairing: boolean;
  /** the requests refused for unpaired tool calls, with the API's error message */
  rejections: { api: FakeApi; message: string; body: unknown }[];
  /** refuse Anthropic requests that replay compaction or kept thinking wrongly (default true) */
  enforceCompaction: boolean;
  /** models listed by GET /api/tags and GET /v1/models; default ['fake:latest'] */
  models: string[];
  /** the shortest prefix (in tokens) the prompt caches keep; default 1024 as the real APIs */
  cacheMinTokens: number;
  /** what the simulated prompt caches reported for each OpenAI/Anthropic chat request, in order */
  cacheReports: { api: FakeApi; read: number; write: number; prompt: number }[];
  enqueue(...scripts: FakeScript[]): void;
  /** resolves once `count` POST requests in all have arrived (their bodies are in `requests`) */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  closeAllConnections(): void;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise the test opens when it is ready: `fake.enqueue({ text, hold: g.promise }); ...; g.open()`. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Untyped JSON as an object (anything else: an empty one), for the checks that must survive any body. */
export const jsonRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
/** Untyped JSON as a list (anything else: an empty one). */
export const jsonList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The `messages` of any API's body as untyped JSON objects (for responders that serve every API). */
export const messagesOf = (body: unknown): Record<string, unknown>[] =>
  jsonList(jsonRecord(body).messages).map(jsonRecord);
/** The length of a string (anything else: 0). */
const len = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

/** Characters of the prompt: message contents, system, tools. */
function promptChars(body: unknown): number {
  const b = jsonRecord(body);
  let n = typeof b.system === 'string' ? b.system.length : 0;
  for (const p of jsonList(b.system).map(jsonRecord)) n += len(p.text);
  for (const m of jsonList(b.messages).map(jsonRecord)) {
    if (typeof m.content === 'string') n += m.content.length;
    else for (const p of jsonList(m.content).map(jsonRecord)) n += len(p.text ?? p.content ?? '');
  }
  if (b.tools) n += JSON.stringify(b.tools).length;
  return n;
}

/** A piece of the reply; content pieces count for failAfterChunks/stallAfterChunks. */
interface Piece {
  data: string;
  kind: 'frame' | 'content' | 'final';
}

/** The core chat-completions request fields (what a strict OpenAI-compatible server accepts). */
const OPENAI_CORE_FIELDS = [
  'model',
  'messages',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'temperature',
  'top_p',
  'n',
  'stop',
  'max_tokens',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'user',
  'seed',
  'response_format',
];

export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: FakeScript[] = [];
  const arrivals = new Set<() => void>();
  const fake: FakeProvider = {
    url: '',
    requests: [],
    calls: [],
    tokensPerChar: 0.25,
    enforceToolPairing: true,
    strictOpenAI: 'off',
    enforceCompaction: true,
    rejections: [],
    models: ['fake:latest'],
    cacheMinTokens: 1024,
    cacheReports: [],
    enqueue: (...s) => void queue.push(...s),
    waitForRequests: (count, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (fake.requests.length < count) return;
          arrivals.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          arrivals.delete(check);
          reject(new Error(`fake provider: ${fake.requests.length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        arrivals.add(check);
        check();
      }),
    closeAllConnections: () => server.closeAllConnections(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const issued: Issued = { seq: 0, thinking: [], compactions: new Map() };
  const caches: Caches = { anthropic: new Map(), openai: new Map() };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const c of req) raw += c;
    const path = (req.url ?? '/').split('?')[0];
    const api: FakeCall['api'] =
      path === '/api/chat'
        ? 'ollama'
        : path.endsWith('/chat/completions')
          ? 'openai'
          : path.endsWith('/messages')
            ? 'anthropic'
            : 'other';
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    // The body as the API's request: the service's clients send well-formed ones, and what the fake reads of it
    // below is optional (the pairing and compaction checks read it as untyped JSON).
    const call = { api, method: req.method ?? 'GET', path, headers: req.headers, body, aborted: false } as FakeCall;
    fake.calls.push(call);
    if (req.method === 'POST') {
      if (api !== 'other' && body !== null && typeof body === 'object') apiOf.set(body, api);
      fake.requests.push(body as FakeRequest);
    }
    for (const check of [...arrivals]) check();
    res.on('close', () => {
      if (!res.writableFinished) call.aborted = true;
    });

    if (path === '/api/version') return json(res, 200, { version: '0.12.0' });
    if (path === '/api/tags') {
      return json(res, 200, {
        models: fake.models.map((m) => ({ name: m, model: m, size: 1, digest: 'fake', details: {} })),
      });
    }
    if (path === '/v1/models') {
      return json(res, 200, {
        object: 'list',
        data: fake.models.map((m) => ({ id: m, object: 'model', owned_by: 'fake' })),
      });
    }
    if (api === 'other') return json(res, 404, { error: `no route ${path}` });

    if (fake.strictOpenAI !== 'off' && req.method === 'POST' && api === 'openai' && body && typeof body === 'object') {
      const allowed =
        fake.strictOpenAI === 'core' ? OPENAI_CORE_FIELDS : OPENAI_CORE_FIELDS.filter((f) => f !== 'stream_options');
      const unknown = Object.keys(body).find((key) => !allowed.includes(key));
      if (unknown) {
        const problem = {
          error: {
            message: `Unrecognized request argument supplied: ${unknown}`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        };
        fake.rejections.push({ api, message: problem.error.message, body });
        return json(res, 400, problem);
      }
    }
    if (fake.enforceToolPairing && req.method === 'POST' && (api === 'openai' || api === 'anthropic')) {
      const problem = api === 'openai' ? openaiPairingError(body) : anthropicPairingError(body);
      if (problem) {
        // Refused before a script is taken: the test's scripted answers stay queued.
        fake.rejections.push({ api, message: problem.error.message, body });
        return json(res, 400, problem);
      }
    }
    if (req.method === 'POST' && api === 'anthropic') {
      const problem = anthropicCacheControlError(body);
      if (problem) {
        fake.rejections.push({ api, message: problem.error.message, body });
        return json(res, 400, problem);
      }
    }
    if (fake.enforceCompaction && req.method === 'POST' && api === 'anthropic') {
      const problem = anthropicCompactionError(body, req.headers, issued);
      if (problem) {
        fake.rejections.push({ api, message: problem.error.message, body });
        return json(res, 400, problem);
      }
    }
    const script = queue.shift() ?? fake.responder?.(call) ?? { text: 'ok' };
    if (script.gate) await script.gate;
    if (script.status)
      return json(res, script.status, script.errorBody ?? errorBody(api, script.status), script.headers);
    if (script.garbage === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>502 Bad Gateway (proxy)</body></html>');
    }
    const streaming = api === 'ollama' ? jsonRecord(body).stream !== false : jsonRecord(body).stream === true;
    const contentType = !streaming
      ? 'application/json'
      : api === 'ollama'
        ? 'application/x-ndjson'
        : 'text/event-stream';
    if (script.garbage) {
      res.writeHead(200, { 'content-type': contentType });
      return void res.end('this is not json\n<html>oops</html>\n\n');
    }

    const estimate = Math.ceil(promptChars(body) * fake.tokensPerChar);
    let promptTokens = script.promptTokens ?? estimate;
    if (api === 'ollama') {
      // Ollama's silent truncation: an oversized prompt is cut to about half the window.
      const numCtx = (call.body as OllamaChatRequest | undefined)?.options?.num_ctx ?? 2048;
      if (promptTokens > numCtx) promptTokens = Math.floor(numCtx / 2);
    }
    const text = asList(script.text);
    const completionTokens = script.completionTokens ?? Math.max(1, Math.ceil(text.join('').length / 4));
    const counts: Counts = { promptTokens, completionTokens, cachedTokens: script.cachedTokens ?? 0, cacheWrite: 0 };
    if (script.cachedTokens === undefined && (api === 'anthropic' || api === 'openai')) {
      const { read, write } =
        api === 'anthropic'
          ? anthropicCache(body, caches.anthropic, fake.tokensPerChar, fake.cacheMinTokens)
          : openaiCache(body, caches.openai, fake.tokensPerChar, fake.cacheMinTokens);
      counts.cachedTokens = Math.min(read, promptTokens);
      counts.cacheWrite = Math.min(write, promptTokens - counts.cachedTokens);
      fake.cacheReports.push({ api, read: counts.cachedTokens, write: counts.cacheWrite, prompt: promptTokens });
    }

    if (call.api === 'anthropic' && !streaming) {
      return json(res, 200, anthropicJson(script, call.body, req.headers, counts, issued));
    }
    const pieces =
      call.api === 'ollama'
        ? ollamaPieces(script, call.body, counts)
        : call.api === 'openai'
          ? openaiPieces(script, call.body, counts)
          : anthropicPieces(script, call.body as AnthropicMessagesRequest | undefined, req.headers, counts, issued);
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
    res.flushHeaders();
    let content = 0;
    for (const p of pieces) {
      if (p.kind !== 'frame') {
        if (script.failAfterChunks !== undefined && content >= script.failAfterChunks) {
          // Without the gate the reset could drop chunks the client had not read yet: a race, so not allowed.
          if (script.dieWhen === undefined) throw new Error('failAfterChunks needs dieWhen (a gate the test opens)');
          await script.dieWhen; // the client has read what was sent: die mid-stream
          return void res.socket?.destroy();
        }
        if (script.stallAfterChunks !== undefined && content >= script.stallAfterChunks) return; // hang
        if (script.hold && content === (script.holdBeforeChunk ?? 0)) await script.hold;
        if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
        if (p.kind === 'content') content++;
      }
      if (res.destroyed) return;
      await new Promise<void>((resolve) => {
        res.once('close', resolve);
        res.write(p.data, () => {
          res.off('close', resolve);
          resolve();
        });
      });
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function errorBody(api: FakeApi, status: number): unknown {
  const message = `fake error ${status}`;
  if (api === 'ollama') return { error: message };
  if (api === 'openai') return { error: { message, type: 'server_error', code: null } };
  return { type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } };
}

// ---------------------------------------------------------------- tool-call pairing (the APIs' 400s)

/**
 * OpenAI: an assistant message with tool_calls must be followed by tool
 * messages answering each tool_call_id before any other message; a tool
 * message must answer a call of the assistant message before it.
 */
export function openaiPairingError(
  body: unknown,
): { error: { message: string; type: string; param: string | null; code: null } } | null {
  const messages = jsonList(jsonRecord(body).messages).map(jsonRecord);
  const fail = (message: string, index: number) => ({
    error: { message, type: 'invalid_request_error', param: `messages.[${index}].role`, code: null },
  });
  let open: Set<string> | null = null;
  let callsAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      const id = String(m.tool_call_id);
      if (!open || !open.has(id)) {
        return fail(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          i,
        );
      }
      open.delete(id);
      continue;
    }
    if (open && open.size > 0) {
      return fail(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each ` +
          `'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        callsAt,
      );
    }
    open = null;
    if (m.role === 'assistant' && jsonList(m.tool_calls).length > 0) {
      open = new Set(jsonList(m.tool_calls).map((c) => String(jsonRecord(c).id)));
      callsAt = i;
    }
  }
  if (open && open.size > 0) {
    return fail(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each ` +
        `'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
      callsAt,
    );
  }
  return null;
}

/**
 * Anthropic: every tool_use block must be answered by a tool_result block in
 * the next (user) message, and every tool_result must answer a tool_use of
 * the message before it.
 */
export function anthropicPairingError(
  body: unknown,
): { type: 'error'; error: { type: 'invalid_request_error'; message: string } } | null {
  const messages = jsonList(jsonRecord(body).messages).map(jsonRecord);
  const blocks = (m: Record<string, unknown> | undefined): Record<string, unknown>[] =>
    jsonList(m?.content).map(jsonRecord);
  const fail = (message: string) => ({
    type: 'error' as const,
    error: { type: 'invalid_request_error' as const, message },
  });
  for (let i = 0; i < messages.length; i++) {
    const uses =
      messages[i]?.role === 'assistant'
        ? blocks(messages[i])
            .filter((b) => b.type === 'tool_use')
            .map((b) => String(b.id))
        : [];
    const next = messages[i + 1];
    const answered = new Set(
      next?.role === 'user'
        ? blocks(next)
            .filter((b) => b.type === 'tool_result')
            .map((b) => String(b.tool_use_id))
        : [],
    );
    const missing = uses.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return fail(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` ` +
          `blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` ` +
          `block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
    const previousUses = new Set(
      i > 0 && messages[i - 1]?.role === 'assistant'
        ? blocks(messages[i - 1])
            .filter((b) => b.type === 'tool_use')
            .map((b) => String(b.id))
        : [],
    );
    const results =
      messages[i]?.role === 'user'
        ? blocks(messages[i])
            .map((b, j) => ({ b, j }))
            .filter(({ b }) => b.type === 'tool_result')
        : [];
    for (const { b, j } of results) {
      if (!previousUses.has(String(b.tool_use_id))) {
        return fail(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in ` +
            `\`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block ` +
            `must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  }
  return null;
}

interface Counts {
  promptTokens: number;
  completionTokens: number;
  /** OpenAI cached_tokens / Anthropic cache_read_input_tokens */
  cachedTokens: number;
  /** Anthropic cache_creation_input_tokens */
  cacheWrite: number;
}

// ---------------------------------------------------------------- prompt caching

/** Written prefixes: Anthropic by prefix hash, OpenAI by prompt_cache_key then prefix hash; values are tokens. */
interface Caches {
  anthropic: Map<string, number>;
  openai: Map<string, Map<string, number>>;
}

const withoutCacheControl = (b: unknown): unknown => {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return b;
  const { cache_control: _c, ...rest } = b as Record<string, unknown>;
  return rest;
};

/** Characters of one content block (its text or content). */
const blockChars = (p: unknown): number => {
  const b = jsonRecord(p);
  return String(b.text ?? b.content ?? '').length;
};
/** Characters of a message's content: a string or a list of blocks. */
const contentChars = (content: unknown): number =>
  typeof content === 'string' ? content.length : jsonList(content).reduce((n: number, p) => n + blockChars(p), 0);

/** Blocks that may not carry cache_control on the Messages API. */
const UNCACHEABLE = new Set(['thinking', 'redacted_thinking', 'compaction']);

interface CacheUnit {
  role: string;
  block: Record<string, unknown>;
}

/** Every block of an Anthropic request in prompt order (tools, system, messages), with its role. */
function anthropicUnits(body: unknown): CacheUnit[] {
  const b = jsonRecord(body);
  const units: CacheUnit[] = [];
  for (const t of jsonList(b.tools)) units.push({ role: 'tools', block: jsonRecord(t) });
  if (typeof b.system === 'string') units.push({ role: 'system', block: { type: 'text', text: b.system } });
  else for (const block of jsonList(b.system)) units.push({ role: 'system', block: jsonRecord(block) });
  for (const m of jsonList(b.messages).map(jsonRecord)) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : jsonList(m.content);
    for (const block of blocks) units.push({ role: String(m.role), block: jsonRecord(block) });
  }
  return units;
}

/** The Messages API's rules on cache_control: at most 4 breakpoints, none on thinking or compaction blocks. */
export function anthropicCacheControlError(
  body: unknown,
): { type: 'error'; error: { type: 'invalid_request_error'; message: string } } | null {
  const fail = (message: string) => ({
    type: 'error' as const,
    error: { type: 'invalid_request_error' as const, message },
  });
  const marked = anthropicUnits(body).filter((u) => u.block.cache_control);
  if (marked.length > 4) {
    return fail(`A maximum of 4 blocks with cache_control may be provided. Found ${marked.length}.`);
  }
  const bad = marked.find((u) => UNCACHEABLE.has(String(u.block.type)));
  if (bad) return fail(`${String(bad.block.type)} blocks cannot be marked with cache_control`);
  return null;
}

/** Prefix hashes and token sizes after each unit (a running hash, copied at every step). */
function prefixes<U>(model: string, units: U[], chars: (u: U) => number, tokensPerChar: number) {
  const hash: Hash = createHash('sha256').update(String(model));
  let n = 0;
  return units.map((u) => {
    hash.update(`\u0000${JSON.stringify(u)}`);
    n += chars(u);
    return { key: hash.copy().digest('hex'), tokens: Math.ceil(n * tokensPerChar) };
  });
}

function anthropicCache(body: unknown, cache: Map<string, number>, tokensPerChar: number, min: number) {
  const units = anthropicUnits(body);
  const steps = prefixes(
    String(jsonRecord(body).model ?? ''),
    units.map((u) => ({ role: u.role, block: withoutCacheControl(u.block) })),
    (u) => (u.role === 'tools' ? JSON.stringify(u.block).length : blockChars(u.block)),
    tokensPerChar,
  );
  const breakpoints = units.flatMap((u, i) => (u.block.cache_control ? [i] : []));
  let read = 0;
  let readAt = -1;
  for (const bp of breakpoints) {
    for (let j = bp; j >= Math.max(0, bp - 20); j--) {
      if (!cache.has(steps[j]!.key)) continue;
      if (steps[j]!.tokens > read) {
        read = steps[j]!.tokens;
        readAt = j;
      }
      break;
    }
  }
  let write = 0;
  for (const bp of breakpoints) {
    if (bp <= readAt || steps[bp]!.tokens < min) continue;
    cache.set(steps[bp]!.key, steps[bp]!.tokens);
    write = Math.max(write, steps[bp]!.tokens - read);
  }
  return { read, write };
}

function openaiCache(body: unknown, caches: Map<string, Map<string, number>>, tokensPerChar: number, min: number) {
  const b = jsonRecord(body);
  const key = typeof b.prompt_cache_key === 'string' ? b.prompt_cache_key : '';
  const cache = caches.get(key) ?? new Map<string, number>();
  caches.set(key, cache);
  const tools: Record<string, unknown>[] = Array.isArray(b.tools) ? [{ tools: b.tools }] : [];
  const steps = prefixes(
    String(b.model ?? ''),
    [...tools, ...jsonList(b.messages).map(jsonRecord)],
    (u) => (u.tools ? JSON.stringify(u.tools).length : contentChars(u.content)),
    tokensPerChar,
  );
  let read = 0;
  for (const step of steps) {
    if (cache.has(step.key)) read = step.tokens;
  }
  for (const step of steps) cache.set(step.key, step.tokens);
  return { read: read >= min ? Math.floor(read / 128) * 128 : 0, write: 0 };
}

const argsString = (a: Record<string, unknown> | string) => (typeof a === 'string' ? a : JSON.stringify(a));

// ---------------------------------------------------------------- Ollama NDJSON

function ollamaPieces(s: FakeScript, body: OllamaChatRequest | undefined, c: Counts): Piece[] {
  const model = body?.model ?? 'fake';
  const line = (o: object): string => JSON.stringify({ model, created_at: new Date().toISOString(), ...o }) + '\n';
  const msg = (m: object, kind: Piece['kind'] = 'content'): Piece => ({
    data: line({ message: { role: 'assistant', content: '', ...m }, done: false }),
    kind,
  });
  const out: Piece[] = [];
  for (const t of asList(s.thinking)) out.push(msg({ thinking: t }));
  for (const t of asList(s.text)) out.push(msg({ content: t }));
  if (s.toolCalls?.length) {
    // Ollama sends no ids; a script's id is sent as some builds do (to test repeated ids).
    out.push(
      msg({
        tool_calls: s.toolCalls.map((t) => ({
          ...(t.id !== undefined && { id: t.id }),
          function: { name: t.name, arguments: t.arguments },
        })),
      }),
    );
  }
  out.push({
    data: line({
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      total_duration: 1000,
      load_duration: 10,
      prompt_eval_count: c.promptTokens,
      prompt_eval_duration: 100,
      eval_count: c.completionTokens,
      eval_duration: 500,
    }),
    kind: 'final',
  });
  return out;
}

// ---------------------------------------------------------------- OpenAI SSE

function openaiPieces(s: FakeScript, body: OpenAIChatRequest | undefined, c: Counts): Piece[] {
  const base = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: body?.model ?? 'fake',
  };
  const sse = (o: object) => `data: ${JSON.stringify({ ...base, ...o })}\n\n`;
  const delta = (d: object, finish: string | null = null) =>
    sse({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
  const out: Piece[] = [{ data: delta({ role: 'assistant', content: '' }), kind: 'frame' }];
  for (const t of asList(s.thinking)) out.push({ data: delta({ reasoning_content: t }), kind: 'content' });
  for (const t of asList(s.text)) out.push({ data: delta({ content: t }), kind: 'content' });
  (s.toolCalls ?? []).forEach((t, index) => {
    const args = argsString(t.arguments);
    const half = Math.floor(args.length / 2);
    // An empty script id sends none, as some OpenAI-compatible servers do.
    const id = t.id ?? `call_fake_${index}`;
    out.push({
      data: delta({
        tool_calls: [
          {
            index,
            ...(id !== '' && { id }),
            type: 'function',
            function: { name: t.name, arguments: args.slice(0, half) },
          },
        ],
      }),
      kind: 'content',
    });
    out.push({ data: delta({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }), kind: 'content' });
  });
  out.push({ data: delta({}, s.toolCalls?.length ? 'tool_calls' : 'stop'), kind: 'final' });
  if (body?.stream_options?.include_usage) {
    const usage = {
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
      total_tokens: c.promptTokens + c.completionTokens,
      prompt_tokens_details: { cached_tokens: c.cachedTokens },
    };
    out.push({ data: sse({ choices: [], usage }), kind: 'frame' });
  }
  out.push({ data: 'data: [DONE]\n\n', kind: 'frame' });
  return out;
}

// ---------------------------------------------------------------- Anthropic

function wantsCompaction(body: AnthropicMessagesRequest | undefined, headers: IncomingMessage['headers']): boolean {
  const beta = String(headers['anthropic-beta'] ?? '');
  const edits = body?.context_management?.edits ?? [];
  return beta.includes('compact-2026-01-12') && edits.some((e) => e?.type === 'compact_20260112');
}

function compactionText(s: FakeScript, body: AnthropicMessagesRequest | undefined): string {
  return s.compaction ?? `Summary of ${(body?.messages ?? []).length} earlier messages.`;
}

/** What the fake signed and sent, to check what comes back. */
interface Issued {
  seq: number;
  /** every thinking block sent, with the reply it came with */
  thinking: { thinking: string; signature: string; text: string; toolUses: string }[];
  /** compaction blocks by summary text */
  compactions: Map<string, Record<string, unknown>>;
}

function issueCompaction(
  s: FakeScript,
  body: AnthropicMessagesRequest | undefined,
  issued: Issued,
): Record<string, unknown> {
  const content = compactionText(s, body);
  const block = issued.compactions.get(content) ?? { type: 'compaction', content, signature: `csig_${++issued.seq}` };
  issued.compactions.set(content, block);
  return block;
}

function issueThinking(s: FakeScript, issued: Issued): string {
  const signature = `sig_${++issued.seq}`;
  issued.thinking.push({
    thinking: asList(s.thinking).join(''),
    signature,
    text: asList(s.text).join(''),
    toolUses: (s.toolCalls ?? []).map((t) => t.name).join(','),
  });
  return signature;
}

const canonical = (v: unknown): string =>
  JSON.stringify(
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/**
 * The compaction rules of the Messages API as the fake enforces them (see the
 * file comment). `null` when the request is acceptable.
 */
export function anthropicCompactionError(
  body: unknown,
  headers: IncomingMessage['headers'],
  issued: Issued,
): { type: 'error'; error: { type: 'invalid_request_error'; message: string } } | null {
  const messages = jsonList(jsonRecord(body).messages).map(jsonRecord);
  const blocks = (m: Record<string, unknown> | undefined): Record<string, unknown>[] =>
    Array.isArray(m?.content)
      ? m.content.map(jsonRecord)
      : typeof m?.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : [];
  const fail = (message: string) => ({
    type: 'error' as const,
    error: { type: 'invalid_request_error' as const, message },
  });
  const found: { i: number; j: number; block: Record<string, unknown> }[] = [];
  for (const [i, m] of messages.entries()) {
    for (const [j, b] of blocks(m).entries()) {
      if (b.type === 'text' && issued.compactions.has(String(b.text ?? '').trim())) {
        return fail(
          `messages.${i}.content.${j}: a compaction summary was sent as ` +
            `text; send the \`compaction\` block back as it was returned`,
        );
      }
      if (b.type === 'compaction') found.push({ i, j, block: b });
    }
  }
  if (found.length === 0) return null;
  if (found.length > 1) return fail('send exactly one `compaction` block per request');
  const { i, j, block } = found[0]!;
  if (!String(headers['anthropic-beta'] ?? '').includes('compact-2026-01-12')) {
    return fail(`messages.${i}.content.${j}: \`compaction\` blocks require the compact-2026-01-12 beta`);
  }
  const original = issued.compactions.get(String(block.content ?? ''));
  if (!original || canonical(original) !== canonical(block)) {
    return fail(`messages.${i}.content.${j}: the \`compaction\` block was not sent back exactly as it was returned`);
  }
  if (i !== 0 || j !== 0)
    return fail(`messages.${i}.content.${j}: compaction_block_misplaced: the \`compaction\` block must come first`);
  // The kept turns after the block must reach the API unchanged, thinking included.
  for (let k = i + 1; k < messages.length; k++) {
    if (messages[k]?.role !== 'assistant') continue;
    const bs = blocks(messages[k]);
    const text = bs
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('');
    const toolUses = bs
      .filter((b) => b.type === 'tool_use')
      .map((b) => b.name)
      .join(',');
    const sent = issued.thinking.filter((t) => t.text === text && t.toolUses === toolUses && (text || toolUses));
    if (sent.length === 0) continue;
    const kept = bs.some(
      (b) => b.type === 'thinking' && sent.some((t) => t.thinking === b.thinking && t.signature === b.signature),
    );
    if (!kept) {
      return fail(
        `messages.${k}: a kept assistant turn after the \`compaction\` block ` +
          `lost its \`thinking\` block or signature; send kept turns unchanged`,
      );
    }
  }
  return null;
}

function anthropicUsage(c: Counts) {
  return {
    input_tokens: c.promptTokens - c.cachedTokens - c.cacheWrite,
    cache_read_input_tokens: c.cachedTokens,
    cache_creation_input_tokens: c.cacheWrite,
    output_tokens: c.completionTokens,
  };
}

function anthropicJson(
  s: FakeScript,
  body: AnthropicMessagesRequest | undefined,
  headers: IncomingMessage['headers'],
  c: Counts,
  issued: Issued,
): unknown {
  const content: object[] = [];
  if (wantsCompaction(body, headers)) content.push(issueCompaction(s, body, issued));
  const thinking = asList(s.thinking).join('');
  if (thinking) content.push({ type: 'thinking', thinking, signature: issueThinking(s, issued) });
  const text = asList(s.text).join('');
  if (text) content.push({ type: 'text', text });
  (s.toolCalls ?? []).forEach((t, i) =>
    content.push({ type: 'tool_use', id: t.id ?? `toolu_fake_${i}`, name: t.name, input: t.arguments }),
  );
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: body?.model ?? 'fake',
    content,
    stop_reason: s.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(c),
  };
}

function anthropicPieces(
  s: FakeScript,
  body: AnthropicMessagesRequest | undefined,
  headers: IncomingMessage['headers'],
  c: Counts,
  issued: Issued,
): Piece[] {
  const ev = (type: string, o: object, kind: Piece['kind'] = 'frame'): Piece => ({
    data: `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`,
    kind,
  });
  const u = anthropicUsage(c);
  const out: Piece[] = [
    ev('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: body?.model ?? 'fake',
        content: [],
        stop_reason: null,
        usage: { ...u, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (wantsCompaction(body, headers)) {
    out.push(ev('content_block_start', { index, content_block: issueCompaction(s, body, issued) }));
    out.push(ev('content_block_stop', { index: index++ }));
  }
  const thinking = asList(s.thinking);
  if (thinking.length) {
    out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }));
    for (const t of thinking)
      out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } }, 'content'));
    out.push(
      ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: issueThinking(s, issued) } }),
    );
    out.push(ev('content_block_stop', { index: index++ }));
  }
  const text = asList(s.text);
  if (text.length) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    out.push({ data: 'event: ping\ndata: {"type": "ping"}\n\n', kind: 'frame' });
    for (const t of text)
      out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } }, 'content'));
    out.push(ev('content_block_stop', { index: index++ }));
  }
  (s.toolCalls ?? []).forEach((t, i) => {
    const args = argsString(t.arguments);
    const half = Math.floor(args.length / 2);
    out.push(
      ev('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: t.id ?? `toolu_fake_${i}`, name: t.name, input: {} },
      }),
    );
    for (const part of [args.slice(0, half), args.slice(half)]) {
      out.push(
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }, 'content'),
      );
    }
    out.push(ev('content_block_stop', { index: index++ }));
  });
  out.push(
    ev(
      'message_delta',
      {
        delta: { stop_reason: s.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: c.completionTokens },
      },
      'final',
    ),
  );
  out.push(ev('message_stop', {}));
  return out;
}

// ---------------------------------------------------------------- test helpers

/** Consumes a stream, keeping the chunks received before an error; `onChunk` sees the chunks so far after each. */
export async function drain<T>(
  stream: AsyncIterable<T>,
  onChunk?: (chunks: readonly T[]) => void,
): Promise<{ chunks: T[]; error?: unknown }> {
  const chunks: T[] = [];
  try {
    for await (const c of stream) {
      chunks.push(c);
      onChunk?.(chunks);
    }
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

/** A loopback URL nothing listens on (connection refused). */
export async function refusedUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
