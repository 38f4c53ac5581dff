/**
 * The upload notice stored with a user message (`[Uploaded files on disk:\n- name → path]`, src/files/notices.ts)
 * names server paths; what leaves the owner's hands (a share holder's view, a Markdown export) shows file names only.
 */
const UPLOAD_HEAD = '[Uploaded files on disk:\n';
const PUBLIC_HEAD = '[Uploaded files:\n';
const ARROW = ' → ';

/**
 * `text` with every upload notice reduced to file names (`[Uploaded files:\n- spec.pdf]`): what a share holder
 * and a Markdown export get, since the stored message names server paths. A linear scan, no pattern.
 */
export function publicUploadNotices(text: string): string {
  let at = text.indexOf(UPLOAD_HEAD);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf(']', at);
    if (end < 0) break;
    const names = text
      .slice(at + UPLOAD_HEAD.length, end)
      .split('\n')
      .map((line) => {
        const arrow = line.indexOf(ARROW);
        return arrow >= 0 ? line.slice(0, arrow) : line;
      });
    out += `${text.slice(from, at)}${PUBLIC_HEAD}${names.join('\n')}]`;
    from = end + 1;
    at = text.indexOf(UPLOAD_HEAD, from);
  }
  return out + text.slice(from);
}
