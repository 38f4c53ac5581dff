/**
 * Behaviour shared by every provider adapter: connect/idle timeouts, abort,
 * one retry before the first chunk, error normalisation to
 * ProviderUnavailableError, and the `complete()` collector.
 *
 * An adapter only implements `openStream(req, signal)`: a raw async iterable
 * of ChatChunks for ONE HTTP attempt that honours `signal` (the attempt's
 * abort signal, fired on user abort, timeout, or when the consumer stops).
 */
import type { Usage } from '../domain/types.js';
import {
  ProviderUnavailableError,
  type ChatChunk,
  type ChatRequest,
  type CompleteResult,
  type LlmProvider,
} from './types.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_CONNECT_RETRIES = 1;
const RETRY_BACKOFF_MS = 100;

export interface ResilienceOptions {
  /** Connect timeout (until the first chunk) and idle timeout (between chunks), in ms. */
  timeoutMs?: number;
  /** How many extra attempts when the connection fails before the first chunk. Default 1. */
  connectRetries?: number;
}

export interface StreamPolicy {
  name: string;
  timeoutMs: number;
  connectRetries: number;
}

export function policyFrom(name: string, o: ResilienceOptions): StreamPolicy {
  return {
    name,
    timeoutMs: o.timeoutMs && o.timeoutMs > 0 ? o.timeoutMs : DEFAULT_TIMEOUT_MS,
    connectRetries: Math.max(0, o.connectRetries ?? DEFAULT_CONNECT_RETRIES),
  };
}

/** The server answered something that is not the expected wire format. Never retried. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The server answered an HTTP error status (or an in-stream error event). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    /** the provider's own message (from its JSON error body), untrimmed */
    readonly detail: string = '',
    /** seconds from a Retry-After header, when the provider sent one */
    readonly retryAfterSeconds?: number,
  ) {
    super(`HTTP ${status}: ${detail}`);
    this.name = 'HttpStatusError';
  }
}

/** The provider's message from an error body: Ollama {error}, OpenAI/Anthropic {error:{type?,message}}, or the text. */
export function errorBodyMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: string | { type?: string; message?: string }; message?: string };
    if (typeof j.error === 'string') return j.error;
    if (j.error?.message) return j.error.type ? `${j.error.type}: ${j.error.message}` : j.error.message;
    if (typeof j.message === 'string') return j.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 1000);
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** An error response as HttpStatusError, with the provider's message and Retry-After. */
export async function statusErrorOf(res: Response): Promise<HttpStatusError> {
  const text = await res.text().catch(() => '');
  return new HttpStatusError(
    res.status,
    errorBodyMessage(text) || res.statusText,
    retryAfterSeconds(res.headers.get('retry-after')),
  );
}

/** No chunk arrived within timeoutMs. */
export class StreamTimeoutError extends Error {
  constructor(
    readonly ms: number,
    readonly beforeFirstChunk: boolean,
  ) {
    super(beforeFirstChunk ? `no response within ${ms}ms` : `stream stalled: no data for ${ms}ms`);
    this.name = 'StreamTimeoutError';
  }
}

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  while (cur && out.length < 6 && !out.includes(cur)) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

function statusOf(err: unknown): number | undefined {
  for (const e of causes(err)) {
    const rec = e as { status?: unknown; status_code?: unknown };
    if (typeof rec.status === 'number') return rec.status;
    if (typeof rec.status_code === 'number') return rec.status_code;
  }
  return undefined;
}

/** Connection-level failures and 5xx/429/408 are retryable (before the first chunk only). */
export function isRetryable(err: unknown): boolean {
  const chain = causes(err);
  if (chain.some((e) => e instanceof ProtocolError || e instanceof SyntaxError)) return false;
  const status = statusOf(err);
  if (status !== undefined) return status >= 500 || status === 429 || status === 408;
  return true; // refused / reset / DNS / connect timeout
}

