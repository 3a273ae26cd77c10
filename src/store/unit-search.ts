// Unit search filters (the parsed `?q=` language) and their translation into SQL over `units u`.

import type Database from 'better-sqlite3';
import { type UserRegex, compileUserRegex } from '../domain/regex.js';

/** Text fields of a unit that `field:value` searches. */
export type UnitTextField = 'source' | 'target' | 'context' | 'note' | 'location' | 'explanation' | 'flags';
/** Texts of what belongs to a unit: its suggestions, comments (unresolved or resolved) and their authors. */
export type UnitRelatedField = 'suggestion' | 'suggestion_author' | 'comment' | 'comment_author' | 'resolved_comment';
/** Numeric fields that take comparison operators and ranges. */
export type UnitNumberField = 'state' | 'priority' | 'id' | 'position';
export type Comparison = '=' | '<' | '<=' | '>' | '>=';
/** Objects a unit belongs to: language code, component slug, project slug. */
export type UnitScopeField = 'language' | 'component' | 'project';
/** Yes/no properties for `has:` and `is:`. */
export type UnitProperty =
  | 'plural'
  | 'context'
  | 'note'
  | 'flags'
  | 'explanation'
  | 'location'
  | 'translation'
  | 'pending'
  | 'check'
  | 'dismissed-check'
  | 'suggestion'
  | 'comment'
  /** A screenshot shows the string (linked to the unit or to its source unit). */
  | 'screenshot'
  /** Its text is automatic translation's (Weblate's "Automatically translated" label). */
  | 'automatically-translated'
  // tms keeps no variants: never true.
  | 'never';

/** A parsed unit search. */
export type UnitFilter =
  | { kind: 'and'; items: UnitFilter[] }
  | { kind: 'or'; items: UnitFilter[] }
  | { kind: 'not'; item: UnitFilter }
  | { kind: 'text'; fields: UnitTextField[]; match: 'contains' | 'exact' | 'regex'; value: string }
  | { kind: 'related'; field: UnitRelatedField; match: 'contains' | 'exact' | 'regex'; value: string }
  | { kind: 'number'; field: UnitNumberField; op: Comparison; value: number }
  | { kind: 'range'; field: UnitNumberField; from: number; to: number }
  | { kind: 'scope'; field: UnitScopeField; value: string }
  | { kind: 'property'; property: UnitProperty }
  /** A failing check by Weblate id: active (`check:`) or dismissed (`dismissed_check:`). */
  | { kind: 'check'; name: string; dismissed: boolean }
  /** The unit has a change of this action (`change_action:`), or one whose author has this username (`changed_by:`). */
  | { kind: 'change'; action: number }
  | { kind: 'change'; author: string }
  /** Its source string carries a label of this name (case aside), or any label (`has:label`, name null). */
  | { kind: 'label'; name: string | null };

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const COLUMNS: Record<UnitTextField | UnitNumberField, string> = {
  source: 'u.source',
  target: 'u.target',
  context: 'u.context',
  note: 'u.note',
  location: 'u.location',
  explanation: 'u.explanation',
  flags: 'u.flags',
  state: 'u.state',
  priority: 'u.priority',
  id: 'u.id',
  position: 'u.position',
};

// the comments shown on a unit: its own and its source string's
const COMMENT_OF_UNIT =
  '(m.unit_id = u.id OR (m.source = 1 AND m.id_hash = u.id_hash AND m.component_id = (SELECT component_id FROM translations WHERE id = u.translation_id)))';

// each related field: the rows it looks in, and the column matched
const RELATED: Record<UnitRelatedField, { from: string; column: string }> = {
  suggestion: { from: 'suggestions g WHERE g.unit_id = u.id', column: 'g.target' },
  suggestion_author: { from: 'suggestions g JOIN users us ON us.id = g.user_id WHERE g.unit_id = u.id', column: 'us.username' },
  comment: { from: `comments m WHERE m.resolved = 0 AND ${COMMENT_OF_UNIT}`, column: 'm.comment' },
  resolved_comment: { from: `comments m WHERE m.resolved = 1 AND ${COMMENT_OF_UNIT}`, column: 'm.comment' },
  comment_author: { from: `comments m JOIN users us ON us.id = m.user_id WHERE ${COMMENT_OF_UNIT}`, column: 'us.username' },
};

