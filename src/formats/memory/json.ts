// Weblate's JSON memory export: a list of {source, target, source_language, target_language, origin, category}, read and written.
import { FormatParseError } from '../../domain/errors.js';
import { decodeUtf8 } from '../text.js';
import type { MemoryFileEntry } from './tmx.js';

/** Weblate's memory categories: a file import (1), shared (2); project and personal entries are offsets plus an id. */
export const MemoryCategory = { FILE: 1, SHARED: 2, PRIVATE_OFFSET: 10000000, USER_OFFSET: 20000000 } as const;

/**
 * Reads Weblate's JSON memory dump; every item needs the four text fields, `origin` is optional.
 * @example parseMemoryJson(bytes, 'memory.json')
 */
export function parseMemoryJson(bytes: Uint8Array, filename: string): MemoryFileEntry[] {
  let text = decodeUtf8(bytes, filename);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new FormatParseError(filename, 1, 1, `not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(data)) throw new FormatParseError(filename, 1, 1, 'a JSON memory file is a list of entries');
  return data.map((item, i) => {
    const o = item as Record<string, unknown>;
    const field = (name: string) => {
      const v = o?.[name];
      if (typeof v !== 'string') throw new FormatParseError(filename, 1, 1, `entry ${i + 1}: "${name}" must be a string`);
      return v;
    };
    return {
      source: field('source'),
      target: field('target'),
      sourceLanguage: field('source_language'),
      targetLanguage: field('target_language'),
      origin: typeof o.origin === 'string' ? o.origin : undefined,
    };
  });
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
