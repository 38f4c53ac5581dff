/**
 * Texts appended to messages so the agent knows where uploads and pasted
 * images landed, plus the image budget selection. Shapes follow the seed
 * ("Session file uploads", "Images pasted into the chat") word for word.
 */

function basename(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i >= 0 ? relPath.slice(i + 1) : relPath;
}

/**
 * Appended to the user message content after a UI upload:
 * ```
 * [Uploaded files on disk:
 * - filename.pdf → session_files/{id}/filename.pdf]
 * ```
 * Returns '' for no files.
 */
export function uploadNotice(relPaths: readonly string[]): string {
  if (relPaths.length === 0) return '';
  const lines = relPaths.map((p) => `- ${basename(p)} → ${p}`);
  return `[Uploaded files on disk:\n${lines.join('\n')}]`;
}

/**
 * Appended to the hidden context copy of a message that carried pasted images.
 * All in context:
 * ```
 * [2 images attached inline — already in your context, no extra loading needed.
 * On disk: session_files/{id}/image_1.png, session_files/{id}/image_2.jpg]
 * ```
 * Some past the budget (only the not-loaded ones are listed):
 * ```
 * [3 images attached inline — 1 are in your context, the rest were not loaded;
 * open them with image_view: session_files/{id}/image_2.png, session_files/{id}/image_3.png]
 * ```
 * Singular (exactly one image in the message):
 * `[1 image attached inline — already in your context, no extra loading needed.\nOn disk: …]`
 * or, when that one image was not loaded,
 * `[1 image attached inline — it was not loaded;\nopen it with image_view: …]`.
 * With 2+ images the seed's "N are in your context" is kept verbatim even for N = 1.
 * Returns '' for no images.
 */
export function imageNotice(inContext: readonly string[], notLoaded: readonly string[]): string {
  const total = inContext.length + notLoaded.length;
  if (total === 0) return '';
  const head = total === 1 ? '1 image attached inline' : `${total} images attached inline`;
  if (notLoaded.length === 0) {
    return `[${head} — already in your context, no extra loading needed.\nOn disk: ${inContext.join(', ')}]`;
  }
  if (total === 1) {
    return `[${head} — it was not loaded;\nopen it with image_view: ${notLoaded.join(', ')}]`;
  }
  return (
    `[${head} — ${inContext.length} are in your context, the rest were not loaded;\n` +
    `open them with image_view: ${notLoaded.join(', ')}]`
  );
}

/** The share of the window pasted images may fill (with the rest of the prompt). */
export const IMAGE_WINDOW_FRACTION = 0.8;

/**
 * Token room for images: `0.8 × window − estimated context tokens`, floored,
 * never negative. With `limit` (the size guard's `window − output reserve`),
 * the lower of the two is the ceiling: on the default 8,192 window the guard
 * refuses above 6,144, below 0.8 × 8,192 = 6,553, and an image admitted
 * between the two would make the guard refuse the very turn it was pasted in.
 */
export function imageBudget(window: number, contextTokens: number, limit: number = Infinity): number {
  return Math.max(0, Math.floor(Math.min(IMAGE_WINDOW_FRACTION * window, limit) - contextTokens));
}

export interface ImageAdmission {
  window: number;
  /** the size guard's limit (window − capped output reserve) */
  limit: number;
  /** the prompt without these images and without their notice */
  baseTokens: number;
  /** what the notice for a given split adds to the prompt */
  noticeTokens(inContext: string[], notLoaded: string[]): number;
}

/**
 * The longest prefix of `images` that fits with the notice it produces:
 * base + notice + images ≤ min(0.8 × window, limit), so an admitted image never
 * causes a size-guard refusal. The rest are not loaded (order kept).
 */
export function admitImages<T extends { relPath: string; tokens: number }>(
  images: readonly T[],
  opts: ImageAdmission,
): { inContext: T[]; notLoaded: T[]; usedTokens: number } {
  const ceiling = Math.min(IMAGE_WINDOW_FRACTION * opts.window, opts.limit);
  const paths = (list: readonly T[]) => list.map((i) => i.relPath);
  // The budget alone bounds the prefix; the notice's own cost can only shorten it.
  let k = selectImagesWithinBudget(images, imageBudget(opts.window, opts.baseTokens, opts.limit)).inContext.length;
  for (; k > 0; k--) {
    const inContext = images.slice(0, k);
    const used = inContext.reduce((n, i) => n + i.tokens, 0);
    if (opts.baseTokens + opts.noticeTokens(paths(inContext), paths(images.slice(k))) + used <= ceiling) break;
  }
  const inContext = images.slice(0, k);
  return { inContext, notLoaded: images.slice(k), usedTokens: inContext.reduce((n, i) => n + i.tokens, 0) };
}

/**
 * Admit images in message order while their summed cost fits the budget; the
 * first image that does not fit and every image after it are not loaded (so
 * "the rest were not loaded" holds literally and order is preserved).
 */
export function selectImagesWithinBudget<T extends { relPath: string; tokens: number }>(
  images: readonly T[],
  budgetTokens: number,
): { inContext: T[]; notLoaded: T[]; usedTokens: number } {
  const inContext: T[] = [];
  const notLoaded: T[] = [];
  let used = 0;
  for (const img of images) {
    if (notLoaded.length === 0 && used + img.tokens <= budgetTokens) {
      inContext.push(img);
      used += img.tokens;
    } else {
      notLoaded.push(img);
    }
  }
  return { inContext, notLoaded, usedTokens: used };
}
