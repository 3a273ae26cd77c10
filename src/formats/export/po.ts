// gettext PO and MO downloads of a translation (Weblate's PoExporter and MoExporter over Translate Toolkit's pofile and mofile).
import { State } from '../../domain/unit.js';
import { headerLines, revisionDate } from '../po/header.js';
import { writeMo } from '../po/mo.js';
import { DEFAULT_WIDTH, quoteLines } from '../po/quote.js';
import { part } from '../po/write.js';
import { type ExportContext, type ExportUnit, unitLocations } from './types.js';

const encoder = new TextEncoder();

/**
 * The header Weblate's exporters give a new store (Translate Toolkit's fresh header, then `updateheader(add=True)`):
 * the project and language names, the translation's address as Language-Team, the translation's Plural-Forms.
 * An MO file's has no POT-Creation-Date (the toolkit's mofile makes none).
 */
function headerFields(ctx: ExportContext, mo: boolean): Map<string, string> {
  const fields = new Map<string, string>([
    ['Project-Id-Version', `${ctx.languageName} (${ctx.projectName})`],
    ['Report-Msgid-Bugs-To', ''],
  ]);
  if (!mo) fields.set('POT-Creation-Date', revisionDate(ctx.date));
  fields.set('PO-Revision-Date', 'YEAR-MO-DA HO:MI+ZONE');
  fields.set('Last-Translator', 'FULL NAME <EMAIL@ADDRESS>');
  fields.set('Language-Team', `${ctx.languageName} <${ctx.url}>`);
  fields.set('Language', ctx.language);
  fields.set('MIME-Version', '1.0');
  fields.set('Content-Type', 'text/plain; charset=UTF-8');
  fields.set('Content-Transfer-Encoding', '8bit');
  fields.set('Plural-Forms', `nplurals=${ctx.plural.number}; plural=${ctx.plural.formula};`);
  fields.set('X-Generator', 'tms');
  return fields;
}

/** A plural unit's target in the translation's number of forms (Weblate's `get_target_plurals`), a singular's one form. */
function targetForms(u: ExportUnit, ctx: ExportContext): string[] {
  if (u.source.length < 2) return [u.target[0] ?? ''];
  return Array.from({ length: ctx.plural.number }, (_, i) => u.target[i] ?? '');
}

/** One entry as the toolkit's pofile writes it: developer notes, locations, sorted flags (fuzzy among them), the message. */
function entryLines(u: ExportUnit, ctx: ExportContext): string[] {
  const out: string[] = [];
  if (u.note !== '') for (const line of u.note.split('\n')) out.push(`#. ${line}`);
  for (const location of unitLocations(u.location)) out.push(`#: ${location}`);
  const flags = u.flags.split(/,\s*/).filter((f) => f !== '' && f !== 'fuzzy');
  if (u.state === State.FUZZY) flags.push('fuzzy');
  if (flags.length > 0) out.push(`#, ${flags.sort().join(', ')}`);
  if (u.context !== '') out.push(...part('msgctxt', quoteLines(u.context, DEFAULT_WIDTH)));
  out.push(...part('msgid', quoteLines(u.source[0] ?? '', DEFAULT_WIDTH)));
  const target = targetForms(u, ctx);
  if (u.source.length < 2) {
    out.push(...part('msgstr', quoteLines(target[0]!, DEFAULT_WIDTH)));
  } else {
    out.push(...part('msgid_plural', quoteLines(u.source[1]!, DEFAULT_WIDTH)));
    target.forEach((t, i) => out.push(...part(`msgstr[${i}]`, quoteLines(t, DEFAULT_WIDTH))));
  }
  return out;
}

/**
 * Weblate's `po` exporter, offered for every translation: the header above, then each unit with its context as
 * msgctxt (a monolingual component's key), its source as msgid, notes, locations, flags and fuzzy state.
 */
export function writePoExport(units: readonly ExportUnit[], ctx: ExportContext): Uint8Array {
  const entries = [[...part('msgid', ['""']), ...part('msgstr', headerLines(headerFields(ctx, false), DEFAULT_WIDTH))]];
  for (const u of units) entries.push(entryLines(u, ctx));
  return encoder.encode(`${entries.map((e) => e.join('\n')).join('\n\n')}\n`);
}

/**
 * Weblate's `mo` exporter (gettext PO components only): the header and the translated strings (fuzzy and empty ones
 * left out, partly translated plurals kept); a monolingual component's key is the msgid, or the msgctxt of an empty
 * msgid where its template has no source text.
 */
export function writeMoExport(units: readonly ExportUnit[], ctx: ExportContext): Uint8Array {
  let header = '';
  for (const [key, value] of headerFields(ctx, true)) header += `${key}: ${value}\n`;
  const messages = new Map<string, string>([['', header]]);
  const useContext = ctx.monolingual && (units[0]?.source[0] ?? '') === '';
  for (const u of units) {
    if (u.state < State.TRANSLATED) continue;
    const [source, context] = !ctx.monolingual ? [u.source.join('\0'), u.context] : useContext ? ['', u.context] : [u.context, ''];
    messages.set(context ? `${context}\x04${source}` : source, targetForms(u, ctx).join('\0'));
  }
  return writeMo([...messages].map(([k, v]) => [encoder.encode(k), encoder.encode(v)] as const));
}
