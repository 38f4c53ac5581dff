/** Origins as CORS_ORIGINS lists them and browsers send them in `Origin`; pure (config and the HTTP edge use it). */

/**
 * One CORS_ORIGINS entry as a browser would send it in `Origin`
 * (`scheme://host[:port]`, lowercase, default port dropped), or an error.
 */
export function normalizeOrigin(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`"${trimmed}" is not an origin (scheme://host[:port])`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`"${trimmed}" must be http:// or https://`);
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new Error(`"${trimmed}" must be an origin only, without path, query or credentials`);
  }
  return url.origin;
}

/** The CORS_ORIGINS list: comma-separated origins, empty = same origin only. */
export function parseOriginList(value: string): string[] {
  const origins = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(normalizeOrigin);
  return [...new Set(origins)];
}
