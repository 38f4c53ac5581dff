/**
 * Built-in server tools over session files:
 *
 * - `content_publish` registers a file that already exists in
 *   `session_files/{id}/` as a viewer card (no copy). Its result is JSON
 *   `{url, filename, contentType, kind, size}`; the tool message's metadata
 *   carries the same under `card` so clients render the card from
 *   MessageSaved without parsing text.
 * - `image_view` loads a stored session image (typically one the paste
 *   notice said was "not loaded") and returns it as a tool result whose
 *   metadata is `{is_image: true, base64, path, contentType}`: the image
 *   rides on the tool message, is priced by the token estimate
 *   (domain/image-tokens.ts `base64ImagesOf`), and a provider adapter that
 *   accepts images on tool results can send it on the next call.
 */
import type { ServerTool } from './tools.js';
import { readImageSize } from '../files/images.js';
import { SESSION_FILES_DIRNAME, type SessionFiles } from '../files/store.js';

/** `image_2.png` or `session_files/{sessionId}/image_2.png` → the bare name, when it names this session. */
export function sessionFileName(sessionId: string, raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim().replace(/^\.\//, '');
  const prefixed = /^session_files\/([^/]+)\/([^/]+)$/.exec(value);
  if (prefixed) return prefixed[1] === sessionId ? prefixed[2]! : null;
  return value.includes('/') || value.includes('\\') ? null : value || null;
}

/** Largest image image_view loads (bytes). */
export const IMAGE_VIEW_MAX_BYTES = 20 * 1024 * 1024;

/** content_publish and image_view over the session files. */
export function fileTools(files: Pick<SessionFiles, 'publish' | 'open'>): ServerTool[] {
  const contentPublish: ServerTool = {
    name: 'content_publish',
    description:
      `Show a file that already exists in ${SESSION_FILES_DIRNAME}/{session id}/ ` +
      `to the user as an inline viewer card ` +
      '(3D models, HTML, SVG, PDF, images, video, audio, text and source files). ' +
      'Does not copy: write the file there first.',
    parameters: {
      type: 'object',
      properties: {
        filename: { type: 'string', description: `name of the file in ${SESSION_FILES_DIRNAME}/{session id}/` },
      },
      required: ['filename'],
    },
    run: async (args, ctx) => {
      const filename = sessionFileName(ctx.sessionId, args.filename ?? args.path);
      if (!filename) return { content: "Error: filename must name a file in this session's directory", isError: true };
      const published = await files.publish(ctx.sessionId, filename);
      const card = {
        url: published.url,
        filename: published.filename,
        contentType: published.contentType,
        kind: published.kind,
        size: published.size,
      };
      return { content: JSON.stringify(card), metadata: { card } };
    },
  };

  const imageView: ServerTool = {
    name: 'image_view',
    description:
      `Load an image stored in ${SESSION_FILES_DIRNAME}/{session id}/ ` +
      `(for example one a notice said was not loaded) into your context.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: `session_files/{session id}/image_N.ext, or just image_N.ext` },
      },
      required: ['path'],
    },
    run: async (args, ctx) => {
      const filename = sessionFileName(ctx.sessionId, args.path ?? args.filename);
      if (!filename) return { content: "Error: path must name an image in this session's directory", isError: true };
      const opened = await files.open(ctx.sessionId, filename);
      const rel = `${SESSION_FILES_DIRNAME}/${ctx.sessionId}/${filename}`;
      if (!opened) return { content: `Error: no file ${rel}`, isError: true };
      if (opened.kind !== 'image' || opened.contentType === 'image/svg+xml') {
        await opened.stream.cancel().catch(() => undefined);
        return { content: `Error: ${rel} is not a raster image (${opened.contentType})`, isError: true };
      }
      if (opened.size > IMAGE_VIEW_MAX_BYTES) {
        await opened.stream.cancel().catch(() => undefined);
        return { content: `Error: ${rel} is larger than ${IMAGE_VIEW_MAX_BYTES / (1024 * 1024)} MB`, isError: true };
      }
      const bytes = new Uint8Array(await new Response(opened.stream).arrayBuffer());
      const dims = readImageSize(bytes);
      const base64 = Buffer.from(bytes).toString('base64');
      return {
        content: `Loaded ${rel} (${opened.contentType}${dims ? `, ${dims.width}×${dims.height}` : ''}).`,
        metadata: { is_image: true, base64, path: rel, contentType: opened.contentType },
      };
    },
  };
  return [contentPublish, imageView];
}
