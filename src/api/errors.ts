// API errors, their one JSON body shape (drf-standardized-errors: {"type", "errors": [{"code", "detail", "attr"}]}), and the one mapping of tms's errors to them.
import { MutexTimeoutError } from '../component/mutex.js';
import { DatabaseUnavailableError, ForbiddenError, FormatParseError, FormatWriteError, NotFoundError, TmsError, ValidationError } from '../domain/errors.js';

export type ErrorType = 'validation_error' | 'client_error' | 'server_error';

export interface ErrorEntry {
  code: string;
  detail: string;
  attr: string | null;
}

/** An error the API answers with a status and the standard error body. */
export class ApiError extends TmsError<{ status: number; type: ErrorType; errors: ErrorEntry[] }> {
  /** Extra response headers (Allow, WWW-Authenticate, …). */
  readonly headers: Record<string, string>;
  constructor(status: number, errors: ErrorEntry[], headers: Record<string, string> = {}, validation = false) {
    const type: ErrorType = validation ? 'validation_error' : status >= 500 ? 'server_error' : 'client_error';
    super(errors.map((e) => e.detail).join('; '), { status, type, errors });
    this.headers = headers;
  }

  get status(): number {
    return this.data.status;
  }

  /** The response body. */
  body(): { type: ErrorType; errors: ErrorEntry[] } {
    return { type: this.data.type, errors: this.data.errors };
  }
}

/** 404 for a missing or invisible object (the detail is always "Not found.", as in Weblate). */
export function notFound(detail = 'Not found.'): ApiError {
  return new ApiError(404, [{ code: 'not_found', detail, attr: null }]);
}

/** 400 validation error on one field (`attr`), e.g. `validationError('q', 'Could not parse query string: …')`. */
export function validationError(attr: string | null, detail: string, code = 'invalid'): ApiError {
  return new ApiError(400, [{ code, detail, attr }], {}, true);
}

/** 401 for a missing login on an action that needs one. */
export function notAuthenticated(): ApiError {
  return new ApiError(401, [{ code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null }], {
    'WWW-Authenticate': 'Token',
  });
}

/** 401 for credentials that do not authenticate. */
export function authenticationFailed(detail: string): ApiError {
  return new ApiError(401, [{ code: 'authentication_failed', detail, attr: null }], { 'WWW-Authenticate': 'Token' });
}

/** 403 with Weblate's generic or a specific message. */
export function permissionDenied(detail = 'You do not have permission to perform this action.'): ApiError {
  return new ApiError(403, [{ code: 'permission_denied', detail, attr: null }]);
}

/** 405 listing what the path allows. */
export function methodNotAllowed(method: string, allow: string): ApiError {
  return new ApiError(405, [{ code: 'method_not_allowed', detail: `Method "${method}" not allowed.`, attr: null }], { Allow: allow });
}

export function notAcceptable(): ApiError {
  return new ApiError(406, [{ code: 'not_acceptable', detail: 'Could not satisfy the request Accept header.', attr: null }]);
}

/** 503 while the database cannot be reached (PostgreSQL restarting): the client may retry shortly. */
export function databaseUnavailable(): ApiError {
  return new ApiError(503, [{ code: 'database_unavailable', detail: 'The database is unavailable; try again shortly.', attr: null }], { 'Retry-After': '1' });
}

/** 500 without any detail of the cause. */
export function serverError(): ApiError {
  return new ApiError(500, [{ code: 'error', detail: 'A server error occurred.', attr: null }]);
}

/** 429 when a client must wait (DRF's throttled answer), with Retry-After. */
export function throttled(seconds: number): ApiError {
  return new ApiError(
    429,
    [{ code: 'throttled', detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`, attr: null }],
    {
      'Retry-After': String(seconds),
    },
  );
}

/** 415 for a request body of a type the endpoint does not parse. */
export function unsupportedMediaType(type: string): ApiError {
  return new ApiError(415, [{ code: 'unsupported_media_type', detail: `Unsupported media type "${type}" in request.`, attr: null }]);
}

/** 400 for a body that does not parse as its declared type. */
export function parseError(detail: string): ApiError {
  return new ApiError(400, [{ code: 'parse_error', detail, attr: null }]);
}

/** 413 for a body over the size limit. */
export function bodyTooLarge(limit: number): ApiError {
  return new ApiError(413, [{ code: 'payload_too_large', detail: `The request body exceeds ${limit} bytes.`, attr: null }]);
}

/** 423 when the component's repository lock could not be had in time (Weblate's extension). */
export function repositoryLocked(key: string): ApiError {
  return new ApiError(423, [{ code: 'repository-locked', detail: `Could not obtain the repository lock for ${key} to perform the operation.`, attr: null }]);
}

/** 409 for a file that does not parse (a download that would need it), naming the file, line and column. */
export function fileDoesNotParse(e: FormatParseError): ApiError {
  const { filename, line, column, reason } = e.data;
  return new ApiError(409, [{ code: 'parse_error', detail: `${filename}:${line}:${column}: ${reason}`, attr: null }]);
}

/**
 * The API error for any error a handler (API or webhook) lets through: unknown objects 404, bad input 400 on its
 * field, refused actions 403, a component mutex not had in time 423, a stored file that does not parse (or does not take
 * the pending edits) 409.
 * Anything else is null: a defect, which the edge logs and answers with a detail-free 500.
 */
export function toApiError(e: unknown): ApiError | null {
  if (e instanceof ApiError) return e;
  if (e instanceof NotFoundError) return notFound();
  if (e instanceof ValidationError) return validationError(e.data.field, e.message);
  if (e instanceof ForbiddenError) return permissionDenied(e.message);
  if (e instanceof MutexTimeoutError) return repositoryLocked(e.data.key);
  if (e instanceof FormatParseError) return fileDoesNotParse(e);
  if (e instanceof FormatWriteError) return new ApiError(409, [{ code: 'write_error', detail: e.message, attr: null }]);
  if (e instanceof DatabaseUnavailableError) return databaseUnavailable();
  return null;
}
