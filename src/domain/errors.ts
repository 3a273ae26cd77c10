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
export class ConfigError extends TmsError<{ file: string; problems: string[] }> {}

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

/** Bad input from a user: a request body, a CLI argument, a query. */
export class ValidationError extends TmsError<{ field?: string }> {}
