/** The shapes the session file store takes and answers (./store.ts). */
import type { FileKind } from './detect.js';

/** pino-compatible subset. */
export interface FilesLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  info?(obj: Record<string, unknown>, msg?: string): void;
}

/** A WHATWG `File` (graphql-yoga multipart) or anything shaped like one. */
export interface UploadLike {
  readonly name: string;
  readonly size?: number;
  stream(): ReadableStream<Uint8Array>;
}

export interface SessionFileEntry {
  filename: string;
  size: number;
  contentType: string;
  kind: FileKind;
  /** `session_files/{id}/{filename}` */
  relPath: string;
  createdAt: Date;
}

export type SavedUpload = SessionFileEntry;

export interface OpenedFile {
  filename: string;
  stream: ReadableStream<Uint8Array>;
  size: number;
  contentType: string;
  kind: FileKind;
}

export interface SavedImage {
  filename: string;
  relPath: string;
  /** true when identical bytes were already stored and that file is returned */
  reused: boolean;
  contentType: string;
  size: number;
}

export interface PublishedFile {
  filename: string;
  /** `/sessions/{id}/files/{filename}` (URI-encoded segments) */
  url: string;
  relPath: string;
  contentType: string;
  kind: FileKind;
  size: number;
}

export type SessionsExist = (ids: string[]) => Promise<Set<string>>;

export interface SessionFilesOptions {
  /** Directory that contains (or will contain) `session_files/`. */
  root: string;
  /** Per-file limit in bytes (`sessionFilesMaxSizeMb × 1024 × 1024`). */
  maxBytes: number;
  logger?: FilesLogger;
}
