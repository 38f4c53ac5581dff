import { describe, expect, it } from 'vitest';
import { isTransientDbError } from '../../src/db/faults.js';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('isTransientDbError: what gives a pending entry back uncounted', () => {
  it('database blips are transient', () => {
    expect(isTransientDbError(pgError('40001', 'could not serialize access due to concurrent update'))).toBe(true);
    expect(isTransientDbError(pgError('55P03', 'canceling statement due to lock timeout'))).toBe(true);
    expect(isTransientDbError(pgError('08006', 'Connection terminated unexpectedly'))).toBe(true);
  });

  it('a statement timeout or a system error may fail every time: counted, so the entry parks, not loops', () => {
    expect(isTransientDbError(pgError('57014', 'canceling statement due to statement timeout'))).toBe(false);
    expect(isTransientDbError(pgError('58P01', 'could not open file'))).toBe(false);
  });
});
