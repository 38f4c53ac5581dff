import { describe, expect, it } from 'vitest';
import { atomicUnits, isUserTurnStart, lastRealUserIndex, splitTurns } from '../../src/domain/turns.js';
import { assistant, call, calls, note, result, summary, user } from './compression-fixtures.js';

describe('turns', () => {
  it('a turn is a user message and everything up to the next user message', () => {
    const msgs = [user('a'), assistant('b'), user('c'), call('1'), result('1', 'r'), assistant('d')];
    const turns = splitTurns(msgs);
    expect(turns.map((t) => [t.start, t.end])).toEqual([
      [0, 2],
      [2, 6],
    ]);
    expect(turns.every((t) => t.hasUser)).toBe(true);
  });

  it('agent notes and summaries do not start a turn', () => {
    const msgs = [summary('s'), user('a'), assistant('b'), note('reminder'), assistant('c')];
    expect(isUserTurnStart(msgs[0])).toBe(false);
    expect(isUserTurnStart(msgs[3])).toBe(false);
    const turns = splitTurns(msgs);
    expect(turns.map((t) => [t.start, t.end, t.hasUser])).toEqual([
      [0, 1, false],
      [1, 5, true],
    ]);
    expect(lastRealUserIndex(msgs)).toBe(1);
  });

  it('lastRealUserIndex is -1 without a real user message', () => {
    expect(lastRealUserIndex([note('n'), assistant('a')])).toBe(-1);
  });

  it('splitTurns covers every index exactly once', () => {
    expect(splitTurns([])).toEqual([]);
    const msgs = [assistant('orphan'), user('u'), user('v')];
    expect(splitTurns(msgs).flatMap((t) => t.messages)).toEqual(msgs);
  });
});

describe('atomic units / tool-call groups', () => {
  it('groups an assistant with tool calls and its results', () => {
    const msgs = [user('u'), calls(['a', 'b']), result('a', '1'), result('b', '2'), assistant('done')];
    expect(atomicUnits(msgs)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 4 },
      { start: 4, end: 5 },
    ]);
  });

  it('absorbs an agent note (image injection) while calls are unanswered', () => {
    const msgs = [calls(['a', 'b']), result('a', '1'), note('[image]'), result('b', '2'), note('later')];
    expect(atomicUnits(msgs)).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 5 },
    ]);
  });

  it('a real user message ends the group', () => {
    const msgs = [calls(['a', 'b']), result('a', '1'), user('interrupt'), result('b', '2')];
    expect(atomicUnits(msgs)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 3 },
      { start: 3, end: 4 },
    ]);
  });

  it('orphaned results stay together', () => {
    const msgs = [result('x', '1'), result('y', '2'), assistant('a')];
    expect(atomicUnits(msgs)[0]).toEqual({ start: 0, end: 2 });
  });
});
