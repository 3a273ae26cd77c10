// Minimal-diff writes of Android resource files: an edited value replaces that element's content only, new keys
// are appended before </resources> as Weblate appends them, and new files start from Weblate's skeleton.
import { FormatWriteError } from '../../domain/errors.js';
import { State } from '../../domain/unit.js';
import type { FormatContext, UnitWrite } from '../format.js';
import { CLDR_CATEGORIES, baseLanguageTags } from '../plural-tags.js';
import { decodeUtf8 } from '../text.js';
import { escapeText } from '../xml/escape.js';
import { endOfLineAfter, indentAt, lineEnding, lineStart } from '../xml/position.js';
import { XmlScanner, XmlToken } from '../xml/scanner.js';
import { type AndroidDocument, type AndroidEntry, type AndroidText, type MarkupMode, readAndroidDocument } from './document.js';
import { escapeAndroid } from './escape.js';
import { indexByName } from './units.js';

/** Weblate's new, empty Android file. */
export const ANDROID_SKELETON = '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>';

// Android lint wants these decimal categories too; Translate Toolkit writes a copy of the last form for them.
const DECIMAL_EXTRA_TAGS: Readonly<Record<string, readonly string[]>> = {
  be: ['other'],
  cs: ['many'],
  gv: ['many'],
  lt: ['many'],
  pl: ['other'],
  ru: ['other'],
  sgs: ['many'],
  sk: ['many'],
  uk: ['other'],
};

const encoder = new TextEncoder();

/** Splices replacements into a text, applied from the end so that earlier offsets stay valid. */
class Splice {
  private readonly edits: { start: number; end: number; text: string }[] = [];
  constructor(readonly text: string) {}
  replace(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
  }
  apply(): string {
    let out = this.text;
    const sorted = [...this.edits].sort((a, b) => b.start - a.start || b.end - a.end);
    for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }
}

/** A translation with inline markup, as element content; null when it is not well-formed XML. */
function markupContent(form: string): string | null {
  const wrapped = `<string>${form}</string>`;
  let s: XmlScanner;
  let out = '';
  try {
    s = new XmlScanner(wrapped, 'translation');
    for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
      if (s.depth === 1 && (kind === XmlToken.StartTag || kind === XmlToken.EndTag)) continue;
      const raw = wrapped.slice(s.start, s.end);
      // text between tags keeps its entities and gets Android's escapes, spaces kept by \u0020
      out += kind === XmlToken.Text ? escapeAndroid(raw, false) : raw;
    }
  } catch {
    return null;
  }
  return out;
}

function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/**
 * The element content for a translation in a markup mode: plain text escaped for Android and XML; in `xml` mode a
 * translation holding `<` or `&` that is well-formed XML keeps its tags as elements; in `cdata` mode the value
 * goes into a CDATA section.
 */
export function encodeContent(form: string, mode: MarkupMode): string {
  if (mode === 'cdata') return cdata(markupContent(form) ?? escapeAndroid(form));
  if (mode === 'xml' && (form.includes('<') || form.includes('&'))) {
    const markup = markupContent(form);
    if (markup !== null) return markup;
  }
  return escapeText(escapeAndroid(form));
}

/** The start tag as written, opened up when self-closing, with `extra` attributes added at its end. */
function startTagOf(text: string, t: AndroidText, startTagEnd: number, extra = ''): string {
  const tag = text.slice(t.start, startTagEnd);
  return t.selfClosing ? `${tag.slice(0, -2).trimEnd()}${extra}>` : `${tag.slice(0, -1)}${extra}>`;
}

/** An element with new content (null: content unchanged) and `extra` attributes, its start tag otherwise kept as written. */
function replaceText(splice: Splice, text: string, t: AndroidText, startTagEnd: number, tagName: string, content: string | null, extra = ''): void {
  if (t.selfClosing && content !== null) {
    splice.replace(t.start, t.end, `${startTagOf(text, t, startTagEnd, extra)}${content}</${tagName}>`);
    return;
  }
  if (extra !== '') {
    const at = t.selfClosing ? text.lastIndexOf('/', startTagEnd) : startTagEnd - 1;
    splice.replace(at, at, extra);
  }
  if (content !== null) splice.replace(t.contentStart, t.contentEnd, content);
}

/** The mode new values of an entry are written in: its texts' strongest mode, `xml` by default (Translate Toolkit's order). */
function entryMode(entry: AndroidEntry): MarkupMode {
  const texts = entry.kind === 'string' ? [entry.text] : entry.items;
  for (const mode of ['xml', 'cdata', 'escaped', 'plain'] as const) if (texts.some((t) => t.mode === mode)) return mode;
  return 'xml';
}

