/** The DateTime fast paths (src/domain/timestamps.ts) against what a Date gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalIsoTimestamp, isoFromPostgresJson } from '../../src/domain/timestamps.js';

describe('isCanonicalIsoTimestamp', () => {
  it('accepts exactly the strings toISOString gives for years 0000-9999', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z') }),
        (d) => {
          if (Number.isNaN(d.getTime())) return;
          expect(isCanonicalIsoTimestamp(d.toISOString())).toBe(true);
        },
      ),
    );
    expect(isCanonicalIsoTimestamp('2024-02-29T00:00:00.000Z')).toBe(true);
    expect(isCanonicalIsoTimestamp('2000-02-29T12:00:00.000Z')).toBe(true);
  });

  it('refuses every other string, valid date-times included (they take the scalar checks and a Date)', () => {
    for (const value of [
      '2023-02-29T00:00:00.000Z', // not a leap year
      '1900-02-29T00:00:00.000Z', // a century that is not
      '2026-04-31T00:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-01T00:00:00.000Z',
      '2026-01-00T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T23:60:00.000Z',
      '2026-01-01T23:59:60.000Z', // a leap second: toISOString never gives one
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.00Z',
      '2026-01-01T00:00:00.000+00:00',
      '2026-01-01 00:00:00.000Z',
      '+012026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z\n',
      '２026-01-01T00:00:00.000Z',
      '',
    ]) {
      expect(isCanonicalIsoTimestamp(value), value).toBe(false);
    }
  });
});

describe('isoFromPostgresJson', () => {
  it('turns PostgreSQL JSON text of a timestamptz in UTC into the string a Date gives', () => {
    expect(isoFromPostgresJson('2026-12-03T22:39:22.021+00:00')).toBe('2026-12-03T22:39:22.021Z');
    expect(isoFromPostgresJson('2026-12-03T22:39:22.5+00:00')).toBe('2026-12-03T22:39:22.500Z');
    expect(isoFromPostgresJson('2026-12-03T22:39:22.05+00:00')).toBe('2026-12-03T22:39:22.050Z');
    expect(isoFromPostgresJson('2026-12-03T22:39:22+00:00')).toBe('2026-12-03T22:39:22.000Z');
  });

  it('reads any other offset through a Date, and leaves what no Date reads for the scalar to refuse', () => {
    expect(isoFromPostgresJson('2026-12-03T23:39:22.021+01:00')).toBe('2026-12-03T22:39:22.021Z');
    expect(isoFromPostgresJson('2026-12-03T17:09:22.021-05:30')).toBe('2026-12-03T22:39:22.021Z');
    expect(isoFromPostgresJson('0044-03-15T00:00:00+00:00 BC')).toBe('0044-03-15T00:00:00+00:00 BC');
  });

  it('agrees with a Date on every instant PostgreSQL can write in a UTC session', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z') }),
        (d) => {
          if (Number.isNaN(d.getTime())) return;
          // PostgreSQL's form: the fraction trimmed of trailing zeros (none when it is zero), then +00:00
          const iso = d.toISOString();
          const fraction = iso.slice(20, 23).replace(/0+$/, '');
          const postgres = `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}+00:00`;
          expect(isoFromPostgresJson(postgres)).toBe(iso);
        },
      ),
    );
  });
});
