// The one base error of tms: a string `code` equal to the class name and structured `data`.

/** Base of every error tms raises on purpose. Tests compare `err.code`, never the message. */
export class TmsError<D extends object = Record<string, unknown>> extends Error {
  readonly code: string;
  readonly data: D;
  constructor(message: string, data: D = {} as D) {
    super(message);
    this.name = new.target.name;
    this.code = new.target.name;
    this.data = data;
  }
}

/** A configuration file that is missing, unreadable or invalid; `problems` lists each with its JSON path. */
export class ConfigError extends TmsError<{ file: string; problems: string[]; missing?: boolean }> {}

/** A file that a format cannot read; line and column are 1-based and relative to the file. */
export class FormatParseError extends TmsError<{ filename: string; line: number; column: number; reason: string }> {
  constructor(filename: string, line: number, column: number, reason: string) {
    super(`${filename}:${line}:${column}: ${reason}`, { filename, line, column, reason });
  }
}

/** An edit that a format cannot write (unknown unit, wrong number of plural forms, no new_base …). */
export class FormatWriteError extends TmsError<{ filename: string; reason: string }> {
  constructor(filename: string, reason: string) {
    super(`${filename}: ${reason}`, { filename, reason });
  }
}

/** A looked-up object that does not exist. */
export class NotFoundError extends TmsError<{ what: string; key: string }> {
  constructor(what: string, key: string) {
    super(`${what} not found: ${key}`, { what, key });
  }
}

/**
 * A request tms refuses: bad input (ValidationError) or an action not allowed (ForbiddenError). `field` names
 * the input at fault (the API's `attr`; Weblate's serializer-level errors use `non_field_errors`).
 */
export abstract class RefusedError<D extends { field: string | null } = { field: string | null }> extends TmsError<D> {}

/** Bad input from a user: a request body, a CLI argument, a query, a file (the API answers 400 on `field`). */
export class ValidationError<D extends { field: string | null } = { field: string | null }> extends RefusedError<D> {}

/** An action the component or the user's role does not allow (the API answers 403). */
export class ForbiddenError extends RefusedError {}

/** Bad input on `field`. @example throw invalid('language_code', "No language code 'xx' found!") */
export function invalid(field: string | null, message: string): ValidationError {
  return new ValidationError(message, { field });
}

/** An action refused, with the reason people read. @example throw forbidden('The component is locked.') */
export function forbidden(message: string): ForbiddenError {
  return new ForbiddenError(message, { field: null });
}

/** The database cannot be reached (PostgreSQL down or restarting): answered 503 while it lasts; tms reconnects. */
export class DatabaseUnavailableError extends TmsError<{ engine: 'postgresql' }> {}
