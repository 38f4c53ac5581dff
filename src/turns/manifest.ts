/**
 * The per-call manifest's recorder (issue 33 item 5): the runner hands it each model call as built; it stores what
 * was sent (src/domain/call-manifest.ts) beside the call, without delaying it, and adds the provider's prompt count
 * once the call answered. A manifest that cannot be stored is logged, never fails the turn.
 */
import type { Logger } from 'pino';
import { buildCallManifest } from '../domain/call-manifest.js';
import type { CalibrationRegistry } from '../domain/tokens.js';
import type { Usage } from '../domain/types.js';
import type { CallManifestStore } from '../store/manifests.js';
import type { CallRecorder, RunContext, SentCall } from './run-types.js';

export function callRecorder(deps: {
  manifests: CallManifestStore;
  calibration: CalibrationRegistry;
  log: Logger;
}): CallRecorder {
  return {
    sent(ctx: RunContext, call: SentCall) {
      const cal = deps.calibration.calibrationFor(ctx.profile.model);
      const fields = { turnId: ctx.turnId, sessionId: ctx.session.id };
      const stored = Promise.resolve()
        .then(() => {
          const manifest = buildCallManifest({
            sent: call.sent,
            context: call.context,
            recall: ctx.recall ?? null,
            tokens: (chars) => cal.estimate(chars),
          });
          return deps.manifests.insert({
            ...fields,
            model: ctx.profile.model,
            estimatedTokens: call.estimate,
            manifest,
          });
        })
        .catch((err: unknown) => {
          deps.log.warn({ ...fields, err }, 'turn.manifest_failed');
          return null;
        });
      return {
        async answered(usage: Usage | null) {
          const id = await stored;
          if (id === null || !usage || usage.estimated) return;
          await deps.manifests
            .answered(id, usage.promptTokens)
            .catch((err: unknown) => deps.log.warn({ ...fields, err }, 'turn.manifest_failed'));
        },
      };
    },
  };
}
