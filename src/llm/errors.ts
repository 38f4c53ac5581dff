/**
 * What a client is told when a provider call fails: a code naming the cause and
 * one human line. Only what the operator configured (provider kind, host, model)
 * and, for a refused request, the provider's own trimmed message reach the client;
 * transport errors, stacks and other upstream text stay in the log.
 */
import { HttpStatusError } from './common.js';
import { trimEndChars } from '../domain/text.js';
import { ErrorCode, type ProviderErrorCode } from '../domain/error-codes.js';

export interface ProviderFailure {
  code: ProviderErrorCode;
  message: string;
  retryAfterSeconds?: number;
}

export interface ProviderEndpointSettings {
  ollamaHost: string;
  openaiBaseUrl: string;
  anthropicBaseUrl: string;
}

const DEFAULT_ENDPOINT: Record<string, string> = {
  ollama: 'http://127.0.0.1:11434',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/** The configured base URL of a provider kind, without credentials, query or fragment. */
export function providerEndpoint(kind: string, settings: ProviderEndpointSettings): string {
  const raw =
    (kind === 'ollama'
      ? settings.ollamaHost
      : kind === 'openai'
        ? settings.openaiBaseUrl
        : kind === 'anthropic'
          ? settings.anthropicBaseUrl
          : '') ||
    DEFAULT_ENDPOINT[kind] ||
    '';
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${trimEndChars(u.pathname, '/')}`;
  } catch {
    return '(invalid provider URL)';
  }
}

export const REJECTED_DETAIL_MAX = 300;

/** A word holding a URL, without the URL's user info and its query or fragment. */
function withoutUrlSecrets(word: string): string {
  const scheme = word.indexOf('://');
  if (scheme < 1) return word;
  const start = scheme + 3;
  let end = word.length;
  for (let i = start; i < word.length; i++) {
    if (word[i] === '/' || word[i] === '?' || word[i] === '#') {
      end = i;
      break;
    }
  }
  const at = word.lastIndexOf('@', end - 1);
  let out = at >= start ? word.slice(0, start) + word.slice(at + 1) : word;
  const query = out.slice(start).search(/[?#]/);
  if (query >= 0) out = out.slice(0, start + query);
  return out;
}

/** The provider's message, trimmed, with anything that looks like a secret or URL credentials removed. */
export function sanitizeProviderMessage(text: string, max = REJECTED_DETAIL_MAX): string {
  let s = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  // URL credentials and query strings (tokens travel there), one white-space separated word at a time
  s = s.split(/(\s+)/).map(withoutUrlSecrets).join('');
  // "Bearer xyz", "api_key=xyz", "x-api-key: xyz", "key: xyz"
  s = s.replace(/\b(bearer|basic)\s+[^\s,;"']+/gi, '$1 [redacted]');
  s = s.replace(
    /\b((?:x-)?api[-_ ]?key|access[-_ ]?token|token|secret|password|key)(["']?\s*[:=]\s*["']?)[^\s,;"'}]+/gi,
    '$1$2[redacted]',
  );
  // Known key shapes and any long opaque token
  s = s.replace(/\b(sk|pk|rk|key|ak)-[A-Za-z0-9_-]{6,}/g, '[redacted]');
  s = s.replace(/\b[A-Za-z0-9_\-+/=]{32,}\b/g, '[redacted]');
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function httpStatusErrorIn(err: unknown): HttpStatusError | undefined {
  let cur: unknown = err;
  for (let i = 0; cur && i < 6; i++) {
    if (cur instanceof HttpStatusError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A 404 on a chat endpoint is about the model when the provider says so ("model "x" not found"). */
function isModelMissing(status: number, detail: string): boolean {
  return status === 404 && /model/i.test(detail);
}

/** Classifies a failed provider call (any error from an adapter) for the client. */
export function classifyProviderError(
  err: unknown,
  ctx: { kind: string; endpoint: string; model: string },
): ProviderFailure {
  const where = `${ctx.kind} at ${ctx.endpoint}`;
  const status = httpStatusErrorIn(err);
  if (status) {
    if (isModelMissing(status.status, status.detail)) {
      const fix =
        ctx.kind === 'ollama'
          ? `run "ollama pull ${ctx.model}" on that host or choose another model`
          : "check the profile's model name";
      return {
        code: ErrorCode.MODEL_NOT_FOUND,
        message: `The model "${ctx.model}" is not available from ${where}: ${fix}.`,
      };
    }
    if (status.status === 429) {
      const s = status.retryAfterSeconds;
      const when = s !== undefined ? `in ${s} second${s === 1 ? '' : 's'}` : 'later';
      return {
        code: ErrorCode.PROVIDER_RATE_LIMITED,
        message: `The model provider (${ctx.kind}) is rate-limiting requests; try again ${when}.`,
        ...(s !== undefined ? { retryAfterSeconds: s } : {}),
      };
    }
    if (status.status >= 400 && status.status < 500 && status.status !== 408) {
      const detail = sanitizeProviderMessage(status.detail);
      return {
        code: ErrorCode.PROVIDER_REJECTED,
        message:
          `The model provider (${ctx.kind}) rejected the request (HTTP ${status.status})` +
          `${detail ? `: ${detail}` : '.'}`,
      };
    }
  }
  return {
    code: ErrorCode.PROVIDER_UNAVAILABLE,
    message: `The model provider (${where}) is unreachable or stopped answering; try again.`,
  };
}
