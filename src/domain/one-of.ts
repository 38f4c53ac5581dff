/** `value` as one of `values`; an unknown value throws (a row the code does not know is a bug, not a default). */
export function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new Error(`unknown ${what}: ${JSON.stringify(value)}`);
}