const PROPERTIES: Record<UnitProperty, string> = {
  // plural forms are joined by two record separators (U+001E)
  plural: "instr(u.source, '\u001e\u001e') > 0",
  context: "u.context <> ''",
  note: "u.note <> ''",
  flags: "(u.flags <> '' OR u.extra_flags <> '')",
  explanation: "u.explanation <> ''",
  location: "u.location <> ''",
  translation: 'u.state >= 20',
  pending: 'u.pending = 1',
  check: 'EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.dismissed = 0)',
  'dismissed-check': 'EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.dismissed = 1)',
  suggestion: 'EXISTS (SELECT 1 FROM suggestions g WHERE g.unit_id = u.id)',
  comment: `EXISTS (SELECT 1 FROM comments m WHERE m.resolved = 0 AND ${COMMENT_OF_UNIT})`,
  screenshot: `(EXISTS (SELECT 1 FROM screenshot_units su WHERE su.unit_id = u.id) OR EXISTS (SELECT 1 FROM translations ut
    JOIN translations st ON st.component_id = ut.component_id AND st.is_source = 1
    JOIN units s ON s.translation_id = st.id AND s.id_hash = u.id_hash
    JOIN screenshot_units su ON su.unit_id = s.id WHERE ut.id = u.translation_id))`,
  'automatically-translated': 'u.automatically_translated = 1',
  never: '1 = 0',
};

const SCOPES: Record<UnitScopeField, string> = {
  language: 'u.translation_id IN (SELECT t.id FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.code = ?)',
  component: 'u.translation_id IN (SELECT t.id FROM translations t JOIN components c ON c.id = t.component_id WHERE c.slug = ?)',
  project:
    'u.translation_id IN (SELECT t.id FROM translations t JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id WHERE p.slug = ?)',
};

// the labels of a unit's source string: from the unit's translation to its component's source translation by id_hash
const LABELS_OF_UNIT = `translations t
  JOIN translations st ON st.component_id = t.component_id AND st.is_source = 1
  JOIN units s ON s.translation_id = st.id AND s.id_hash = u.id_hash
  JOIN unit_labels ul ON ul.unit_id = s.id
  WHERE t.id = u.translation_id`;

/** The SQL functions the compiled filters and the search's index call, on a SQLite connection (PostgreSQL's are in its schema). */
export function registerSearchFunctions(sqlite: Database.Database): void {
  // the text the search's index holds (the triggers of units_fts): lowercased as tms_icontains compares it
  sqlite.function('tms_lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  sqlite.function('tms_icontains', { deterministic: true }, (haystack: unknown, needle: unknown) =>
    typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
  );
  const cache = new Map<string, UserRegex>();
  sqlite.function('tms_regexp', { deterministic: true }, (pattern: unknown, value: unknown) => {
    if (typeof pattern !== 'string' || typeof value !== 'string') return 0;
    let re = cache.get(pattern);
    if (!re) {
      re = compileUserRegex(pattern);
      if (cache.size > 100) cache.clear();
      cache.set(pattern, re);
    }
    return re.test(value) ? 1 : 0;
  });
}

/**
 * Conditions joined by AND or OR as a balanced tree, in their order: a flat `a AND b AND …` nests one level per term,
 * and SQLite refuses an expression nested deeper than 1,000 levels (a query of 1,500 words would be a database error).
 */
function joinBalanced(parts: string[], op: 'AND' | 'OR'): string {
  if (parts.length === 1) return parts[0]!;
  const half = parts.length >> 1;
  return `(${joinBalanced(parts.slice(0, half), op)}) ${op} (${joinBalanced(parts.slice(half), op)})`;
}

/**
 * The units a search keeps: a condition on `u.translation_id` (the visible translations), and whether a page reads
 * them in id order (`byId`: the caller sees most translations, and the condition keeps out of the plan's estimate).
 */
export interface SearchScope extends SqlFragment {
  byId: boolean;
}

/** What a compiled filter takes from the engine (its `Dialect`): the units a text search finds, from the search's index. */
export interface SearchIndex {
  textContains?(fields: readonly string[], needle: string, within?: SearchScope | null, complete?: boolean): SqlFragment | null;
}

