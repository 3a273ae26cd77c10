// Writing TBX by splicing the original text: only edited terms, notes and entries change, in the file's own layout.
import { FormatWriteError } from '../../domain/errors.js';
import { unitIdHash } from '../../domain/hash.js';
import type { FormatContext, UnitWrite } from '../format.js';
import { escapeAttribute, escapeText } from '../xml/escape.js';
import { type Dialect, type TbxEntry, type TbxModel, normalizeLanguage, readTbx } from './read.js';
import { type XmlElement, elementChildren } from './xml-tree.js';

interface Splice {
  start: number;
  end: number;
  text: string;
}

const encoder = new TextEncoder();

/** TT's new-file skeleton, with the source language set on `<martif>` as Weblate's first save does. */
export function skeleton(sourceLanguage: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE martif PUBLIC "ISO 12200:1999A//DTD MARTIF core (DXFcdV04)//EN" "TBXcdv04.dtd">',
    `<martif type="TBX" xml:lang="${escapeAttribute(sourceLanguage)}">`,
    '<martifHeader>',
    '<fileDesc>',
    '<sourceDesc><p>Translate Toolkit</p></sourceDesc>',
    '</fileDesc>',
    '</martifHeader>',
    '<text><body></body></text>',
    '</martif>',
  ].join('\n');
}

/** Applies non-overlapping splices to `text`; splices at the same offset keep their order. */
function applySplices(text: string, splices: Splice[], filename: string): string {
  const sorted = splices.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start < at) throw new FormatWriteError(filename, 'edits overlap inside one TBX entry');
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + text.slice(at);
}

/** Everything the writer needs about the file's text and layout. */
class Layout {
  private readonly spellings = new Map<string, string>();
  /** The file's line break, for layouts that cannot be copied from a neighbour. */
  readonly newline: string;

  constructor(
    readonly text: string,
    readonly dialect: Dialect,
    entries: readonly TbxEntry[],
  ) {
    this.newline = text.includes('\r\n') ? '\r\n' : '\n';
    for (const entry of entries) {
      for (const set of elementChildren(entry.element)) {
        const lang = set.name === dialect.langSet ? set.attrs['xml:lang'] : undefined;
        if (lang !== undefined && !this.spellings.has(normalizeLanguage(lang))) this.spellings.set(normalizeLanguage(lang), lang);
      }
    }
  }

  /** A language code as the file already spells it (`zh-CN` for `zh_CN`), else as given. */
  spell(language: string): string {
    return this.spellings.get(normalizeLanguage(language)) ?? language;
  }

  /** End of the node before `el` inside its parent (previous element, or the parent's start tag). */
  private previousEnd(el: XmlElement): number {
    const parent = el.parent;
    if (!parent) return 0;
    let end = parent.openEnd;
    for (const child of parent.children) {
      if (child === el) break;
      if (typeof child !== 'string') end = child.end;
    }
    return end;
  }

  /** Whitespace between `el` and what precedes it; '' when anything else is there. */
  leadingGap(el: XmlElement): string {
    const gap = this.text.slice(this.previousEnd(el), el.start);
    return /^\s*$/.test(gap) ? gap : '';
  }

  /** Whitespace between an element's last child and its end tag; '' when anything else is there. */
  closingGap(el: XmlElement): string {
    if (el.selfClosing) return '';
    const last = elementChildren(el).at(-1);
    const gap = this.text.slice(last ? last.end : el.openEnd, el.closeStart);
    return /^\s*$/.test(gap) ? gap : '';
  }

  /** Where removing `el` starts: its own line's indentation and line break go with it. */
  removalStart(el: XmlElement): number {
    const gap = this.leadingGap(el);
    return el.start - gap.length + lineBreakAt(gap);
  }

  /** The indentation of the line `el` starts on, when only whitespace precedes it there. */
  lineIndent(el: XmlElement): string {
    const lineStart = this.text.lastIndexOf('\n', el.start - 1) + 1;
    const indent = this.text.slice(lineStart, el.start);
    return /^[ \t]*$/.test(indent) ? indent : '';
  }

  /** The file's indentation step: the first indented line's indentation, or TT's four spaces. */
  indentUnit(): string {
    const m = /\n([ \t]+)</.exec(this.text);
    return m?.[1] ?? '    ';
  }

