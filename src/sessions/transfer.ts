/**
 * Export (MARKDOWN for reading, JSON for a lossless round trip) and import
 * (our JSON export, or a ChatGPT or Claude `conversations.json`) of whole sessions.
 *
 * Import parses in a worker thread (src/sessions/import-worker.ts), then writes
 * each new session in bounded statements under a staging owner (`importing:…`,
 * which no list, read or search shows) and hands it to the caller in one short
 * transaction, so the server keeps answering and a malformed or failing import
 * leaves nothing visible (a failure removes its rows; a killed import's are
 * swept at the next start or import); `session_imports`
 * (user, fingerprint) → session makes importing the same data twice return the
 * session created the first time. Attachment paths are rewritten to the new
 * session's own directory: an export cannot point the model at another
 * session's files.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { parseChatGptExport, type ImportedConversation } from '../domain/chatgpt-import.js';
import { looksLikeClaudeExport, parseClaudeExport } from '../domain/claude-import.js';
import {
  canonicalJson,
  decodeExport,
  type DecodedExport,
  EXPORT_FORMAT,
  exportFingerprint,
  exportJson,
  exportMarkdown,
  type MemoryChunkInput,
  type ExportSessionInput,
  parseExport,
} from '../domain/export.js';
import type { Checkpoint } from '../domain/history-edits.js';
import type { TitleSource } from '../domain/titles.js';
import { messageToJson, type StoredBranch } from '../domain/tree.js';
import { type ChatMessage, makeMessage, type Usage, ZERO_USAGE } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import { BadInput, Forbidden, NotFound } from '../store/errors.js';
import { TransferStore, type ImportedSession } from '../store/transfers.js';
import { ANONYMOUS, can, stagingOwner, type Viewer } from '../domain/policy.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import type { ProfileService } from './profiles.js';
import type { Config } from '../config.js';
import { checkImportedMessages, type ImportedText } from './intake.js';
import { type ImportSource, parseInWorker } from './import-parse.js';

export type ExportFormat = 'MARKDOWN' | 'JSON';

/** Largest import accepted (characters of the JSON text). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;
/** Conversations one ChatGPT import may create. */
export const MAX_IMPORT_CONVERSATIONS = 1000;
/** A staged import older than this is one that died (kill -9): swept at start and before each import. */
export const STALE_IMPORT_MS = 60 * 60 * 1000;

// ---------------------------------------------------------------- stored shapes (shared with src/editing)

/** `sessions.checkpoint` JSON → Checkpoint (tolerant: anything malformed reads as none). */
export function checkpointFromJson(value: unknown): Checkpoint | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const createdAt = new Date(String(v.createdAt ?? ''));
  if (typeof v.goal !== 'string' || typeof v.afterSequenceNumber !== 'number' || Number.isNaN(createdAt.getTime()))
    return null;
  return { goal: v.goal, afterSequenceNumber: v.afterSequenceNumber, createdAt };
}

export function checkpointToJson(c: Checkpoint | null): Record<string, unknown> | undefined {
  return c
    ? { goal: c.goal, afterSequenceNumber: c.afterSequenceNumber, createdAt: c.createdAt.toISOString() }
    : undefined;
}

/** A `session_branches.suffix` element (ChatMessage as JSON) → ChatMessage. */
export function suffixMessageFromJson(value: unknown, index: number, baseSequence: number): ChatMessage {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const created = new Date(String(v.createdAt ?? ''));
  return makeMessage({
    ...(v as Partial<ChatMessage>),
    role: (['user', 'assistant', 'tool', 'system'].includes(String(v.role)) ? v.role : 'user') as ChatMessage['role'],
    content: typeof v.content === 'string' ? v.content : '',
    sequenceNumber: typeof v.sequenceNumber === 'number' ? v.sequenceNumber : baseSequence + 1 + index,
    createdAt: Number.isNaN(created.getTime()) ? new Date(0) : created,
  });
}

/** Same JSON form as src/store/edits.ts (domain/tree `messageToJson`). */
export function suffixToJson(suffix: readonly ChatMessage[]): unknown[] {
  return suffix.map(messageToJson);
}

// ---------------------------------------------------------------- helpers

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `session_files/<any>/<name>` → `session_files/<sessionId>/<name>`; anything else is dropped. */
export function rebasePath(rel: string, sessionId: string): string | null {
  const m = /^session_files\/[^/]+\/([^/\\]+)$/.exec(rel);
  if (!m || m[1] === '..' || m[1] === '.') return null;
  return `session_files/${sessionId}/${m[1]}`;
}

