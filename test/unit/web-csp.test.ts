import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicyFor } from '../../src/web/serve.js';

const sha = (code: string) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;

describe('CSP for the built index.html', () => {
  it('allows each inline script by its sha256 and nothing else inline', () => {
    const boot = '(()=>{window.__firstPage={hash:"#x"}})();';
    const html =
      `<head><script>${boot}</script><script type="module" ` +
      'crossorigin src="/assets/index-abc12345.js"></script></head>';
    const csp = contentSecurityPolicyFor(html)!;
    expect(csp).toContain(`script-src 'self' ${sha(boot)};`);
    expect(csp).not.toContain('unsafe-inline');
    // Every other directive is the base policy's.
    expect(csp.replace(` ${sha(boot)}`, '')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('adds nothing for a page without inline scripts', () => {
    expect(contentSecurityPolicyFor('<script type="module" src="/assets/index-abc12345.js"></script>')).toBeNull();
    expect(contentSecurityPolicyFor('<p>no scripts</p>')).toBeNull();
  });

  it('hashes the exact bytes, non-ASCII included', () => {
    const code = 'console.log("é")';
    expect(contentSecurityPolicyFor(`<script>${code}</script>`)).toContain(sha(code));
  });
});
