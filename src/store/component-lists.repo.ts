// Component lists (Weblate's ComponentList): named sets of components, with the automatic assignment rules they keep.
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

export interface ComponentListRow {
  id: number;
  name: string;
  slug: string;
  show_dashboard: number;
  /** Component ids, by id. */
  components: number[];
  auto_assign: { project_match: string; component_match: string }[];
}

const sql = preparedOnce((tx: Tx) => ({
  all: tx.prepare('SELECT id, name, slug, show_dashboard FROM component_lists ORDER BY id'),
  bySlug: tx.prepare('SELECT id, name, slug, show_dashboard FROM component_lists WHERE slug = ?'),
  members: tx.prepare('SELECT component_id FROM component_list_components WHERE list_id = ? ORDER BY component_id').pluck(),
  rules: tx.prepare('SELECT project_match, component_match FROM component_list_rules WHERE list_id = ? ORDER BY id'),
  insert: tx.prepare('INSERT INTO component_lists (name, slug, show_dashboard) VALUES (?, ?, ?)'),
  remove: tx.prepare('DELETE FROM component_lists WHERE slug = ?'),
  add: tx.prepare('INSERT OR IGNORE INTO component_list_components (list_id, component_id) VALUES (?, ?)'),
  drop: tx.prepare('DELETE FROM component_list_components WHERE list_id = ? AND component_id = ?'),
  taken: tx.prepare('SELECT 1 FROM component_lists WHERE slug = ? OR name = ?').pluck(),
}));

async function withMembers(tx: Tx, r: Omit<ComponentListRow, 'components' | 'auto_assign'>): Promise<ComponentListRow> {
  const s = sql(tx);
  return { ...r, components: (await s.members.all(r.id)) as number[], auto_assign: (await s.rules.all(r.id)) as ComponentListRow['auto_assign'] };
}

/** Every component list, by id. */
export async function componentLists(tx: Tx): Promise<ComponentListRow[]> {
  const out: ComponentListRow[] = [];
  for (const r of (await sql(tx).all.all()) as Omit<ComponentListRow, 'components' | 'auto_assign'>[]) out.push(await withMembers(tx, r));
  return out;
}

export async function findComponentList(tx: Tx, slug: string): Promise<ComponentListRow | undefined> {
  const r = (await sql(tx).bySlug.get(slug)) as Omit<ComponentListRow, 'components' | 'auto_assign'> | undefined;
  return r && (await withMembers(tx, r));
}

/** Creates a list; undefined when the name or slug is taken. */
export async function createComponentList(tx: Tx, input: { name: string; slug: string; showDashboard: boolean }): Promise<ComponentListRow | undefined> {
  const s = sql(tx);
  if ((await s.taken.get(input.slug, input.name)) !== undefined) return undefined;
  await s.insert.run(input.name, input.slug, input.showDashboard ? 1 : 0);
  return await findComponentList(tx, input.slug);
}

export async function deleteComponentList(tx: Tx, slug: string): Promise<boolean> {
  return (await sql(tx).remove.run(slug)).changes > 0;
}

/** Adds (or removes) a component to a list; false when nothing changed. */
export async function setComponentListMember(tx: Tx, listId: number, componentId: number, member: boolean): Promise<boolean> {
  const s = sql(tx);
  return (await (member ? s.add.run(listId, componentId) : s.drop.run(listId, componentId))).changes > 0;
}
