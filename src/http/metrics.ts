/**
 * `/metrics` in Prometheus' text format (prom-client), with METRICS=true only: this module and prom-client are
 * loaded then and never otherwise. With auth on, the scrape needs an admin's key (`Authorization: Bearer`).
 * What is counted (docs/operations.md "Metrics"): GraphQL requests and their latency per operation, live
 * subscriptions, turns by how they ended, model calls (latency, errors, tokens) per provider and model, context
 * compressions; and the process's own (memory, CPU, event loop lag).
 */
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TurnObserver } from '../events/observed.js';
import type { ModelCallObserver, ModelCallReport } from '../llm/observed.js';

/** Operation names are the client's to choose: past this many distinct ones, the rest count as "(other)". */
const MAX_OPERATION_NAMES = 200;

export interface Metrics extends ModelCallObserver, TurnObserver {
  registry: Registry;
  /** envelop/Yoga plugin: every GraphQL operation (HTTP, SSE, graphql-ws, the JSON fast path) */
  plugin: Plugin;
  /** the live subscriptions of this process, read at each scrape */
  subscriptions(read: () => number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'graphql_requests_total',
    help: 'GraphQL operations executed, by operation name, type and result (ok or error)',
    labelNames: ['operation', 'type', 'result'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'graphql_request_duration_seconds',
    help: 'GraphQL execution time (a subscription: until its first result), by operation name and type',
    labelNames: ['operation', 'type'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let readSubscriptions = () => 0;
  new Gauge({
    name: 'chat_live_subscriptions',
    help: 'Subscriptions open in this process (graphql-ws and SSE)',
    registers: [registry],
    collect() {
      this.set(readSubscriptions());
    },
  });
  const turns = new Counter({
    name: 'chat_turns_total',
    help: 'Turns ended in this process, by status (COMPLETED, CANCELLED, FAILED, INTERRUPTED)',
    labelNames: ['status'],
    registers: [registry],
  });
  const modelLatency = new Histogram({
    name: 'llm_request_duration_seconds',
    help: 'Model calls: time to the end of the answer, by provider, model and operation',
    labelNames: ['provider', 'model', 'operation'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const modelErrors = new Counter({
    name: 'llm_request_errors_total',
    help: 'Model calls that failed, by provider, model and error class',
    labelNames: ['provider', 'model', 'error'],
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'llm_tokens_total',
    help: 'Tokens the providers reported, by provider, model and type (input, output, cache_read, cache_write)',
    labelNames: ['provider', 'model', 'type'],
    registers: [registry],
  });
  const compactions = new Counter({
    name: 'chat_compactions_total',
    help: 'Context compressions, by reason (trigger) and strategy',
    labelNames: ['reason', 'strategy'],
    registers: [registry],
  });

  const names = new Set<string>();
  const operationLabel = (name: string | null | undefined) => {
    if (!name) return '(anonymous)';
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES) return '(other)';
    names.add(name);
    return name;
  };
  /** The operation the request runs: the one named, else the only one. */
  const operationOf = (document: unknown, name?: string | null) =>
    (document as DocumentNode).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition' && (!name || d.name?.value === name),
    );
  const plugin: Plugin = {
    onExecute({ args }) {
      const started = performance.now();
      const definition = operationOf(args.document, args.operationName);
      const labels = { operation: operationLabel(definition?.name?.value), type: definition?.operation ?? 'query' };
      return {
        onExecuteDone({ result }) {
          latency.observe(labels, (performance.now() - started) / 1000);
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0;
          requests.inc({ ...labels, result: failed ? 'error' : 'ok' });
        },
      };
    },
    onSubscribe({ args }) {
      const definition = operationOf(args.document, args.operationName);
      requests.inc({ operation: operationLabel(definition?.name?.value), type: 'subscription', result: 'ok' });
    },
  };

  return {
    registry,
    plugin,
    subscriptions(read) {
      readSubscriptions = read;
    },
    modelCall(report: ModelCallReport) {
      const labels = { provider: report.provider, model: report.model };
      modelLatency.observe({ ...labels, operation: report.operation }, report.seconds);
      if (report.error) modelErrors.inc({ ...labels, error: report.error });
      const usage = report.usage;
      if (!usage) return;
      tokens.inc({ ...labels, type: 'input' }, usage.promptTokens);
      tokens.inc({ ...labels, type: 'output' }, usage.completionTokens);
      if (usage.cachedPromptTokens) tokens.inc({ ...labels, type: 'cache_read' }, usage.cachedPromptTokens);
      if (usage.cacheWriteTokens) tokens.inc({ ...labels, type: 'cache_write' }, usage.cacheWriteTokens);
    },
    turnEnded(status) {
      turns.inc({ status });
    },
    compressed(reason, strategy) {
      compactions.inc({ reason, strategy });
    },
  };
}
