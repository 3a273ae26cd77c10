// Downloads in another format (Weblate's exporters, `…/file/?format=`): a translation's units written as XLIFF, TMX, CSV, JSON, PO or MO.
export type { ExportContext, ExportUnit, Exporter } from './types.js';
import { State, type UnitState } from '../../domain/unit.js';
import { writeTmx } from '../memory/tmx.js';
import { targetContent } from '../xliff/write.js';
import { escapeAttribute, escapeText, stripInvalidXmlChars } from '../xml/escape.js';
import { writeMoExport, writePoExport } from './po.js';
import { type ExportContext, type ExportUnit, type Exporter, unitLocations } from './types.js';

const encoder = new TextEncoder();

/** Weblate's XML exporters drop control characters other than tab, line feed and carriage return. */
function xmlSafe(s: string): string {
  return stripInvalidXmlChars(s);
}

/** `file:line` → the two contexts of a location group; a location without a line number is the file alone. */
function locationContexts(location: string): string {
  const colon = location.lastIndexOf(':');
  const line = colon > 0 ? location.slice(colon + 1) : '';
  if (colon > 0 && /^\d+$/.test(line)) {
    return `<context context-type="sourcefile">${escapeText(location.slice(0, colon))}</context><context context-type="linenumber">${line}</context>`;
  }
  return `<context context-type="sourcefile">${escapeText(location)}</context>`;
}

/** The XLIFF markup of a text: inline XML kept where the text parses as XML (Weblate's xliff_string_to_rich), else escaped. */
function xliffText(text: string): string {
  return targetContent(xmlSafe(text), true, 'preserve', 'export').inner;
}

function targetState(state: UnitState): string | null {
  if (state === State.FUZZY) return 'needs-translation';
  if (state === State.TRANSLATED || state === State.READONLY) return 'translated';
  if (state === State.APPROVED) return 'final';
  return null;
}

function flagAttributes(flags: string): string {
  if (flags === '') return '';
  const maxLength = /(?:^|, )max-length:(\d+)(?:,|$)/.exec(flags);
  return `${maxLength ? ` maxwidth="${maxLength[1]}"` : ''} weblate-flags="${escapeAttribute(flags)}"`;
}

/** One `<trans-unit>`: source, target with Weblate's state, locations, the note. */
function transUnit(id: string, source: string, target: string, u: ExportUnit, extras: string, indent: string, locationGroup: string): string {
  const approved = u.state === State.APPROVED ? ' approved="yes"' : '';
  let out = `${indent}<trans-unit id="${escapeAttribute(id)}" xml:space="preserve"${approved}${extras}>\n`;
  out += `${indent}  <source>${xliffText(source)}</source>\n`;
  const state = targetState(u.state);
  if (target !== '') out += `${indent}  <target${state ? ` state="${state}"` : ''}>${xliffText(target)}</target>\n`;
  for (const location of unitLocations(u.location)) out += `${indent}  <context-group ${locationGroup}>${locationContexts(location)}</context-group>\n`;
  if (u.note !== '') out += `${indent}  <note from="developer">${escapeText(xmlSafe(u.note))}</note>\n`;
  return `${out}${indent}</trans-unit>\n`;
}

/**
 * XLIFF 1.1 as Weblate's exporters write it: `<file original="NoName">`, each unit's id its context (else its
 * checksum), `weblate-flags` and `maxwidth` from the flags. `gettextPlurals` (the `xliff` exporter, Translate
 * Toolkit's PoXliffFile) writes plural units as `x-gettext-plurals` groups; `xliff11` keeps their first form.
 */
