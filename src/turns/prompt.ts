/**
 * The next prompt of a session, from its stored rows: the images it sends are
 * read (one path rule, src/files/images.ts), then `buildPrompt` decides the
 * rest. The turn runner sends it, `Session.modelView` shows it and
 * `Session.contextTokens` reports its estimate, so the three always agree.
 */
import type { Config } from '../config.js';
import { buildPrompt, imagePathsToSend, type Prompt, type PromptImages, type PromptRules } from '../domain/prompt.js';
import type { CalibrationRegistry, RealBaseline } from '../domain/tokens.js';
import type { ChatMessage } from '../domain/types.js';
import { loadPromptImages } from '../files/images.js';
import { contextLimit } from '../domain/view.js';
import { ErrorCode } from '../domain/error-codes.js';
import { DomainError } from '../store/errors.js';
import { parseSessionMetadata } from '../domain/session-metadata.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { SessionRow as Session, SessionStore } from '../store/sessions.js';

export interface PromptDeps {
  config: Pick<Config, 'contextMessageTokenBudget' | 'contextImageTokens'>;
  files: { root: string };
  /** the process's per-model token calibration */
  calibration: CalibrationRegistry;
}

export type PromptProfile = Pick<Profile, 'model' | 'vision' | 'systemPrompt' | 'contextWindow'>;

export function promptRules(
  { config, calibration }: Pick<PromptDeps, 'config' | 'calibration'>,
  profile: PromptProfile,
  window: number = profile.contextWindow,
): PromptRules {
  return {
    registry: calibration,
    model: profile.model,
    vision: profile.vision,
    window,
    messageTokenBudget: config.contextMessageTokenBudget,
    fallbackImageTokens: config.contextImageTokens,
  };
}

export function baselineOf(session: Pick<Session, 'metadata'>): RealBaseline | null {
  return parseSessionMetadata(session.metadata).baseline ?? null;
}

/** The images of `context` a prompt for `profile` would send, loaded. */
export function loadImagesFor(
  deps: PromptDeps,
  sessionId: string,
  context: readonly ChatMessage[],
  vision: boolean,
): Promise<PromptImages> {
  return loadPromptImages(
    deps.files.root,
    sessionId,
    imagePathsToSend(context, vision),
    deps.config.contextImageTokens,
  );
}

export async function nextPrompt(
  deps: PromptDeps,
  session: Pick<Session, 'id' | 'metadata'>,
  profile: PromptProfile,
  context: readonly ChatMessage[],
  opts: { window?: number; turnContext?: string | null; skipImagesOf?: number | null; images?: PromptImages } = {},
): Promise<Prompt> {
  const images = opts.images ?? (await loadImagesFor(deps, session.id, context, profile.vision));
  return buildPrompt({
    ...promptRules(deps, profile, opts.window),
    context,
    systemPrompt: profile.systemPrompt,
    turnContext: opts.turnContext ?? null,
    images,
    skipImagesOf: opts.skipImagesOf ?? null,
    baseline: baselineOf(session),
  });
}

export interface SessionPromptDeps extends PromptDeps {
  store: Pick<SessionStore, 'get' | 'context'>;
  profiles: { get(id: string): Promise<Profile | null> };
}

/**
 * A session's next prompt as it stands (no turn context: recall is chosen per
 * turn, from the request that starts it), or null when the session is gone.
 */
export async function sessionPrompt(
  deps: SessionPromptDeps,
  sessionId: string,
): Promise<{ prompt: Prompt; profile: Profile; window: number } | null> {
  const session = await deps.store.get(sessionId);
  if (!session) return null;
  const profile = await deps.profiles.get(session.profileId);
  if (!profile) return null;
  const context = await deps.store.context(sessionId);
  return { prompt: await nextPrompt(deps, session, profile, context), profile, window: profile.contextWindow };
}

/**
 * The check of a set of PINNED rows, prepared outside the edit's transaction (it reads the session and its
 * profile; on the embedded database a read outside a running transaction waits for it): the returned function
 * refuses rows the model's window cannot hold after the output reserve and the system prompt (pinned rows are
 * never compacted away, so they must fit on their own) with CONTEXT_TOO_LARGE. It reads no database.
 */
export async function pinnedFitCheck(
  deps: SessionPromptDeps & { config: Pick<Config, 'outputReserveTokens'> },
  sessionId: string,
): Promise<(pinned: readonly ChatMessage[]) => Promise<void>> {
  const session = await deps.store.get(sessionId);
  const profile = session ? await deps.profiles.get(session.profileId) : null;
  return async (pinned) => {
    if (!profile) return;
    const images = await loadImagesFor(deps, sessionId, pinned, profile.vision);
    const rules = promptRules(deps, profile);
    const { estimate } = buildPrompt({ ...rules, context: pinned, systemPrompt: profile.systemPrompt, images });
    const limit = Math.floor(contextLimit(profile.contextWindow, deps.config.outputReserveTokens));
    if (estimate > limit)
      throw new DomainError(
        ErrorCode.CONTEXT_TOO_LARGE,
        `Pinned messages would take ~${estimate} tokens with the system prompt, more than the ${limit} the ` +
          "model's window holds after the output reserve: unpin another message first",
        { pinnedTokens: estimate, limit },
      );
  };
}
