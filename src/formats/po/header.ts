// The PO header entry: reading its fields, and updating them as Weblate does when it saves a translation.
import { quoteLines } from './quote.js';
import { type PoEntry, unquote } from './syntax.js';

/** Header fields in order: each line `Key: value` of the header's msgstr (lines without a colon are dropped). */
export function parseHeader(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (line === '' || colon < 0) continue;
    fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return fields;
}

export function headerText(entry: PoEntry): string {
  return unquote(entry.text, entry.msgstr ?? []);
}

/** Translate Toolkit's order for header fields it adds. */
const HEADER_ORDER = [
  'Project-Id-Version',
  'Report-Msgid-Bugs-To',
  'POT-Creation-Date',
  'PO-Revision-Date',
  'Last-Translator',
  'Language-Team',
  'Language',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Plural-Forms',
  'X-Accelerator-Marker',
  'X-Generator',
  'X-Merge-On',
];

/** `nplurals` and the formula of a Plural-Forms value, or null when it does not read as one. */
export function parsePluralForms(value: string | undefined): { number: number; formula: string } | null {
  if (!value) return null;
  const m = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]*);?\s*$/.exec(value);
  if (!m) return null;
  return { number: Number(m[1]), formula: m[2]!.trim() || '0' };
}

/** What Weblate writes into the header of a translation it saves. */
export interface HeaderUpdate {
  /** `Full Name <email>` */
  lastTranslator: string;
  /** Already formatted: `YYYY-MM-DD HH:MM+0000`. */
  revisionDate: string;
  /** The translation's language code as in the file name. */
  language: string;
  /** Used only when the file's own Plural-Forms is missing or unreadable: `nplurals=N; plural=EXPR;`. */
  pluralForms: string | null;
  generator: string;
  /** `Language name <URL of the translation>`; null leaves the field as it is. */
  languageTeam: string | null;
  /** The component's "source string bug report" address; null leaves the field as it is. */
  reportBugsTo: string | null;
}

/** Weblate's date format for PO-Revision-Date (an aware UTC time). */
export function revisionDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())} ${p(date.getUTCHours())}:${p(date.getUTCMinutes())}+0000`;
}

/**
 * The header fields after Weblate's update (Translate Toolkit's `updateheader(add=True)`): present fields change in
 * place, missing ones are appended in the toolkit's order, Poedit's language fields go, Content-Type and
 * Content-Transfer-Encoding placeholders are fixed.
 */
export function updatedHeader(fields: Map<string, string>, update: HeaderUpdate): Map<string, string> {
  const set = new Map<string, string | null>();
  set.set('Last-Translator', update.lastTranslator);
  set.set('PO-Revision-Date', update.revisionDate);
  if (update.language.length > 1) {
    set.set('Language', update.language);
    set.set('X-Poedit-Language', null);
    set.set('X-Poedit-Country', null);
  }
  if (!parsePluralForms(fields.get('Plural-Forms')) && update.pluralForms) set.set('Plural-Forms', update.pluralForms);
  set.set('X-Generator', update.generator);
  if (update.languageTeam !== null) set.set('Language-Team', update.languageTeam);
  if (update.reportBugsTo !== null) set.set('Report-Msgid-Bugs-To', update.reportBugsTo);
  const contentType = fields.get('Content-Type');
  if (contentType === undefined || contentType.includes('charset=CHARSET') || contentType.includes('charset=ASCII')) {
    set.set('Content-Type', 'text/plain; charset=UTF-8');
  }
  // field names compare case-insensitively, as the toolkit's dictionary does
  const lookup = new Map([...set.keys()].map((k) => [k.toLowerCase(), k]));
  const out = new Map<string, string | null>();
  for (const [key, value] of fields) {
    const k = lookup.get(key.toLowerCase());
    if (k !== undefined) {
      out.set(key, set.get(k)!);
      set.delete(k);
    } else {
      out.set(key, value);
    }
  }
  for (const key of HEADER_ORDER) {
    if (set.has(key)) {
      out.set(key, set.get(key)!);
      set.delete(key);
    }
  }
  for (const [key, value] of set) out.set(key, value);
  const result = new Map<string, string>();
  for (const [key, value] of out) if (value !== null) result.set(key, value);
  const ct = result.get('Content-Type');
  if (ct === undefined || ct.includes('charset=CHARSET')) result.set('Content-Type', 'text/plain; charset=UTF-8');
  const cte = result.get('Content-Transfer-Encoding');
  if (cte === undefined || cte.includes('ENCODING')) result.set('Content-Transfer-Encoding', '8bit');
  return result;
}

/** The header's msgstr lines for these fields, wrapped as the toolkit quotes them. */
export function headerLines(fields: Map<string, string>, width: number): string[] {
  let text = '';
  for (const [key, value] of fields) text += `${key}: ${value}\n`;
  return quoteLines(text, width);
}

/** A header for a file that has none (Translate Toolkit's `makeheader`), with Weblate's fields. */
export function newHeaderFields(update: HeaderUpdate): Map<string, string> {
  const fields = new Map<string, string>([
    ['Project-Id-Version', 'PACKAGE VERSION'],
    ['Report-Msgid-Bugs-To', update.reportBugsTo ?? ''],
    ['POT-Creation-Date', update.revisionDate],
    ['PO-Revision-Date', update.revisionDate],
    ['Last-Translator', update.lastTranslator],
    ['Language-Team', update.languageTeam ?? 'LANGUAGE <LL@li.org>'],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=UTF-8'],
    ['Content-Transfer-Encoding', '8bit'],
  ]);
  if (update.pluralForms) fields.set('Plural-Forms', update.pluralForms);
  fields.set('X-Generator', update.generator);
  return updatedHeader(fields, update);
}
