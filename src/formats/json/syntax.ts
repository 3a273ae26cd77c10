// The JSON syntax layer: strict UTF-8 decoding and a parser that keeps every node's text offsets.
import { FormatParseError } from '../../domain/errors.js';
import { lineColumn } from '../text.js';

interface NodeBase {
  /** Offset of the node's first character in the decoded text. */
  start: number;
  /** Offset just past the node's last character. */
  end: number;
}
export interface JsonObject extends NodeBase {
  type: 'object';
  members: JsonMember[];
}
export interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}
export interface JsonArray extends NodeBase {
  type: 'array';
  items: JsonNode[];
}
export interface JsonString extends NodeBase {
  type: 'string';
  value: string;
}
export interface JsonNumber extends NodeBase {
  type: 'number';
  raw: string;
}
export interface JsonLiteral extends NodeBase {
  type: 'true' | 'false' | 'null';
}
export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;
export type JsonContainer = JsonObject | JsonArray;

export interface ParseOptions {
  /** Accept `//` and `/* … *\/` comments as whitespace (WebExtension files carry them). */
  comments?: boolean;
}

const MAX_DEPTH = 512;
const BOM = 0xfeff;

function describe(text: string, i: number): string {
  if (i >= text.length) return 'end of file';
  const cp = text.codePointAt(i) ?? 0;
  if (cp < 0x20) return `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${String.fromCodePoint(cp)}'`;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly filename: string,
    private readonly comments: boolean,
  ) {}

  fail(offset: number, reason: string): never {
    const { line, column } = lineColumn(this.text, offset);
    throw new FormatParseError(this.filename, line, column, reason);
  }

  parseDocument(): JsonNode {
    const text = this.text;
    if (text.charCodeAt(0) === BOM) this.pos = 1;
    this.skip();
    if (this.pos >= text.length) this.fail(this.pos, 'empty file: expected a JSON value');
    const root = this.value(0);
    this.skip();
    if (this.pos < text.length) {
      this.fail(this.pos, `unexpected ${describe(text, this.pos)} after the top-level value`);
    }
    return root;
  }

  private skip(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
      } else if (c === 47 && this.comments) {
        const next = text.charCodeAt(i + 1);
        if (next === 47) {
          const nl = text.indexOf('\n', i);
          i = nl === -1 ? text.length : nl + 1;
        } else if (next === 42) {
          const close = text.indexOf('*/', i + 2);
          if (close === -1) this.fail(i, 'unterminated /* comment');
          i = close + 2;
        } else {
          break;
        }
      } else {
        break;
      }
    }
    this.pos = i;
  }

  private value(depth: number): JsonNode {
    const text = this.text;
    const start = this.pos;
    const c = text.charCodeAt(start);
    if (c === 34) {
      const value = this.string();
      return { type: 'string', value, start, end: this.pos };
    }
    if (c === 123 || c === 91) {
      if (depth >= MAX_DEPTH) this.fail(start, `nesting deeper than ${MAX_DEPTH} levels`);
      return c === 123 ? this.object(depth) : this.array(depth);
    }
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    for (const word of ['true', 'false', 'null'] as const) {
      if (text.startsWith(word, start)) {
        this.pos = start + word.length;
        return { type: word, start, end: this.pos };
      }
    }
    if (start >= text.length) this.fail(start, 'unexpected end of file: expected a value');
    for (const word of ['NaN', 'Infinity']) {
      if (text.startsWith(word, start)) this.fail(start, `${word} is not valid JSON`);
    }
    return this.fail(start, `unexpected ${describe(text, start)}: expected a value`);
  }

  private object(depth: number): JsonObject {
    const text = this.text;
    const node: JsonObject = { type: 'object', members: [], start: this.pos, end: 0 };
    this.pos++;
    this.skip();
    if (text.charCodeAt(this.pos) === 125) {
      this.pos++;
      node.end = this.pos;
      return node;
    }
    for (;;) {
      const keyStart = this.pos;
      if (text.charCodeAt(keyStart) !== 34) {
        if (keyStart >= text.length) this.fail(keyStart, 'unexpected end of file inside an object');
        this.fail(keyStart, `unexpected ${describe(text, keyStart)}: expected a "quoted" key`);
      }
      const key = this.string();
      const keyEnd = this.pos;
      this.skip();
      if (text.charCodeAt(this.pos) !== 58) {
        this.fail(this.pos, `unexpected ${describe(text, this.pos)}: expected ':' after key "${key}"`);
      }
      this.pos++;
      this.skip();
      const value = this.value(depth + 1);
      node.members.push({ key, keyStart, keyEnd, value });
      this.skip();
      const c = text.charCodeAt(this.pos);
      if (c === 44) {
        const comma = this.pos;
        this.pos++;
        this.skip();
        if (text.charCodeAt(this.pos) === 125) this.fail(comma, "trailing comma before '}'");
        continue;
      }
      if (c === 125) {
        this.pos++;
        node.end = this.pos;
        return node;
      }
      if (this.pos >= text.length) this.fail(this.pos, "unexpected end of file: expected ',' or '}'");
      this.fail(this.pos, `unexpected ${describe(text, this.pos)}: expected ',' or '}'`);
    }
  }

  private array(depth: number): JsonArray {
    const text = this.text;
    const node: JsonArray = { type: 'array', items: [], start: this.pos, end: 0 };
    this.pos++;
    this.skip();
    if (text.charCodeAt(this.pos) === 93) {
      this.pos++;
      node.end = this.pos;
      return node;
    }
    for (;;) {
      node.items.push(this.value(depth + 1));
      this.skip();
      const c = text.charCodeAt(this.pos);
      if (c === 44) {
        const comma = this.pos;
        this.pos++;
        this.skip();
        if (text.charCodeAt(this.pos) === 93) this.fail(comma, "trailing comma before ']'");
        continue;
      }
      if (c === 93) {
        this.pos++;
        node.end = this.pos;
        return node;
      }
      if (this.pos >= text.length) this.fail(this.pos, "unexpected end of file: expected ',' or ']'");
      this.fail(this.pos, `unexpected ${describe(text, this.pos)}: expected ',' or ']'`);
    }
  }

  private number(): JsonNumber {
    const text = this.text;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === 45) i++;
    const digits = (from: number): number => {
      let j = from;
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      return j;
    };
    const intEnd = digits(i);
    if (intEnd === i) this.fail(i, `unexpected ${describe(text, i)}: expected a digit`);
    if (text.charCodeAt(i) === 48 && intEnd > i + 1) this.fail(i, 'numbers must not have leading zeros');
    i = intEnd;
    if (text.charCodeAt(i) === 46) {
      const fracEnd = digits(i + 1);
      if (fracEnd === i + 1) this.fail(i + 1, `unexpected ${describe(text, i + 1)}: expected a digit after '.'`);
      i = fracEnd;
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      const expEnd = digits(i);
      if (expEnd === i) this.fail(i, `unexpected ${describe(text, i)}: expected an exponent`);
      i = expEnd;
    }
    this.pos = i;
    return { type: 'number', raw: text.slice(start, i), start, end: i };
  }

  /** Reads a string token at `pos` (on its opening quote) and returns its value. */
  private string(): string {
    const text = this.text;
    const open = this.pos;
    let i = open + 1;
    // fast path: no escapes
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        this.pos = i + 1;
        return text.slice(open + 1, i);
      }
      if (c === 92 || c < 32 || Number.isNaN(c)) break;
      i++;
    }
    let out = text.slice(open + 1, i);
    let chunk = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) this.fail(open, 'unexpected end of file inside a string');
      if (c === 34) {
        out += text.slice(chunk, i);
        this.pos = i + 1;
        return out;
      }
      if (c < 32) this.fail(i, `${describe(text, i)} in a string must be escaped`);
      if (c !== 92) {
        i++;
        continue;
      }
      out += text.slice(chunk, i);
      const e = text.charCodeAt(i + 1);
      switch (e) {
        case 34:
          out += '"';
          break;
        case 92:
          out += '\\';
          break;
        case 47:
          out += '/';
          break;
        case 98:
          out += '\b';
          break;
        case 102:
          out += '\f';
          break;
        case 110:
          out += '\n';
          break;
        case 114:
          out += '\r';
          break;
        case 116:
          out += '\t';
          break;
        case 117: {
          for (let k = 2; k < 6; k++) {
            if (!isHex(text.charCodeAt(i + k))) this.fail(i, 'invalid \\u escape: expected 4 hex digits');
          }
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 4;
          break;
        }
        default:
          if (Number.isNaN(e)) this.fail(open, 'unexpected end of file inside a string');
          this.fail(i, `invalid escape '\\${String.fromCodePoint(text.codePointAt(i + 1) ?? 0)}'`);
      }
      i += 2;
      chunk = i;
    }
  }
}

/** Parses decoded JSON text (a leading U+FEFF is skipped) into a tree with offsets. */
export function parseJsonText(text: string, filename: string, options: ParseOptions = {}): JsonNode {
  return new Parser(text, filename, options.comments ?? false).parseDocument();
}

/** The value member for `key`: the last one when a key repeats, as Python's dict keeps it. */
export function findMember(object: JsonObject, key: string): JsonMember | undefined {
  const members = object.members;
  for (let i = members.length - 1; i >= 0; i--) if (members[i]!.key === key) return members[i];
  return undefined;
}

/**
 * Members in document order, each key once: at its first position with its last value
 * (Python's `json.loads` into an ordered dict).
 */
export function uniqueMembers(object: JsonObject): JsonMember[] {
  const members = object.members;
  if (members.length < 2) return members;
  const last = new Map<string, JsonMember>();
  for (const m of members) last.set(m.key, m);
  if (last.size === members.length) return members;
  const out: JsonMember[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.key)) continue;
    seen.add(m.key);
    out.push(last.get(m.key)!);
  }
  return out;
}
