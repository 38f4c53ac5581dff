/**
 * Timestamps as the API answers them: the ISO-8601 UTC string `Date.prototype.toISOString` gives
 * (`2026-12-03T13:23:24.021Z`). Producing and checking that string directly costs a fifth of going through a `Date`
 * (parse, then toISOString), which a history page did fifty times per request.
 */

const CANONICAL = /^\d{4}-\d\d-\d\dT(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** True when `value` is exactly what toISOString gives for some date of years 0000–9999 (a real calendar day). */
export function isCanonicalIsoTimestamp(value: string): boolean {
  if (value.length !== 24 || !CANONICAL.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** PostgreSQL's JSON text of a timestamptz in a UTC session: `2026-12-03T13:23:24.02+00:00` (fraction trimmed). */
const POSTGRES_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?\+00:00$/;

/**
 * A timestamptz as PostgreSQL writes it in JSON, as the canonical ISO string. Any other form (a session in another
 * time zone, a year past 9999, BC) goes through a Date; one no Date can read is returned as it is, for the DateTime
 * scalar to refuse.
 */
export function isoFromPostgresJson(value: string): string {
  const match = POSTGRES_UTC.exec(value);
  if (match) return `${match[1]}.${(match[2] ?? '').padEnd(3, '0')}Z`;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
