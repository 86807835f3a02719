/**
 * Typed errors, mapped once at the edge to application/problem+json.
 * Domain code throws these; HTTP middleware and bus consumers read `status`
 * and `retryable` to decide the answer or redelivery.
 */
export interface ProblemFields {
  field?: string;
  [extension: string]: unknown;
}

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly extensions: ProblemFields;
  /** A consumer redelivers retryable errors; others go straight to the dead-letter topic. */
  readonly retryable: boolean;

  constructor(code: string, status: number, detail: string, extensions: ProblemFields = {}, retryable = false) {
    super(detail);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.extensions = extensions;
    this.retryable = retryable;
  }

  get field(): string | undefined {
    return this.extensions.field;
  }
}

export class ValidationError extends AppError {
  constructor(field: string, detail: string, code = 'validation_failed') {
    super(code, 422, detail, { field });
  }
}

export class BadRequestError extends AppError {
  constructor(detail: string, code = 'bad_request', extensions: ProblemFields = {}) {
    super(code, 400, detail, extensions);
  }
}

/** A body nesting objects and arrays (or form keys) deeper than the service reads: refused before any recursion can overflow. */
export class BodyTooDeepError extends AppError {
  constructor(limit: number) {
    super('body_too_deep', 422, `The body nests objects and arrays more than ${limit} levels deep.`, { field: 'body' });
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, code = `${resource}_not_found`) {
    super(code, 404, `No such ${resource.replace(/_/g, ' ')}.`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, detail: string, extensions: ProblemFields = {}) {
    super(code, 409, detail, extensions);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'A valid API key is required in the X-API-Key header.', code = 'unauthorized') {
    super(code, 401, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string, code = 'forbidden') {
    super(code, 403, detail);
  }
}

/** A dependency (store, bus, remote service) is unavailable; safe to retry. */
export class UnavailableError extends AppError {
  constructor(detail: string, code = 'service_unavailable') {
    super(code, 503, detail, {}, true);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
