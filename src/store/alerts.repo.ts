// Component alerts (Weblate's DuplicateLanguage and the like): one row per kind, set while the condition holds.
import type { Db } from './db.js';

export interface AlertRow {
  id: number;
  component_id: number;
  name: string;
  details: string;
  timestamp: string;
}

/** Sets the alert (details replaced) or, with `details` null, clears it. */
export function setAlert(db: Db, componentId: number, name: string, details: Record<string, unknown> | null, timestamp: string): void {
  if (details === null) {
    db.prepare('DELETE FROM alerts WHERE component_id = ? AND name = ?').run(componentId, name);
    return;
  }
  db.prepare(
    `INSERT INTO alerts (component_id, name, details, timestamp) VALUES (?, ?, ?, ?)
     ON CONFLICT (component_id, name) DO UPDATE SET details = excluded.details
     WHERE details IS NOT excluded.details`,
  ).run(componentId, name, JSON.stringify(details), timestamp);
}

export function componentAlerts(db: Db, componentId: number): AlertRow[] {
  return db.prepare('SELECT * FROM alerts WHERE component_id = ? ORDER BY name').all(componentId) as AlertRow[];
}
