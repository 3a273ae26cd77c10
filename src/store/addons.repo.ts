// The add-ons installed on components (the addons table): written from the configuration, listed by `/api/addons/`.
import type { AddonName } from '../config/config.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

interface AddonRow {
  id: number;
  name: string;
  configuration: string;
}

const sql = preparedOnce((tx: Tx) => ({
  ofComponent: tx.prepare('SELECT id, name, configuration FROM addons WHERE component_id = ? ORDER BY id'),
  insert: tx.prepare('INSERT INTO addons (component_id, name, configuration) VALUES (?, ?, ?)'),
  update: tx.prepare('UPDATE addons SET configuration = ? WHERE id = ?'),
  remove: tx.prepare('DELETE FROM addons WHERE id = ?'),
}));

/**
 * Makes the component's add-on rows what the configuration says (call inside a transaction): an add-on still
 * configured keeps its id (its configuration updated), a new one is added, one no longer configured goes.
 */
export async function setComponentAddons(
  tx: Tx,
  componentId: number,
  addons: ReadonlyArray<{ name: AddonName; configuration: Record<string, unknown> }>,
): Promise<void> {
  const s = sql(tx);
  const existing = (await s.ofComponent.all(componentId)) as AddonRow[];
  for (const a of addons) {
    const json = JSON.stringify(a.configuration ?? {});
    const row = existing.find((r) => r.name === a.name);
    if (!row) await s.insert.run(componentId, a.name, json);
    else if (row.configuration !== json) await s.update.run(json, row.id);
  }
  for (const r of existing) if (!addons.some((a) => a.name === r.name)) await s.remove.run(r.id);
}
