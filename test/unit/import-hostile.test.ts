/**
 * Hostile import files: a sender or author role that names an Object.prototype key is no role, and a conversation
 * shaped as a comb (a deep path with thousands of leaves off its end) is refused by the branch cap instead of
 * costing quadratic work. No timing assertion: the caps are counted, not timed.
 */
import { describe, expect, it } from 'vitest';
import { parseClaudeExport } from '../../src/domain/claude-import.js';
import { parseChatGptExport } from '../../src/domain/chatgpt-import.js';
import { importTree, MAX_IMPORT_BRANCHES } from '../../src/domain/import-tree.js';
import { makeMessage } from '../../src/domain/types.js';

describe('import with hostile input', () => {
  it('a Claude sender named constructor, __proto__ or toString is skipped, not a role', () => {
    for (const sender of ['constructor', '__proto__', 'toString']) {
      const [conv] = parseClaudeExport([
        {
          uuid: 'c',
          name: 'x',
          chat_messages: [
            { uuid: 'a', sender, text: 'odd' },
            { uuid: 'b', sender: 'human', text: 'hi' },
          ],
        },
      ]);
      expect(conv!.messages.map((m) => [m.role, m.content])).toEqual([['user', 'hi']]);
    }
  });

  it('a ChatGPT author role named constructor is skipped, not a role', () => {
    const node = (id: string, parent: string | null, role: string, text: string, children: string[] = []) => ({
      id,
      parent,
      children,
      message: { id, author: { role }, content: { content_type: 'text', parts: [text] }, create_time: 1 },
    });
    const [conv] = parseChatGptExport([
      {
        title: 't',
        create_time: 1,
        update_time: 2,
        current_node: 'b',
        mapping: { a: node('a', null, 'constructor', 'odd', ['b']), b: node('b', 'a', 'user', 'hi') },
      },
    ]);
    expect(conv!.messages.map((m) => [m.role, m.content])).toEqual([['user', 'hi']]);
  });

  it('more leaves than the branch cap: a clear refusal, and a linear walk per leaf below it', () => {
    const depth = 5_000;
    const build = (leaves: number) => {
      const ids: string[] = [];
      const parents = new Map<string, string | null>();
      for (let i = 0; i < depth; i++) {
        ids.push(`a${i}`);
        parents.set(`a${i}`, i ? `a${i - 1}` : null);
      }
      for (let i = 0; i < leaves; i++) {
        ids.push(`l${i}`);
        parents.set(`l${i}`, `a${depth - 2}`);
      }
      let walked = 0;
      const result = () =>
        importTree({
          ids,
          parentOf: (id) => {
            walked++;
            return parents.get(id) ?? null;
          },
          current: `a${depth - 1}`,
          convert: (id) => makeMessage({ role: 'user', content: id }),
          fail: (message) => {
            throw new Error(message);
          },
        });
      return { result, walked: () => walked };
    };
    expect(() => build(MAX_IMPORT_BRANCHES + 1).result()).toThrow(/at most 1000 per conversation/);
    const ok = build(MAX_IMPORT_BRANCHES - 1);
    const { branches } = ok.result();
    expect(branches).toHaveLength(MAX_IMPORT_BRANCHES - 1);
    // each leaf walks up one step to the active path, not the whole depth: the parent lookups stay linear
    expect(ok.walked()).toBeLessThan(10 * (depth + MAX_IMPORT_BRANCHES));
  });
});
