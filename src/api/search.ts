// The unit search language of `?q=` (Weblate's): words, phrases, field:value terms, operators, AND/OR/NOT, parentheses.
import { findCheck } from '../checks/index.js';
import { actionByName } from '../domain/actions.js';
import { TmsError } from '../domain/errors.js';
import { compileUserRegex } from '../domain/regex.js';
import { State } from '../domain/unit.js';
import type { Comparison, UnitFilter, UnitNumberField, UnitProperty, UnitRelatedField, UnitScopeField, UnitTextField } from '../store/index.js';

/** A query that cannot be parsed; the message says why and where (`depth`: nested deeper than MAX_QUERY_DEPTH). */
export class SearchSyntaxError extends TmsError<{ query: string; depth?: number }> {}

/** How deep parentheses and NOTs may nest in a query (each level is a level of the parser's and the database's stacks). */
export const MAX_QUERY_DEPTH = 100;

const TEXT_FIELDS: Record<string, UnitTextField[]> = {
  source: ['source'],
  target: ['target'],
  context: ['context'],
  key: ['context'],
  note: ['note'],
  location: ['location'],
  explanation: ['explanation'],
  flags: ['flags'],
};
const RELATED_FIELDS: Record<string, UnitRelatedField> = {
  suggestion: 'suggestion',
  suggestion_author: 'suggestion_author',
  comment: 'comment',
  comment_author: 'comment_author',
  resolved_comment: 'resolved_comment',
};
const NUMBER_FIELDS: Record<string, UnitNumberField> = { priority: 'priority', id: 'id', position: 'position' };
const SCOPE_FIELDS: Record<string, UnitScopeField> = { language: 'language', component: 'component', project: 'project' };
const FREE_TEXT: UnitTextField[] = ['source', 'target', 'context'];

/** State names of the search language (Weblate's STATE_NAMES). */
export const STATE_NAMES: Readonly<Record<string, number>> = {
  empty: State.EMPTY,
  untranslated: State.EMPTY,
  'needs-editing': State.FUZZY,
  fuzzy: State.FUZZY,
  translated: State.TRANSLATED,
  approved: State.APPROVED,
  readonly: State.READONLY,
  'read-only': State.READONLY,
};

const IS_VALUES: Readonly<Record<string, UnitFilter>> = {
  translated: { kind: 'number', field: 'state', op: '>=', value: State.TRANSLATED },
  untranslated: { kind: 'number', field: 'state', op: '<', value: State.TRANSLATED },
  approved: { kind: 'number', field: 'state', op: '=', value: State.APPROVED },
  fuzzy: { kind: 'number', field: 'state', op: '=', value: State.FUZZY },
  'needs-editing': { kind: 'number', field: 'state', op: '=', value: State.FUZZY },
  'read-only': { kind: 'number', field: 'state', op: '=', value: State.READONLY },
  readonly: { kind: 'number', field: 'state', op: '=', value: State.READONLY },
  pending: { kind: 'property', property: 'pending' },
};

const HAS_VALUES: Readonly<Record<string, UnitProperty>> = {
  plural: 'plural',
  context: 'context',
  note: 'note',
  flags: 'flags',
  explanation: 'explanation',
  location: 'location',
  translation: 'translation',
  check: 'check',
  'dismissed-check': 'dismissed-check',
  suggestion: 'suggestion',
  comment: 'comment',
  screenshot: 'screenshot',
  // Kept by Weblate, not by tms: nothing has them.
  variant: 'never',
  glossary: 'never',
  // the one label tms sets: Weblate's "Automatically translated" on a unit automatic translation filled
  label: 'automatically-translated',
};

/** Weblate's label of units automatic translation filled (a unit column in tms, `label:` finds it by this name). */
export const AUTOMATIC_LABEL = 'Automatically translated';

const FIELD_NAMES = new Set([
  ...Object.keys(TEXT_FIELDS),
  ...Object.keys(RELATED_FIELDS),
  ...Object.keys(NUMBER_FIELDS),
  ...Object.keys(SCOPE_FIELDS),
  'state',
  'is',
  'has',
  'check',
  'dismissed_check',
  'change_action',
  'changed_by',
  'label',
]);

type Token =
  | { type: 'open' | 'close' | 'and' | 'or' | 'not'; at: number }
  | { type: 'text'; value: string; at: number }
  | { type: 'field'; name: string; op: Comparison | ''; value: string; quoted: boolean; regex: boolean; range: [string, string] | null; at: number };

const OPERATORS: readonly Comparison[] = ['>=', '<=', '>', '<', '='];

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

class Lexer {
  private i = 0;
  constructor(private readonly s: string) {}

