// The store's SQL, written for SQLite, as PostgreSQL reads it: placeholders, and the few idioms the two spell apart.

/** A statement ready for PostgreSQL: `$n` placeholders, and how the caller's parameters fill them. */
export interface TranslatedSql {
  text: string;
  /** Positional statements: how many `?` there were. */
  positional: number;
  /** Named statements (`@name`): the name of each `$n`, in order. */
  names: readonly string[];
  /** An INSERT, UPDATE or DELETE (its row count is rows changed). */
  writes: boolean;
}

/** Tables whose rows have an `id` the insert returns (SQLite's lastInsertRowid). */
const ID_TABLES = new Set([
  'languages',
  'projects',
  'components',
  'translations',
  'units',
  'users',
  'roles',
  'groups',
  'changes',
  'addons',
  'alerts',
  'pending_removals',
  'sessions',
  'hook_deliveries',
  'suggestions',
  'comments',
  'memory_sources',
  'memory',
  'component_lists',
  'component_list_rules',
]);

/** The idioms SQLite and PostgreSQL spell differently, rewritten before the placeholders are numbered. */
function rewriteIdioms(sql: string): string {
  let text = sql;
  let ignore = false;
  text = text.replace(/\bINSERT OR IGNORE INTO\b/g, () => {
    ignore = true;
    return 'INSERT INTO';
  });
  // null-safe comparisons (SQLite's IS and IS NOT between two values)
  text = text.replace(/\bIS NOT (?!NULL\b|DISTINCT\b|TRUE\b|FALSE\b)/g, 'IS DISTINCT FROM ');
  text = text.replace(/\bIS (?!NOT\b|NULL\b|DISTINCT\b|TRUE\b|FALSE\b)/g, 'IS NOT DISTINCT FROM ');
  // PostgreSQL folds unquoted names to lower case: camelCase column aliases keep their case quoted
  text = text.replace(/\bAS ([a-z]+[A-Z]\w*)/g, 'AS "$1"');
  // SQLite's CROSS JOIN … ON fixes the join order (a planner hint); PostgreSQL's CROSS JOIN takes no ON
  text = text.replace(/\bCROSS JOIN (\w+(?: \w+)?) ON\b/g, 'JOIN $1 ON');
  // SQLite's LIKE ignores the case of ASCII letters
  text = text.replace(/\bLIKE\b/g, 'ILIKE');
  // a JSON array of ids as a parameter
  text = text.replace(/SELECT value FROM json_each\(\?\)/g, 'SELECT v::bigint FROM jsonb_array_elements_text(?::jsonb) AS v');
  const insert = /^\s*INSERT INTO\s+(\w+)/i.exec(text);
  if (insert) {
    const returning = /\bRETURNING\b/i.exec(text);
    const head = returning ? text.slice(0, returning.index) : text.replace(/;\s*$/, '');
    const tail = returning ? text.slice(returning.index) : '';
    const conflict = ignore ? ' ON CONFLICT DO NOTHING ' : ' ';
    const returns = !returning && ID_TABLES.has(insert[1]!.toLowerCase()) ? 'RETURNING id' : '';
    text = `${head.trimEnd()}${conflict}${tail || returns}`.trimEnd();
  }
  return text;
}

/**
 * Rewrites one statement of the store's SQL for PostgreSQL: `?` and `@name` become `$n` (outside quotes and
 * comments), `INSERT OR IGNORE` an `ON CONFLICT DO NOTHING`, `IS ?` `IS NOT DISTINCT FROM`, `LIKE` `ILIKE`, inserts
 * into tables with ids return the id.
 * @example translateSql('SELECT * FROM units WHERE id = ?').text // 'SELECT * FROM units WHERE id = $1'
 */
export function translateSql(sql: string): TranslatedSql {
  const source = rewriteIdioms(sql);
  let out = '';
  let positional = 0;
  const names: string[] = [];
  const byName = new Map<string, number>();
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(source, i, c);
      out += source.slice(i, end + 1);
      i = end;
    } else if (c === '-' && source[i + 1] === '-') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += source.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      positional++;
      out += `$${positional}`;
    } else if (c === '@' && /[A-Za-z_]/.test(source[i + 1] ?? '')) {
      let j = i + 1;
      while (j < source.length && /\w/.test(source[j]!)) j++;
      const name = source.slice(i + 1, j);
      let n = byName.get(name);
      if (n === undefined) {
        names.push(name);
        n = names.length;
        byName.set(name, n);
      }
      out += `$${n}`;
      i = j - 1;
    } else {
      out += c;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${sql}`);
  return { text: out, positional, names, writes: /^\s*(INSERT|UPDATE|DELETE)\b/i.test(out) };
}

function closingQuote(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i++;
      else return i;
    }
  }
  return text.length - 1;
}
