/**
 * graphql-armor's rejections with a code each. Armor words every rejection
 * as "Syntax Error: …" with no `extensions.code`, and throws it out of
 * validation; here each rule reports its own coded error instead (a
 * validation error: HTTP 400, and over graphql-ws an `error` message for
 * that operation only).
 */
import { GraphQLError, type ValidationContext } from 'graphql';
import type { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { ErrorCode } from '../domain/error-codes.js';

type GraphQLArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;

const CODES = {
  costLimit: ErrorCode.QUERY_TOO_COMPLEX,
  maxDepth: ErrorCode.QUERY_TOO_DEEP,
  maxAliases: ErrorCode.TOO_MANY_ALIASES,
  maxDirectives: ErrorCode.TOO_MANY_DIRECTIVES,
  maxTokens: ErrorCode.TOO_MANY_TOKENS,
} as const;

export function withRejectionCodes(config: GraphQLArmorConfig): GraphQLArmorConfig {
  const out: Record<string, unknown> = { ...config };
  for (const [rule, code] of Object.entries(CODES)) {
    const options = (config as Record<string, object | undefined>)[rule];
    if (!options) continue;
    out[rule] = {
      ...options,
      propagateOnRejection: false,
      onReject: [
        (ctx: ValidationContext | null, error: GraphQLError) => {
          const coded = new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
            nodes: error.nodes,
            extensions: { code, http: { spec: true, status: 400 } },
          });
          // The token limit runs inside the parser (no validation context): its throw is a parse failure.
          if (ctx) ctx.reportError(coded);
          else throw coded;
        },
      ],
    };
  }
  return out as GraphQLArmorConfig;
}