  fail(message: string, at = this.i, data: { depth?: number } = {}): never {
    throw new SearchSyntaxError(`${message} at position ${at + 1}`, { query: this.s, ...data });
  }

  private quoted(): string {
    const quote = this.s[this.i];
    const start = this.i;
    this.i++;
    let value = '';
    while (this.i < this.s.length && this.s[this.i] !== quote) {
      if (this.s[this.i] === '\\' && this.i + 1 < this.s.length) this.i++;
      value += this.s[this.i++];
    }
    if (this.i >= this.s.length) this.fail('unterminated quote', start);
    this.i++;
    return value;
  }

  private bare(): string {
    const start = this.i;
    while (this.i < this.s.length && !isSpace(this.s[this.i]!) && this.s[this.i] !== '(' && this.s[this.i] !== ')') this.i++;
    return this.s.slice(start, this.i);
  }

  tokens(): Token[] {
    const out: Token[] = [];
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      const at = this.i;
      if (isSpace(c!)) {
        this.i++;
      } else if (c === '(' || c === ')') {
        out.push({ type: c === '(' ? 'open' : 'close', at });
        this.i++;
      } else if (c === '"' || c === "'") {
        out.push({ type: 'text', value: this.quoted(), at });
      } else {
        const field = /^([a-z_]+):/.exec(s.slice(this.i, this.i + 40));
        if (field && FIELD_NAMES.has(field[1]!)) {
          this.i += field[0].length;
          out.push(this.fieldValue(field[1]!, at));
          continue;
        }
        const word = this.bare();
        const upper = word.toUpperCase();
        if (upper === 'AND' || word === '&') out.push({ type: 'and', at });
        else if (upper === 'OR' || word === '|') out.push({ type: 'or', at });
        else if (upper === 'NOT' || word === '!') out.push({ type: 'not', at });
        else out.push({ type: 'text', value: word, at });
      }
    }
    return out;
  }

  private fieldValue(name: string, at: number): Token {
    const s = this.s;
    let op: Comparison | '' = '';
    for (const candidate of OPERATORS) {
      if (s.startsWith(candidate, this.i)) {
        op = candidate;
        this.i += candidate.length;
        break;
      }
    }
    const c = s[this.i];
    if (c === 'r' && (s[this.i + 1] === '"' || s[this.i + 1] === "'")) {
      this.i++;
      return { type: 'field', name, op, value: this.quoted(), quoted: true, regex: true, range: null, at };
    }
    if (c === '"' || c === "'") return { type: 'field', name, op, value: this.quoted(), quoted: true, regex: false, range: null, at };
    if (c === '[') {
      const end = s.indexOf(']', this.i);
      if (end < 0) this.fail('unterminated range', this.i);
      const body = s.slice(this.i + 1, end);
      this.i = end + 1;
      const parts = /^\s*(\S+)\s+to\s+(\S+)\s*$/i.exec(body);
      if (!parts) this.fail('a range is written [from to to]', at);
      return { type: 'field', name, op, value: body, quoted: false, regex: false, range: [parts[1]!, parts[2]!], at };
    }
    const value = this.bare();
    if (value === '') this.fail(`missing value for "${name}:"`, at);
    return { type: 'field', name, op, value, quoted: false, regex: false, range: null, at };
  }
}

function integer(value: string, field: string, lexer: Lexer, at: number): number {
  if (!/^-?\d+$/.test(value)) lexer.fail(`"${field}" needs a number, not "${value}"`, at);
  return Number.parseInt(value, 10);
}

/** How a text term matches (`r"…"` compiled by RE2 first, so a bad pattern is the query's error): regex, exact or contains. */
function textMatch(token: Extract<Token, { type: 'field' }>, lexer: Lexer): { match: 'regex' | 'exact' | 'contains'; value: string } {
  const { name, op, value, at } = token;
  if (token.range) lexer.fail(`"${name}" does not take a range`, at);
  if (token.regex) {
    try {
      compileUserRegex(value);
    } catch (e) {
      lexer.fail(`invalid regular expression: ${(e as Error).message}`, at);
    }
    return { match: 'regex', value };
  }
  if (op !== '' && op !== '=') lexer.fail(`"${name}" does not take "${op}"`, at);
  return { match: op === '=' ? 'exact' : 'contains', value };
}

