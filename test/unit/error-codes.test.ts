/**
 * The error codes are one enum (src/domain/error-codes.ts): docs/api.md's
 * tables and the contract's list must name exactly its codes, so a code added
 * without documentation fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractErrorCodes, ErrorCode, graphqlErrorCodes, providerErrorCodes } from '../../src/domain/error-codes.js';

const root = new URL('../../', import.meta.url);
const apiDoc = readFileSync(new URL('docs/api.md', root), 'utf8');

/** The first-column codes of the markdown table under a heading. */
function tableCodes(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, `${heading} in docs/api.md`).toBeGreaterThanOrEqual(0);
  const section = markdown.slice(start + heading.length + 2).split(/\n#{2,3} /)[0]!;
  return [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
}

const sorted = (codes: readonly string[]) => [...codes].sort();

describe('ErrorCode', () => {
  it('maps every name to itself', () => {
    for (const [name, value] of Object.entries(ErrorCode)) expect(value).toBe(name);
  });

  it('docs/api.md "Error codes" lists exactly the GraphQL error codes, each once', () => {
    const documented = tableCodes(apiDoc, '## Error codes');
    expect(documented).toEqual([...new Set(documented)]);
    expect(sorted(documented)).toEqual(sorted(graphqlErrorCodes));
  });

  it('docs/api.md "Provider errors" lists exactly the provider failure codes', () => {
    expect(sorted(tableCodes(apiDoc, '### Provider errors'))).toEqual(sorted(providerErrorCodes));
  });

  it('docs/api.md names the codes a turn left running ends with', () => {
    expect(apiDoc).toContain(`\`${ErrorCode.INTERRUPTED}\` (the server died), \`${ErrorCode.SHUTDOWN}\``);
  });

  it("the contract's list is exactly contractErrorCodes, all of them GraphQL error codes", () => {
    const contract = readFileSync(new URL('test/contract/api.graphql', root), 'utf8');
    const header = /extensions\.code` is one of:\n((?:#.*\n)+?)# - /.exec(contract)?.[1] ?? '';
    const listed = [...header.matchAll(/\b[A-Z][A-Z_]{3,}\b/g)].map((m) => m[0]);
    expect(sorted(listed)).toEqual(sorted(contractErrorCodes));
    for (const code of contractErrorCodes) expect(graphqlErrorCodes).toContain(code);
  });
});
