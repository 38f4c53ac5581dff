/** Session export as readable Markdown (title, dates, the display history); the JSON export is export.ts. */
import { publicUploadNotices } from './upload-notices.js';
import type { ChatMessage } from './types.js';

export interface MarkdownSessionInfo {
  name: string | null;
  createdAt: Date;
  lastActive: Date;
}

/** A fence longer than any backtick run inside, so content cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attachments(m: ChatMessage): string | null {
  const all = [...m.images, ...m.files];
  return all.length > 0 ? `_Attachments: ${all.map((p) => `\`${p}\``).join(', ')}_` : null;
}

function renderMessage(m: ChatMessage): string | null {
  const parts: string[] = [];
  switch (m.role) {
    case 'user':
      parts.push(m.isAgentNote ? '## Note' : '## User');
      break;
    case 'assistant':
      parts.push('## Assistant');
      break;
    case 'system':
      parts.push('## System');
      break;
    case 'tool':
      return details(`Tool result${m.name ? `: ${m.name}` : ''}`, fenced(m.content));
  }
  if (m.thinking && m.thinking.trim()) parts.push(details('Thinking', m.thinking.trim()));
  if (m.content.trim()) parts.push(publicUploadNotices(m.content.trim()));
  for (const call of m.toolCalls) {
    parts.push(`**Tool call: \`${call.name}\`**\n\n${fenced(JSON.stringify(call.arguments, null, 2), 'json')}`);
  }
  const att = attachments(m);
  if (att) parts.push(att);
  return parts.join('\n\n');
}

/**
 * Readable Markdown: title, dates, then the display history. Compression
 * markers and context-only rows are skipped; thinking and tool results are
 * collapsed, tool calls shown as JSON.
 */
export function exportMarkdown(session: MarkdownSessionInfo, messages: readonly ChatMessage[]): string {
  const out: string[] = [
    `# ${session.name && session.name.trim() ? session.name.trim() : 'Untitled session'}`,
    `- Created: ${session.createdAt.toISOString()}\n- Last active: ${session.lastActive.toISOString()}`,
    '---',
  ];
  const ordered = [...messages].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  for (const m of ordered) {
    if (!m.isDisplay || m.isCompression) continue;
    const block = renderMessage(m);
    if (block) out.push(block);
  }
  return out.join('\n\n') + '\n';
}
