// The checks table: failing quality checks per unit (dismissed ones kept apart), written wherever a unit changes.
import { type CheckContext, type CheckedUnit, oneNumberForms, sourceChecks, translationChecks } from '../checks/index.js';
import { State } from '../domain/unit.js';
import { compilePluralFormula } from '../languages/plural-formula.js';
import type { Db } from './db.js';
import { preparedOnce } from './statements.js';
import { refreshStats } from './stats.repo.js';

/** How the checks of one translation run: its context, whether it holds source strings, enforced checks. */
export interface TranslationChecking {
  ctx: CheckContext;
  isSource: boolean;
  enforced: ReadonlySet<string>;
}

const DAY_MS = 24 * 3600 * 1000;

const sql = preparedOnce((db: Db) => ({
  context: db.prepare(
    `SELECT t.is_source, t.component_id, l.code AS language, l.plural_number, l.plural_formula,
       coalesce(json_extract(c.settings, '$.file_format'), '') AS format,
       coalesce(json_extract(c.settings, '$.source_language'), 'en') AS source_language,
       coalesce(json_extract(c.settings, '$.check_flags'), '') AS component_flags,
       coalesce(json_extract(c.settings, '$.enforced_checks'), '[]') AS enforced,
       coalesce(json_extract(p.settings, '$.check_flags'), '') AS project_flags
     FROM translations t JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id WHERE t.id = ?`,
  ),
  existing: db.prepare('SELECT name, dismissed FROM checks WHERE unit_id = ?'),
  insert: db.prepare('INSERT OR IGNORE INTO checks (unit_id, name, dismissed) VALUES (?, ?, 0)'),
  remove: db.prepare('DELETE FROM checks WHERE unit_id = ? AND name = ?'),
  removeAll: db.prepare('DELETE FROM checks WHERE unit_id = ?'),
  unit: db.prepare('SELECT id, translation_id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE id = ?').safeIntegers(false),
  unitsOf: db.prepare('SELECT id FROM units WHERE translation_id = ?').pluck(),
  translationsOf: db.prepare('SELECT id FROM translations WHERE component_id = ? ORDER BY is_source').pluck(),
  dismiss: db.prepare('UPDATE checks SET dismissed = ? WHERE unit_id = ? AND name = ?'),
  all: db.prepare('SELECT name, dismissed FROM checks WHERE unit_id = ? ORDER BY name'),
  names: db.prepare('SELECT name FROM checks WHERE unit_id = ? AND dismissed = 0 ORDER BY name').pluck(),
  // the string's checks in the component's other translations (dismissed ones too, as Weblate counts them)
  related: db
    .prepare(
      `SELECT count(*) FROM translations t JOIN units o ON o.translation_id = t.id AND o.id_hash = ?
       JOIN checks k ON k.unit_id = o.id WHERE t.component_id = ? AND t.id <> ?`,
    )
    .pluck(),
  relatedAll: db
    .prepare(
      `SELECT o.id_hash, count(*) AS n FROM translations t JOIN units o ON o.translation_id = t.id JOIN checks k ON k.unit_id = o.id
       WHERE t.component_id = ? AND t.id <> ? GROUP BY o.id_hash`,
    )
    .safeIntegers(true),
  states: db.prepare(
    `SELECT count(*) AS total, count(*) FILTER (WHERE o.state >= ${State.TRANSLATED}) AS translated
     FROM translations t JOIN units o ON o.translation_id = t.id AND o.id_hash = ? WHERE t.component_id = ?`,
  ),
  componentTranslated: db.prepare(
    `SELECT coalesce(sum(s.translated), 0) AS translated, coalesce(sum(s.total), 0) AS total
     FROM translation_stats s JOIN translations t ON t.id = s.translation_id WHERE t.component_id = ?`,
  ),
  sourceUnits: db.prepare('SELECT id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE translation_id = ?').safeIntegers(true),
  sourceUnit: db
    .prepare('SELECT id, source, target, state, flags, extra_flags, id_hash, timestamp FROM units WHERE translation_id = ? AND id_hash = ?')
    .safeIntegers(true),
  sourceTranslation: db.prepare('SELECT id FROM translations WHERE component_id = ? AND is_source = 1').pluck(),
}));

