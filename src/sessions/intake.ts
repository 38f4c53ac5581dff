/**
 * The one write path for what enters a session. Every door — sendMessage
 * (REJECT, QUEUE, STEER, INTERRUPT), scheduleRecall (and the model's
 * schedule_recall), importSession, editMessage, recordEvent, submitToolResult
 * — calls these checks instead of keeping its own: the text limit
 * (MAX_MESSAGE_CHARS), the attachment count (MAX_MESSAGE_ATTACHMENTS), each
 * file's name and size, each pasted image's size, type and integrity. All of
 * them run before anything is written, so a refused message leaves nothing
 * behind (no row, no file). The image budget, decided when a message's turn
 * first reaches it (sent, dispatched from the queue, or steered into a running
 * turn), is `admitPastedImages` below, the same for every door.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { imageTokensFromBytes } from '../domain/image-tokens.js';
import type { CalibrationRegistry } from '../domain/tokens.js';
import type { NewMessage } from '../domain/types.js';
import { contextLimit } from '../domain/view.js';
import { PayloadTooLargeError } from '../files/errors.js';
import { readSessionFile, vetPastedImage } from '../files/images.js';
import { admitImages, imageNotice, uploadNotice } from '../files/notices.js';
import type { SavedImage, SavedUpload, SessionFiles, UploadLike } from '../files/store.js';
import { BadInput } from '../store/errors.js';
import type { StoredMessage } from '../store/rows.js';

export type IntakeConfig = Pick<Config, 'maxMessageChars' | 'maxMessageAttachments'>;

/**
 * MAX_MESSAGE_CHARS for any text that enters a session as a message. `what`
 * names it in the error ("Message", "Recall text", "Tool result",
 * "Imported message messages[3]").
 */
export function checkMessageText(text: string, config: Pick<Config, 'maxMessageChars'>, what = 'Message'): void {
  if (text.length > config.maxMessageChars)
    throw new BadInput(`${what} is longer than ${config.maxMessageChars} characters (${text.length})`);
}

/** A message of an import, with where it sits in the import (for the error). */
export interface ImportedText {
  /** `messages[3]`, `conversations[0].messages[5]`, `branches[1].suffix[0]` */
  path: string;
  content: string;
}

/**
 * importSession: every message of every session the import holds obeys MAX_MESSAGE_CHARS; the first that does not
 * is named.
 */
export function checkImportedMessages(messages: Iterable<ImportedText>, config: Pick<Config, 'maxMessageChars'>): void {
  for (const m of messages) checkMessageText(m.content, config, `Imported message ${m.path}`);
}

/** What a user sends: text, pasted images, uploaded files. */
export interface MessageInput {
  content: string;
  images?: readonly UploadLike[] | null;
  files?: readonly UploadLike[] | null;
  /** a machine payload (form submission): no files written, not shown as the user's words */
  hidden?: boolean | null;
}

/** An accepted message: the row to store (now, or when it leaves the queue), and how to undo its files. */
export interface AcceptedMessage {
  draft: NewMessage;
  /** removes the files written for this message (reused images stay): for a write that then fails */
  removeWritten(): Promise<void>;
}

async function bytesOf(file: UploadLike): Promise<Uint8Array> {
  return new Uint8Array(await new Response(file.stream()).arrayBuffer());
}

export class Intake {
  constructor(
    private readonly files: SessionFiles,
    private readonly config: IntakeConfig,
  ) {}

  /** The text rules of a message that carries no attachment (edit, recall, service record). */
  text(text: string, what = 'Message'): void {
    checkMessageText(text, this.config, what);
  }

  /**
   * The checks that need no byte read (text, count, names, declared sizes): a door runs them before it answers
   * anything else (CONFLICT, say). Throws BAD_USER_INPUT or PAYLOAD_TOO_LARGE.
   */
  check(input: MessageInput) {
    const content = input.content ?? '';
    const hidden = input.hidden === true;
    const images = hidden ? [] : [...(input.images ?? [])];
    const files = hidden ? [] : [...(input.files ?? [])];
    if (content.trim() === '' && images.length === 0 && files.length === 0)
      throw new BadInput('Message must not be empty');
    checkMessageText(content, this.config);
    const max = this.config.maxMessageAttachments;
    if (images.length + files.length > max)
      throw new BadInput(
        `A message carries at most ${max} files and images together (this one: ${images.length + files.length})`,
      );
    this.files.vetUploads(files);
    // Declared sizes first (an oversized image is not read), then the bytes.
    for (const image of images)
      if (typeof image.size === 'number' && image.size > this.files.maxBytes)
        throw new PayloadTooLargeError(this.files.maxBytes, 'pasted image');
    return { content, hidden, images, files };
  }

