// The change log: one row per event (action codes as Weblate's), newest first when read.
import type { Db } from './db.js';

export interface ChangeInput {
  action: number;
  timestamp: string;
  projectId?: number | null;
  componentId?: number | null;
  translationId?: number | null;
  unitId?: number | null;
  languageId?: number | null;
  userId?: number | null;
  authorId?: number | null;
  target?: string;
  old?: string;
  details?: Record<string, unknown>;
}

export interface ChangeRow {
  id: number;
  timestamp: string;
  action: number;
  project_id: number | null;
  component_id: number | null;
  translation_id: number | null;
  unit_id: number | null;
  language_id: number | null;
  user_id: number | null;
  author_id: number | null;
  target: string;
  old: string;
  details: string;
}

/** Returns a recorder with its statement prepared once (use inside a transaction for many rows). */
export function changeRecorder(db: Db): (change: ChangeInput) => number {
  const insert = db.prepare(
    `INSERT INTO changes (timestamp, action, project_id, component_id, translation_id, unit_id, language_id, user_id, author_id, target, old, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (c) =>
    Number(
      insert.run(
        c.timestamp, c.action, c.projectId ?? null, c.componentId ?? null, c.translationId ?? null, c.unitId ?? null,
        c.languageId ?? null, c.userId ?? null, c.authorId ?? null, c.target ?? '', c.old ?? '', JSON.stringify(c.details ?? {}),
      ).lastInsertRowid,
    );
}

/** Records one change. */
export function recordChange(db: Db, change: ChangeInput): number {
  return changeRecorder(db)(change);
}

/** Changes of a component, newest first. */
export function componentChanges(db: Db, componentId: number, limit = 100): ChangeRow[] {
  return db
    .prepare('SELECT * FROM changes WHERE component_id = ? ORDER BY timestamp DESC, id DESC LIMIT ?')
    .all(componentId, limit) as ChangeRow[];
}
