/** Domain errors; src/schema/errors.ts maps each `code` to a GraphQL error. */
import { ErrorCode } from '../domain/error-codes.js';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** what the client needs beyond the code, as the GraphQL error's `extensions` (src/schema/errors.ts) */
    readonly extensions?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class NotFound extends DomainError {
  constructor(what = 'Session') {
    super(ErrorCode.NOT_FOUND, `${what} not found`);
  }
}
export class Forbidden extends DomainError {
  constructor(message = 'Not allowed') {
    super(ErrorCode.FORBIDDEN, message);
  }
}
export class Unauthenticated extends DomainError {
  constructor(message = 'Missing or invalid credentials') {
    super(ErrorCode.UNAUTHENTICATED, message);
  }
}
export class Conflict extends DomainError {
  constructor(message: string, extensions?: Readonly<Record<string, unknown>>) {
    super(ErrorCode.CONFLICT, message, extensions);
  }
}
export class BadInput extends DomainError {
  constructor(message: string) {
    super(ErrorCode.BAD_USER_INPUT, message);
  }
}
export class NothingToCompact extends DomainError {
  constructor(message = 'Nothing to compact: the context cannot shrink') {
    super(ErrorCode.NOTHING_TO_COMPACT, message);
  }
}