function rebaseMessage(m: ChatMessage, sessionId: string): ChatMessage {
  const rebase = (paths: readonly string[]) =>
    paths.map((p) => rebasePath(p, sessionId)).filter((p): p is string => p !== null);
  const metadata = { ...m.metadata };
  if (Array.isArray(metadata.imagesInContext)) metadata.imagesInContext = rebase(metadata.imagesInContext.map(String));
  return { ...m, files: rebase(m.files), images: rebase(m.images), metadata };
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`;
  return /P2002|23505|unique constraint/i.test(text);
}

interface SessionImport extends Omit<ExportSessionInput, 'contextTokenCount'> {
  fingerprint: string;
  contextTokenCount: number;
  messages: (ChatMessage & { archived?: boolean })[];
  branches: StoredBranch[];
  memoryChunks: MemoryChunkInput[];
}

function fromExport(decoded: DecodedExport, fingerprint: string): SessionImport {
  const s = decoded.session;
  return {
    fingerprint,
    ...s,
    contextTokenCount: s.contextTokenCount ?? 0,
    messages: decoded.messages,
    branches: decoded.branches,
    memoryChunks: decoded.memoryChunks,
  };
}

/**
 * A converted conversation of another app; the fingerprint is of the converted conversation, without the message ids
 * the conversion gave (new on every import), so the same file imported again finds its sessions.
 */
function fromConversation(conv: ImportedConversation, source: 'chatgpt' | 'claude'): SessionImport {
  const withoutIds = (key: string, value: unknown) => (key === 'messageId' ? undefined : value);
  const fingerprint = `${source}:${sha256(JSON.stringify(canonicalJson(conv), withoutIds))}`;
  const sourceKey = source === 'chatgpt' ? 'chatgptConversationId' : 'claudeConversationUuid';
  return {
    fingerprint,
    name: conv.title,
    titleSource: conv.titleSource,
    pinned: false,
    createdAt: conv.createdAt,
    lastActive: conv.lastActive,
    usage: { ...ZERO_USAGE },
    planningLogs: [],
    metadata: { importedFrom: source, ...(conv.sourceId ? { [sourceKey]: conv.sourceId } : {}) },
    profileKey: null,
    checkpoint: null,
    lastRewindReport: null,
    contextTokenCount: 0,
    messages: conv.messages,
    branches: conv.branches,
    memoryChunks: [],
  };
}

/**
 * Every message text an import would store, named by where it sits: `messages[3]` and `branches[0].suffix[1]` of a
 * session export (and `session.metadata.redo.segments[0].messages[0]`, which `redo` writes back),
 * `conversations[2].messages[5]` of a ChatGPT or Claude export (in the converted conversation).
 */
function* importedTexts(items: readonly SessionImport[], conversations: boolean): Generator<ImportedText> {
  for (const [c, item] of items.entries()) {
    const at = conversations ? `conversations[${c}].` : '';
    for (const [i, m] of item.messages.entries())
      yield { path: `${at}messages[${i}] (sequence ${m.sequenceNumber}, ${m.role})`, content: m.content };
    for (const [b, branch] of item.branches.entries())
      for (const [i, m] of branch.suffix.entries())
        yield { path: `${at}branches[${b}].suffix[${i}] (${m.role})`, content: m.content };
    // The redo stack holds whole messages that `redo` writes back into the history.
    const redo = item.metadata?.redo as { segments?: unknown } | undefined;
    const segments = Array.isArray(redo?.segments) ? (redo.segments as { messages?: unknown }[]) : [];
    for (const [s, segment] of segments.entries())
      for (const [i, m] of (Array.isArray(segment?.messages) ? segment.messages : []).entries())
        yield {
          path: `${at}session.metadata.redo.segments[${s}].messages[${i}]`,
          content: typeof m?.content === 'string' ? m.content : '',
        };
  }
}

/**
 * Parse import text into one or more sessions to create. BAD_USER_INPUT on anything malformed, and (with `limits`)
 * on a message longer than MAX_MESSAGE_CHARS, named (the one write path's rule, src/sessions/intake.ts).
 */
export function parseImport(data: string, limits?: Pick<Config, 'maxMessageChars'>): SessionImport[] {
  const items = parseImportData(data);
  if (limits) checkImportedMessages(importedTexts(items, !items[0]?.fingerprint.startsWith('export:')), limits);
  return items;
}

function parseImportData(data: string): SessionImport[] {
  if (typeof data !== 'string' || data.trim() === '') throw new BadInput('Import data is empty');
  if (data.length > MAX_IMPORT_CHARS)
    throw new BadInput(`Import data is larger than ${MAX_IMPORT_CHARS / (1024 * 1024)} MB`);
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch (e) {
    throw new BadInput(`Import data is not valid JSON: ${(e as Error).message}`);
  }
  if (looksLikeClaudeExport(raw)) {
    const conversations = parseClaudeExport(raw);
    if (conversations.length > MAX_IMPORT_CONVERSATIONS) {
      throw new BadInput(`A Claude export may hold at most ${MAX_IMPORT_CONVERSATIONS} conversations`);
    }
    return conversations.map((c) => fromConversation(c, 'claude'));
  }
  const isChatGpt = Array.isArray(raw) || (raw !== null && typeof raw === 'object' && 'mapping' in raw);
  if (isChatGpt) {
    const conversations = parseChatGptExport(raw);
    if (conversations.length === 0) throw new BadInput('The ChatGPT export holds no conversation');
    if (conversations.length > MAX_IMPORT_CONVERSATIONS) {
      throw new BadInput(`A ChatGPT export may hold at most ${MAX_IMPORT_CONVERSATIONS} conversations`);
    }
    return conversations.map((c) => fromConversation(c, 'chatgpt'));
  }
  if (raw === null || typeof raw !== 'object' || (raw as { format?: unknown }).format !== EXPORT_FORMAT) {
    throw new BadInput(
      `Import data is neither a session export (format "${EXPORT_FORMAT}") nor a ChatGPT or Claude conversations.json`,
    );
  }
  const parsed = parseExport(data);
  return [fromExport(decodeExport(parsed), `export:${exportFingerprint(parsed)}`)];
}

// ---------------------------------------------------------------- service

/** What importSession hands over: the JSON as a string, or as an uploaded file (multipart; spooled on disk). */
export interface ImportInput {
  data?: string | null;
  file?: File | null;
  profileId?: string | null;
}

const tooLargeImport = () => new BadInput(`Import data is larger than ${MAX_IMPORT_CHARS / (1024 * 1024)} MB`);

/**
 * The worker's source: the spool file's path for a spooled upload (the worker reads it, so the JSON never passes
 * through the event loop), else the text. BAD_USER_INPUT for none, both, empty or over MAX_IMPORT_CHARS.
 */
async function importSource(input: ImportInput): Promise<ImportSource> {
  const { data, file } = input;
  if (data != null && file != null) throw new BadInput('Import takes data or file, not both');
  if (file != null) {
    if (file.size === 0) throw new BadInput('Import data is empty');
    // Bytes (a file within the limit in bytes is within it in characters).
    if (file.size > MAX_IMPORT_CHARS) throw tooLargeImport();
    const spoolPath = (file as { spoolPath?: unknown }).spoolPath;
    if (typeof spoolPath === 'string') return { path: spoolPath };
    return textSource(await file.text());
  }
  return textSource(data);
}

function textSource(data: unknown): ImportSource {
  if (typeof data !== 'string' || data.trim() === '') throw new BadInput('Import data is empty');
  if (data.length > MAX_IMPORT_CHARS) throw tooLargeImport();
  return { data };
}

export class TransferService {
  constructor(
    private readonly store: SessionStore,
    private readonly profiles: ProfileService,
    private readonly bus: EventBus,
    /** MAX_MESSAGE_CHARS holds for every imported message as for a sent one */
    private readonly limits: Pick<Config, 'maxMessageChars'>,
    private readonly transfers: TransferStore = new TransferStore(store.db),
  ) {}

  /**
   * MARKDOWN: the display history, for anyone who may read the session.
   * JSON: everything, including the model's context, so owner or admin only
   * (like Session.context).
   */
  async export(viewer: Viewer, session: SessionRow, format: ExportFormat): Promise<string> {
    const messages = await this.store.allMessages(session.id);
    if (format === 'MARKDOWN') return exportMarkdown(session, messages);
    if (!can(viewer, 'readContext', session))
      throw new Forbidden('Only the owner or an admin may export the full session');
    const { profileKey, branches, chunks } = await this.transfers.exportExtras(session);
    return exportJson({
      session: {
        name: session.name,
        titleSource: session.titleSource as TitleSource,
        pinned: session.pinned,
        createdAt: session.createdAt,
        lastActive: session.lastActive,
        usage: { ...ZERO_USAGE, ...(session.usage as Partial<Usage>) },
        planningLogs: session.planningLogs,
        metadata: (session.metadata ?? {}) as Record<string, unknown>,
        profileKey,
        checkpoint: checkpointFromJson(session.checkpoint),
        lastRewindReport: session.lastRewindReport,
        contextTokenCount: session.contextTokenCount,
      },
      messages,
      branches: branches.map((b) => ({
        name: b.name,
        baseSequence: b.baseSequence,
        suffix: (Array.isArray(b.suffix) ? b.suffix : []).map((m, i) => suffixMessageFromJson(m, i, b.baseSequence)),
        createdAt: b.createdAt,
      })),
      memoryChunks: chunks.map((c) => ({
        content: c.content,
        breadcrumbs: c.breadcrumbs,
        turnStart: c.turnStart,
        turnEnd: c.turnEnd,
        firstAt: c.firstAt,
        lastAt: c.lastAt,
        messageIds: c.messageIds ?? [],
      })),
    });
  }

  /**
   * Import as new session(s) of the caller; returns the (first) session. The parse runs in a worker thread and each
   * session is written in bounded statements under a staging owner no one sees, then handed to its owner in one
   * short transaction; a failure removes what it wrote (module comment).
   */
  async import(viewer: Viewer, input: ImportInput): Promise<SessionRow> {
    // Cheap refusals first, without a worker.
    const source = await importSource(input);
    const explicitProfile = input.profileId ? await this.profiles.get(input.profileId) : null;
    if (input.profileId && !explicitProfile) throw new NotFound('Profile');
    const items = await parseInWorker<SessionImport>(source, this.limits.maxMessageChars);
    // The upload's spool file is read: gone now, not after the answer (a process killed while writing leaves none).
    if ('path' in source) await rm(source.path, { force: true });
    await this.transfers.sweepStaged(STALE_IMPORT_MS);
    const owner = viewer.userId ?? ANONYMOUS;
    const results: SessionRow[] = [];
    const created: SessionRow[] = [];
    for (const item of items) {
      const existing = await this.existingImport(owner, item.fingerprint);
      if (existing) {
        results.push(existing);
        continue;
      }
      const profileId =
        explicitProfile?.id ??
        (item.profileKey ? (await this.profiles.byKey(item.profileKey))?.id : undefined) ??
        (await this.profiles.default()).id;
      const staged = await this.stage(owner, profileId, item);
      try {
        const session = await this.store.transaction((tx) =>
          this.transfers.finishImport(tx, staged, owner, item.fingerprint),
        );
        results.push(session);
        created.push(session);
      } catch (error) {
        await this.transfers.dropStaged(staged);
        // The same import raced us: answer with the session it created.
        if (!isUniqueViolation(error)) throw error;
        const raced = await this.existingImport(owner, item.fingerprint);
        if (!raced) throw error;
        results.push(raced);
      }
    }
    for (const s of created) await this.bus.publishList({ kind: 'created', sessionId: s.id, userId: s.userId });
    return results[0]!;
  }

  /** Removes what imports that died (kill -9) left staged: at start. */
  sweepStaged(olderThanMs = STALE_IMPORT_MS): Promise<number> {
    return this.transfers.sweepStaged(olderThanMs);
  }

  /** Writes one session under a staging owner; on failure removes what it wrote. Returns the session id. */
  private async stage(owner: string, profileId: string, item: SessionImport): Promise<string> {
    const id = randomUUID();
    try {
      await this.write(id, owner, profileId, item);
      return id;
    } catch (error) {
      await this.transfers.dropStaged(id).catch(() => undefined);
      throw error;
    }
  }

  private async existingImport(owner: string, fingerprint: string): Promise<SessionRow | null> {
    const sessionId = await this.transfers.importedSessionId(owner, fingerprint);
    if (!sessionId) return null;
    const session = await this.store.get(sessionId);
    if (session) return session;
    // The imported session was deleted since: forget the mapping so it can be imported again.
    await this.transfers.forgetImport(owner, fingerprint);
    return null;
  }

  private write(id: string, owner: string, profileId: string, item: SessionImport): Promise<SessionRow> {
    const messages = [...item.messages].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    // The id is chosen before: the rows' file paths name the new session's directory.
    let displayIndex = 0;
    const hashes = new Set<string>();
    const chunks = item.memoryChunks.filter((c) => {
      const h = sha256(c.content);
      if (hashes.has(h)) return false;
      hashes.add(h);
      return true;
    });
    const imported: ImportedSession = {
      session: {
        id,
        profileId,
        userId: owner,
        name: item.name,
        titleSource: item.titleSource,
        pinned: item.pinned,
        createdAt: item.createdAt,
        lastActive: item.lastActive,
        usage: item.usage,
        planningLogs: item.planningLogs ?? [],
        metadata: item.metadata,
        checkpoint: checkpointToJson(item.checkpoint),
        lastRewindReport: item.lastRewindReport,
        contextTokenCount: item.contextTokenCount,
        nextSequence: messages.length > 0 ? messages[messages.length - 1]!.sequenceNumber + 1 : 0,
        displayCount: messages.filter((m) => m.isDisplay).length,
      },
      messages: messages.map((m) => ({
        message: rebaseMessage(m, id),
        displayIndex: m.isDisplay ? displayIndex++ : null,
        archived: m.archived === true,
      })),
      branches: item.branches.map((b) => ({
        name: b.name,
        baseSequence: b.baseSequence,
        suffix: suffixToJson(b.suffix.map((m) => rebaseMessage(m, id))),
        createdAt: b.createdAt,
      })),
      memoryChunks: chunks.map((c) => ({ ...c, contentHash: sha256(c.content) })),
      fingerprint: item.fingerprint,
    };
    return this.transfers.writeImport(imported, stagingOwner(randomUUID()));
  }
}
