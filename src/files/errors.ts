/**
 * Errors raised by the session-files layer. Each carries a stable `code` that
 * the GraphQL layer maps to `extensions.code`; the message is safe to show to
 * the user (it never contains absolute server paths).
 */
import { ErrorCode } from '../domain/error-codes.js';

export type FileRejectReason =
  | 'invalid_name'
  | 'invalid_session'
  | 'executable'
  | 'truncated'
  | 'not_image'
  | 'corrupt_image'
  | 'not_found';

/** The upload/file was refused because of what the client sent. Nothing was written. */
export class FileRejectedError extends Error {
  readonly code = ErrorCode.BAD_USER_INPUT;
  readonly reason: FileRejectReason;

  constructor(reason: FileRejectReason, message: string) {
    super(message);
    this.name = 'FileRejectedError';
    this.reason = reason;
  }
}

/** The upload exceeded `maxBytes`. The stream was aborted and nothing was written. */
export class PayloadTooLargeError extends Error {
  readonly code = ErrorCode.PAYLOAD_TOO_LARGE;
  readonly maxBytes: number;

  constructor(maxBytes: number, filename?: string) {
    const mb = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
    super(`${filename ? `"${filename}"` : 'File'} exceeds the upload limit of ${mb} MB`);
    this.name = 'PayloadTooLargeError';
    this.maxBytes = maxBytes;
  }
}
