// Regular expressions that users write (the search language's `r"…"`): RE2, so matching time grows linearly with the text.
import { createRequire } from 'node:module';

// re2-wasm compiles its WebAssembly when loaded (about 55 ms): loaded at the first pattern, not by every command
const require = createRequire(import.meta.url);
let RE2: typeof import('re2-wasm').RE2 | undefined;

/** A compiled pattern; `test` never backtracks (RE2 has no backreferences or lookaround, and no catastrophic cases). */
export interface UserRegex {
  test(text: string): boolean;
}

type Re2 = InstanceType<typeof import('re2-wasm').RE2>;

// Each compiled pattern holds memory in re2-wasm's fixed 16 MB heap until its wrapper is deleted, which nothing did:
// about 12,000 patterns into a process, every later one failed (OOM abort). Patterns are kept for reuse (the most
// recent 256) and a pattern no longer referenced is deleted when it is collected.
const freed = new FinalizationRegistry<{ delete(): void }>((wrapper) => wrapper.delete());
const compiled = new Map<string, Re2>();
const KEEP = 256;

/** The RE2 of a pattern and flags, compiled once while it is among the recent ones; a SyntaxError says why not. */
function re2(pattern: string, flags: string): Re2 {
  const key = `${flags}/${pattern}`;
  const known = compiled.get(key);
  if (known) {
    compiled.delete(key);
    compiled.set(key, known);
    return known;
  }
  RE2 ??= (require('re2-wasm') as typeof import('re2-wasm')).RE2;
  let re: Re2;
  try {
    re = new RE2(pattern, flags);
  } catch (e) {
    throw new SyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
  freed.register(re, (re as unknown as { wrapper: { delete(): void } }).wrapper);
  compiled.set(key, re);
  if (compiled.size > KEEP) compiled.delete(compiled.keys().next().value as string);
  return re;
}

/**
 * Compiles a pattern as RE2 (Unicode mode); a pattern RE2 does not take throws a SyntaxError saying why. JavaScript's
 * own engine backtracks: `^(a|a)+$` against 30 characters took seconds on the main thread, stalling every request.
 * @example compileUserRegex('^Hal+o').test('Hallo') === true
 */
export function compileUserRegex(pattern: string): UserRegex {
  return re2(pattern, 'u');
}

/** A compiled pattern that replaces every match in a text (`$1`, `$2` … in the replacement name its groups). */
export interface UserReplacer {
  replace(text: string, replacement: string): string;
}

/**
 * A text every match of the pattern contains, or null when none is certain: the longest run of plain characters
 * outside groups and classes, none with a quantifier, in a pattern without alternation or flags at its top level.
 * @example requiredLiteral('(\\w+)datei') === 'datei'; requiredLiteral('a|datei') === null
 */
export function requiredLiteral(pattern: string): string | null {
  if (pattern.includes('(?') || pattern.includes('\\Q')) return null;
  let best = '';
  let run = '';
  let depth = 0;
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      end();
      i++;
    } else if (c === '[') {
      end();
      // to the class's end: a leading ] or ^] is a member, an escaped character is one
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') {
      end();
      depth++;
    } else if (c === ')') {
      end();
      depth--;
    } else if (depth > 0) {
      // a group's content is not certain to match (alternation, quantifiers on the group)
    } else if (c === '|') {
      return null;
    } else if ('*+?{'.includes(c)) {
      // the atom before (a character: a surrogate pair is one) is optional or repeated: it leaves the run
      run = run.slice(0, /[\udc00-\udfff]$/.test(run) && run.length > 1 ? -2 : -1);
      end();
      if (c === '{') while (i < pattern.length && pattern[i] !== '}') i++;
    } else if ('.^$'.includes(c)) {
      end();
    } else {
      run += c;
    }
  }
  end();
  return best === '' ? null : best;
}

/** The replacement of one match: `$&` the match, `$1`…`$99` its groups (an unmatched one is empty), `$$` a dollar. */
function expand(replacement: string, match: ArrayLike<string | undefined>): string {
  return replacement.replace(/\$(\$|&|\d{1,2})/g, (whole, what: string) => {
    if (what === '$') return '$';
    if (what === '&') return match[0] ?? '';
    const n = Number(what);
    return n > 0 && n < match.length ? (match[n] ?? '') : whole;
  });
}

/**
 * Compiles a pattern as compileUserRegex does, to replace every match (search and replace). The matches are walked
 * with `exec` from `lastIndex`, stepping one character past an empty match: re2-wasm's own global replace never
 * returns on a pattern that matches the empty string (`x*`, `^`), and counts positions in code points. A text without the pattern's required literal is
 * left without calling RE2 (each call into its WebAssembly costs about 10 µs).
 * @example compileUserReplacer('(\\w+)e').replace('Datei', '[$1]') === '[Dat]i'
 */
export function compileUserReplacer(pattern: string): UserReplacer {
  // shared by every replacer of the pattern: `replace` sets `lastIndex` and walks the text without yielding
  const re = re2(pattern, 'gu');
  const literal = requiredLiteral(pattern);
  return {
    replace(text, replacement) {
      if (literal !== null && !text.includes(literal)) return text;
      // re2-wasm counts `index` and `lastIndex` in code points: a text with surrogate pairs needs their UTF-16 offsets
      const offsets = /[\ud800-\udfff]/.test(text) ? codePointOffsets(text) : null;
      const at = (codePoint: number) => (offsets ? offsets[codePoint]! : codePoint);
      const length = offsets ? offsets.length - 1 : text.length;
      let out = '';
      let last = 0;
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        const found = m[0] ?? '';
        const start = at(m.index);
        out += text.slice(last, start) + expand(replacement, m);
        last = start + found.length;
        if (found === '' && m.index >= length) break;
        // on from the match's end (its length in code points), or one character past an empty match
        re.lastIndex = m.index + (found === '' ? 1 : offsets ? [...found].length : found.length);
      }
      return out + text.slice(last);
    },
  };
}

/** The UTF-16 offset of each code point of a text, and its length last. */
function codePointOffsets(text: string): number[] {
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1) offsets.push(i);
  offsets.push(text.length);
  return offsets;
}
