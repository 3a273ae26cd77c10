// The configuration's `database`: telling a PostgreSQL URL from a SQLite file name, and showing it without credentials
// (light: the configuration and `tms check` load this).
import { redactUrl } from '../domain/url.js';

/** True when the configuration's `database` names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/**
 * The database as it may be shown: a URL without `user:password@` or a `password=` parameter; a file name as it is.
 * @example shownDatabase('postgresql://tms:secret@db/tms') // 'postgresql://db/tms'
 */
export function shownDatabase(database: string): string {
  return isPostgresUrl(database) ? redactUrl(database).replace(/([?&]password=)[^&]*/gi, '$1***') : database;
}