const formsCache = new Map<string, boolean[]>();
function formsOf(count: number, formula: string): boolean[] {
  const key = `${count};${formula}`;
  let forms = formsCache.get(key);
  if (!forms) {
    try {
      forms = oneNumberForms(count, compilePluralFormula(formula));
    } catch {
      forms = Array.from({ length: count }, (_, i) => i === 0);
    }
    formsCache.set(key, forms);
  }
  return forms;
}

/** The checking context of a translation (undefined for an unknown one). */
export function translationChecking(db: Db, translationId: number): TranslationChecking | undefined {
  const r = sql(db).context.get(translationId) as
    | {
        is_source: number;
        language: string;
        plural_number: number;
        plural_formula: string;
        format: string;
        source_language: string;
        component_flags: string;
        enforced: string;
        project_flags: string;
      }
    | undefined;
  if (!r) return undefined;
  let enforced: string[] = [];
  try {
    enforced = JSON.parse(r.enforced) as string[];
  } catch {}
  return {
    isSource: r.is_source === 1,
    enforced: new Set(enforced),
    ctx: {
      format: r.format,
      sourceLanguage: r.source_language,
      language: r.language,
      oneNumberForms: formsOf(r.plural_number, r.plural_formula),
      flags: r.project_flags && r.component_flags ? `${r.project_flags},${r.component_flags}` : r.project_flags || r.component_flags,
    },
  };
}

/** Makes the unit's stored checks equal to `failing`: gone ones deleted, new ones added, dismissals kept. */
export function storeChecks(db: Db, unitId: number, failing: readonly string[], fresh = false): void {
  const s = sql(db);
  if (fresh) {
    for (const name of failing) s.insert.run(unitId, name);
    return;
  }
  if (failing.length === 0) {
    s.removeAll.run(unitId);
    return;
  }
  const existing = s.existing.all(unitId) as { name: string }[];
  for (const e of existing) if (!failing.includes(e.name)) s.remove.run(unitId, e.name);
  for (const name of failing) if (!existing.some((e) => e.name === name)) s.insert.run(unitId, name);
}

/** The failing translation (or source) checks of a unit as stored values describe it. */
export function computeChecks(checking: TranslationChecking, unit: CheckedUnit): string[] {
  return checking.isSource ? sourceChecks(checking.ctx, unit, { relatedChecks: 0, longUntranslated: false }) : translationChecks(checking.ctx, unit);
}

/**
 * Runs the checks of units by id and stores them (call inside a transaction). Returns, per unit, the failing
 * checks the component enforces (empty for most).
 */
export function recheckUnits(db: Db, unitIds: Iterable<number>): Map<number, string[]> {
  const s = sql(db);
  const contexts = new Map<number, TranslationChecking | undefined>();
  const enforced = new Map<number, string[]>();
  for (const id of unitIds) {
    const u = s.unit.get(id) as
      | {
          id: number;
          translation_id: number;
          source: string;
          target: string;
          state: number;
          flags: string;
          extra_flags: string;
          id_hash: number;
          timestamp: string;
        }
      | undefined;
    if (!u) continue;
    if (!contexts.has(u.translation_id)) contexts.set(u.translation_id, translationChecking(db, u.translation_id));
    const checking = contexts.get(u.translation_id);
    if (!checking) continue;
    const failing = computeChecks(checking, { ...u, extraFlags: u.extra_flags });
    storeChecks(db, u.id, failing);
    if (checking.enforced.size > 0)
      enforced.set(
        u.id,
        failing.filter((f) => checking.enforced.has(f)),
      );
  }
  return enforced;
}

