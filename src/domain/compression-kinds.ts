/**
 * Why a compression ran and how: one list each, shared by the compression
 * code, the ContextCompressed event, the compression marker's metadata and
 * the GraphQL enums CompressionReason and CompressionStrategy
 * (test/unit/event-types.test.ts holds them equal).
 */
export const COMPRESSION_REASONS = ['PRETURN', 'MIDTURN', 'POSTTURN', 'FORCED'] as const;
export type CompressionReason = (typeof COMPRESSION_REASONS)[number];

export const COMPRESSION_STRATEGIES = ['SUMMARY', 'FULL_REPLACE', 'NATIVE', 'LOCAL'] as const;
export type CompressionStrategy = (typeof COMPRESSION_STRATEGIES)[number];
