// Project labels (Weblate's): each project's named, coloured labels, and the source strings they are put on.
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

/** A label of a project. */
export interface Label {
  id: number;
  projectId: number;
  name: string;
  description: string;
  color: string;
}

/** Weblate's label colours (the names its form offers). */
export const LABEL_COLORS = [
  'navy',
  'blue',
  'aqua',
  'teal',
  'olive',
  'green',
  'lime',
  'yellow',
  'orange',
  'red',
  'maroon',
  'fuchsia',
  'purple',
  'black',
  'gray',
  'silver',
] as const;

const COLUMNS = 'l.id, l.project_id AS "projectId", l.name, l.description, l.color';

const sql = preparedOnce((tx: Tx) => ({
  ofProject: tx.prepare(`SELECT ${COLUMNS} FROM labels l WHERE l.project_id = ? ORDER BY l.name, l.id`),
  byId: tx.prepare(`SELECT ${COLUMNS} FROM labels l WHERE l.id = ?`),
  taken: tx.prepare('SELECT 1 FROM labels WHERE project_id = ? AND name = ?').pluck(),
  insert: tx.prepare(tx.dialect.returningId('INSERT INTO labels (project_id, name, description, color) VALUES (?, ?, ?, ?)')),
  remove: tx.prepare('DELETE FROM labels WHERE id = ?'),
  ofUnits: tx.prepare(
    `SELECT ul.unit_id, ${COLUMNS} FROM unit_labels ul JOIN labels l ON l.id = ul.label_id
     WHERE ul.unit_id IN (${tx.dialect.idsOfJson}) ORDER BY l.name, l.id`,
  ),
  add: tx.prepare('INSERT INTO unit_labels (unit_id, label_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
  drop: tx.prepare('DELETE FROM unit_labels WHERE unit_id = ? AND label_id = ?'),
  strings: tx.prepare('SELECT count(*) FROM unit_labels WHERE label_id = ?').pluck(),
}));

/** The labels of a project, by name. */
export async function projectLabels(tx: Tx, projectId: number): Promise<Label[]> {
  return (await sql(tx).ofProject.all(projectId)) as Label[];
}

export async function findLabel(tx: Tx, id: number): Promise<Label | undefined> {
  return (await sql(tx).byId.get(id)) as Label | undefined;
}

/**
 * Creates a label of a project; undefined when the project has one of that name.
 * @example await createLabel(tx, { projectId: 1, name: 'UI', description: '', color: 'navy' })
 */
export async function createLabel(tx: Tx, input: { projectId: number; name: string; description: string; color: string }): Promise<Label | undefined> {
  const s = sql(tx);
  if ((await s.taken.get(input.projectId, input.name)) !== undefined) return undefined;
  const { lastInsertRowid } = await s.insert.run(input.projectId, input.name, input.description, input.color);
  return await findLabel(tx, Number(lastInsertRowid));
}

/** Deletes a label (and takes it off every string); false when there was none. */
export async function deleteLabel(tx: Tx, id: number): Promise<boolean> {
  return (await sql(tx).remove.run(id)).changes > 0;
}

/** How many source strings carry a label. */
export async function labelledStrings(tx: Tx, labelId: number): Promise<number> {
  return Number(await sql(tx).strings.get(labelId));
}

/** The labels of source units, by unit id (units without labels are absent); one indexed read for any number. */
export async function labelsOfUnits(tx: Tx, unitIds: readonly number[]): Promise<Map<number, Label[]>> {
  const out = new Map<number, Label[]>();
  if (unitIds.length === 0) return out;
  const rows = (await sql(tx).ofUnits.all(JSON.stringify([...new Set(unitIds)]))) as (Label & { unit_id: number })[];
  for (const { unit_id, ...label } of rows) {
    const list = out.get(Number(unit_id));
    if (list) list.push(label);
    else out.set(Number(unit_id), [label]);
  }
  return out;
}

/**
 * Puts labels on source units and takes others off; answers the pairs that changed (the caller records them).
 * @example await editUnitLabels(tx, [42], [3], []) // [{ unitId: 42, labelId: 3, added: true }]
 */
export async function editUnitLabels(
  tx: Tx,
  unitIds: readonly number[],
  add: readonly number[],
  remove: readonly number[],
): Promise<{ unitId: number; labelId: number; added: boolean }[]> {
  const s = sql(tx);
  const changed: { unitId: number; labelId: number; added: boolean }[] = [];
  for (const unitId of unitIds) {
    for (const labelId of add) if ((await s.add.run(unitId, labelId)).changes > 0) changed.push({ unitId, labelId, added: true });
    for (const labelId of remove) if ((await s.drop.run(unitId, labelId)).changes > 0) changed.push({ unitId, labelId, added: false });
  }
  return changed;
}
