import { describe, expect, it } from 'vitest';
import {
  decodeExport,
  exportFingerprint,
  exportJson,
  exportMarkdown,
  ExportParseError,
  parseExport,
  type ExportInput,
} from '../../src/domain/export.js';
import { makeMessage, type ChatMessage, type Role } from '../../src/domain/types.js';

const T0 = new Date('2024-06-01T10:00:00.000Z');
const T1 = new Date('2024-06-02T11:30:00.000Z');
const msg = (sequenceNumber: number, role: Role, content: string, extra: Partial<ChatMessage> = {}) =>
  makeMessage({ role, content, sequenceNumber, createdAt: T0, ...extra });

const messages: ChatMessage[] = [
  msg(0, 'user', 'Old question', { isContext: false }),
  msg(1, 'user', 'Summary of turns 0-1', { isDisplay: false, isSummary: true }),
  msg(2, 'system', 'compressed', { isCompression: true, isDisplay: true }),
  msg(3, 'user', 'Fix the parser'),
  msg(4, 'assistant', 'Reading it.', {
    thinking: 'The parser is in src/parse.ts',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/parse.ts' } }],
  }),
  msg(5, 'tool', 'export function parse() {\n```\n}', { toolCallId: 'c1', name: 'read_file' }),
  msg(6, 'assistant', 'Done.', { images: ['session_files/s1/image_1.png'] }),
];

const input: ExportInput = {
  session: {
    name: 'Parser fix',
    titleSource: 'GENERATED',
    pinned: true,
    createdAt: T0,
    lastActive: T1,
    usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 50, cacheWriteTokens: 0 },
    planningLogs: [{ step: 1, z: 'b', a: 'a' }],
    metadata: { zeta: 1, alpha: { y: 2, x: 1 } },
    profileKey: 'default',
    checkpoint: { goal: 'try it', afterSequenceNumber: 3, createdAt: T1 },
    lastRewindReport: null,
    contextTokenCount: 1234,
  },
  messages: messages.map((m, i) => ({ ...m, archived: i < 2 })),
  branches: [{ name: 'branch 1', baseSequence: 3, suffix: [msg(4, 'assistant', 'other')], createdAt: T1 }],
};