/** Runs every unit's checks of a component again (its flags changed), then its source checks. */
export function recheckComponent(db: Db, componentId: number): void {
  const s = sql(db);
  const translations = s.translationsOf.all(componentId) as number[];
  for (const t of translations) recheckUnits(db, s.unitsOf.all(t) as number[]);
  refreshSourceChecks(db, componentId);
  refreshStats(db, translations);
}

/**
 * Recomputes the source checks of a component's source strings, including the ones that look across languages
 * (`multiple_failures`, `long_untranslated`); call after translation checks changed (inside a transaction).
 */
export function refreshSourceChecks(db: Db, componentId: number, only?: ReadonlySet<bigint>): number | undefined {
  const s = sql(db);
  const sourceId = s.sourceTranslation.get(componentId) as number | undefined;
  if (sourceId === undefined) return undefined;
  const checking = translationChecking(db, sourceId);
  if (!checking) return undefined;
  const stats = s.componentTranslated.get(componentId) as { translated: number; total: number };
  const componentPercent = stats.total === 0 ? 100 : (100 * stats.translated) / stats.total;
  const old = Date.now() - 90 * DAY_MS;
  type Row = { id: bigint; source: string; target: string; state: bigint; flags: string; extra_flags: string; id_hash: bigint; timestamp: string };
  const unitRows = only
    ? [...only].map((h) => s.sourceUnit.get(sourceId, h) as Row | undefined).filter((r): r is Row => r !== undefined)
    : (s.sourceUnits.all(sourceId) as Row[]);
  // a whole component at once: the related counts of every string in one pass over its checks
  let relatedAll: Map<bigint, number> | null = null;
  if (!only) {
    relatedAll = new Map();
    for (const r of s.relatedAll.all(componentId, sourceId) as { id_hash: bigint; n: bigint }[]) relatedAll.set(r.id_hash, Number(r.n));
  }
  for (const u of unitRows) {
    const unit = { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags };
    // the cross-language facts cost two queries: only when a check that needs them is on for this string
    const wanted = sourceChecks(checking.ctx, unit, { relatedChecks: 2, longUntranslated: true });
    if (!wanted.includes('multiple_failures') && !wanted.includes('long_untranslated')) {
      storeChecks(db, Number(u.id), sourceChecks(checking.ctx, unit, { relatedChecks: 0, longUntranslated: false }));
      continue;
    }
    const relatedChecks = relatedAll ? (relatedAll.get(u.id_hash) ?? 0) : Number(s.related.get(u.id_hash, componentId, sourceId));
    let longUntranslated = false;
    if (Date.parse(u.timestamp) < old) {
      const st = s.states.get(u.id_hash, componentId) as { total: number; translated: number };
      longUntranslated = st.total > 0 && 2 * ((100 * st.translated) / st.total) < componentPercent;
    }
    const failing = sourceChecks(
      checking.ctx,
      { source: u.source, target: u.target, state: Number(u.state), flags: u.flags, extraFlags: u.extra_flags },
      {
        relatedChecks,
        longUntranslated,
      },
    );
    storeChecks(db, Number(u.id), failing);
  }
  return sourceId;
}

/**
 * Dismisses (or restores) one failing check of a unit (call inside a transaction), refreshing the statistics;
 * false when the unit has no such check. A dismissal lasts while the check keeps failing.
 */
export function setCheckDismissed(db: Db, unitId: number, name: string, dismissed: boolean): boolean {
  const s = sql(db);
  if (s.dismiss.run(dismissed ? 1 : 0, unitId, name).changes === 0) return false;
  const u = s.unit.get(unitId) as { translation_id: number };
  refreshStats(db, [u.translation_id]);
  return true;
}

/** The failing checks of a unit, dismissed or not, by name. */
export function unitChecks(db: Db, unitId: number): { name: string; dismissed: boolean }[] {
  return (sql(db).all.all(unitId) as { name: string; dismissed: number }[]).map((r) => ({ name: r.name, dismissed: r.dismissed === 1 }));
}

/** The unit's active (not dismissed) failing checks. */
export function activeChecks(db: Db, unitId: number): string[] {
  return sql(db).names.all(unitId) as string[];
}
