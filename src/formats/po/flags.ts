// `#,` lines read as Weblate reads them: its flag grammar (names, `:` values, quoted values), `fuzzy` dropped, sorted.

/** A `#,` line the flag grammar refuses (Weblate fails the whole file: "Could not parse flags"). */
export class FlagSyntaxError extends Error {
  constructor(
    readonly column: number,
    reason: string,
  ) {
    super(reason);
  }
}

type Token = { kind: 'name' | 'quoted' | 'sep' | 'colon' | 'r'; text: string; at: number };

const SYNTAX = new Set([',', ':', '"', "'", '\\']);
const SPACE = new Set([' ', '\t', '\r', '\n']);

/** A flag name as Weblate's grammar reads one: no syntax characters, inner spaces allowed, none at either end. */
function readName(s: string, i: number): number {
  let end = i;
  let lastSolid = -1;
  while (end < s.length && !SYNTAX.has(s[end]!)) {
    if (!SPACE.has(s[end]!)) lastSolid = end;
    end++;
  }
  return lastSolid + 1;
}

function readQuoted(s: string, i: number, quote: string): { text: string; end: number } {
  let text = '';
  let j = i + 1;
  while (j < s.length && s[j] !== quote) {
    if (s[j] === '\\' && j + 1 < s.length) {
      const c = s[j + 1]!;
      text += c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c === quote || c === '\\' ? c : `\\${c}`;
      j += 2;
    } else {
      text += s[j++];
    }
  }
  if (j >= s.length) throw new FlagSyntaxError(i + 1, `unterminated ${quote} in flags`);
  return { text, end: j + 1 };
}

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let expectValue = false;
  while (i < s.length) {
    const c = s[i]!;
    if (SPACE.has(c)) {
      i++;
    } else if (c === ',') {
      tokens.push({ kind: 'sep', text: c, at: i });
      expectValue = false;
      i++;
    } else if (c === ':') {
      tokens.push({ kind: 'colon', text: c, at: i });
      expectValue = true;
      i++;
    } else if (expectValue && c === 'r' && s[i + 1] === '"') {
      tokens.push({ kind: 'r', text: 'r', at: i });
      const q = readQuoted(s, i + 1, '"');
      tokens.push({ kind: 'quoted', text: q.text, at: i + 1 });
      i = q.end;
    } else if (expectValue && (c === '"' || c === "'")) {
      const q = readQuoted(s, i, c);
      tokens.push({ kind: 'quoted', text: q.text, at: i });
      i = q.end;
    } else if (!SYNTAX.has(c)) {
      const end = readName(s, i);
      tokens.push({ kind: 'name', text: s.slice(i, end), at: i });
      i = end;
    } else {
      throw new FlagSyntaxError(i + 1, `unexpected ${JSON.stringify(c)} in flags`);
    }
  }
  return tokens;
}

/** Weblate's `format_value`: a value with a space or a syntax character is double-quoted with escapes. */
function formatValue(value: string, regex = false): string {
  if (regex || value.includes(' ') || [...SYNTAX].some((c) => value.includes(c))) {
    return `${regex ? 'r' : ''}"${value.replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}"`;
  }
  return value;
}

/**
 * Adds the flags of one `#,` comment (the text after `#,`, or the whole line) to `into` (name → formatted flag);
 * a later flag of the same name replaces an earlier one. Throws FlagSyntaxError where Weblate's parser would.
 */
export function readFlagLine(text: string, into: Map<string, string>): void {
  const tokens = tokenize(text);
  let state = 0;
  let name = '';
  let values: Array<{ text: string; regex: boolean }> = [];
  const flush = () => {
    if (values.length === 0) {
      if (name !== 'fuzzy' && name !== '#' && name !== '') into.set(name, formatValue(name));
    } else {
      into.set(name, [formatValue(name), ...values.map((v) => formatValue(v.text, v.regex))].join(':'));
    }
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (state === 0 && t.kind === 'sep') continue;
    if (state === 0) {
      if (t.kind !== 'name') throw new FlagSyntaxError(t.at + 1, `unexpected ${JSON.stringify(t.text)} in flags`);
      name = t.text;
      values = [];
      state = 1;
    } else if (state === 1 && t.kind === 'sep') {
      flush();
      state = 0;
    } else if ((state === 1 || state === 3) && t.kind === 'colon') {
      state = 2;
    } else if (state === 2 && t.kind === 'sep') {
      values.push({ text: '', regex: false });
      flush();
      state = 0;
    } else if (state === 2 && t.kind === 'colon') {
      values.push({ text: '', regex: false });
    } else if (state === 2 && t.kind === 'r') {
      state = 4;
    } else if (state === 2) {
      values.push({ text: t.text, regex: false });
      state = 3;
    } else if (state === 4) {
      values.push({ text: t.text, regex: true });
      state = 3;
    } else if (state === 3 && t.kind === 'sep') {
      flush();
      state = 0;
    } else {
      throw new FlagSyntaxError(t.at + 1, `unexpected ${JSON.stringify(t.text)} in flags`);
    }
  }
  if (state === 2) values.push({ text: '', regex: false });
  if (state > 0) flush();
}

/** The flags of an entry's `#,` lines as Weblate shows them: sorted, comma+space separated, without `fuzzy`. */
export function formatFlags(flags: Map<string, string>): string {
  return [...flags.values()].sort().join(', ');
}

/** The plain words of `#,` lines as Translate Toolkit splits them (on commas), `#` dropped. */
export function typeComments(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    for (const part of line.split(',')) {
      const v = part.trim();
      if (v !== '' && v !== '#') out.push(v);
    }
  }
  return out;
}
