/**
 * One typed, validated configuration object read from the environment.
 * Names are camelCase here and SCREAMING_CASE in the environment
 * (contextCompressionThreshold ← CONTEXT_COMPRESSION_THRESHOLD). Defaults are
 * the seed's. A bad value stops start-up with one line naming the variable.
 */
import { z } from 'zod';
import { parseOriginList } from './domain/origins.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min = 0) => z.coerce.number().int().min(min);
const ratio = z.coerce.number().gt(0).lte(1);
const optionalString = z.string().min(1).optional();
const originList = z.string().transform((s, ctx) => {
  try {
    return parseOriginList(s);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const priceTable = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string(),
      z.object({
        input: z.number().min(0),
        output: z.number().min(0),
        cacheRead: z.number().min(0).optional(),
        cachedInput: z.number().min(0).optional(),
        cacheWrite: z.number().min(0).optional(),
      }),
    ),
  );

/** Every setting: [zod type, default as the environment would spell it, description for the README]. */
const settings = {
  host: [z.string().min(1), '127.0.0.1', 'Address to listen on'],
  port: [int(0).max(65535), '4000', 'Port to listen on (0 = any free port)'],
  databaseUrl: [optionalString, undefined, 'PostgreSQL URL; unset = embedded PGlite under DATA_DIR'],
  databasePoolSize: [int(1), '10', 'Connections per pool to the PostgreSQL server'],
  databaseLockTimeoutMs: [int(0), '3000', 'Longest wait for a row lock before a write answers BUSY (0 = wait forever)'],
  databasePreparedStatements: [
    bool,
    'true',
    'Prepare the hot reads (history page, session list) once per connection; false behind a pooler that drops them',
  ],
  dataDir: [z.string().min(1), './.data', 'Directory of the embedded database (PGlite)'],
  redisUrl: [optionalString, undefined, 'Redis URL; set to share events between several server processes'],
  logLevel: [z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info', 'pino log level'],
  logFormat: [
    z.enum(['auto', 'json', 'pretty']),
    'auto',
    'Log lines: auto = readable on a terminal outside production, JSON otherwise',
  ],
  authEnabled: [bool, 'false', 'Require an API key or JWT; false = local mode, every session owned by `anonymous`'],
  allowUnauthenticatedRemote: [bool, 'false', 'With auth disabled, allow listening on a non-loopback address'],
  corsOrigins: [
    originList,
    '',
    'Comma-separated browser origins (`https://app.example`) allowed to call the API cross-origin; ' +
      'empty = same origin only; `*` only with auth',
  ],
  apiKeyRotationGraceMinutes: [
    int(0).max(525600),
    '1440',
    'How long a rotated API key keeps working after its replacement is made (0 = it stops at once)',
  ],
  jwtSecret: [optionalString, undefined, 'HS256 secret for JWT bearer tokens'],
  jwtJwksUrl: [z.string().url().optional(), undefined, 'JWKS URL for JWT bearer tokens'],
  jwtIssuer: [optionalString, undefined, 'Expected JWT issuer'],
  jwtAudience: [optionalString, undefined, 'Expected JWT audience'],
  graphiql: [bool, 'true', 'Serve GraphiQL at /graphql'],
  maxPageSize: [int(1), '200', 'Largest `first`/`last` a connection accepts'],
  maxMessageChars: [int(1), '200000', 'Longest user message accepted'],
  maxMessageAttachments: [
    int(1),
    '20',
    'Files and pasted images one message may carry, together (more answers BAD_USER_INPUT, nothing written)',
  ],
  toolSchemaMaxDepth: [
    int(2),
    '64',
    "Deepest nesting (objects and arrays) of a client tool's parameters schema; deeper answers BAD_USER_INPUT",
  ],
  toolSchemaMaxBytes: [
    int(256),
    '65536',
    'Largest client tool parameters schema, as compact JSON; larger answers BAD_USER_INPUT',
  ],
  wsMaxPayloadBytes: [int(1024), '1048576', 'Largest graphql-ws frame; a larger one closes the socket (1009) unread'],
  wsMaxConnectionsPerAddress: [
    int(1),
    '256',
    'graphql-ws sockets open at once from one client address; more are refused (429)',
  ],
  maxSubscriptionsPerSocket: [int(1), '100', 'Subscriptions open at once on one graphql-ws socket'],
  maxSubscriptionsPerUser: [int(1), '1000', 'Subscriptions open at once per user in this process (graphql-ws and SSE)'],
  maxSseStreamsPerUser: [int(1), '20', 'SSE subscription streams open at once per user (more answers 429)'],
  localMaxSseStreams: [
    int(1),
    '256',
    'SSE streams open at once in this process in local mode, where every client is `anonymous` (more answers 429)',
  ],
  requestHeadersTimeoutMs: [int(100), '20000', 'Time a client has to send its request headers (408)'],
  keepAliveTimeoutMs: [
    int(1000),
    '65000',
    'How long an idle keep-alive connection stays open after a response (above the 60 s idle time of common client ' +
      'pools and load balancers, so the server never closes a socket a client is about to reuse)',
  ],
  requestBodyTimeoutMs: [int(100), '30000', 'A request body that sends nothing for this long is cut (408)'],
  introspection: [
    bool.optional(),
    undefined,
    'Serve GraphQL introspection; unset = on in local mode, off with AUTH_ENABLED=true',
  ],
  persistedOperations: [
    z.enum(['off', 'allow', 'only']),
    'off',
    "Persisted operations (the web client's manifest, web/dist/persisted-documents.json): off = any document; " +
      'allow = persisted ids and any document; only = persisted ids alone (PERSISTED_QUERY_ONLY otherwise)',
  ],
  metrics: [bool, 'false', 'Serve Prometheus metrics at /metrics (with AUTH_ENABLED=true an admin key is needed)'],
  httpFastPath: [
    bool,
    'true',
    'Serve plain JSON queries (POST, application/json) on node:http directly; false sends every request through Yoga',
  ],

  ollamaHost: [z.string().url(), 'http://127.0.0.1:11434', 'Ollama server'],
  ollamaNumCtx: [int(256), '8192', 'Context window of profiles that set none'],
  openaiBaseUrl: [z.string().url(), 'http://127.0.0.1:8000/v1', 'OpenAI-compatible server'],
  openaiApiKey: [z.string(), 'none', 'API key for the OpenAI-compatible server'],
  anthropicBaseUrl: [z.string().url(), 'https://api.anthropic.com', 'Anthropic Messages API'],
  anthropicApiKey: [z.string(), '', 'Anthropic API key'],
  providerTimeoutMs: [int(100), '120000', 'Idle timeout of a provider stream'],
  providerConnectRetries: [int(0), '1', 'Retries when the provider fails before the first token'],

  defaultProfileKey: [z.string().min(1), 'default', 'Key of the profile created on first start'],
  defaultProvider: [z.enum(['ollama', 'openai', 'anthropic']), 'ollama', 'Provider of the default profile'],
  defaultModel: [z.string().min(1), 'qwen3:8b', 'Model of the default profile'],
  defaultSystemPrompt: [z.string(), 'You are a helpful assistant.', 'System prompt of the default profile'],
  titleModel: [z.string(), '', 'Small model for generated titles (empty = the profile model)'],
  titleGenerationEnabled: [bool, 'true', 'Generate a title after the first exchange'],
  modelPrices: [
    priceTable,
    '{}',
    'JSON {model: {input, output, cacheRead?, cacheWrite?}} in USD per million tokens (cachedInput = cacheRead)',
  ],

  contextCompressionEnabled: [bool, 'true', 'Compress the model context when it nears the window'],
  contextCompressionThreshold: [
    ratio,
    '0.90',
    'Trigger at this share of the window W (real tokens). The effective automatic trigger is ' +
      'min(threshold × W, W − min(OUTPUT_RESERVE_TOKENS, W/4)), so compression runs before the size guard ' +
      'would refuse: on the default 8,192-token window it fires at 6,144 tokens (75%), not 90%',
  ],
  contextCompressionTarget: [ratio, '0.65', 'Compress toward this share of the window'],
  contextKeepRecent: [int(1), '4', 'Recent conversational turns kept verbatim'],
  contextSummaryTemperature: [z.coerce.number().min(0).max(2), '0.3', 'Temperature of the summary call'],
  contextSummaryMaxTokens: [int(1), '6000', 'Max output tokens of the summary call'],
  outputReserveTokens: [int(0), '2048', 'Headroom reserved for the reply (capped at a quarter of the window)'],
  contextMessageTokenBudget: [int(0), '0', 'Per-message view truncation budget (0 = window // 6)'],
  contextImageTokens: [int(1), '1024', 'Price of an image whose header cannot be read'],
  sessionMessagesWindow: [int(10), '1000', 'Hot rows kept per session before older ones are archived'],
  sessionFilesDir: [z.string().min(1), './.data', 'Directory holding session_files/'],
  storageMinFreeMb: [
    int(0),
    '64',
    '/readyz answers 503 when DATA_DIR (embedded database) or SESSION_FILES_DIR has less free space than this (MB)',
  ],
  sessionFilesMaxSizeMb: [z.coerce.number().gt(0), '200', 'Largest accepted upload (MB)'],
  sessionFilesCleanupIntervalMs: [int(1000), '3600000', 'How often orphaned session directories are removed'],
  sessionRetentionDays: [
    int(0).max(36500),
    '0',
    'Delete sessions inactive (lastActive) for more than this many days, with everything they hold ' +
      "(0 = keep forever; a profile's retentionDays overrides it; pinned sessions and running turns are kept)",
  ],
  sessionRetentionIntervalMs: [
    int(1000),
    '3600000',
    'How often a process runs the retention sweep (and once at start)',
  ],
  sessionRetentionBatch: [int(1).max(10000), '100', 'Sessions one retention pass deletes at most'],
  memorySearchEnabled: [bool, 'true', 'Index compressed-away history verbatim (raw-history index)'],
  memoryRecallEnabled: [bool, 'true', 'Inject relevant excerpts when the context holds a summary'],
  memoryRecallK: [int(0), '2', 'Excerpts injected per turn at most'],
  memoryRecallMinSimilarity: [z.coerce.number().min(0).max(1), '0.3', 'Minimum similarity of an injected excerpt'],

  pendingPollMs: [
    int(50),
    '5000',
    'How often each process looks for due scheduled recalls and dispatchable queued messages ' +
      '(the longest a recall scheduled, or a turn ended, on another process waits). Old name: RECALL_POLL_MS',
  ],
  pendingLeaseMs: [
    int(100),
    '60000',
    'A claimed recall or queued message not dispatched within this long (its process died) is claimed again by ' +
      'any process. Old name: RECALL_LEASE_MS',
  ],
  pendingMaxAttempts: [
    int(1),
    '5',
    'A queued message, steer or recall whose dispatch fails this many times is parked FAILED with its reason ' +
      '(transient database failures, e.g. a lost connection or a lock timeout, are not counted)',
  ],
  recallMaxAheadDays: [int(1), '365', 'How far ahead a recall may be scheduled'],
  recallMaxPendingPerSession: [int(1), '100', 'Pending scheduled recalls per session at most'],
  recallToolEnabled: [
    bool,
    'false',
    'Offer the model the schedule_recall tool ' +
      '(off by default: a tool definition costs prompt tokens on every model call)',
  ],

  maxToolIterations: [int(1), '25', 'LLM calls per turn at most'],
  toolResultTimeoutMs: [int(100), '300000', 'How long a turn waits for submitToolResult'],
  mcpSendWaitMs: [
    int(0),
    '50000',
    "How long /mcp's send_message waits for the answer before it returns the turn id " +
      "(below MCP clients' 60 s default request timeout)",
  ],
  partialFlushMs: [int(50), '1000', "How often a streaming answer is persisted; also the running turn's heartbeat"],
  turnStaleMs: [
    int(500),
    '3000',
    'A running turn whose heartbeat is older than this was left by a dead process: any process ends it ' +
      '(INTERRUPTED, its partial answer kept). At least 3 × PARTIAL_FLUSH_MS is used; every process looks ' +
      'a quarter of this often (at most every second)',
  ],
  idempotencyWindowHours: [int(1), '24', 'How long an idempotencyKey returns the same turn'],
  eventRetention: [int(10), '5000', 'Events kept per session for replay'],
  repeatLineLimit: [int(2), '12', 'Same line repeated more than this stops the stream'],
  repeatParagraphLimit: [int(2), '4', 'Same paragraph repeated more than this stops the stream'],
  searchStatementTimeoutMs: [int(100), '5000', 'Statement timeout of a session search'],
  searchCountCap: [
    int(1),
    '10000',
    'A search counts matching sessions exactly up to this many; beyond, totalCount is this number and ' +
      'totalCountIsExact false',
  ],
  shutdownTimeoutMs: [int(100), '10000', 'Grace period for open requests on SIGTERM'],
  instanceId: [
    optionalString,
    undefined,
    'Stable identity of this server process across restarts (unset = hostname:PORT, or none with PORT=0)',
  ],
} as const;

type Settings = typeof settings;
export type Config = { [K in keyof Settings]: z.output<Settings[K][0]> };

export function envName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

export class ConfigError extends Error {}

/** Old names still read when the new one is unset (the pending mechanism's settings were the recalls'). */
const ALIASES: Record<string, string> = { PENDING_POLL_MS: 'RECALL_POLL_MS', PENDING_LEASE_MS: 'RECALL_LEASE_MS' };

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const [key, [schema, fallback]] of Object.entries(settings) as unknown as [
    string,
    readonly [z.ZodType, string | undefined, string],
  ][]) {
    const envKey = envName(key);
    const alias = ALIASES[envKey];
    const name = env[envKey] === undefined && alias && env[alias] !== undefined ? alias : envKey;
    const raw = env[name] === '' && fallback === undefined ? undefined : (env[name] ?? fallback);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const why = parsed.error.issues[0]?.message ?? 'invalid';
      throw new ConfigError(`Invalid ${name}=${JSON.stringify(raw)}: ${why}`);
    }
    out[key] = parsed.data;
  }
  const config = { ...(out as Config), ...overrides };
  if (config.contextCompressionTarget >= config.contextCompressionThreshold) {
    throw new ConfigError('Invalid CONTEXT_COMPRESSION_TARGET: must be below CONTEXT_COMPRESSION_THRESHOLD');
  }
  return config;
}

/** Rows of the README's configuration table; test/config.test.ts keeps the README equal to them. */
export function configTable(): { env: string; default: string; description: string }[] {
  return Object.entries(settings).map(([key, [, fallback, description]]) => ({
    env: envName(key),
    default: fallback ?? '(unset)',
    description,
  }));
}