/** "fetch failed: connect ECONNREFUSED 127.0.0.1:1234" — the messages of the cause chain. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  const chain = causes(err);
  // A wrapped ProtocolError (the openai client wraps fetch errors) is the useful part.
  const proto = chain.findIndex((e) => e instanceof ProtocolError);
  for (const e of proto > 0 ? chain.slice(proto) : chain) {
    let msg = e instanceof Error ? e.message : String(e);
    const code = (e as { status_code?: unknown }).status_code; // ollama's ResponseError
    if (typeof code === 'number' && !msg.includes(String(code))) msg = `HTTP ${code}: ${msg}`;
    if (msg && !parts.some((p) => p.includes(msg))) parts.push(msg);
  }
  return parts.join(': ') || 'unknown error';
}

export function toUnavailable(name: string, err: unknown, midStream: boolean): ProviderUnavailableError {
  if (err instanceof ProviderUnavailableError) return err;
  const what = midStream ? 'stream failed mid-response' : 'request failed';
  return new ProviderUnavailableError(`${name}: ${what}: ${describeError(err)}`, err);
}

function isAbortLike(err: unknown): boolean {
  return causes(err).some((e) => (e as { name?: unknown }).name === 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

const ABORTED = Symbol('aborted');

/** it.next() raced against the timeout and the user's abort. On timeout the attempt is aborted. */
function nextWithDeadline<T>(
  it: AsyncIterator<T>,
  ms: number,
  beforeFirst: boolean,
  attempt: AbortController,
  user: AbortSignal | undefined,
): Promise<IteratorResult<T> | typeof ABORTED> {
  if (user?.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cleanup();
      resolve(ABORTED);
    };
    const timer = setTimeout(() => {
      cleanup();
      const err = new StreamTimeoutError(ms, beforeFirst);
      attempt.abort(err);
      reject(err);
    }, ms);
    function cleanup() {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    }
    user?.addEventListener('abort', onAbort, { once: true });
    it.next().then(
      (r) => {
        cleanup();
        resolve(r);
      },
      (e: unknown) => {
        cleanup();
        reject(e);
      },
    );
  });
}

/**
 * Runs `open` with timeouts, abort and retry-before-first-chunk. Errors reach the
 * consumer as ProviderUnavailableError, after every chunk already received. A user
 * abort ends the iterator silently without yielding more.
 */
export async function* resilientStream(
  policy: StreamPolicy,
  userSignal: AbortSignal | undefined,
  open: (signal: AbortSignal) => AsyncIterable<ChatChunk>,
): AsyncGenerator<ChatChunk, void, undefined> {
  for (let attempt = 0; ; attempt++) {
    if (userSignal?.aborted) return;
    const ctl = new AbortController();
    const onUserAbort = () => ctl.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const it = open(ctl.signal)[Symbol.asyncIterator]();
    let yielded = false;
    let retry = false;
    try {
      for (;;) {
        let r: IteratorResult<ChatChunk> | typeof ABORTED;
        try {
          r = await nextWithDeadline(it, policy.timeoutMs, !yielded, ctl, userSignal);
        } catch (err) {
          if (userSignal?.aborted) return;
          if (!yielded && attempt < policy.connectRetries && isRetryable(err)) {
            retry = true;
            break;
          }
          throw toUnavailable(policy.name, err, yielded);
        }
        if (r === ABORTED || r.done) return;
        yielded = true;
        yield r.value;
        if (userSignal?.aborted) return;
      }
    } finally {
      userSignal?.removeEventListener('abort', onUserAbort);
      // Stops the HTTP stream if it is still running (consumer break, abort, error).
      if (!ctl.signal.aborted) ctl.abort(new DOMException('stream closed', 'AbortError'));
      void it.return?.()?.catch(() => undefined);
    }
    if (retry) await sleep(RETRY_BACKOFF_MS * (attempt + 1), userSignal);
  }
}

/**
 * One non-streaming request with the same policy: the whole request must finish
 * within timeoutMs; retried before a response on connection failure / 5xx.
 * A user abort rejects with the abort reason.
 */
export async function resilientRequest<T>(
  policy: StreamPolicy,
  userSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    userSignal?.throwIfAborted();
    const ctl = new AbortController();
    const onUserAbort = () => ctl.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    let timedOut: StreamTimeoutError | undefined;
    const timer = setTimeout(() => {
      timedOut = new StreamTimeoutError(policy.timeoutMs, true);
      ctl.abort(timedOut);
    }, policy.timeoutMs);
    try {
      return await run(ctl.signal);
    } catch (raw) {
      if (userSignal?.aborted) throw userSignal.reason;
      const err = timedOut && isAbortLike(raw) ? timedOut : raw;
      if (!(attempt < policy.connectRetries && isRetryable(err))) throw toUnavailable(policy.name, err, false);
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    await sleep(RETRY_BACKOFF_MS * (attempt + 1), userSignal);
  }
}

/** Collects a stream's text and last usage. */
export async function collect(stream: AsyncIterable<ChatChunk>): Promise<CompleteResult> {
  let text = '';
  let usage: Usage | null = null;
  for await (const c of stream) {
    if (c.type === 'text') text += c.text;
    else if (c.type === 'usage') usage = c.usage;
  }
  return { text, usage };
}