  /**
   * sendMessage, whatever `whileRunning`: every check first (text, count,
   * names, sizes, image bytes), then the files are written and the row to
   * store is returned. A refusal writes nothing.
   */
  async accept(sessionId: string, input: MessageInput): Promise<AcceptedMessage> {
    const { content, hidden, images, files } = this.check(input);
    const imageBytes: Uint8Array[] = [];
    for (const image of images) {
      const bytes = await bytesOf(image);
      await vetPastedImage(bytes, this.files.maxBytes);
      imageBytes.push(bytes);
    }
    const uploaded: SavedUpload[] = files.length > 0 ? await this.files.saveUploads(sessionId, files) : [];
    const savedImages: SavedImage[] = [];
    const removeWritten = async () => {
      const paths = [...uploaded.map((u) => u.relPath), ...savedImages.filter((i) => !i.reused).map((i) => i.relPath)];
      await Promise.all(paths.map((rel) => rm(join(this.files.root, rel), { force: true }).catch(() => undefined)));
    };
    try {
      for (const bytes of imageBytes) savedImages.push(await this.files.savePastedImage(sessionId, bytes));
    } catch (error) {
      await removeWritten();
      throw error;
    }
    const imagePaths = savedImages.map((s) => s.relPath);
    // The upload notice is part of the stored message (shares and Markdown exports show file names only).
    const notice = uploaded.length > 0 ? uploadNotice(uploaded.map((u) => u.relPath)) : '';
    const draft: NewMessage = {
      role: 'user',
      content: notice ? (content ? `${content}\n\n${notice}` : notice) : content,
      isDisplay: !hidden,
      isContext: true,
      files: uploaded.map((u) => u.relPath),
      images: imagePaths,
      metadata: {
        ...(imagePaths.length > 0 && {
          imageNotice: imageNotice(imagePaths, []),
          // None is sent before the budget has admitted it (admitPastedImages), whichever door it came by.
          imagesInContext: [],
        }),
        ...(hidden && { hidden: true }),
      },
    };
    return { draft, removeWritten };
  }
}

/** What the image budget needs from the running turn. */
export interface AdmissionDeps {
  config: Pick<Config, 'contextImageTokens' | 'outputReserveTokens'>;
  files: { root: string };
  calibration: CalibrationRegistry;
  store: {
    updateMessageMetadata(
      sessionId: string,
      sequenceNumber: number,
      metadata: Record<string, unknown>,
    ): Promise<unknown>;
  };
}

export interface AdmissionContext {
  sessionId: string;
  window: number;
  profile: { model: string; vision: boolean };
  /** the estimate of the next prompt without the images of message `sequenceNumber` */
  baseEstimate(sequenceNumber: number): Promise<number>;
}

/**
 * The image budget of one stored user message, the same for a message sent,
 * dispatched from the queue or steered into a running turn: its pasted images
 * are admitted in order while base + notice + images ≤ min(0.8 × window, the
 * size guard's limit); the rest are not loaded and the notice names them for
 * image_view (a profile without vision loads none). So an admitted image never
 * makes the size guard replace the turn's answer.
 */
export async function admitPastedImages(
  deps: AdmissionDeps,
  ctx: AdmissionContext,
  message: Pick<StoredMessage, 'sequenceNumber' | 'images' | 'metadata'>,
): Promise<void> {
  if (message.images.length === 0) return;
  const { config } = deps;
  const priced = [];
  for (const rel of message.images) {
    const bytes = await readSessionFile(deps.files.root, ctx.sessionId, rel);
    priced.push({
      relPath: rel,
      tokens: bytes ? imageTokensFromBytes(bytes, config.contextImageTokens) : config.contextImageTokens,
    });
  }
  const previous = typeof message.metadata.contextNotice === 'string' ? `${message.metadata.contextNotice}\n` : '';
  const calibration = deps.calibration.calibrationFor(ctx.profile.model);
  const allowed = ctx.profile.vision
    ? admitImages(priced, {
        window: ctx.window,
        limit: contextLimit(ctx.window, config.outputReserveTokens),
        // The prompt without this message's own images: they are what the budget is for.
        baseTokens: await ctx.baseEstimate(message.sequenceNumber),
        // the notice lengthens this message (joined to it by a blank line): its text is charged too
        noticeTokens: (inContext, notLoaded) => calibration.estimateDelta(imageNotice(inContext, notLoaded).length + 2),
      })
    : { inContext: [], notLoaded: priced };
  const notice = `${previous}${imageNotice(
    allowed.inContext.map((i) => i.relPath),
    allowed.notLoaded.map((i) => i.relPath),
  )}`;
  const { imageNotice: _drop, ...rest } = message.metadata;
  await deps.store.updateMessageMetadata(ctx.sessionId, message.sequenceNumber, {
    ...rest,
    contextNotice: notice,
    imagesInContext: allowed.inContext.map((i) => i.relPath),
  });
}
