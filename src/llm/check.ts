/**
 * One look at each profile's provider after start-up: is it reachable, is the
 * profile's model there? Each problem is ONE warning line naming what is missing,
 * so an operator sees "qwen3:8b is not pulled" before the first user does.
 * It never blocks or fails start-up: every error ends as a log line.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { providerEndpoint } from './errors.js';

export interface CheckTarget {
  provider: string;
  model: string;
}

type Listing = { ok: true; models: string[] } | { ok: false; problem: string };

async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; body: unknown } | null> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: only the status counts */
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

async function listModels(kind: string, config: Config, where: string, timeoutMs: number): Promise<Listing | null> {
  const base = providerEndpoint(kind, config);
  let url: string;
  let headers: Record<string, string> = {};
  let pick: (body: unknown) => string[];
  if (kind === 'ollama') {
    url = `${base}/api/tags`;
    pick = (b) =>
      ((b as { models?: Array<{ name?: string; model?: string }> })?.models ?? []).flatMap((m) => [
        m.name ?? '',
        m.model ?? '',
      ]);
  } else if (kind === 'openai') {
    url = `${base}/models`;
    if (config.openaiApiKey) headers = { authorization: `Bearer ${config.openaiApiKey}` };
    pick = (b) => ((b as { data?: Array<{ id?: string }> })?.data ?? []).map((m) => m.id ?? '');
  } else if (kind === 'anthropic') {
    if (!config.anthropicApiKey) return null; // nothing to ask without a key
    url = base.endsWith('/v1') ? `${base}/models` : `${base}/v1/models`;
    headers = { 'x-api-key': config.anthropicApiKey, 'anthropic-version': '2023-06-01' };
    pick = (b) => ((b as { data?: Array<{ id?: string }> })?.data ?? []).map((m) => m.id ?? '');
  } else {
    return null;
  }
  const res = await getJson(url, headers, timeoutMs);
  if (!res) return { ok: false, problem: `${where} is unreachable` };
  if (res.status < 200 || res.status >= 300)
    return { ok: false, problem: `${where} answered HTTP ${res.status} to GET ${new URL(url).pathname}` };
  return { ok: true, models: pick(res.body).filter(Boolean) };
}

function listed(models: string[], model: string): boolean {
  return models.some((m) => m === model || m === `${model}:latest` || `${m}:latest` === model);
}

/** Checks each distinct provider once and each of its models; returns the warning lines it logged. */
export async function checkProviders(targets: CheckTarget[], config: Config, log: Logger): Promise<string[]> {
  const byKind = new Map<string, Set<string>>();
  for (const t of targets) {
    if (!byKind.has(t.provider)) byKind.set(t.provider, new Set());
    if (t.model) byKind.get(t.provider)!.add(t.model);
  }
  const timeoutMs = Math.min(config.providerTimeoutMs, 10_000);
  const lines: string[] = [];
  await Promise.all(
    [...byKind].map(async ([kind, models]) => {
      const where = `${kind} at ${providerEndpoint(kind, config)}`;
      const listing = await listModels(kind, config, where, timeoutMs);
      if (!listing) return;
      if (!listing.ok) {
        lines.push(`provider.check: ${listing.problem}`);
        return;
      }
      for (const model of models) {
        if (listed(listing.models, model)) continue;
        lines.push(
          kind === 'ollama'
            ? `provider.check: model ${model} is not pulled in ${where}: run ollama pull ${model}`
            : `provider.check: model ${model} is not offered by ${where}`,
        );
      }
    }),
  );
  for (const line of lines) log.warn(line);
  return lines;
}

/** The start-up check over every profile, in the background: never throws, never awaited by start-up. */
export function checkProvidersInBackground(app: {
  config: Config;
  log: Logger;
  profiles: { list(): Promise<CheckTarget[]> };
}): Promise<void> {
  return app.profiles
    .list()
    .then((profiles) => checkProviders(profiles, app.config, app.log))
    .then(
      () => undefined,
      (err: unknown) => app.log.warn({ err }, 'provider.check failed'),
    );
}
