// Weblate's JSON memory export: a list of {source, target, source_language, target_language, origin, category}, read (in pieces) and written.
import { FormatParseError } from '../../domain/errors.js';
import { Utf8Pieces } from '../text.js';
import type { MemoryFileEntry, MemoryFileReader } from './tmx.js';

/** Weblate's memory categories: a file import (1), shared (2); project and personal entries are offsets plus an id. */
export const MemoryCategory = { FILE: 1, SHARED: 2, PRIVATE_OFFSET: 10000000, USER_OFFSET: 20000000 } as const;

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Reads Weblate's JSON memory dump in pieces, one list item at a time (each through JSON.parse), so memory is bounded
 * by the largest item: every item needs the four text fields, `origin` is optional. Errors name the item's line.
 * @example const reader = createMemoryJsonReader('memory.json'); const entries = [...reader.push(bytes), ...reader.end()];
 */
export function createMemoryJsonReader(filename: string): MemoryFileReader {
  const utf8 = new Utf8Pieces(filename);
  let stage: 'start' | 'items' | 'done' = 'start';
  let first = true;
  let line = 1;
  let column = 1;
  let count = 0;
  let expectItem = true;
  // the item being read: its text so far (from earlier pieces), where it began, and the scanner's state inside it
  let item: string | null = null;
  let itemLine = 0;
  let itemColumn = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;

  const fail = (at: number, atColumn: number, reason: string): never => {
    throw new FormatParseError(filename, at, atColumn, reason);
  };

  function entry(text: string): MemoryFileEntry {
    count++;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch (e) {
      return fail(itemLine, itemColumn, `entry ${count}: not JSON: ${(e as Error).message}`);
    }
    const fields = (o ?? {}) as Record<string, unknown>;
    const field = (name: string) => {
      const v = fields[name];
      if (typeof v !== 'string') fail(itemLine, itemColumn, `entry ${count}: "${name}" must be a string`);
      return v as string;
    };
    return {
      source: field('source'),
      target: field('target'),
      sourceLanguage: field('source_language'),
      targetLanguage: field('target_language'),
      origin: typeof fields.origin === 'string' ? fields.origin : undefined,
    };
  }

  function read(t: string, out: MemoryFileEntry[]): void {
    // where the item being read begins in this piece (0: it began in an earlier one), -1 between items
    let start = item === null ? -1 : 0;
    const finish = (end: number) => {
      out.push(entry((item ?? '') + t.slice(start, end)));
      item = null;
      start = -1;
      expectItem = false;
    };
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (start < 0) {
        if (c === 0x0a) {
          line++;
          column = 1;
          continue;
        }
        if (SPACE.has(c) || (c === 0xfeff && first)) {
          first = false;
          column++;
          continue;
        }
        first = false;
        if (stage === 'start') {
          if (c !== 0x5b) fail(line, column, 'a JSON memory file is a list of entries');
          stage = 'items';
          column++;
          continue;
        }
        if (stage === 'done') fail(line, column, 'not JSON: text after the list');
        if (c === 0x2c || c === 0x5d) {
          if (c === 0x2c && expectItem) fail(line, column, "not JSON: ',' where an entry should be");
          if (c === 0x5d && expectItem && count > 0) fail(line, column, "not JSON: ']' after ','");
          if (c === 0x2c) expectItem = true;
          else stage = 'done';
          column++;
          continue;
        }
        if (!expectItem) fail(line, column, "not JSON: expected ',' or ']' after an entry");
        start = i;
        item = '';
        itemLine = line;
        itemColumn = column;
        depth = 0;
        inString = false;
        escaped = false;
      }
      let end = -1;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) {
        inString = true;
      } else if (c === 0x7b || c === 0x5b) {
        depth++;
      } else if ((c === 0x7d || c === 0x5d) && depth > 0) {
        depth--;
        if (depth === 0) end = i + 1;
      } else if (depth === 0 && (c === 0x2c || c === 0x5d || c === 0x7d || SPACE.has(c))) {
        // a bare value (a number, true…) ends before this character, which is read again between items
        finish(i);
        i--;
        continue;
      }
      if (c === 0x0a) {
        line++;
        column = 1;
      } else if (c < 0xdc00 || c > 0xdfff) {
        column++;
      }
      if (end >= 0) finish(end);
    }
    if (start >= 0) item = (item ?? '') + t.slice(start);
  }

  return {
    push(bytes) {
      const out: MemoryFileEntry[] = [];
      read(utf8.decode(bytes), out);
      return out;
    },
    end() {
      const out: MemoryFileEntry[] = [];
      read(utf8.decode(new Uint8Array(0), true), out);
      if (item !== null) fail(itemLine, itemColumn, `entry ${count + 1}: not JSON: the file ends inside it`);
      if (stage === 'start') fail(line, column, 'not JSON: the file is empty');
      if (stage !== 'done') fail(line, column, "not JSON: the list is not closed with ']'");
      return out;
    },
  };
}

/**
 * Reads a whole Weblate JSON memory dump (see createMemoryJsonReader).
 * @example parseMemoryJson(bytes, 'memory.json')
 */
export function parseMemoryJson(bytes: Uint8Array, filename: string): MemoryFileEntry[] {
  const reader = createMemoryJsonReader(filename);
  const out = reader.push(bytes);
  for (const e of reader.end()) out.push(e);
  return out;
}

/** Writes entries as Weblate's JSON memory dump (pretty-printed, UTF-8). */
export function writeMemoryJson(entries: readonly (MemoryFileEntry & { category?: number })[]): Uint8Array {
  const items = entries.map((e) => ({
    source: e.source,
    target: e.target,
    source_language: e.sourceLanguage,
    target_language: e.targetLanguage,
    origin: e.origin ?? '',
    category: e.category ?? MemoryCategory.FILE,
  }));
  return new TextEncoder().encode(`${JSON.stringify(items, null, 2)}\n`);
}