describe('exportMarkdown', () => {
  const md = exportMarkdown({ name: 'Parser fix', createdAt: T0, lastActive: T1 }, messages);

  it('starts with the title and dates', () => {
    expect(md.startsWith('# Parser fix\n')).toBe(true);
    expect(md).toContain('- Created: 2024-06-01T10:00:00.000Z');
    expect(md).toContain('- Last active: 2024-06-02T11:30:00.000Z');
  });

  it('renders display messages under User / Assistant headings', () => {
    expect(md).toMatch(/## User\n\nFix the parser/);
    const thinking =
      /## Assistant\n\n<details>\n<summary>Thinking<\/summary>\n\nThe parser is in src\/parse.ts\n\n<\/details>\n\nReading it\./;
    expect(md).toMatch(thinking);
  });

  it('shows tool calls as fenced JSON and collapses tool results with a safe fence', () => {
    expect(md).toContain('**Tool call: `read_file`**\n\n```json\n{\n  "path": "src/parse.ts"\n}\n```');
    expect(md).toContain(
      '<details>\n<summary>Tool result: read_file</summary>\n\n````\nexport ' +
        'function parse() {\n```\n}\n````\n\n</details>',
    );
  });

  it('skips compression markers and context-only rows', () => {
    expect(md).not.toContain('compressed');
    expect(md).not.toContain('Summary of turns');
    expect(md).toContain('Old question'); // display-only rows stay
  });

  it('lists attachments and falls back to a title', () => {
    expect(md).toContain('`session_files/s1/image_1.png`');
    expect(exportMarkdown({ name: null, createdAt: T0, lastActive: T0 }, [])).toMatch(/^# Untitled session\n/);
  });
});

describe('exportJson / parseExport', () => {
  it('round-trips every row, flag, branch and session field', () => {
    const parsed = parseExport(exportJson(input, T1));
    expect(parsed.format).toBe('chat-session-export');
    expect(parsed.version).toBe(1);
    const decoded = decodeExport(parsed);
    // An imported message keeps its id (docs/api.md): memory chunks and the redo stack name messages by it.
    expect(decoded.messages).toEqual(input.messages);
    expect(decoded.branches).toEqual(input.branches);
    expect(decoded.session).toEqual(input.session);
    expect(decoded.memoryChunks).toEqual([]);
  });

  it('is deterministic: same content, same bytes, regardless of key or row order', () => {
    const shuffled: ExportInput = {
      ...input,
      messages: [...input.messages].reverse(),
      session: { ...input.session, metadata: { alpha: { x: 1, y: 2 }, zeta: 1 } },
    };
    expect(exportJson(shuffled, T1)).toBe(exportJson(input, T1));
    const text = exportJson(input, T1);
    expect(text.indexOf('"alpha"')).toBeLessThan(text.indexOf('"zeta"'));
    expect(Object.keys(JSON.parse(text))).toEqual([
      'format',
      'version',
      'exportedAt',
      'session',
      'messages',
      'branches',
    ]);
  });

  it('rejects non-JSON, foreign formats and other versions with clear messages', () => {
    expect(() => parseExport('{nope')).toThrow(/not valid JSON/);
    expect(() => parseExport('{"format":"other"}')).toThrow(/not a session export/);
    expect(() => parseExport('{"format":"chat-session-export","version":2}')).toThrow(/Unsupported export version 2/);
  });

  it('lists the first problems with their paths', () => {
    const doc = JSON.parse(exportJson(input, T1));
    doc.messages[1].role = 'robot';
    delete doc.session.pinned;
    try {
      parseExport(JSON.stringify(doc));
      throw new Error('expected ExportParseError');
    } catch (e) {
      expect(e).toBeInstanceOf(ExportParseError);
      const err = e as ExportParseError;
      expect(err.code).toBe('BAD_USER_INPUT');
      expect(err.message).toContain('session.pinned');
      expect(err.message).toContain('messages[1].role');
      expect(err.problems.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives a message of an export without ids a new one; refuses an id twice on one path', () => {
    const doc = JSON.parse(exportJson(input, T1)) as { messages: { messageId?: string }[] };
    for (const m of doc.messages) delete m.messageId;
    const ids = decodeExport(parseExport(JSON.stringify(doc))).messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of input.messages) expect(ids).not.toContain(m.messageId);
    const twice = JSON.parse(exportJson(input, T1)) as { messages: { messageId?: string }[] };
    twice.messages[1]!.messageId = twice.messages[0]!.messageId;
    expect(() => parseExport(JSON.stringify(twice))).toThrow(/messages\[1\]\.messageId: duplicate messageId/);
  });

  it('rejects duplicate sequence numbers and branch names', () => {
    const doc = JSON.parse(exportJson(input, T1));
    doc.messages[2].sequenceNumber = doc.messages[3].sequenceNumber;
    doc.branches.push(doc.branches[0]);
    expect(() => parseExport(JSON.stringify(doc))).toThrow(
      /messages\[3\]\.sequenceNumber: duplicate sequenceNumber 3.*duplicate branch name "branch 1"/,
    );
  });

  it('accepts memory chunks when present', () => {
    const withChunks = exportJson(
      {
        ...input,
        memoryChunks: [{ content: 'c', breadcrumbs: ['a'], turnStart: 0, turnEnd: 2, firstAt: T0, lastAt: T1 }],
      },
      T1,
    );
    expect(decodeExport(parseExport(withChunks)).memoryChunks).toEqual([
      { content: 'c', breadcrumbs: ['a'], turnStart: 0, turnEnd: 2, firstAt: T0, lastAt: T1 },
    ]);
  });
});

describe('exportFingerprint', () => {
  it('ignores exportedAt and key order', () => {
    const a = parseExport(exportJson(input, T0));
    const b = parseExport(exportJson(input, T1));
    expect(exportFingerprint(a)).toBe(exportFingerprint(b));
    expect(exportFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
    const reordered = JSON.parse(exportJson(input, T0));
    reordered.session = Object.fromEntries(Object.entries(reordered.session).reverse());
    expect(exportFingerprint(parseExport(JSON.stringify(reordered)))).toBe(exportFingerprint(a));
  });

  it('changes when the content changes', () => {
    const a = parseExport(exportJson(input, T0));
    const changed = parseExport(exportJson({ ...input, messages: input.messages.slice(0, -1) }, T0));
    expect(exportFingerprint(changed)).not.toBe(exportFingerprint(a));
  });
});
