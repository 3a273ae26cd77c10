// Format-string checks: the placeholders of each syntax must match between source and translation.

/** How one syntax finds its placeholders and whether their order matters. */
export interface FormatSyntax {
  /** Global regex; `key` turns a match into the compared value. */
  regex: RegExp;
  key: (m: RegExpExecArray) => string;
  /** A value that is compared by position (order and count matter); otherwise values compare as sets. */
  positional: (key: string) => boolean;
  /** Values equal after this (e.g. `%%` dropped) are not a mismatch. */
  normalize?: (keys: string[]) => string[];
  /** The character every placeholder has (a string without it has none); `%`, `{` and `$` when not given. */
  marker?: string;
  /** A fault of the translation alone (Java MessageFormat: an unpaired apostrophe). */
  targetFault?: (target: string) => boolean;
}

const printfPositional = (k: string) => !k.includes('$') && k !== '%';
const dropPercent = (keys: string[]) => keys.filter((k) => k !== '%');
const group1 = (m: RegExpExecArray) => m[1] ?? '';
const noSpace = (m: RegExpExecArray) => (m[1] ?? '').replace(/\s+/g, '');

const C_PRINTF = /%((?:\d+\$)?(?:[ +#'-]*(?:\d+)?(?:\.\d+)?(?:hh|h|ll|l)?[a-zA-Z%]|))/g;
const PHP_PRINTF = /%((?:\d+\$)?(?:[ +#-]*(?:\d+)?(?:\.\d+)?(?:hh|h|ll|l)?[a-zA-Z%]|))/g;
const PY_PRINTF = /%((?:\([^)]+\))?(?:[ +#-]*(?:\d+)?(?:\.\d+)?(?:hh|h|ll|l)?[a-zA-Z%]|))/g;
// Objective-C: C's conversions plus %@ and stringsdict's %#@name@ (a named reference)
const OBJC_PRINTF = /%((?:\d+\$)?(?:#@[^@]+@|[ +#'-]*(?:\d+)?(?:\.\d+)?(?:hh|ll|h|l|z|t|j|q|L)?[a-zA-Z@%]|))/g;
// java.util.Formatter: no space after %, %1$s, %td… date conversions
const JAVA_PRINTF = /%((?!\s)(?:\d+\$)?[-.#+0,(]*(?:\d+)?(?:\.\d+)?(?:(?:(?<![tT])[tT][A-Za-z]|[A-Za-z])|%))/g;
// java.text.MessageFormat: {0}, {1,number}, {2,date,short}
const JAVA_MESSAGE = /\{(\d+)\s*(?:,\s*[a-z]+(?:,\s*\S+)?)?\s*\}/g;
// Lisp and Scheme format directives: ~a, ~1@*~s, ~:d, ~% …
const SCHEME_FORMAT = /~((?:\d+@\*~)?(?:(?:[+-]?\d+|'.|[vV]|#)(?:,(?:[+-]?\d+|'.|[vV]|#))*)?:?@?[a-zA-Z%$?&_/|!\[\]()~]|)/g;
const C_SHARP = /\{(\d+)(?:[-,?\s]+(?:\d+)?(?:\.\d+)?)?(?::(?:[a-zA-Z0#.,\s]*(?:\d+)?)?)?\}/g;
const OBJECT_PASCAL = /%((?:(?:\*|\d+):)?(?:-?(?:\*|\d+)?(?:\.(?:\*|\d+))?[defgmnpsuxDEFGMNPSUX%]|))/g;
const PERL_BRACE = /(\{([a-zA-Z0-9_]+)\})/g;

const PY_BRACE =
  /\{(|(?:[0-9]+|[_A-Za-z][_0-9A-Za-z]*)(?:\.[_A-Za-z][_0-9A-Za-z]*|\[[^\]]+\])*(?:![rsa])?(?::.?[<>=^]?[+ -]?#?0?(?:[1-9][0-9]*)?,?(?:\.[1-9][0-9]*)?[bcdeEfFgGnosxX%]?)?)\}/g;

/** The format syntaxes by check id (the flag is the id with dashes). */
export const FORMAT_SYNTAXES: Readonly<Record<string, FormatSyntax>> = {
  c_format: { regex: C_PRINTF, key: (m) => (m[1] ?? '').replaceAll("'", ''), positional: printfPositional, normalize: dropPercent },
  javascript_format: { regex: C_PRINTF, key: (m) => (m[1] ?? '').replaceAll("'", ''), positional: printfPositional, normalize: dropPercent },
  php_format: { regex: PHP_PRINTF, key: group1, positional: printfPositional, normalize: dropPercent },
  python_format: { regex: PY_PRINTF, key: group1, positional: (k) => !k.includes('(') && k !== '%', normalize: dropPercent },
  python_brace_format: { regex: PY_BRACE, key: group1, positional: (k) => k === '' },
  // %1 … %99, with or without L (localized numbers): compared as a set, as Qt numbers its arguments
  qt_format: { regex: /%(L?\d{1,2})/g, key: group1, positional: () => false },
  qt_plural_format: { regex: /%(L?n)/g, key: group1, positional: () => true },
  i18next_interpolation: { regex: /(\$t\((.+?)\)|\{\{(.+?)\}\})/g, key: noSpace, positional: () => false },
  es_format: { regex: /\$\{\s*([^}]+?)\s*\}/g, key: noSpace, positional: () => false },
  percent_placeholders: { regex: /(%([a-zA-Z0-9_]+)%)/g, key: group1, positional: () => false },
  objc_format: {
    regex: OBJC_PRINTF,
    key: (m) => (m[1] ?? '').replaceAll("'", ''),
    positional: (k) => !k.startsWith('#@') && printfPositional(k),
    normalize: dropPercent,
  },
  java_printf_format: { regex: JAVA_PRINTF, key: (m) => (m[1] ?? '').replaceAll("'", ''), positional: printfPositional, normalize: dropPercent },
  java_format: { regex: JAVA_MESSAGE, key: group1, positional: () => false, marker: '{', targetFault: (t) => (t.split("'").length - 1) % 2 !== 0 },
  lua_format: { regex: C_PRINTF, key: (m) => (m[1] ?? '').replaceAll("'", ''), positional: printfPositional, normalize: dropPercent },
  perl_format: { regex: C_PRINTF, key: (m) => (m[1] ?? '').replaceAll("'", ''), positional: printfPositional, normalize: dropPercent },
  perl_brace_format: { regex: PERL_BRACE, key: group1, positional: () => false, marker: '{' },
  scheme_format: {
    regex: SCHEME_FORMAT,
    key: (m) => (m[1] ?? '').replaceAll("'", ''),
    positional: (k) => !k.includes('@*') && k !== '~',
    normalize: (keys) => keys.filter((k) => k !== '~'),
    marker: '~',
  },
  // tms's own: gettext's lisp-format uses the same directives as scheme-format (Weblate has no check for it)
  lisp_format: {
    regex: SCHEME_FORMAT,
    key: (m) => (m[1] ?? '').replaceAll("'", ''),
    positional: (k) => !k.includes('@*') && k !== '~',
    normalize: (keys) => keys.filter((k) => k !== '~'),
    marker: '~',
  },
  c_sharp_format: { regex: C_SHARP, key: group1, positional: () => false, marker: '{' },
  object_pascal_format: {
    regex: OBJECT_PASCAL,
    key: group1,
    positional: (k) => !k.includes(':') && k !== '%',
    normalize: dropPercent,
    marker: '%',
  },
};

export function extractFormat(syntax: FormatSyntax, text: string): string[] {
  if (syntax.marker !== undefined ? !text.includes(syntax.marker) : !text.includes('%') && !text.includes('{') && !text.includes('$')) return [];
  const out: string[] = [];
  syntax.regex.lastIndex = 0;
  for (let m = syntax.regex.exec(text); m !== null; m = syntax.regex.exec(text)) {
    out.push(syntax.key(m));
    if (m[0].length === 0) syntax.regex.lastIndex++;
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Python's list `<` (lexicographic) for `ignoreMissing` on position-based values. */
function listLess(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}

/** True when the translation's placeholders do not match the source's. `ignoreMissing`: a subset is fine. */
export function formatMismatch(syntax: FormatSyntax, source: string, target: string, ignoreMissing: boolean): boolean {
  if (!source || !target) return false;
  if (syntax.targetFault?.(target)) return true;
  const src = extractFormat(syntax, source);
  const tgt = extractFormat(syntax, target);
  const positional = src.length === 0 || src.some(syntax.positional);
  if (positional) {
    if (sameList(src, tgt)) return false;
    if (syntax.normalize && sameList(syntax.normalize(src), syntax.normalize(tgt))) return false;
    if (ignoreMissing && listLess(tgt, src)) return false;
    return true;
  }
  const s = new Set(src);
  const t = new Set(tgt);
  if (sameSet(s, t)) return false;
  if (syntax.normalize && sameSet(new Set(syntax.normalize(src)), new Set(syntax.normalize(tgt)))) return false;
  // a proper subset of the source's placeholders
  if (ignoreMissing && t.size < s.size && [...t].every((x) => s.has(x))) return false;
  return true;
}

/**
 * A format check over plural forms, as Weblate pairs them: a one-form language is checked against the source's
 * plural; a singular may omit placeholders when its plural form covers one number only (`oneNumberForms[i]`).
 */
export function formatCheck(syntax: FormatSyntax, sources: readonly string[], targets: readonly string[], oneNumberForms: readonly boolean[]): boolean {
  if (sources.length > 1 && targets.length === 1) return formatMismatch(syntax, sources[1]!, targets[0]!, false);
  const source =
    sources.length > 1 && extractFormat(syntax, sources[0]!).length === 0 && extractFormat(syntax, sources[1]!).length > 0 ? sources[1]! : sources[0]!;
  if (formatMismatch(syntax, source, targets[0] ?? '', sources.length > 1 && (oneNumberForms[0] ?? false))) return true;
  if (sources.length === 1) return false;
  for (let i = 1; i < targets.length; i++) {
    if (formatMismatch(syntax, sources[1]!, targets[i]!, oneNumberForms[i] ?? false)) return true;
  }
  return false;
}
