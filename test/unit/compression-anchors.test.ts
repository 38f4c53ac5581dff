import { describe, expect, it } from 'vitest';
import { extractAnchors } from '../../src/domain/compression/anchors.js';

const kinds = (text: string) => extractAnchors(text).map((a) => `${a.kind}:${a.value}`);

describe('extractAnchors, per kind', () => {
  it('identifiers and issue keys', () => {
    expect(kinds('see ZX-4471 and JIRA-12, also #1234.')).toEqual([
      'identifier:ZX-4471',
      'identifier:JIRA-12',
      'identifier:#1234',
    ]);
  });
  it('numbers with units and amounts', () => {
    expect(kinds('latency 250 ms, disk 3.5 GB, 12% off, $1,200 total')).toEqual([
      'number:250 ms',
      'number:3.5 GB',
      'number:12%',
      'number:$1,200',
    ]);
  });
  it('versions', () => {
    expect(kinds('ship v3.14.15-rc2 not 2.0.1 (1.5 is no version)')).toEqual(['version:v3.14.15-rc2', 'version:2.0.1']);
  });
  it('dates and times', () => {
    expect(kinds('due 2027-02-19 at 14:30 UTC, built 2026-01-02T03:04:05Z')).toEqual([
      'date:2027-02-19',
      'date:14:30 UTC',
      'date:2026-01-02T03:04:05Z',
    ]);
  });
  it('file paths', () => {
    expect(kinds('edit /etc/nginx/nginx.conf and src/app.ts, then notes.md.')).toEqual([
      'path:/etc/nginx/nginx.conf',
      'path:src/app.ts',
      'path:notes.md',
    ]);
  });
  it('URLs, with what is inside them not listed again', () => {
    expect(kinds('docs at https://example.com/v1.2.3/2027-02-19/page.')).toEqual([
      'url:https://example.com/v1.2.3/2027-02-19/page',
    ]);
  });
  it('e-mail addresses', () => {
    expect(kinds('mail ops.team+alerts@example.co.uk now')).toEqual(['email:ops.team+alerts@example.co.uk']);
  });
  it('code symbols in backticks', () => {
    expect(kinds('call `parseConfig()` then `x`')).toEqual(['code:parseConfig()']);
  });
  it('quoted names', () => {
    expect(kinds('the project "Blue Falcon" and “Red Owl”')).toEqual(['quoted:Blue Falcon', 'quoted:Red Owl']);
  });
  it('config keys (the KEYS the summary prompt asks for)', () => {
    expect(kinds('set MAX_TOOL_ITERATIONS and OUTPUT_RESERVE_TOKENS')).toEqual([
      'key:MAX_TOOL_ITERATIONS',
      'key:OUTPUT_RESERVE_TOKENS',
    ]);
  });
  it('is deterministic, deduplicated, and finds nothing in plain prose', () => {
    const text = 'ZX-4471 again ZX-4471 and v3.14.15-rc2';
    expect(extractAnchors(text)).toEqual(extractAnchors(text));
    expect(kinds(text)).toEqual(['identifier:ZX-4471', 'version:v3.14.15-rc2']);
    expect(kinds('We talked about the weather and lunch plans.')).toEqual([]);
  });
});
