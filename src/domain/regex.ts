// Regular expressions that users write (the search language's `r"…"`): RE2, so matching time grows linearly with the text.
import { RE2 } from 're2-wasm';

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
  try {
    return new RE2(pattern, 'u');
  } catch (e) {
    throw new SyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}