/**
 * The ids of the units a filter selects when it is one substring search the index answers (a query of column `id`),
 * else null; `within` (a condition on `u.translation_id`) keeps only those units, where the index knows their translations.
 */
export function indexedUnitIds(filter: UnitFilter, index: SearchIndex, within: SearchScope | null = null, complete = false): SqlFragment | null {
  if (filter.kind !== 'text' || filter.match !== 'contains') return null;
  return index.textContains?.(filter.fields, filter.value.toLowerCase(), within, complete) ?? null;
}

/**
 * A filter as an SQL condition over the alias `u` (units), with its parameters in order.
 * Text matches are case-insensitive substring searches unless exact or regex. Where `index` answers a substring search
 * (the same units as the match on every row), the condition reads them from it instead of testing every row.
 * @example compileUnitFilter({ kind: 'number', field: 'state', op: '>=', value: 20 }) // { sql: 'u.state >= ?', params: [20] }
 */
export function compileUnitFilter(filter: UnitFilter, index: SearchIndex = {}): SqlFragment {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      if (filter.items.length === 0) return { sql: filter.kind === 'and' ? '1 = 1' : '1 = 0', params: [] };
      const parts = filter.items.map((item) => compileUnitFilter(item, index));
      return {
        sql: `(${joinBalanced(
          parts.map((p) => p.sql),
          filter.kind === 'and' ? 'AND' : 'OR',
        )})`,
        params: parts.flatMap((p) => p.params),
      };
    }
    case 'not': {
      const inner = compileUnitFilter(filter.item, index);
      return { sql: `NOT ${inner.sql}`, params: inner.params };
    }
    case 'text': {
      const indexed = indexedUnitIds(filter, index);
      if (indexed) return { sql: `u.id IN (${indexed.sql})`, params: indexed.params };
      const parts = filter.fields.map((field) => {
        const column = COLUMNS[field];
        if (filter.match === 'exact') return `${column} = ?`;
        if (filter.match === 'regex') return `tms_regexp(?, ${column})`;
        return `tms_icontains(${column}, ?)`;
      });
      const value = filter.match === 'contains' ? filter.value.toLowerCase() : filter.value;
      return { sql: `(${parts.join(' OR ')})`, params: filter.fields.map(() => value) };
    }
    case 'related': {
      const r = RELATED[filter.field];
      const test = filter.match === 'exact' ? `${r.column} = ?` : filter.match === 'regex' ? `tms_regexp(?, ${r.column})` : `tms_icontains(${r.column}, ?)`;
      return { sql: `EXISTS (SELECT 1 FROM ${r.from} AND ${test})`, params: [filter.match === 'contains' ? filter.value.toLowerCase() : filter.value] };
    }
    case 'number':
      return { sql: `${COLUMNS[filter.field]} ${filter.op} ?`, params: [filter.value] };
    case 'range':
      return { sql: `${COLUMNS[filter.field]} BETWEEN ? AND ?`, params: [filter.from, filter.to] };
    case 'scope':
      return { sql: SCOPES[filter.field], params: [filter.value] };
    case 'property':
      return { sql: PROPERTIES[filter.property], params: [] };
    case 'check':
      return {
        sql: 'EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = u.id AND k.name = ? AND k.dismissed = ?)',
        params: [filter.name, filter.dismissed ? 1 : 0],
      };
    case 'change':
      return 'action' in filter
        ? { sql: 'EXISTS (SELECT 1 FROM changes ch WHERE ch.unit_id = u.id AND ch.action = ?)', params: [filter.action] }
        : {
            sql: 'EXISTS (SELECT 1 FROM changes ch JOIN users us ON us.id = ch.author_id WHERE ch.unit_id = u.id AND us.username = ?)',
            params: [filter.author],
          };
    case 'label':
      return filter.name === null
        ? { sql: `EXISTS (SELECT 1 FROM ${LABELS_OF_UNIT})`, params: [] }
        : {
            sql: `EXISTS (SELECT 1 FROM ${LABELS_OF_UNIT} AND ul.label_id IN (SELECT lb.id FROM labels lb WHERE lower(lb.name) = ?))`,
            params: [filter.name.toLowerCase()],
          };
  }
}
