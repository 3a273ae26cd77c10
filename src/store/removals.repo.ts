// Strings deleted in tms whose removal from the file waits for the next commit (the pending_removals table).
import type { Tx } from './db.js';
import type { PendingUnit } from './edits.repo.js';
import { preparedOnce } from './statements.js';

/** A pending removal, shaped as a pending unit so the commit writes both alike. */
export interface PendingRemoval extends PendingUnit {
  /** Always 1: tells a removal from a pending edit. `id` is the removal's own id. */
  removal: 1;
}

const COLUMNS = `r.id, r.translation_id, CAST(r.id_hash AS TEXT) AS id_hash, r.context, r.source, '' AS target, 0 AS state,
  r.author_id AS pending_author_id, r.timestamp, t.filename, t.language_code, t.language_id, l.name AS language_name, l.plural_number,
  t.revision, t.is_template, 1 AS removal`;

const sql = preparedOnce((tx: Tx) => ({
  add: tx.prepare(
    `INSERT INTO pending_removals (translation_id, id_hash, context, source, author_id, timestamp) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (translation_id, id_hash) DO UPDATE SET context = excluded.context, source = excluded.source,
       author_id = excluded.author_id, timestamp = excluded.timestamp`,
  ),
  drop: tx.prepare('DELETE FROM pending_removals WHERE translation_id = ? AND id_hash = ?'),
  dropById: tx.prepare('DELETE FROM pending_removals WHERE id = ?'),
  ofComponent: tx.prepare(
    `SELECT ${COLUMNS} FROM pending_removals r JOIN translations t ON t.id = r.translation_id
     JOIN languages l ON l.id = t.language_id WHERE t.component_id = ? ORDER BY t.id, r.id`,
  ),
  any: tx.prepare('SELECT EXISTS (SELECT 1 FROM pending_removals r JOIN translations t ON t.id = r.translation_id WHERE t.component_id = ?)').pluck(),
}));

/** Stores (or refreshes) the removal of a string from a translation's file. */
export async function addPendingRemoval(
  tx: Tx,
  r: { translation_id: number; id_hash: bigint; context: string; source: string; author_id: number | null; timestamp: string },
): Promise<void> {
  await sql(tx).add.run(r.translation_id, r.id_hash, r.context, r.source, r.author_id, r.timestamp);
}

/** Forgets the removal of a string (it was added again). */
export async function deletePendingRemoval(tx: Tx, translationId: number, idHash: bigint): Promise<void> {
  await sql(tx).drop.run(translationId, idHash);
}

/** Forgets a removal by its id (its commit wrote it). */
export async function deletePendingRemovalById(tx: Tx, id: number): Promise<void> {
  await sql(tx).dropById.run(id);
}

/** Every pending removal of a component, by translation. */
export async function pendingRemovals(tx: Tx, componentId: number): Promise<PendingRemoval[]> {
  const rows = (await sql(tx).ofComponent.all(componentId)) as (Omit<PendingRemoval, 'id_hash'> & { id_hash: string })[];
  return rows.map((r) => ({ ...r, id_hash: BigInt(r.id_hash) }));
}

/** Whether the component has removals not yet committed. */
export async function hasPendingRemovals(tx: Tx, componentId: number): Promise<boolean> {
  return (await sql(tx).any.get(componentId)) === 1;
}
