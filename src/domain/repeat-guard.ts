/**
 * Stream rules: stop a reply that has fallen into a loop (the same line or
 * paragraph over and over). Fed the text deltas as they stream; each rule fires
 * at most once per session, remembered in a JSON-serializable ledger.
 */
import type { NewMessage } from './types.js';

export type StreamRuleName = 'repeat_line' | 'repeat_paragraph';

/** Rules that fired this session, sorted and unique (JSON-serializable). */
export interface StreamRuleLedger {
  fired: string[];
}

export function emptyStreamRuleLedger(): StreamRuleLedger {
  return { fired: [] };
}

export function ledgerHas(ledger: StreamRuleLedger, rule: string): boolean {
  return ledger.fired.includes(rule);
}

export function ledgerWith(ledger: StreamRuleLedger, rule: string): StreamRuleLedger {
  if (ledgerHas(ledger, rule)) return ledger;
  return { fired: [...ledger.fired, rule].sort() };
}

export interface RepeatGuardOptions {
  /** fire when one line occurs more than this many times in the reply (≤ 0 disables) */
  maxLineRepeats: number;
  /** fire when one paragraph occurs more than this many times in the reply (≤ 0 disables) */
  maxParagraphRepeats: number;
  /** lines shorter than this (after trimming) are too trivial to count; default 12 */
  minLineChars?: number;
  /** paragraphs shorter than this are too trivial to count; default 40 */
  minParagraphChars?: number;
}

export interface RepeatVerdict {
  fired: StreamRuleName;
  /** how many times the repeated unit occurred when the rule fired */
  count: number;
  /** text of the agent note that explains why the stream stopped */
  note: string;
}

function normalize(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Blank, short, or pure punctuation / markdown structure (```, ---, |--|, }); …). */
function isTrivial(text: string, minChars: number): boolean {
  return Array.from(text).length < minChars || !/[\p{L}\p{N}]/u.test(text);
}

export function repeatNote(rule: StreamRuleName, count: number): string {
  return rule === 'repeat_line'
    ? `[stream stopped: the reply repeated the same line ${count} times]`
    : `[stream stopped: the reply repeated the same paragraph ${count} times]`;
}

/** The user-role agent note to append when a rule fires. */
export function repeatNoteMessage(verdict: RepeatVerdict): NewMessage {
  return {
    role: 'user',
    content: verdict.note,
    isAgentNote: true,
    metadata: { kind: 'stream_rule', rule: verdict.fired, count: verdict.count },
  };
}

/**
 * Counts complete lines and paragraphs of one streamed reply. Occurrences are
 * counted over the whole reply, not only back to back, so loops of two or
 * three alternating lines are caught too.
 */
export class RepeatGuard {
  private readonly opts: Required<RepeatGuardOptions>;
  private ledgerState: StreamRuleLedger;
  /** the pieces of the current, unfinished line */
  private pending: string[] = [];
  private paragraph: string[] = [];
  private readonly lineCounts = new Map<string, number>();
  private readonly paragraphCounts = new Map<string, number>();
  private verdict: RepeatVerdict | null = null;

  constructor(options: RepeatGuardOptions, ledger: StreamRuleLedger = emptyStreamRuleLedger()) {
    this.opts = { minLineChars: 12, minParagraphChars: 40, ...options };
    this.ledgerState = ledger;
  }

  /** The session ledger, including a rule fired by this guard. */
  get ledger(): StreamRuleLedger {
    return this.ledgerState;
  }

  /** The verdict once a rule has fired, else null. */
  get firedVerdict(): RepeatVerdict | null {
    return this.verdict;
  }

  /**
   * Feed one text delta. Returns a verdict exactly once, when a rule fires; null otherwise.
   * Only the new delta is searched for line ends (the pieces of an unfinished line wait
   * in a list), so a long line streamed in small pieces costs its length, not its square.
   */
  push(delta: string): RepeatVerdict | null {
    if (this.verdict) return null;
    let start = 0;
    for (let nl = delta.indexOf('\n'); nl >= 0; nl = delta.indexOf('\n', start)) {
      this.pending.push(delta.slice(start, nl));
      start = nl + 1;
      let line = this.pending.join('');
      this.pending = [];
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const v = this.onLine(line);
      if (v) return v;
    }
    if (start < delta.length) this.pending.push(delta.slice(start));
    return null;
  }

  /** End of the reply: counts the last unterminated line and paragraph. */
  end(): RepeatVerdict | null {
    if (this.verdict) return null;
    const rest = this.pending.join('');
    this.pending = [];
    const v = rest !== '' ? this.onLine(rest) : null;
    return v ?? this.closeParagraph();
  }

  private enabled(rule: StreamRuleName, limit: number): boolean {
    return limit > 0 && Number.isFinite(limit) && !ledgerHas(this.ledgerState, rule);
  }

  private fire(rule: StreamRuleName, count: number): RepeatVerdict {
    this.verdict = { fired: rule, count, note: repeatNote(rule, count) };
    this.ledgerState = ledgerWith(this.ledgerState, rule);
    return this.verdict;
  }

  private onLine(raw: string): RepeatVerdict | null {
    const line = normalize(raw);
    if (line === '') return this.closeParagraph();
    this.paragraph.push(line);
    if (!this.enabled('repeat_line', this.opts.maxLineRepeats) || isTrivial(line, this.opts.minLineChars)) return null;
    const n = (this.lineCounts.get(line) ?? 0) + 1;
    this.lineCounts.set(line, n);
    return n > this.opts.maxLineRepeats ? this.fire('repeat_line', n) : null;
  }

  private closeParagraph(): RepeatVerdict | null {
    if (this.paragraph.length === 0) return null;
    const text = this.paragraph.join('\n');
    this.paragraph = [];
    if (!this.enabled('repeat_paragraph', this.opts.maxParagraphRepeats)) return null;
    if (isTrivial(text, this.opts.minParagraphChars)) return null;
    const n = (this.paragraphCounts.get(text) ?? 0) + 1;
    this.paragraphCounts.set(text, n);
    return n > this.opts.maxParagraphRepeats ? this.fire('repeat_paragraph', n) : null;
  }
}
