/** Content negotiation of the JSON fast path: the JSON media type Yoga would answer a request with. */
/**
 * The media type Yoga's result processors pick for a plain (non-stream) result of a request with this Accept header,
 * when it is the JSON processor; null when Yoga would answer otherwise (SSE, multipart, 406). The same walk as Yoga's
 * `useResultProcessors` (the last match wins), kept in a small map per distinct header.
 */
const PROCESSORS: { json: boolean; mediaTypes: string[] }[] = [
  { json: false, mediaTypes: ['text/event-stream'] },
  { json: false, mediaTypes: ['multipart/mixed'] },
  { json: true, mediaTypes: ['application/graphql-response+json', 'application/json'] },
];

function matches(processorType: string, requested: string): boolean {
  const [processorMain, processorSub] = processorType.split('/');
  const [main, sub] = requested.split('/');
  return (main === '*' || main === processorMain) && (sub === '*' || sub === processorSub);
}

function negotiate(accept: string): string | null {
  const requested: string[] = [];
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    if (mediaType === undefined) continue;
    const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    if (charset === 'charset=utf-8') requested.push(mediaType);
  }
  requested.reverse();
  let chosen: { json: boolean; mediaType: string } | null = null;
  for (const processor of PROCESSORS)
    for (const asked of requested)
      for (const mediaType of processor.mediaTypes)
        if (matches(mediaType, asked)) chosen = { json: processor.json, mediaType };
  return chosen?.json ? chosen.mediaType : null;
}

const negotiated = new Map<string, string | null>();

export function jsonMediaType(accept: string | undefined): string | null {
  const key = accept ?? '*/*';
  let found = negotiated.get(key);
  if (found === undefined) {
    found = negotiate(key);
    if (negotiated.size >= 256) negotiated.clear();
    negotiated.set(key, found);
  }
  return found;
}