/** The quantities and forms Translate Toolkit writes: the language's tags, decimal extras, `other` after `many`. */
function pluralItems(forms: readonly string[], language: string): { tag: string; form: string; extra: boolean }[] {
  let tags = [...baseLanguageTags(language)];
  const own = tags.length;
  const strings = tags.map((_, i) => forms[i] ?? '');
  const base = language.replace(/^b\+/, '').replace(/[_+]/g, '-').split('-')[0]!;
  for (const extra of DECIMAL_EXTRA_TAGS[base] ?? []) {
    if (!tags.includes(extra)) {
      tags = [...tags, extra];
      strings.push(strings[strings.length - 1] ?? '');
    }
  }
  if (!tags.includes('other') && tags.includes('many')) {
    tags.push('other');
    strings.push(strings[strings.length - 1] ?? '');
  }
  const order = (tag: string) => (CLDR_CATEGORIES as readonly string[]).indexOf(tag);
  return tags
    .map((tag, i) => ({ tag, form: strings[i]!, extra: i >= own }))
    .sort((a, b) => order(a.tag) - order(b.tag))
    .filter((p) => p.form !== '');
}

interface Layout {
  nl: string;
  /** Indentation of entries under <resources>. */
  indent: string;
}

function layoutOf(doc: AndroidDocument): Layout {
  const nl = lineEnding(doc.text);
  for (const e of doc.entries) {
    const indent = indentAt(doc.text, e.text.start);
    if (indent !== null) return { nl, indent };
  }
  return { nl, indent: '    ' };
}

/**
 * The `<item>` elements of a plural value; an item whose value did not change keeps its bytes, and so does an
 * existing item of a quantity the unit does not show (a decimal-only one such as Czech `many`), where
 * Translate Toolkit would write a copy of the last form over it.
 */
function itemsText(text: string, entry: AndroidEntry | null, forms: readonly string[], language: string, mode: MarkupMode): string[] {
  const existing = new Map<string, AndroidEntry['items'][number]>();
  for (const item of entry?.items ?? []) existing.set(item.quantity, item);
  return pluralItems(forms, language).map(({ tag, form, extra }) => {
    const old = existing.get(tag);
    if (old && (old.value === form || extra)) return text.slice(old.start, old.end);
    return `<item quantity="${tag}">${encodeContent(form, mode)}</item>`;
  });
}

function setPlurals(splice: Splice, text: string, entry: AndroidEntry, forms: readonly string[], language: string, layout: Layout, extra: string): void {
  const items = itemsText(text, entry, forms, language, entryMode(entry));
  const first = entry.items[0];
  const last = entry.items[entry.items.length - 1];
  const own = indentAt(text, entry.text.start) ?? layout.indent;
  if (first && last && !entry.text.selfClosing) {
    replaceText(splice, text, entry.text, entry.startTagEnd, 'plurals', null, extra);
    const second = entry.items[1];
    const separator = second ? text.slice(first.end, second.start) : `${layout.nl}${indentAt(text, first.start) ?? `${own}${layout.indent}`}`;
    if (items.length > 0) splice.replace(first.start, last.end, items.join(separator));
    else splice.replace(entry.text.contentStart, entry.text.contentEnd, `${layout.nl}${own}`);
    return;
  }
  const inner = `${own}${layout.indent}`;
  const content = items.length > 0 ? `${layout.nl}${inner}${items.join(`${layout.nl}${inner}`)}${layout.nl}${own}` : '';
  replaceText(splice, text, entry.text, entry.startTagEnd, 'plurals', content, extra);
}

function setEntry(splice: Splice, text: string, entry: AndroidEntry, edit: UnitWrite, language: string, layout: Layout): void {
  const forms = edit.target.length > 0 ? edit.target : [''];
  // Weblate marks a unit made read-only translatable="false" in the file
  const extra = edit.state === State.READONLY && entry.translatable ? ' translatable="false"' : '';
  if (entry.kind === 'string' && forms.length === 1) {
    const content = entry.text.value === forms[0] ? null : encodeContent(forms[0]!, entryMode(entry));
    replaceText(splice, text, entry.text, entry.startTagEnd, 'string', content, extra);
  } else if (entry.kind === 'plurals') {
    setPlurals(splice, text, entry, forms, language, layout, extra);
  } else {
    // a <string> that now holds plural forms becomes <plurals>, its attributes kept
    const own = indentAt(text, entry.text.start) ?? layout.indent;
    splice.replace(entry.text.start, entry.text.end, newElement(text, entry, entry.name ?? edit.context, forms, language, layout, own));
  }
}

