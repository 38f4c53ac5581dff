/**
 * The types of a running turn: what the loop hands its hooks (compression, memory) and what it is built with.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { RecalledExcerpts } from '../domain/call-manifest.js';
import type { PromptMessage } from '../domain/prompt.js';
import type { CalibrationRegistry } from '../domain/tokens.js';
import type { ChatMessage, Usage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { SessionEventBody } from '../events/types.js';
import type { SessionFiles } from '../files/store.js';
import type { LlmProvider } from '../llm/types.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { QueuedStore } from '../store/queued.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionRow as Session, SessionStore } from '../store/sessions.js';
import type { TurnStore } from '../store/turns.js';
import type { TurnLifecycle } from './lifecycle.js';
import type { ToolRegistry } from './tools.js';

export interface RunContext {
  session: Session;
  profile: Profile;
  window: number;
  turnId: string;
  signal: AbortSignal;
  publish(body: SessionEventBody): Promise<void>;
  /** estimate of the next prompt in real tokens (baseline + calibrated delta of the view) */
  estimate(): Promise<number>;
  /**
   * The session's context rows, read once per model call: the pre-call check,
   * the memory recall and the call itself share one read. A hook that
   * rewrites messages (a compression) calls `contextChanged()`.
   */
  context?(): Promise<StoredMessage[]>;
  contextChanged?(): void;
  /** the recall excerpts the turn context carries (set by the recall hook; the call manifest names them) */
  recall?: RecalledExcerpts | null;
}

/** One model call as built, for its manifest: the prompt's messages and the context rows they came from. */
export interface SentCall {
  sent: readonly PromptMessage[];
  context: readonly ChatMessage[];
  estimate: number;
}

/** The per-call manifest (src/turns/manifest.ts): recorded as a call is sent; its prompt count once it answered. */
export interface CallRecorder {
  sent(ctx: RunContext, call: SentCall): { answered(usage: Usage | null): Promise<void> };
}

/** Compression and memory plug into the loop here (see src/compression). */
export interface TurnHooks {
  beforeFirstCall?(ctx: RunContext): Promise<void>;
  beforeNextCall?(ctx: RunContext): Promise<void>;
  turnContext?(ctx: RunContext): Promise<string | null>;
  afterTurn?(ctx: Omit<RunContext, 'signal'>): Promise<void>;
}

export interface RunnerDeps {
  store: SessionStore;
  turns: TurnStore;
  /** the only writer of turn status and publisher of turn events */
  lifecycle: TurnLifecycle;
  /** double-texting: STEER messages the running turn takes before its next model call */
  queued: QueuedStore;
  profiles: { get(id: string): Promise<Profile | null> };
  bus: EventBus;
  config: Config;
  files: SessionFiles;
  tools: ToolRegistry;
  log: Logger;
  provider(profile: Profile): LlmProvider;
  /** the process's per-model token calibration: every real prompt count is recorded here */
  calibration: CalibrationRegistry;
  hooks: TurnHooks;
  manifests?: CallRecorder;
  afterTurn?(session: Session, profile: Profile, turnId: string): Promise<void>;
}

export const CONTEXT_TOO_LARGE_REPLY = (estimate: number, limit: number) =>
  `The conversation is too large for this model's context window (~${estimate} tokens, limit ${limit}). ` +
  'Compress the session (compactSession) or start a new one, then ask again.';
