// JSON scalars as Weblate shows them (Python's str()) and as tms writes them back, in the file's own escaping style.
import type { JsonNode } from './syntax.js';

/** How a scalar was typed in the file; decides how an edited target is written back. */
export type ScalarType = 'string' | 'int' | 'float' | 'bool' | 'null';

/** How the file escapes strings, so written values look like their neighbours. */
export interface StringStyle {
  /** Non-ASCII characters are written as \uXXXX (the file has such escapes and no raw non-ASCII). */
  asciiOnly: boolean;
  upperHex: boolean;
  /** `/` is written as `\/`. */
  escapeSlash: boolean;
  /** `<`, `>` and `&` are written as \u003c, \u003e, \u0026 (Go's encoder does this). */
  escapeHtml: boolean;
}

export const DEFAULT_STYLE: StringStyle = { asciiOnly: false, upperHex: false, escapeSlash: false, escapeHtml: false };

/** Reads the escaping habits of a JSON text. */
export function detectStyle(text: string): StringStyle {
  let uNonAscii = 0;
  let upper = 0;
  let lower = 0;
  let slashEscapes = 0;
  let htmlEscapes = 0;
  for (const m of text.matchAll(/\\(?:u([0-9a-fA-F]{4})|[^u])/g)) {
    const hex = m[1];
    if (hex === undefined) {
      if (m[0] === '\\/') slashEscapes++;
      continue;
    }
    const code = Number.parseInt(hex, 16);
    if (code >= 0x80) uNonAscii++;
    if (code === 0x3c || code === 0x3e || code === 0x26) htmlEscapes++;
    if (/[A-F]/.test(hex)) upper++;
    else if (/[a-f]/.test(hex)) lower++;
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rawNonAscii = /[^\x00-\x7f]/.test(body);
  const rawSlashes = (body.match(/\//g)?.length ?? 0) - slashEscapes;
  return {
    asciiOnly: uNonAscii > 0 && !rawNonAscii,
    upperHex: upper > lower,
    escapeSlash: slashEscapes > 0 && slashEscapes >= rawSlashes,
    escapeHtml: htmlEscapes > 0 && !/[<>&]/.test(body),
  };
}

const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** A JSON string literal for `value`, escaped as the file escapes. */
export function encodeString(value: string, style: StringStyle): string {
  const special = style.asciiOnly || style.escapeSlash || style.escapeHtml;
  if (!special && !/["\\\x00-\x1f]/.test(value)) return `"${value}"`;
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 34 || c === 92) {
      esc = SHORT_ESCAPES[c] ?? unicodeEscape(c, style);
    } else if (c === 47 && style.escapeSlash) {
      esc = '\\/';
    } else if ((c === 60 || c === 62 || c === 38) && style.escapeHtml) {
      esc = unicodeEscape(c, style);
    } else if (c >= 0x80 && style.asciiOnly) {
      esc = unicodeEscape(c, style);
    }
    if (esc !== undefined) {
      out += value.slice(chunk, i) + esc;
      chunk = i + 1;
    }
  }
  return out + value.slice(chunk) + '"';
}

function unicodeEscape(code: number, style: StringStyle): string {
  const hex = code.toString(16).padStart(4, '0');
  return `\\u${style.upperHex ? hex.toUpperCase() : hex}`;
}

/** The type of a scalar node, or null for containers. */
export function scalarType(node: JsonNode): ScalarType | null {
  switch (node.type) {
    case 'string':
      return 'string';
    case 'number':
      return /[.eE]/.test(node.raw) ? 'float' : 'int';
    case 'true':
    case 'false':
      return 'bool';
    case 'null':
      return 'null';
    default:
      return null;
  }
}

/** The text Weblate shows for a scalar: Python's `str(value)`; `null` shows as "". */
export function displayScalar(node: JsonNode): string {
  switch (node.type) {
    case 'string':
      return node.value;
    case 'number':
      return /[.eE]/.test(node.raw) ? pythonFloat(Number(node.raw)) : BigInt(node.raw).toString();
    case 'true':
      return 'True';
    case 'false':
      return 'False';
    default:
      return '';
  }
}

/** Python's repr of a float: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = value.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa!.startsWith('-');
  const digits = mantissa!.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
  }
  const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expAbs = Math.abs(exp).toString().padStart(2, '0');
  return `${sign}${body}e${exp < 0 ? '-' : '+'}${expAbs}`;
}

const JSON_INT = /^-?(?:0|[1-9]\d*)$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PY_INT = /^[+-]?\d+(?:_\d+)*$/;
const PY_FLOAT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;

/**
 * The JSON text for a target written into a scalar of the given type. Numbers stay numbers
 * when the text converts as Python's int()/float() would (else the value becomes a string);
 * booleans accept only true/false in any case, so "False" is never written as `true`
 * (Translate Toolkit's bool("False") bug); an empty target on a non-string scalar is written
 * as "" so that it reads back as untranslated; `null` stays `null` while the target is empty.
 */
export function encodeScalar(type: ScalarType, target: string, style: StringStyle): string {
  const text = target.trim();
  switch (type) {
    case 'int':
      if (JSON_INT.test(text)) return text;
      if (PY_INT.test(text)) return BigInt(text.replaceAll('_', '')).toString();
      break;
    case 'float':
      if (JSON_NUMBER.test(text)) return text;
      if (PY_FLOAT.test(text)) {
        const value = Number(text.replaceAll('_', ''));
        if (Number.isFinite(value)) return pythonFloat(value);
      }
      break;
    case 'bool':
      if (/^true$/i.test(target)) return 'true';
      if (/^false$/i.test(target)) return 'false';
      break;
    case 'null':
      if (target === '') return 'null';
      break;
  }
  return encodeString(target, style);
}
