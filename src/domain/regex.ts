// Regular expressions that users write (the search language's `r"…"`): RE2, so matching time grows linearly with the text.
import { createRequire } from 'node:module';

// re2-wasm compiles its WebAssembly when loaded (about 55 ms): loaded at the first pattern, not by every command
const require = createRequire(import.meta.url);
let RE2: typeof import('re2-wasm').RE2 | undefined;

/** A compiled pattern; `test` never backtracks (RE2 has no backreferences or lookaround, and no catastrophic cases). */
export interface UserRegex {
  test(text: string): boolean;
}

/**
 * Compiles a pattern as RE2 (Unicode mode); a pattern RE2 does not take throws a SyntaxError saying why. JavaScript's
 * own engine backtracks: `^(a|a)+$` against 30 characters took seconds on the main thread, stalling every request.
 * @example compileUserRegex('^Hal+o').test('Hallo') === true
 */
export function compileUserRegex(pattern: string): UserRegex {
  RE2 ??= (require('re2-wasm') as typeof import('re2-wasm')).RE2;
  try {
    return new RE2(pattern, 'u');
  } catch (e) {
    throw new SyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}

/** A compiled pattern that replaces every match in a text (`$1`, `$2` … in the replacement name its groups). */
export interface UserReplacer {
  replace(text: string, replacement: string): string;
}

/**
 * Compiles a pattern as compileUserRegex does, to replace every match (search and replace).
 * @example compileUserReplacer('(\\w+)e').replace('Datei', '[$1]') === '[Dat]i'
 */
export function compileUserReplacer(pattern: string): UserReplacer {
  RE2 ??= (require('re2-wasm') as typeof import('re2-wasm')).RE2;
  try {
    return new RE2(pattern, 'gu');
  } catch (e) {
    throw new SyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}
