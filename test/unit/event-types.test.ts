/**
 * The TypeScript unions of the event payloads (src/events/types.ts) name the
 * same values as the GraphQL enums of the contract, where both exist; and the
 * functions that map a stored row's status onto them throw on a value they
 * do not know instead of passing it on.
 */
import type { GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { COMPRESSION_REASONS, COMPRESSION_STRATEGIES } from '../../src/domain/compression-kinds.js';
import { oneOf } from '../../src/domain/one-of.js';
import { QUEUED_MESSAGE_KINDS, QUEUED_MESSAGE_STATUSES } from '../../src/domain/queued-message.js';
import { TITLE_SOURCES } from '../../src/domain/titles.js';
import { TURN_STATUSES } from '../../src/domain/turn-status.js';
import { buildSchema } from '../../src/schema/index.js';
import { turnJson } from '../../src/turns/lifecycle.js';
import { queuedJson } from '../../src/turns/pending.js';

const schema = buildSchema();
const enumValues = (name: string) =>
  (schema.getType(name) as GraphQLEnumType)
    .getValues()
    .map((v) => v.value as string)
    .sort();

describe('event unions equal the GraphQL enums', () => {
  it.each([
    ['CompressionReason', COMPRESSION_REASONS],
    ['CompressionStrategy', COMPRESSION_STRATEGIES],
    ['TitleSource', TITLE_SOURCES],
    ['TurnStatus', TURN_STATUSES],
    ['QueuedMessageKind', QUEUED_MESSAGE_KINDS],
    ['QueuedMessageStatus', QUEUED_MESSAGE_STATUSES],
  ] as const)('%s', (name, values) => {
    expect(enumValues(name)).toEqual([...values].sort());
  });
});

describe('status mapping refuses unknown values', () => {
  it('oneOf passes a known value and throws on an unknown one', () => {
    expect(oneOf(TURN_STATUSES, 'RUNNING', 'turn status')).toBe('RUNNING');
    expect(() => oneOf(TURN_STATUSES, 'RUNING', 'turn status')).toThrow(/unknown turn status: "RUNING"/);
  });

  it('turnJson throws on a turn status it does not know', () => {
    const turn = {
      id: 't',
      sessionId: 's',
      status: 'PAUSED',
      startedAt: new Date(0),
      endedAt: null,
      error: null,
      pendingToolCalls: [],
    } as unknown as Parameters<typeof turnJson>[0];
    expect(() => turnJson(turn)).toThrow(/unknown turn status: "PAUSED"/);
    expect(turnJson({ ...turn, status: 'RUNNING' }).status).toBe('RUNNING');
  });

  it('queuedJson throws on a kind or status it does not know', () => {
    const row = {
      id: 'q',
      sessionId: 's',
      kind: 'QUEUE',
      status: 'PENDING',
      content: 'hi',
      createdAt: new Date(0),
      turnId: null,
    } as unknown as Parameters<typeof queuedJson>[0];
    expect(queuedJson(row, 1).status).toBe('PENDING');
    expect(() => queuedJson({ ...row, kind: 'LATER' }, 1)).toThrow(/unknown queued message kind/);
    expect(() => queuedJson({ ...row, status: 'LOST' }, 1)).toThrow(/unknown queued message status/);
  });
});
