// Component alerts (Weblate's DuplicateLanguage and the like): one row per kind, set while the condition holds.
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';

export interface AlertRow {
  id: number;
  component_id: number;
  name: string;
  details: string;
  timestamp: string;
}

const sql = preparedOnce((db: Db) => ({
  clear: db.prepare('DELETE FROM alerts WHERE component_id = ? AND name = ?'),
  set: db.prepare(
    `INSERT INTO alerts (component_id, name, details, timestamp) VALUES (?, ?, ?, ?)
     ON CONFLICT (component_id, name) DO UPDATE SET details = excluded.details
     WHERE alerts.details IS NOT excluded.details`,
  ),
  ofComponent: db.prepare('SELECT * FROM alerts WHERE component_id = ? ORDER BY name'),
}));

/** Sets the alert (details replaced) or, with `details` null, clears it. */
export function setAlert(db: Db, componentId: number, name: string, details: Record<string, unknown> | null, timestamp: string): void {
  if (details === null) {
    sql(db).clear.run(componentId, name);
    return;
  }
  sql(db).set.run(componentId, name, JSON.stringify(details), timestamp);
}

export function componentAlerts(db: Db, componentId: number): AlertRow[] {
  return sql(db).ofComponent.all(componentId) as AlertRow[];
}

/**
 * Adds a file to the component's ParseError alert (its entry replaced when listed), the alert a sync sets for the
 * files it could not parse; the next sync sets the alert from what it parses, clearing it once the file parses.
 */
export function addParseError(db: Db, componentId: number, file: { filename: string; error: string }, timestamp: string): void {
  const current = componentAlerts(db, componentId).find((a) => a.name === 'ParseError');
  const listed = current ? ((JSON.parse(current.details) as { files?: { filename: string; error: string }[] }).files ?? []) : [];
  const files = [...listed.filter((f) => f.filename !== file.filename), file];
  setAlert(db, componentId, 'ParseError', { files }, timestamp);
}
