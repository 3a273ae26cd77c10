// The add-ons installed on components (the addons table): written from the configuration, listed by `/api/addons/`.
import type { AddonName } from '../config/config.js';
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

interface AddonRow {
  id: number;
  component_id: number;
  name: string;
  configuration: string;
}

const sql = preparedOnce((tx: Tx) => ({
  ofComponent: tx.prepare('SELECT id, component_id, name, configuration FROM addons WHERE component_id = ? ORDER BY id'),
  all: tx.prepare('SELECT id, component_id, name, configuration FROM addons ORDER BY id'),
  insert: tx.prepare('INSERT INTO addons (component_id, name, configuration) VALUES (?, ?, ?)'),
  update: tx.prepare('UPDATE addons SET configuration = ? WHERE id = ?'),
  remove: tx.prepare('DELETE FROM addons WHERE id = ?'),
}));

/** Every component's add-on rows, by component id (one statement, for applying a whole configuration). */
export async function addonsByComponent(tx: Tx): Promise<Map<number, AddonRow[]>> {
  const out = new Map<number, AddonRow[]>();
  for (const row of (await sql(tx).all.all()) as AddonRow[]) {
    const list = out.get(row.component_id);
    if (list) list.push(row);
    else out.set(row.component_id, [row]);
  }
  return out;
}

/**
 * Makes the component's add-on rows what the configuration says (call inside a transaction): an add-on still
 * configured keeps its id (its configuration updated), a new one is added, one no longer configured goes. `stored`:
 * the component's rows as `addonsByComponent` read them in this transaction (read here when not given).
 */
export async function setComponentAddons(
  tx: Tx,
  componentId: number,
  addons: ReadonlyArray<{ name: AddonName; configuration: Record<string, unknown> }>,
  stored?: readonly AddonRow[],
): Promise<void> {
  const s = sql(tx);
  const existing = stored ?? ((await s.ofComponent.all(componentId)) as AddonRow[]);
  for (const a of addons) {
    const json = JSON.stringify(a.configuration ?? {});
    const row = existing.find((r) => r.name === a.name);
    if (!row) await s.insert.run(componentId, a.name, json);
    else if (row.configuration !== json) await s.update.run(json, row.id);
  }
  for (const r of existing) if (!addons.some((a) => a.name === r.name)) await s.remove.run(r.id);
}
