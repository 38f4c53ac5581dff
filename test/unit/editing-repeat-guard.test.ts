import { describe, expect, it } from 'vitest';
import {
  emptyStreamRuleLedger,
  ledgerWith,
  repeatNoteMessage,
  RepeatGuard,
  type RepeatVerdict,
  type StreamRuleLedger,
} from '../../src/domain/repeat-guard.js';

const opts = { maxLineRepeats: 3, maxParagraphRepeats: 2 };

/** Feed text in small, uneven deltas the way a stream does. */
function feed(guard: RepeatGuard, text: string, size = 7): RepeatVerdict[] {
  const out: RepeatVerdict[] = [];
  for (let i = 0; i < text.length; i += size) {
    const v = guard.push(text.slice(i, i + size));
    if (v) out.push(v);
  }
  const v = guard.end();
  if (v) out.push(v);
  return out;
}

describe('RepeatGuard', () => {
  it('fires when the same line occurs more than the limit, once', () => {
    const g = new RepeatGuard(opts);
    const verdicts = feed(g, 'I will now check the file.\n'.repeat(10));
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0].fired).toBe('repeat_line');
    expect(verdicts[0].count).toBe(4);
    expect(verdicts[0].note).toBe('[stream stopped: the reply repeated the same line 4 times]');
  });

  it('does not fire at the limit itself', () => {
    expect(feed(new RepeatGuard(opts), 'I will now check the file.\n'.repeat(3))).toEqual([]);
  });

  it('ignores blank, very short and punctuation-only lines', () => {
    const text = ['}', '', 'ok', '```', '---', '| --- | --- |', '});']
      .map((l) => `${l}\n`)
      .join('')
      .repeat(10);
    expect(feed(new RepeatGuard(opts), text)).toEqual([]);
  });

  it('catches loops of alternating lines, not only back-to-back repeats', () => {
    const text = 'Let me try again with the fix.\nRunning the tests now please wait.\n'.repeat(5);
    expect(feed(new RepeatGuard(opts), text)[0]?.fired).toBe('repeat_line');
  });

  it('fires when the same paragraph repeats', () => {
    const para = 'The function returns early because the cache is cold\nso the second call pays the full cost';
    const g = new RepeatGuard({ maxLineRepeats: 100, maxParagraphRepeats: 2 });
    const v = feed(g, `${para}\n\n`.repeat(3));
    expect(v).toEqual([
      { fired: 'repeat_paragraph', count: 3, note: '[stream stopped: the reply repeated the same paragraph 3 times]' },
    ]);
  });

  it('normalizes whitespace when comparing lines', () => {
    const text =
      [
        'The answer is forty two',
        '  The answer  is forty two ',
        'The answer is\tforty two',
        'The answer is forty two',
      ].join('\n') + '\n';
    expect(feed(new RepeatGuard(opts), text)[0]?.fired).toBe('repeat_line');
  });

  it('does not fire for distinct text', () => {
    const text = Array.from({ length: 50 }, (_, i) => `Step ${i}: do something different`).join('\n');
    expect(feed(new RepeatGuard(opts), text)).toEqual([]);
  });

  it('each rule fires at most once per session, through the ledger', () => {
    const first = new RepeatGuard(opts);
    feed(first, 'I will now check the file.\n'.repeat(10));
    const ledger: StreamRuleLedger = JSON.parse(JSON.stringify(first.ledger));
    expect(ledger).toEqual({ fired: ['repeat_line'] });

    const second = new RepeatGuard(opts, ledger);
    expect(feed(second, 'I will now check the file.\n'.repeat(10))).toEqual([]);
    expect(second.ledger).toEqual(ledger);
  });

  it('a rule that has not fired yet still fires after another one did', () => {
    const g = new RepeatGuard(opts, ledgerWith(emptyStreamRuleLedger(), 'repeat_line'));
    const para = 'This paragraph keeps coming back again and again in the output';
    expect(feed(g, `${para}\n\n`.repeat(5))[0]?.fired).toBe('repeat_paragraph');
  });

  it('a limit of 0 disables the rule', () => {
    expect(
      feed(new RepeatGuard({ maxLineRepeats: 0, maxParagraphRepeats: 0 }), 'I will now check the file.\n'.repeat(10)),
    ).toEqual([]);
  });

  it('handles CRLF split across deltas', () => {
    const g = new RepeatGuard(opts);
    const v = feed(g, 'Repeating line of text\r\n'.repeat(5), 1);
    expect(v[0]?.fired).toBe('repeat_line');
  });

  it('the note message is a user-role agent note', () => {
    const msg = repeatNoteMessage({ fired: 'repeat_line', count: 4, note: 'n' });
    expect(msg).toMatchObject({ role: 'user', isAgentNote: true, content: 'n' });
  });
});