  /** A new language set shaped like `model` (same line breaks around its term group and term). */
  languageSet(model: XmlElement | null, lang: string, term: string): string {
    const { langSet, termGroup } = this.dialect;
    let ws = ['', '', '', ''];
    const group = model && elementChildren(model).find((c) => c.name === termGroup);
    const modelTerm = group && elementChildren(group).find((c) => c.name === 'term');
    if (model && group && modelTerm) {
      ws = [this.leadingGap(group), this.leadingGap(modelTerm), this.closingGap(group), this.closingGap(model)].map(lineBreak);
    }
    return `<${langSet} xml:lang="${escapeAttribute(this.spell(lang))}">${ws[0]}<${termGroup}>${ws[1]}<term>${escapeText(term)}</term>${ws[2]}</${termGroup}>${ws[3]}</${langSet}>`;
  }
}

/** Where a gap's last line break (`\n` or `\r\n`) starts, or 0 when it has none. */
function lineBreakAt(gap: string): number {
  const newline = gap.lastIndexOf('\n');
  if (newline === -1) return 0;
  return newline > 0 && gap[newline - 1] === '\r' ? newline - 1 : newline;
}

/** A gap reduced to its last line break and indentation (blank lines are not copied). */
function lineBreak(gap: string): string {
  return gap.slice(lineBreakAt(gap));
}

function translatorNote(explanation: string): string {
  return `<note from="translator">${escapeText(explanation)}</note>`;
}

function singleTarget(edit: UnitWrite, filename: string): string {
  if (edit.target.length > 1) throw new FormatWriteError(filename, 'a TBX term has no plural forms');
  return edit.target[0] ?? '';
}

/** Splices that set the target term of an existing entry. */
function targetSplices(layout: Layout, entry: TbxEntry, target: string, ctx: FormatContext): Splice[] {
  if (target === entry.target && entry.targetSet) return [];
  const term = entry.targetTerm;
  if (term) {
    if (!term.selfClosing) return [{ start: term.openEnd, end: term.closeStart, text: escapeText(target) }];
    const open = layout.text.slice(term.start, term.end).replace(/\s*\/>$/, '>');
    return [{ start: term.start, end: term.end, text: `${open}${escapeText(target)}</term>` }];
  }
  const set = entry.targetSet;
  const { termGroup } = layout.dialect;
  if (set) {
    const inner = `<${termGroup}><term>${escapeText(target)}</term></${termGroup}>`;
    if (!set.selfClosing) return [{ start: set.closeStart, end: set.closeStart, text: inner }];
    const open = layout.text.slice(set.start, set.end).replace(/\s*\/>$/, '>');
    return [{ start: set.start, end: set.end, text: `${open}${inner}</${layout.dialect.langSet}>` }];
  }
  // No target language set: TT inserts one right after the source language set.
  const sets = elementChildren(entry.element).filter((c) => c.name === layout.dialect.langSet);
  const after = entry.sourceSet ?? sets.at(-1) ?? null;
  const created = layout.languageSet(entry.sourceSet ?? sets[0] ?? null, ctx.language, target);
  if (after) return [{ start: after.end, end: after.end, text: lineBreak(layout.leadingGap(after)) + created }];
  return [{ start: entry.element.closeStart, end: entry.element.closeStart, text: created }];
}

/** Splices that replace the translator notes of an entry (Weblate appends the new one last). */
function explanationSplices(layout: Layout, entry: TbxEntry, explanation: string): Splice[] {
  const text = explanation.trim();
  if (text === entry.explanation) return [];
  const splices: Splice[] = [];
  const stack: XmlElement[] = [entry.element];
  while (stack.length) {
    const el = stack.pop() as XmlElement;
    for (const child of elementChildren(el)) {
      if (child.name === 'note' && child.attrs.from === 'translator') {
        splices.push({ start: layout.removalStart(child), end: child.end, text: '' });
      } else {
        stack.push(child);
      }
    }
  }
  if (text !== '') {
    const last = elementChildren(entry.element).at(-1);
    const at = last ? last.end : entry.element.closeStart;
    splices.push({ start: at, end: at, text: (last ? lineBreak(layout.leadingGap(last)) : '') + translatorNote(text) });
  }
  return splices;
}