/** A new element for a key: the template's start tag (its attributes) with the translation as content. */
function newElement(text: string, template: AndroidEntry | null, key: string, forms: readonly string[], language: string, layout: Layout, own: string): string {
  const plural = forms.length > 1 || template?.kind === 'plurals';
  const tagName = plural ? 'plurals' : 'string';
  let startTag = `<${tagName} name="${escapeText(key).replaceAll('"', '&quot;')}">`;
  if (template && template.kind === tagName) startTag = startTagOf(text, template.text, template.startTagEnd);
  else if (template) startTag = startTagOf(text, template.text, template.startTagEnd).replace(/^<(string|plurals)\b/, `<${tagName}`);
  if (!plural) return `${startTag}${encodeContent(forms[0] ?? '', 'xml')}</string>`;
  const items = itemsText(text, null, forms, language, 'xml');
  if (items.length === 0) return `${startTag}</plurals>`;
  const inner = `${own}${layout.indent}`;
  return `${startTag}${layout.nl}${inner}${items.join(`${layout.nl}${inner}`)}${layout.nl}${own}</plurals>`;
}

function appendElements(splice: Splice, doc: AndroidDocument, elements: readonly string[], layout: Layout): void {
  if (elements.length === 0) return;
  const { text } = doc;
  const lines = elements.map((e) => `${layout.indent}${e}${layout.nl}`).join('');
  if (doc.rootSelfClosing) {
    const tag = text.slice(0, doc.rootStartTagEnd);
    const open = tag.slice(tag.lastIndexOf('<')).slice(0, -2).trimEnd();
    splice.replace(doc.rootStartTagEnd - (tag.length - tag.lastIndexOf('<')), doc.rootStartTagEnd, `${open}>${layout.nl}${lines}</resources>`);
    return;
  }
  const close = doc.rootCloseStart;
  if (indentAt(text, close) !== null && lineStart(text, close) > doc.rootStartTagEnd) splice.replace(lineStart(text, close), lineStart(text, close), lines);
  else splice.replace(close, close, `${layout.nl}${lines}`);
}

function removeEntry(splice: Splice, text: string, entry: AndroidEntry): void {
  let start = entry.notesStart;
  if (indentAt(text, start) !== null) start = lineStart(text, start);
  splice.replace(start, endOfLineAfter(text, entry.text.end) ?? entry.text.end, '');
}

function templateEntries(ctx: FormatContext): Map<string, AndroidEntry> {
  const internal = ctx.template?.internal as { androidDocument?: AndroidDocument } | undefined;
  const index = new Map<string, AndroidEntry>();
  for (const e of internal?.androidDocument?.entries ?? []) if (e.name !== null && !index.has(e.name)) index.set(e.name, e);
  return index;
}

/**
 * Applies edits: an edited unit's element content is replaced (plural items that did not change keep their
 * bytes), removed units lose their element and comments, keys missing from the file are added before
 * `</resources>` with the template element's attributes. No edits: the same bytes.
 * @example writeAndroid(bytes, [{ context: 'app_name', source: ['App'], target: ['Aplikace'], state: 20 }], ctx)
 */
export function writeAndroid(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  if (edits.length === 0) return bytes.slice();
  const doc = readAndroidDocument(decodeUtf8(bytes, ctx.filename), ctx.filename);
  const splice = new Splice(doc.text);
  const layout = layoutOf(doc);
  const index = indexByName(doc);
  const template = templateEntries(ctx);
  const last = new Map<string, UnitWrite>();
  for (const e of edits) last.set(e.context, e);
  const added: string[] = [];
  for (const [key, edit] of last) {
    const entry = index.get(key);
    if (edit.remove) {
      if (entry) removeEntry(splice, doc.text, entry);
      continue;
    }
    if (entry) {
      setEntry(splice, doc.text, entry, edit, ctx.language, layout);
      continue;
    }
    if (key === '') throw new FormatWriteError(ctx.filename, 'cannot add a string without a name');
    if (edit.target.every((t) => t === '')) continue;
    const t = template.get(key) ?? null;
    const templateText = (ctx.template?.internal as { androidDocument?: AndroidDocument } | undefined)?.androidDocument?.text ?? doc.text;
    added.push(newElement(templateText, t, key, edit.target, ctx.language, layout, layout.indent));
  }
  appendElements(splice, doc, added, layout);
  const out = splice.apply();
  return out === doc.text ? bytes.slice() : encoder.encode(out);
}

/**
 * A new translation file: Weblate's skeleton, or `base` without its translatable strings (Weblate empties them
 * and its blank-string cleanup, installed with every Android component, removes them before the commit).
 * @example createAndroid(null, ctx) // '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>'
 */
export function createAndroid(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
  if (base === null) return encoder.encode(ANDROID_SKELETON);
  const doc = readAndroidDocument(decodeUtf8(base, ctx.filename), ctx.filename);
  const splice = new Splice(doc.text);
  for (const e of doc.entries) if (e.name !== null) removeEntry(splice, doc.text, e);
  return encoder.encode(splice.apply());
}
