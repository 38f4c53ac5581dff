/**
 * Copy to the clipboard: navigator.clipboard when the page may use it, else a
 * hidden textarea and execCommand('copy') (older browsers, a denied
 * permission). The button says "Copied" for a moment and a polite live region
 * announces it.
 */
import { announce, h } from './dom.js';
import { icon } from './icons.js';

let region: HTMLElement | null = null;

/** One page-wide live region for copy feedback (created on first use). */
function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = h('p', { class: 'sr-only copy-status', role: 'status', 'aria-live': 'polite' });
  document.body.append(region);
  return region;
}

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* denied or unavailable: the fallback below */
  }
  const area = h('textarea', { class: 'copy-buffer', readonly: true, 'aria-hidden': 'true', tabindex: '-1' });
  area.value = text;
  const focused = document.activeElement as HTMLElement | null;
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  focused?.focus({ preventScroll: true });
  return ok;
}

/** A small button that copies `text()` and shows "Copied" (or "Copy failed") for two seconds. */
export function copyButton(label: string, text: () => string, className = 'copy'): HTMLButtonElement {
  const caption = h('span', { class: 'copy-caption', text: 'Copy' });
  const button = h('button', { type: 'button', class: `${className} icon`, 'aria-label': label, title: label });
  button.append(icon('copy'), caption);
  let timer = 0;
  button.addEventListener('click', async () => {
    const ok = await copyText(text());
    caption.textContent = ok ? 'Copied' : 'Copy failed';
    button.classList.toggle('copied', ok);
    announce(liveRegion(), ok ? 'Copied to the clipboard' : 'Could not copy: select the text and copy it by hand');
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      caption.textContent = 'Copy';
      button.classList.remove('copied');
    }, 2000);
  });
  return button;
}

/** Adds a "Copy code" button to every code block under `root` that has none yet. */
export function decorateCodeBlocks(root: Element): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const wrap = h('div', { class: 'code-block' });
    pre.replaceWith(wrap);
    wrap.append(
      copyButton('Copy code', () => pre.textContent ?? '', 'copy-code'),
      pre,
    );
  }
}
