// One Format per JSON variant: parse (entries → Weblate units), minimal-diff write and new-file creation.
import { FormatWriteError } from '../../domain/errors.js';
import { joinPlural } from '../../domain/unit.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../format.js';
import { pluralTags } from '../plural-tags.js';
import { decodeUtf8 } from '../text.js';
import { type Entry, type Variant, readEntries } from './entries.js';
import { Patch } from './patch.js';
import { type JsonNode, findMember, parseJsonText } from './syntax.js';
import { type JsonInternal, bilingualUnits, monolingualUnits, templateEntries } from './units.js';
import { EntryWriter } from './writer.js';

export interface VariantSpec {
  id: Variant;
  name: string;
  monolingual: boolean | null;
  extension: string;
  /** Bytes of a new, empty translation file. */
  skeleton: string;
  languageCodeStyle?: Format['languageCodeStyle'];
}

const encoder = new TextEncoder();

interface Loaded {
  text: string;
  root: JsonNode;
  entries: Entry[];
}

function load(spec: VariantSpec, bytes: Uint8Array, filename: string, language: string, plurals?: number): Loaded {
  const text = decodeUtf8(bytes, filename);
  const root = parseJsonText(text, filename, { comments: spec.id === 'webextension' });
  const entries = readEntries(spec.id, root, text, filename, { tags: pluralTags(language, plurals) });
  return { text, root, entries };
}

/** The last write per unit identity, in the order units were first written. */
function lastWritePerUnit(edits: readonly UnitWrite[], monolingual: boolean): Map<string, UnitWrite> {
  const byId = new Map<string, UnitWrite>();
  for (const e of edits) byId.set(monolingual ? e.context : joinPlural(e.source) + e.context, e);
  return byId;
}

function writeEdits(spec: VariantSpec, bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  const { text, root, entries } = load(spec, bytes, ctx.filename, ctx.language, ctx.plurals);
  const patch = new Patch(text, root, ctx.filename);
  const writer = new EntryWriter(spec.id, patch, pluralTags(ctx.language, ctx.plurals));
  const template = ctx.template ? templateEntries(ctx.template, spec.id) : null;
  // the entry a listing shows: last in the file for monolingual lookups, first for bilingual ones
  const inFile = new Map<string, Entry>();
  if (template) for (const e of entries) inFile.set(e.context, e);
  else for (const e of entries) if (!inFile.has(e.key)) inFile.set(e.key, e);
  const inTemplate = new Map<string, Entry>();
  for (const t of template ?? []) if (!inTemplate.has(t.context)) inTemplate.set(t.context, t);

  for (const [identity, edit] of lastWritePerUnit(edits, template !== null)) {
    const entry = inFile.get(identity);
    const templateEntry = template ? (inTemplate.get(identity) ?? null) : null;
    if (edit.remove) {
      if (entry) writer.remove(entry);
      continue;
    }
    const forms = edit.target.length > 0 ? edit.target : [''];
    if (entry) {
      writer.set(entry, forms, templateEntry);
    } else {
      const key = template ? edit.context : identity;
      if (key === '' && !templateEntry) throw new FormatWriteError(ctx.filename, 'cannot add a unit without a key');
      writer.add(templateEntry, key, forms);
    }
  }
  return encoder.encode(patch.apply());
}

function createFile(spec: VariantSpec, base: Uint8Array | null, ctx: FormatContext): Uint8Array {
  if (!base) return encoder.encode(spec.skeleton);
  const { text, root, entries } = load(spec, base, ctx.filename, ctx.sourceLanguage);
  const tags = pluralTags(ctx.language, ctx.plurals);
  const patch = new Patch(text, root, ctx.filename);
  const writer = new EntryWriter(spec.id, patch, tags);
  const pluralCount = spec.id === 'i18next' ? (ctx.plurals ?? tags.length) : tags.length;
  for (const entry of entries) {
    if (entry.plural) {
      writer.set(entry, Array(pluralCount).fill(''), null);
      writer.clearUnusedCategories(entry);
    } else if (entry.forms.some((f) => f !== '')) writer.set(entry, [''], null);
  }
  if (spec.id === 'arb' && root.type === 'object') {
    // Weblate keeps the base's @@locale (a known bug); a new file names its own language
    const locale = findMember(root, '@@locale');
    if (locale?.value.type === 'string') patch.replace(locale.value, patch.str(ctx.language));
  }
  return encoder.encode(patch.apply());
}

/** Builds the Format for one JSON variant. */
export function makeJsonFormat(spec: VariantSpec): Format {
  return {
    id: spec.id,
    name: spec.name,
    monolingual: spec.monolingual,
    extension: spec.extension,
    mimeType: 'application/json',
    languageCodeStyle: spec.languageCodeStyle,
    parse(bytes: Uint8Array, ctx: FormatContext): ParsedFile {
      const { entries } = load(spec, bytes, ctx.filename, ctx.language, ctx.plurals);
      const internal: JsonInternal = { family: 'json', variant: spec.id, entries };
      if (ctx.template) {
        return { units: monolingualUnits(templateEntries(ctx.template, spec.id), entries), monolingual: true, internal };
      }
      return { units: bilingualUnits(entries), monolingual: false, internal };
    },
    parseTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile {
      const { entries } = load(spec, bytes, ctx.filename, ctx.language, ctx.plurals);
      const internal: JsonInternal = { family: 'json', variant: spec.id, entries };
      return { units: own ? monolingualUnits(entries, entries) : [], monolingual: true, internal };
    },
    write(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
      if (edits.length === 0) return bytes.slice();
      return writeEdits(spec, bytes, edits, ctx);
    },
    create(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
      return createFile(spec, base, ctx);
    },
  };
}
