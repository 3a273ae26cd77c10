// Unicode character names to characters, as Python's `unicodedata.lookup` finds them (Translate Toolkit's `\N{NAME}`).
import { createRequire } from 'node:module';
import path from 'node:path';

/** The name table of the `unicode-name` package (its `src/name.js`, version pinned in package.json). */
interface NameTable {
  NAMES: Record<string, string>;
  ALIASES: Record<string, Record<string, string[]>>;
  CP_RANGES: Record<string, Array<[number, number]>>;
  JAMO: { INITIAL: string[]; MEDIAL: string[]; FINAL: string[] };
  REPLACE_BASE: number;
  COMMON_WORDS: string[];
}

const HANGUL_PREFIX = 'HANGUL SYLLABLE ';
const CJK_PREFIX = 'CJK UNIFIED IDEOGRAPH-';
const HANGUL_BASE = 0xac00;
// Python's database (Debian's 3.11) names no Tangut ideograph, and spells CJK unified ideographs algorithmically
const UNNAMED_RANGES = new Set(['TANGUT IDEOGRAPH-', CJK_PREFIX]);

let table: NameTable | null = null;
let index: Map<string, string> | null = null;

// The table is 0.7 MB of JavaScript: loaded on the first `\N{…}` only, never by a file without one.
function nameTable(): NameTable {
  if (!table) {
    const require = createRequire(import.meta.url);
    // the package's entry point would also load its sequence and type tables, which a lookup does not need
    const file = path.join(path.dirname(require.resolve('unicode-name')), 'name.js');
    table = (require(file) as { default: NameTable }).default;
  }
  return table;
}

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}

/** Every name and alias, upper case, to its character (the names compressed by the package's word list). */
function nameIndex(): Map<string, string> {
  if (index) return index;
  const t = nameTable();
  const map = new Map<string, string>();
  for (const [char, raw] of Object.entries(t.NAMES)) {
    let name = '';
    for (const c of raw) {
      const cp = c.codePointAt(0)!;
      name += cp < t.REPLACE_BASE ? c : `${t.COMMON_WORDS[cp - t.REPLACE_BASE]} `;
    }
    map.set(name.trim(), char);
  }
  for (const [char, kinds] of Object.entries(t.ALIASES)) for (const list of Object.values(kinds)) for (const alias of list) map.set(alias, char);
  for (const [prefix, ranges] of Object.entries(t.CP_RANGES)) {
    if (UNNAMED_RANGES.has(prefix)) continue;
    for (const [first, last] of ranges) for (let cp = first; cp <= last; cp++) map.set(`${prefix}${hex(cp)}`, String.fromCodePoint(cp));
  }
  index = map;
  return map;
}

/** The longest jamo of `list` at `at` (the first of equal length), as CPython's `find_syllable`. */
function jamoAt(name: string, at: number, list: readonly string[]): { index: number; length: number } {
  let best = { index: -1, length: -1 };
  list.forEach((jamo, i) => {
    if (jamo.length > best.length && name.startsWith(jamo, at)) best = { index: i, length: jamo.length };
  });
  return best;
}

function hangul(name: string): string | null {
  const { JAMO } = nameTable();
  let at = HANGUL_PREFIX.length;
  const parts: number[] = [];
  for (const list of [JAMO.INITIAL, JAMO.MEDIAL, JAMO.FINAL]) {
    const found = jamoAt(name, at, list);
    if (found.index < 0) return null;
    parts.push(found.index);
    at += found.length;
  }
  if (at !== name.length) return null;
  const [l, v, t] = parts as [number, number, number];
  return String.fromCodePoint(HANGUL_BASE + (l * JAMO.MEDIAL.length + v) * JAMO.FINAL.length + t);
}

function cjk(name: string): string | null {
  const digits = name.slice(CJK_PREFIX.length);
  if (!/^[0-9A-F]{4,5}$/.test(digits)) return null;
  const cp = Number.parseInt(digits, 16);
  const ranges = nameTable().CP_RANGES[CJK_PREFIX] ?? [];
  return ranges.some(([first, last]) => cp >= first && cp <= last) ? String.fromCodePoint(cp) : null;
}

/**
 * The character a Unicode name or name alias stands for, as Python's `unicodedata.lookup` reads it: any ASCII case,
 * except the algorithmic `HANGUL SYLLABLE …` and `CJK UNIFIED IDEOGRAPH-XXXX[X]` names, which must be upper case;
 * null for a name it does not know. Named sequences (`KEYCAP NUMBER SIGN`) are not read. The names are Unicode's
 * current ones (the package's version), where Python's are those of its own release.
 * @example lookupUnicodeName('latin small letter e with acute') // 'é'
 */
export function lookupUnicodeName(name: string): string | null {
  if (name.startsWith(HANGUL_PREFIX)) return hangul(name);
  if (name.startsWith(CJK_PREFIX)) return cjk(name);
  return nameIndex().get(name.replace(/[a-z]+/g, (s) => s.toUpperCase())) ?? null;
}
