/** What compression needs from the rest of the service, handed in by the composition root. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CalibrationRegistry } from '../domain/tokens.js';
import type { EventBus } from '../events/bus.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { LlmProvider } from '../llm/types.js';
import type { SessionLocks } from '../sessions/locks.js';
import type { CompressionStore } from '../store/compression.js';
import type { SessionStore } from '../store/sessions.js';
import type { MemoryIndex } from '../store/memory.js';

export type CompressionConfig = Pick<
  Config,
  | 'contextCompressionEnabled'
  | 'contextCompressionThreshold'
  | 'contextCompressionTarget'
  | 'contextKeepRecent'
  | 'contextSummaryTemperature'
  | 'contextSummaryMaxTokens'
  | 'contextImageTokens'
  | 'contextMessageTokenBudget'
  | 'outputReserveTokens'
  | 'sessionMessagesWindow'
  | 'memorySearchEnabled'
  | 'memoryRecallEnabled'
  | 'memoryRecallK'
  | 'memoryRecallMinSimilarity'
>;

export interface CompressionDeps {
  config: CompressionConfig;
  store: Pick<SessionStore, 'get' | 'context' | 'transaction' | 'setContextFlag' | 'append' | 'archiveBeyondWindow'>;
  compressionStore: CompressionStore;
  provider(profile: Pick<Profile, 'provider'>): LlmProvider;
  bus: Pick<EventBus, 'publish'>;
  /** shared with history edits: a pass and an edit on one session never interleave */
  locks: SessionLocks;
  memory: MemoryIndex;
  files: { root: string };
  calibration: CalibrationRegistry;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Runs inside the save transaction after every write (a test throws here to simulate a store failure). */
  afterSaveWrites?(sessionId: string): Promise<void> | void;
}