/** Splices that append new entries at the end of `<body>`, laid out like the last existing entry. */
function addSplices(layout: Layout, model: TbxModel, adds: UnitWrite[], ctx: FormatContext): Splice[] {
  const body = model.body;
  if (!body) throw new FormatWriteError(ctx.filename, 'the TBX file has no <body> to add terms to');
  const { entry: entryName, langSet } = layout.dialect;
  const reference = elementChildren(body)
    .filter((c) => c.name === entryName)
    .at(-1);
  let entryGap: string;
  let childGap: string;
  let closeGap: string;
  let setModel: XmlElement | null = null;
  const bodyIndent = layout.lineIndent(body);
  const unit = layout.indentUnit();
  if (reference) {
    const firstChild = elementChildren(reference).find((c) => c.name === langSet) ?? elementChildren(reference)[0];
    setModel = elementChildren(reference).find((c) => c.name === langSet) ?? null;
    entryGap = lineBreak(layout.leadingGap(reference));
    childGap = firstChild ? lineBreak(layout.leadingGap(firstChild)) : `${layout.newline}${layout.lineIndent(reference)}${unit}`;
    closeGap = lineBreak(layout.closingGap(reference));
  } else {
    entryGap = `${layout.newline}${bodyIndent}${unit}`;
    childGap = `${entryGap}${unit}`;
    closeGap = entryGap;
  }
  let added = '';
  for (const edit of adds) {
    const source = edit.source[0] ?? '';
    const target = singleTarget(edit, ctx.filename);
    const id = edit.context ? ` id="${escapeAttribute(edit.context)}"` : '';
    let inner = childGap + layout.languageSet(setModel, ctx.sourceLanguage, source);
    inner += childGap + layout.languageSet(setModel, ctx.language, target);
    const explanation = edit.explanation?.trim();
    if (explanation) inner += childGap + translatorNote(explanation);
    added += `${entryGap}<${entryName}${id}>${inner}${closeGap}</${entryName}>`;
  }
  if (reference) return [{ start: reference.end, end: reference.end, text: added }];
  const last = elementChildren(body).at(-1);
  if (last) return [{ start: last.end, end: last.end, text: added }];
  const tail = layout.closingGap(body).includes('\n') ? '' : `${layout.newline}${bodyIndent}`;
  if (!body.selfClosing) return [{ start: body.openEnd, end: body.openEnd, text: added + tail }];
  const open = layout.text.slice(body.start, body.end).replace(/\s*\/>$/, '>');
  return [{ start: body.start, end: body.end, text: `${open}${added}${tail}</body>` }];
}

function encode(model: TbxModel, text: string): Uint8Array {
  return encoder.encode(model.doc.bom ? `\uFEFF${text}` : text);
}

/**
 * Applies edits to a TBX file: targets, translator explanations, new entries and removals.
 * @example writeTbx(bytes, [{ context: '', source: ['volume'], target: ['objem'], state: 20 }], ctx);
 */
export function writeTbx(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array {
  if (ctx.template) throw new FormatWriteError(ctx.filename, 'TBX is always bilingual; a glossary cannot have a template');
  const model = readTbx(bytes, ctx);
  if (edits.length === 0) return bytes.slice();
  const layout = new Layout(model.doc.text, model.dialect, model.entries);

  // Later edits of the same unit win; units not in the file are added in order.
  const byEntry = new Map<TbxEntry, UnitWrite>();
  const adds = new Map<bigint, UnitWrite>();
  for (const edit of edits) {
    const idHash = unitIdHash(false, edit.source, edit.context);
    const entry = model.byIdHash.get(idHash);
    if (entry) byEntry.set(entry, edit);
    else if (!edit.remove) adds.set(idHash, edit);
  }

  const splices: Splice[] = [];
  for (const [entry, edit] of byEntry) {
    if (edit.remove) {
      splices.push({ start: layout.removalStart(entry.element), end: entry.element.end, text: '' });
      continue;
    }
    splices.push(...targetSplices(layout, entry, singleTarget(edit, ctx.filename), ctx));
    if (edit.explanation !== undefined) splices.push(...explanationSplices(layout, entry, edit.explanation));
  }
  if (adds.size > 0) splices.push(...addSplices(layout, model, [...adds.values()], ctx));
  if (splices.length === 0) return bytes.slice();
  return encode(model, applySplices(model.doc.text, splices, ctx.filename));
}

/**
 * A new glossary file for `ctx.language`: `base` with every target term emptied, or TT's skeleton.
 * @example createTbx(null, { filename: 'glossary/de.tbx', language: 'de', sourceLanguage: 'en' });
 */
export function createTbx(base: Uint8Array | null, ctx: FormatContext): Uint8Array {
  if (ctx.template) throw new FormatWriteError(ctx.filename, 'TBX is always bilingual; a glossary cannot have a template');
  if (!base) return encoder.encode(skeleton(ctx.sourceLanguage));
  const model = readTbx(base, ctx);
  const splices: Splice[] = [];
  for (const entry of model.entries) {
    const term = entry.targetTerm;
    if (term && entry.target !== '' && !term.selfClosing) splices.push({ start: term.openEnd, end: term.closeStart, text: '' });
  }
  return encode(model, applySplices(model.doc.text, splices, ctx.filename));
}