function writeXliff(units: readonly ExportUnit[], ctx: ExportContext, gettextPlurals: boolean): Uint8Array {
  const locationGroup = gettextPlurals ? 'name="po-reference" purpose="location"' : 'purpose="location"';
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.1" version="1.1">\n';
  out += `  <file original="NoName" source-language="${escapeAttribute(ctx.sourceLanguage)}" datatype="plaintext" target-language="${escapeAttribute(ctx.language)}">\n    <body>\n`;
  for (const u of units) {
    const id = u.context !== '' ? u.context : u.checksum;
    const flags = flagAttributes(u.flags);
    const plural = u.source.length > 1 || u.target.length > 1;
    if (!plural || !gettextPlurals) {
      out += transUnit(id, u.source[0] ?? '', u.target[0] ?? '', u, flags, '      ', locationGroup);
      continue;
    }
    const approved = u.state === State.APPROVED ? ' approved="yes"' : '';
    out += `      <group restype="x-gettext-plurals" id="${escapeAttribute(id)}"${approved}${flags}>\n`;
    const forms = Math.max(u.source.length, u.target.length);
    for (let i = 0; i < forms; i++) {
      // more target forms than source forms repeat the last source, as Translate Toolkit does
      const source = u.source[Math.min(i, u.source.length - 1)] ?? '';
      const single: ExportUnit = {
        ...u,
        note: i === 0 ? u.note : '',
        location: i === 0 ? u.location : '',
        state: u.state === State.APPROVED ? State.TRANSLATED : u.state,
      };
      out += transUnit(`${id}[${i}]`, source, u.target[i] ?? '', single, '', '        ', locationGroup);
    }
    out += '      </group>\n';
  }
  out += '    </body>\n  </file>\n</xliff>\n';
  return encoder.encode(out);
}

/** Weblate's CSV exporter keeps spreadsheets from reading a text as a formula: `'=1+1'`. */
function csvFormulaSafe(text: string): string {
  if (text !== '' && '=+-@|%'.includes(text[0]!)) return `'${text.replaceAll('|', '\\|')}'`;
  return text;
}

/** A CSV field as Translate Toolkit's dialect writes it: always quoted, quotes doubled, backslashes escaped. */
function csvField(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '""')}"`;
}

const CSV_FIELDS = ['location', 'source', 'target', 'id', 'fuzzy', 'context', 'translator_comments', 'developer_comments'];

function writeCsv(units: readonly ExportUnit[]): Uint8Array {
  const rows = [CSV_FIELDS.map(csvField).join(',')];
  for (const u of units) {
    const values = [
      u.location,
      csvFormulaSafe(u.source[0] ?? ''),
      csvFormulaSafe(u.target[0] ?? ''),
      '',
      u.state === State.FUZZY ? 'True' : 'False',
      csvFormulaSafe(u.context),
      '',
      csvFormulaSafe(u.note),
    ];
    rows.push(values.map(csvField).join(','));
  }
  return encoder.encode(`${rows.join('\r\n')}\r\n`);
}

/** Weblate's JSON exporter (monolingual components only): `{ key: target }`, indented by four spaces. */
function writeJson(units: readonly ExportUnit[]): Uint8Array {
  const out: Record<string, string> = {};
  for (const u of units) out[u.context] = u.target[0] ?? '';
  return encoder.encode(`${JSON.stringify(out, null, 4)}\n`);
}

const always = () => true;

const exporters: Exporter[] = [
  { id: 'xliff', extension: 'xlf', mimeType: 'application/x-xliff+xml', supports: always, write: (units, ctx) => writeXliff(units, ctx, true) },
  { id: 'xliff11', extension: 'xlf', mimeType: 'application/x-xliff+xml', supports: always, write: (units, ctx) => writeXliff(units, ctx, false) },
  {
    id: 'tmx',
    extension: 'tmx',
    mimeType: 'application/x-tmx',
    supports: always,
    write: (units, ctx) =>
      writeTmx(
        units.map((u) => ({
          source: xmlSafe(u.source[0] ?? ''),
          target: xmlSafe(u.target[0] ?? ''),
          sourceLanguage: ctx.sourceLanguage,
          targetLanguage: ctx.language,
          note: xmlSafe(u.note),
        })),
      ),
  },
  { id: 'csv', extension: 'csv', mimeType: 'text/csv', supports: always, write: (units) => writeCsv(units) },
  // Weblate's JSON exporter is monolingual: keys are the units' contexts
  { id: 'json', extension: 'json', mimeType: 'application/json', supports: (ctx) => ctx.monolingual, write: (units) => writeJson(units) },
  { id: 'po', extension: 'po', mimeType: 'text/x-po', supports: always, write: writePoExport },
  // Weblate's MO exporter takes gettext PO components only (monolingual ones too since a 2024 fix)
  {
    id: 'mo',
    extension: 'mo',
    mimeType: 'application/x-gettext-catalog',
    supports: (ctx) => ctx.fileFormat === 'po' || ctx.fileFormat === 'po-mono',
    write: writeMoExport,
  },
];

/** Weblate's exporters that tms offers, by `?format=` id. */
export const EXPORTERS: ReadonlyMap<string, Exporter> = new Map(exporters.map((e) => [e.id, e]));