/** Base class: adapters implement one HTTP attempt; this adds the shared behaviour. */
export abstract class ResilientProvider implements LlmProvider {
  abstract readonly name: string;
  protected abstract readonly policy: StreamPolicy;

  /** One attempt: must honour `signal` and yield usage then done at the end. */
  protected abstract openStream(req: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk>;

  streamChat(req: ChatRequest): AsyncIterable<ChatChunk> {
    return resilientStream(this.policy, req.signal, (signal) => this.openStream(req, signal));
  }

  complete(req: ChatRequest): Promise<CompleteResult> {
    return collect(this.streamChat(req));
  }
}

// ---------------------------------------------------------------- HTTP helpers

export interface GuardOptions {
  /** Accepted content types of a successful response (substring match). */
  contentTypes: string[];
  /** Validate that every line of the body is JSON (NDJSON streams). */
  ndjson?: boolean;
}

/**
 * A fetch that follows `signal` as well as the caller's own signal, and rejects a
 * successful response whose content type is wrong (ProtocolError), optionally
 * checking every NDJSON line. An error status becomes an HttpStatusError here, so every
 * adapter reports the provider's status, message and Retry-After the same way.
 */
export function guardedFetch(signal: AbortSignal, opts: GuardOptions): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const merged = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
    const res = await fetch(input, { ...init, signal: merged });
    if (!res.ok) throw await statusErrorOf(res);
    const ct = res.headers.get('content-type') ?? '';
    if (!opts.contentTypes.some((t) => ct.toLowerCase().includes(t))) {
      const head = (await res.text().catch(() => '')).slice(0, 80);
      throw new ProtocolError(
        `unexpected content-type "${ct || 'none'}" (expected ${opts.contentTypes.join(' or ')})` +
          `: ${JSON.stringify(head)}`,
      );
    }
    if (opts.ndjson && res.body) {
      return new Response(res.body.pipeThrough(ndjsonValidator()), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    return res;
  };
}

function ndjsonValidator(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buf = '';
  const check = (line: string) => {
    if (!line.trim()) return;
    try {
      JSON.parse(line);
    } catch {
      throw new ProtocolError(`non-JSON line in NDJSON stream: ${JSON.stringify(line.slice(0, 80))}`);
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      buf += decoder.decode(chunk, { stream: true });
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) check(l);
      controller.enqueue(chunk);
    },
    flush() {
      buf += decoder.decode();
      check(buf);
    },
  });
}

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Minimal SSE reader; a line that is not an SSE field is a ProtocolError. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buf = '';
  let event: string | null = null;
  let data: string[] = [];
  function* lines(text: string): Generator<SseEvent> {
    for (const raw of text.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '') {
        if (data.length) yield { event, data: data.join('\n') };
        event = null;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      let value = i < 0 ? '' : line.slice(i + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field !== 'id' && field !== 'retry')
        throw new ProtocolError(`not an SSE stream: ${JSON.stringify(line.slice(0, 80))}`);
    }
  }
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      const cut = buf.lastIndexOf('\n');
      if (cut < 0) continue;
      const complete = buf.slice(0, cut);
      buf = buf.slice(cut + 1);
      yield* lines(complete);
    }
    buf += decoder.decode();
    yield* lines(buf + '\n\n');
  } finally {
    reader.releaseLock();
  }
}

export function parseJsonData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProtocolError(`non-JSON SSE data: ${JSON.stringify(data.slice(0, 80))}`);
  }
}

/** Image media type from the base64 magic bytes (the domain stores bare base64). */
export function imageMediaType(b64: string): string {
  if (b64.startsWith('iVBOR')) return 'image/png';
  if (b64.startsWith('/9j/')) return 'image/jpeg';
  if (b64.startsWith('R0lGOD')) return 'image/gif';
  if (b64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

/** Tool-call arguments: objects pass, JSON strings are parsed, anything else becomes {_raw}. */
export function parseToolArguments(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return raw === undefined || raw === null ? {} : { _raw: JSON.stringify(raw) };
  if (raw.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  return { _raw: raw };
}

/** `promptTokens` includes the cache reads (`cachedPromptTokens`) and writes (`cacheWriteTokens`). */
export function usage(
  promptTokens: number,
  completionTokens: number,
  cachedPromptTokens = 0,
  cacheWriteTokens = 0,
): Usage {
  return { promptTokens, completionTokens, cachedPromptTokens, cacheWriteTokens };
}
