// Component lists (Weblate's ComponentList): named sets of components, with the automatic assignment rules they keep.
import type { Db } from './db.js';
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

const sql = preparedOnce((db: Db) => ({
  all: db.prepare('SELECT id, name, slug, show_dashboard FROM component_lists ORDER BY id'),
  bySlug: db.prepare('SELECT id, name, slug, show_dashboard FROM component_lists WHERE slug = ?'),
  members: db.prepare('SELECT component_id FROM component_list_components WHERE list_id = ? ORDER BY component_id').pluck(),
  rules: db.prepare('SELECT project_match, component_match FROM component_list_rules WHERE list_id = ? ORDER BY id'),
  insert: db.prepare('INSERT INTO component_lists (name, slug, show_dashboard) VALUES (?, ?, ?)'),
  remove: db.prepare('DELETE FROM component_lists WHERE slug = ?'),
  add: db.prepare('INSERT OR IGNORE INTO component_list_components (list_id, component_id) VALUES (?, ?)'),
  drop: db.prepare('DELETE FROM component_list_components WHERE list_id = ? AND component_id = ?'),
  taken: db.prepare('SELECT 1 FROM component_lists WHERE slug = ? OR name = ?').pluck(),
}));

function withMembers(db: Db, r: Omit<ComponentListRow, 'components' | 'auto_assign'>): ComponentListRow {
  const s = sql(db);
  return { ...r, components: s.members.all(r.id) as number[], auto_assign: s.rules.all(r.id) as ComponentListRow['auto_assign'] };
}

/** Every component list, by id. */
export function componentLists(db: Db): ComponentListRow[] {
  return (sql(db).all.all() as Omit<ComponentListRow, 'components' | 'auto_assign'>[]).map((r) => withMembers(db, r));
}

export function findComponentList(db: Db, slug: string): ComponentListRow | undefined {
  const r = sql(db).bySlug.get(slug) as Omit<ComponentListRow, 'components' | 'auto_assign'> | undefined;
  return r && withMembers(db, r);
}

/** Creates a list; undefined when the name or slug is taken. */
export function createComponentList(db: Db, input: { name: string; slug: string; showDashboard: boolean }): ComponentListRow | undefined {
  const s = sql(db);
  if (s.taken.get(input.slug, input.name) !== undefined) return undefined;
  s.insert.run(input.name, input.slug, input.showDashboard ? 1 : 0);
  return findComponentList(db, input.slug);
}

export function deleteComponentList(db: Db, slug: string): boolean {
  return sql(db).remove.run(slug).changes > 0;
}

/** Adds (or removes) a component to a list; false when nothing changed. */
export function setComponentListMember(db: Db, listId: number, componentId: number, member: boolean): boolean {
  const s = sql(db);
  return (member ? s.add.run(listId, componentId) : s.drop.run(listId, componentId)).changes > 0;
}