function termFilter(token: Extract<Token, { type: 'field' }>, lexer: Lexer): UnitFilter {
  const { name, op, value, at } = token;
  const textFields = TEXT_FIELDS[name];
  if (textFields) return { kind: 'text', fields: textFields, ...textMatch(token, lexer) };
  const related = RELATED_FIELDS[name];
  if (related) return { kind: 'related', field: related, ...textMatch(token, lexer) };
  if (token.regex) lexer.fail(`"${name}" does not take a regular expression`, at);
  if (name === 'state') {
    const toState = (v: string): number => {
      const named = STATE_NAMES[v.toLowerCase()];
      if (named !== undefined) return named;
      if (/^\d+$/.test(v)) return Number.parseInt(v, 10);
      return lexer.fail(`unknown state "${v}"`, at);
    };
    if (token.range) return { kind: 'range', field: 'state', from: toState(token.range[0]), to: toState(token.range[1]) };
    return { kind: 'number', field: 'state', op: op || '=', value: toState(value) };
  }
  const numberField = NUMBER_FIELDS[name];
  if (numberField) {
    if (token.range) {
      return { kind: 'range', field: numberField, from: integer(token.range[0], name, lexer, at), to: integer(token.range[1], name, lexer, at) };
    }
    return { kind: 'number', field: numberField, op: op || '=', value: integer(value, name, lexer, at) };
  }
  if (op !== '' && op !== '=') lexer.fail(`"${name}" does not take "${op}"`, at);
  if (token.range) lexer.fail(`"${name}" does not take a range`, at);
  const scope = SCOPE_FIELDS[name];
  if (scope) return { kind: 'scope', field: scope, value };
  if (name === 'check' || name === 'dismissed_check') {
    const check = findCheck(value);
    if (!check) lexer.fail(`unknown check "${value}" for "${name}:"`, at);
    return { kind: 'check', name: check.id, dismissed: name === 'dismissed_check' };
  }
  if (name === 'change_action') {
    const action = actionByName(value);
    if (action === undefined) lexer.fail(`unknown change action "${value}" for "change_action:"`, at);
    return { kind: 'change', action };
  }
  if (name === 'changed_by') return { kind: 'change', author: value };
  if (name === 'label') return { kind: 'property', property: value.toLowerCase() === AUTOMATIC_LABEL.toLowerCase() ? 'automatically-translated' : 'never' };
  if (name === 'is') {
    const filter = IS_VALUES[value.toLowerCase()];
    if (!filter) lexer.fail(`unknown value "${value}" for "is:"`, at);
    return filter;
  }
  const property = HAS_VALUES[value.toLowerCase()];
  if (!property) lexer.fail(`unknown value "${value}" for "has:"`, at);
  return { kind: 'property', property };
}

/**
 * Parses a search query into a filter; an empty query is null (no filter).
 * Adjacent terms are ANDed; NOT binds tighter than AND, AND tighter than OR.
 * @example parseUnitQuery('state:<translated AND NOT has:plural')
 */
export function parseUnitQuery(query: string): UnitFilter | null {
  const lexer = new Lexer(query);
  const tokens = lexer.tokens();
  if (tokens.length === 0) return null;
  let i = 0;
  let depth = 0;
  const peek = () => tokens[i];
  const deeper = (at: number) => {
    if (++depth > MAX_QUERY_DEPTH) lexer.fail(`parentheses and NOT nested more than ${MAX_QUERY_DEPTH} levels deep`, at, { depth: MAX_QUERY_DEPTH });
  };

  function or(): UnitFilter {
    const items = [and()];
    while (peek()?.type === 'or') {
      i++;
      items.push(and());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  function and(): UnitFilter {
    const items = [not()];
    for (;;) {
      const next = peek();
      if (next === undefined || next.type === 'or' || next.type === 'close') break;
      if (next.type === 'and') i++;
      items.push(not());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  function not(): UnitFilter {
    const token = peek();
    if (token?.type === 'not') {
      i++;
      deeper(token.at);
      const item = not();
      depth--;
      return { kind: 'not', item };
    }
    return primary();
  }

  function primary(): UnitFilter {
    const token = tokens[i];
    if (token === undefined) return lexer.fail('unexpected end of query', query.length);
    i++;
    switch (token.type) {
      case 'open': {
        if (peek()?.type === 'close') lexer.fail('empty parentheses', token.at);
        deeper(token.at);
        const inner = or();
        depth--;
        if (peek()?.type !== 'close') lexer.fail('missing ")"', token.at);
        i++;
        return inner;
      }
      case 'text':
        return { kind: 'text', fields: FREE_TEXT, match: 'contains', value: token.value };
      case 'field':
        return termFilter(token, lexer);
      default:
        return lexer.fail(`unexpected "${query.slice(token.at, token.at + 3).trim()}"`, token.at);
    }
  }

  const filter = or();
  if (i < tokens.length) lexer.fail(`unexpected "${query.slice(tokens[i]!.at, tokens[i]!.at + 3).trim()}"`, tokens[i]!.at);
  return filter;
}
