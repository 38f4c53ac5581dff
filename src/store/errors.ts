/** Domain errors; src/schema/errors.ts maps each `code` to a GraphQL error. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class NotFound extends DomainError {
  constructor(what = 'Session') {
    super('NOT_FOUND', `${what} not found`);
  }
}
export class Forbidden extends DomainError {
  constructor(message = 'Not allowed') {
    super('FORBIDDEN', message);
  }
}
export class Unauthenticated extends DomainError {
  constructor(message = 'Missing or invalid credentials') {
    super('UNAUTHENTICATED', message);
  }
}
export class Conflict extends DomainError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
export class BadInput extends DomainError {
  constructor(message: string) {
    super('BAD_USER_INPUT', message);
  }
}
export class NothingToCompact extends DomainError {
  constructor(message = 'Nothing to compact: the context cannot shrink') {
    super('NOTHING_TO_COMPACT', message);
  }
}
