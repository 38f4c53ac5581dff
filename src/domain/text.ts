/**
 * Linear-time text helpers for user, model and tool text. A regex such as
 * `/[.,;]+$/` restarts at every position of a long run that is not at the
 * end, which is quadratic; these loops look at each character once.
 */

/** How much of a message the regex-heavy heuristics (titles, entity extraction) read. */
export const HEURISTIC_TEXT_MAX = 8 * 1024;

/** The first `max` UTF-16 units of `text`, never ending in half a surrogate pair. */
export function headOf(text: string, max: number = HEURISTIC_TEXT_MAX): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const WHITESPACE = /\s/u;

function inSet(ch: string, chars: string, whitespace: boolean): boolean {
  return chars.includes(ch) || (whitespace && WHITESPACE.test(ch));
}

/** `text` without the trailing characters found in `chars` (and whitespace when asked). */
export function trimEndChars(text: string, chars: string, options: { whitespace?: boolean } = {}): string {
  let end = text.length;
  while (end > 0) {
    const unit = text.charCodeAt(end - 1);
    const width = unit >= 0xdc00 && unit <= 0xdfff && end > 1 ? 2 : 1;
    if (!inSet(text.slice(end - width, end), chars, options.whitespace ?? false)) break;
    end -= width;
  }
  return text.slice(0, end);
}

/** `text` without the leading characters found in `chars` (and whitespace when asked). */
export function trimStartChars(text: string, chars: string, options: { whitespace?: boolean } = {}): string {
  let start = 0;
  while (start < text.length) {
    const unit = text.charCodeAt(start);
    const width = unit >= 0xd800 && unit <= 0xdbff && start + 1 < text.length ? 2 : 1;
    if (!inSet(text.slice(start, start + width), chars, options.whitespace ?? false)) break;
    start += width;
  }
  return text.slice(start);
}
