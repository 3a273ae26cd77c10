// GNU MO files from PO bytes, as msgfmt compiles them: the header and every translated entry, sorted, no hash table.
import type { FormatContext } from '../format.js';
import { decodePo, encodePo } from './charset.js';
import { type PoEntry, parsePoText } from './syntax.js';
import { entryContext, entrySource, entryTarget, isContent, isHeader } from './units.js';

const MAGIC = 0x950412de;

/** Whether msgfmt compiles the entry: not fuzzy, and every form translated. */
function compiled(e: PoEntry): boolean {
  if (e.flags.some((l) => l.split(',').some((w) => w.trim() === 'fuzzy'))) return false;
  const target = entryTarget(e);
  return target.every((t) => t !== '');
}

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The MO file of a PO file (Weblate's `weblate.gettext.mo` add-on writes one beside each PO file it commits):
 * originals `msgctxt\x04msgid` (`\0msgid_plural` for plurals), translations with plural forms `\0`-joined,
 * strings in the PO file's charset, sorted by their bytes as msgfmt sorts them.
 * @example const mo = poToMo(poBytes, { filename: 'po/cs.po', language: 'cs', sourceLanguage: 'en' });
 */
export function poToMo(bytes: Uint8Array, ctx: FormatContext): Uint8Array {
  const { text, bom, charset } = decodePo(bytes, ctx.filename);
  const doc = parsePoText(text, bom, ctx.filename);
  const encode = (s: string) => encodePo(s, false, charset, ctx.filename);
  const pairs: Array<[Uint8Array, Uint8Array]> = [];
  const seen = new Set<string>();
  for (const e of doc.entries) {
    const header = isHeader(e) && !e.obsolete;
    if (!header && !(isContent(e) && compiled(e))) continue;
    const context = entryContext(e, doc.newline);
    const key = (context ? `${context}\x04` : '') + entrySource(e).join('\0');
    if (seen.has(key)) continue;
    seen.add(key);
    // msgfmt leaves POT-Creation-Date out of the header, so an MO file does not change with the template's date
    const value = header ? entryTarget(e)[0]!.replace(/^POT-Creation-Date:.*\n/m, '') : entryTarget(e).join('\0');
    pairs.push([encode(key), encode(value)]);
  }
  return writeMo(pairs);
}

/**
 * An MO file of these messages (original, translation: `msgctxt\x04msgid\0msgid_plural` and the forms `\0`-joined,
 * encoded), sorted by their bytes as msgfmt sorts them, without a hash table.
 */
export function writeMo(messages: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): Uint8Array {
  const pairs = [...messages].sort((a, b) => compare(a[0], b[0]));
  const n = pairs.length;
  const originals = 28;
  const translations = originals + n * 8;
  let offset = translations + n * 8;
  const size = offset + pairs.reduce((s, [k, v]) => s + k.length + v.length + 2, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 0, true);
  view.setUint32(8, n, true);
  view.setUint32(12, originals, true);
  view.setUint32(16, translations, true);
  view.setUint32(20, 0, true);
  view.setUint32(24, offset, true);
  const place = (table: number, i: number, s: Uint8Array) => {
    view.setUint32(table + i * 8, s.length, true);
    view.setUint32(table + i * 8 + 4, offset, true);
    out.set(s, offset);
    offset += s.length + 1;
  };
  pairs.forEach(([k], i) => place(originals, i, k));
  pairs.forEach(([, v], i) => place(translations, i, v));
  return out;
}

/** Where the MO file of `filename` goes: the add-on's `path` template (`{{ filename|stripext }}.mo` by default). */
export function moPath(filename: string, template: string | undefined, languageCode: string): string {
  const stripped = filename.replace(/\.[^./]*$/, '');
  const t = template && template.trim() !== '' ? template : '{{ filename|stripext }}.mo';
  return t
    .replace(/\{\{\s*filename\s*\|\s*stripext\s*\}\}/g, stripped)
    .replace(/\{\{\s*filename\s*\}\}/g, filename)
    .replace(/\{\{\s*language_code\s*\}\}/g, languageCode);
}
