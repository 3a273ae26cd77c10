// Component alerts (Weblate's DuplicateLanguage and the like): one row per kind, set while the condition holds.
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

export interface AlertRow {
  id: number;
  component_id: number;
  name: string;
  details: string;
  timestamp: string;
}

const sql = preparedOnce((tx: Tx) => ({
  clear: tx.prepare('DELETE FROM alerts WHERE component_id = ? AND name = ?'),
  set: tx.prepare(
    `INSERT INTO alerts (component_id, name, details, timestamp) VALUES (?, ?, ?, ?)
     ON CONFLICT (component_id, name) DO UPDATE SET details = excluded.details
     WHERE alerts.details IS DISTINCT FROM excluded.details`,
  ),
  ofComponent: tx.prepare('SELECT * FROM alerts WHERE component_id = ? ORDER BY name'),
  namesOf: tx.prepare(`SELECT component_id, name FROM alerts WHERE component_id IN (${tx.dialect.idsOfJson})`),
}));

/** Sets the alert (details replaced) or, with `details` null, clears it. */
export async function setAlert(tx: Tx, componentId: number, name: string, details: Record<string, unknown> | null, timestamp: string): Promise<void> {
  if (details === null) {
    await sql(tx).clear.run(componentId, name);
    return;
  }
  await sql(tx).set.run(componentId, name, JSON.stringify(details), timestamp);
}

export async function componentAlerts(tx: Tx, componentId: number): Promise<AlertRow[]> {
  return (await sql(tx).ofComponent.all(componentId)) as AlertRow[];
}

/** The names of the alerts set on each of several components (one statement); a component without any is absent. */
export async function alertNamesOf(tx: Tx, componentIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const { component_id, name } of (await sql(tx).namesOf.all(JSON.stringify(componentIds))) as Pick<AlertRow, 'component_id' | 'name'>[]) {
    const list = out.get(component_id);
    if (list) list.push(name);
    else out.set(component_id, [name]);
  }
  return out;
}
