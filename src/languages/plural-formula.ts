// The gettext plural expression language: a safe parser and evaluator (no eval), and the `nplurals=…; plural=…;` header.
import { TmsError } from '../domain/errors.js';

/** A plural formula that does not parse (or divides by zero while being evaluated). */
export class PluralFormulaError extends TmsError<{ formula: string; position: number; reason: string }> {
  constructor(formula: string, position: number, reason: string) {
    super(`plural formula ${JSON.stringify(formula)} at ${position}: ${reason}`, { formula, position, reason });
  }
}

/** A compiled formula: plural form index for a count. */
export type PluralFunction = (n: number) => number;

type Node = (n: number) => number;

const MAX_FORMULA_LENGTH = 1000;
const MAX_DEPTH = 64;

// Binary operators by precedence, loosest first (C order, as gettext and Python's gettext.c2py use).
const BINARY_LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

const TOKEN_RE = /\d+|n|\|\||&&|==|!=|<=|>=|[<>+\-*/%!?:()]/y;

interface Token {
  text: string;
  position: number;
}

function tokenize(formula: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  for (;;) {
    while (position < formula.length && /\s/.test(formula[position]!)) position++;
    if (position >= formula.length) return tokens;
    TOKEN_RE.lastIndex = position;
    const match = TOKEN_RE.exec(formula);
    if (!match) {
      throw new PluralFormulaError(formula, position, `unexpected character ${JSON.stringify(formula[position])}`);
    }
    tokens.push({ text: match[0], position });
    position = TOKEN_RE.lastIndex;
  }
}

// Python's floor division and modulo: Weblate compares formulas through gettext.c2py, which
// evaluates them with Python integer semantics (this matters only for negative n).
function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}
function floorMod(a: number, b: number): number {
  return a - b * Math.floor(a / b);
}

function binary(op: string, left: Node, right: Node, formula: string, position: number): Node {
  const nonZero = (value: number) => {
    if (value === 0) throw new PluralFormulaError(formula, position, 'division by zero');
    return value;
  };
  switch (op) {
    // Python's `or`/`and` yield an operand, not a boolean; c2py keeps that.
    case '||':
      return (n) => left(n) || right(n);
    case '&&':
      return (n) => left(n) && right(n);
    case '==':
      return (n) => Number(left(n) === right(n));
    case '!=':
      return (n) => Number(left(n) !== right(n));
    case '<':
      return (n) => Number(left(n) < right(n));
    case '>':
      return (n) => Number(left(n) > right(n));
    case '<=':
      return (n) => Number(left(n) <= right(n));
    case '>=':
      return (n) => Number(left(n) >= right(n));
    case '+':
      return (n) => left(n) + right(n);
    case '-':
      return (n) => left(n) - right(n);
    case '*':
      return (n) => left(n) * right(n);
    case '/':
      return (n) => floorDiv(left(n), nonZero(right(n)));
    default:
      return (n) => floorMod(left(n), nonZero(right(n)));
  }
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(
    private readonly formula: string,
    private readonly tokens: Token[],
  ) {}

  parse(): Node {
    if (this.tokens.length === 0) throw this.error(0, 'empty formula');
    const node = this.ternary();
    const extra = this.tokens[this.index];
    if (extra) throw this.error(extra.position, `unexpected ${JSON.stringify(extra.text)}`);
    return node;
  }

  private error(position: number, reason: string): PluralFormulaError {
    return new PluralFormulaError(this.formula, position, reason);
  }

  private peek(): string | undefined {
    return this.tokens[this.index]?.text;
  }

  private expect(text: string): void {
    const token = this.tokens[this.index];
    if (token?.text !== text) {
      throw this.error(token?.position ?? this.formula.length, `expected ${JSON.stringify(text)}`);
    }
    this.index++;
  }

  private ternary(): Node {
    if (++this.depth > MAX_DEPTH) throw this.error(this.tokens[this.index]?.position ?? 0, 'nested too deeply');
    const condition = this.binaryLevel(0);
    let node = condition;
    if (this.peek() === '?') {
      this.index++;
      const whenTrue = this.ternary();
      this.expect(':');
      const whenFalse = this.ternary();
      node = (n) => (condition(n) ? whenTrue(n) : whenFalse(n));
    }
    this.depth--;
    return node;
  }

  private binaryLevel(level: number): Node {
    if (level === BINARY_LEVELS.length) return this.unary();
    let left = this.binaryLevel(level + 1);
    for (;;) {
      const token = this.tokens[this.index];
      if (!token || !BINARY_LEVELS[level]!.includes(token.text)) return left;
      this.index++;
      const right = this.binaryLevel(level + 1);
      left = binary(token.text, left, right, this.formula, token.position);
    }
  }

  private unary(): Node {
    const token = this.tokens[this.index];
    if (!token) throw this.error(this.formula.length, 'unexpected end of formula');
    this.index++;
    if (token.text === '!') {
      const operand = this.unary();
      return (n) => Number(!operand(n));
    }
    if (token.text === '(') {
      const inner = this.ternary();
      this.expect(')');
      return inner;
    }
    if (token.text === 'n') return (n) => n;
    if (/^\d+$/.test(token.text)) {
      const value = Number.parseInt(token.text, 10);
      return () => value;
    }
    throw this.error(token.position, `unexpected ${JSON.stringify(token.text)}`);
  }
}

/**
 * Compile a C-like plural expression over `n` (ternary, ||, &&, comparisons, + - * / %, !,
 * parentheses, integer literals) into a function; throws PluralFormulaError when it does not parse.
 *
 * @example compilePluralFormula('n != 1')(5) // 1
 */
export function compilePluralFormula(formula: string): PluralFunction {
  if (formula.length > MAX_FORMULA_LENGTH) throw new PluralFormulaError(formula, 0, 'formula is too long');
  const node = new Parser(formula, tokenize(formula)).parse();
  return (n) => Number(node(n));
}

/** Whether a formula parses. */
export function isValidPluralFormula(formula: string): boolean {
  try {
    compilePluralFormula(formula);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether two formulas pick the same form for every n in [-10, 200), Weblate's `same_plural` test.
 * A formula that does not parse, or fails while evaluating, is never the same.
 */
export function samePluralFormula(a: string | PluralFunction, b: string | PluralFunction): boolean {
  try {
    const left = typeof a === 'string' ? compilePluralFormula(a) : a;
    const right = typeof b === 'string' ? compilePluralFormula(b) : b;
    for (let n = -10; n < 200; n++) if (left(n) !== right(n)) return false;
    return true;
  } catch {
    return false;
  }
}

const PLURAL_FORMS_RE = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([()n0-9!=|&<>+*/%\s?:-]*)/;

/**
 * Parse a gettext `Plural-Forms` value into its number of forms and formula (an empty formula is `0`).
 *
 * @example parsePluralForms('nplurals=2; plural=(n != 1);') // { number: 2, formula: '(n != 1)' }
 */
export function parsePluralForms(header: string): { number: number; formula: string } {
  const match = PLURAL_FORMS_RE.exec(header);
  if (!match) throw new PluralFormulaError(header, 0, 'not a "nplurals=…; plural=…" header');
  const formula = match[2]!.trim() || '0';
  compilePluralFormula(formula);
  return { number: Number.parseInt(match[1]!, 10), formula };
}
