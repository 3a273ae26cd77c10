// Writing XLIFF by splicing the original text: an edit rewrites that unit's <target> (and its state), nothing else moves.
import { FormatWriteError } from '../../domain/errors.js';
import { unitIdHash } from '../../domain/hash.js';
import { State, type UnitState } from '../../domain/unit.js';
import type { FormatContext, UnitWrite } from '../format.js';
import { escapeAttribute, escapeText } from '../xml/escape.js';
import { endOfLineAfter, indentAt, lineEnding } from '../xml/position.js';
import { type XliffDocument, type XliffEntry, type XliffPart, part as readPart } from './document.js';
import { plainText, richText } from './text.js';
import { type XElement, attr, buildTree, childElements, firstChild, sourceSlice } from './tree.js';
import { type UnitSite, type XliffListing, type XliffReading, stateParts, unitSpace } from './units.js';

export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping splices; splices at the same offset keep their order. */
export function applySplices(text: string, splices: readonly Splice[], filename: string): string {
  const sorted = splices.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start < at) throw new FormatWriteError(filename, 'two edits overlap in one XLIFF unit');
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + text.slice(at);
}

/** The `<target state>` Weblate writes for a unit state (EMPTY: "new", only where a state is already set). */
function targetState(state: UnitState): string | null {
  if (state === State.FUZZY) return 'needs-translation';
  if (state === State.TRANSLATED) return 'translated';
  if (state === State.APPROVED) return 'final';
  return null;
}

/** A start tag with attribute `name` set to `value` (replaced in place, keeping its quotes, or appended). */
export function setAttribute(tag: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name.replace(/[.:-]/g, '\\$&')}\\s*=\\s*)(["'])([^"']*)\\2`);
  const m = re.exec(tag);
  if (m) {
    const quote = m[2]!;
    const escaped = quote === '"' ? escapeAttribute(value) : escapeAttribute(value).replaceAll("'", '&apos;').replaceAll('&quot;', '"');
    return tag.slice(0, m.index) + m[1] + quote + escaped + quote + tag.slice(m.index + m[0].length);
  }
  const close = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
  let at = close;
  while (at > 0 && /\s/.test(tag[at - 1]!)) at--;
  return `${tag.slice(0, at)} ${name}="${escapeAttribute(value)}"${tag.slice(at)}`;
}

/** Where removing `el` starts and ends: its whole line(s) when nothing else shares them, else just the element. */
function removalSpan(text: string, el: XElement): { start: number; end: number } {
  const indent = indentAt(text, el.start);
  const eol = endOfLineAfter(text, el.end);
  if (indent !== null && eol !== null) return { start: el.start - indent.length, end: eol };
  return { start: el.start, end: el.end };
}

/** The prefix (with its colon) the element name is written with: `xlf:` for `xlf:trans-unit`. */
function prefixOf(el: XElement): string {
  const colon = el.name.indexOf(':');
  return colon < 0 ? '' : el.name.slice(0, colon + 1);
}

/** The XML a target text is written as, and whether it needs `xml:space="preserve"` to read back unchanged. */
interface TargetContent {
  inner: string;
  preserve: boolean;
}

/**
 * Rich targets are parsed as XML (inline elements kept, rebuilt as Translate Toolkit does) and fall back to escaped
 * text when they do not parse; plain targets are always text. `space` is the xml:space that will apply to the target.
 */
export function targetContent(text: string, rich: boolean, space: string, filename: string): TargetContent {
  let inner = escapeText(text);
  let shown = text;
  if (rich) {
    try {
      const fragment = buildTree(`<t>${text}</t>`, filename).root;
      inner = richText(fragment, 'preserve');
    } catch {
      // not XML: Weblate stores it as literal text
    }
    shown = richText(buildTree(`<t>${inner}</t>`, filename).root, 'preserve');
  }
  const read = buildTree(`<t>${inner}</t>`, filename).root;
  const readBack = rich ? richText(read, space) : plainText(read, space);
  return { inner, preserve: readBack !== shown };
}

/** Everything needed to turn edits into splices over one document. */
class XliffWriter {
  readonly splices: Splice[] = [];
  readonly text: string;
  readonly newline: string;

  constructor(
    readonly doc: XliffDocument,
    readonly reading: XliffReading,
    readonly filename: string,
  ) {
    this.text = doc.doc.text;
    this.newline = lineEnding(this.text);
  }

  /** The effective xml:space a part's target will be read with. */
  private targetSpace(p: XliffPart): string {
    return (p.target && attr(p.target, 'xml:space')) ?? unitSpace(p.unit);
  }

  /** Sets one trans-unit's target text and state attribute (null: leave the state attribute alone). */
  private setPartTarget(p: XliffPart, text: string, state: string | null, removeEmpty: boolean): void {
    const t = this.text;
    const target = p.target;
    if (text === '' && removeEmpty) {
      if (target) this.splices.push({ ...removalSpan(t, target), text: '' });
      return;
    }
    if (text === '' && !target) return;
    const content = targetContent(text, this.reading.rich, this.targetSpace(p), this.filename);
    if (target) {
      let open = t.slice(target.start, target.openEnd);
      if (state !== null) open = setAttribute(open, 'state', state);
      if (content.preserve) open = setAttribute(open, 'xml:space', 'preserve');
      const close = target.selfClosing ? `</${target.name}>` : t.slice(target.closeStart, target.end);
      if (target.selfClosing) open = `${open.slice(0, -2).trimEnd()}>`;
      this.splices.push({ start: target.start, end: target.end, text: open + content.inner + close });
      return;
    }
    const name = `${prefixOf(p.unit)}target`;
    let open = `<${name}`;
    if (state !== null) open += ` state="${state}"`;
    if (content.preserve) open += ' xml:space="preserve"';
    const element = `${open}>${content.inner}</${name}>`;
    const source = p.source;
    if (source) {
      const indent = indentAt(t, source.start);
      this.splices.push({ start: source.end, end: source.end, text: (indent !== null ? this.newline + indent : '') + element });
    } else {
      this.splices.push({ start: p.unit.openEnd, end: p.unit.openEnd, text: element });
    }
  }

  /** Weblate's set_target + set_state on an entry that is in the file. */
  editEntry(entry: XliffEntry, forms: readonly string[], state: UnitState): void {
    const parts = entry.parts;
    const withState = new Set(stateParts(entry, this.reading));
    const values = entry.plural ? padForms(forms, parts.length) : [forms[0] ?? ''];
    const existingStates = [...withState].some((p) => p.target && attr(p.target, 'state') !== null);
    let written = targetState(state);
    if (written === null && existingStates) written = 'new';
    const removeEmpty = this.reading.rich;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      this.setPartTarget(p, values[i] ?? '', withState.has(p) ? written : null, removeEmpty);
    }
    if (entry.plural && values.length > parts.length) this.addPluralForms(entry, values.slice(parts.length), withState.size > 0 ? written : null);
    this.setApproved(entry.element, state === State.APPROVED);
  }

  /** More target forms than the group has trans-units: new ones copy the last one's source (Translate Toolkit). */
  private addPluralForms(entry: XliffEntry, extra: readonly string[], state: string | null): void {
    const last = entry.parts.at(-1)!.unit;
    const t = this.text;
    const indent = indentAt(t, last.start);
    const gap = indent !== null ? this.newline + indent : '';
    const groupId = attr(entry.element, 'id') ?? '';
    const sourceXml = entry.parts.at(-1)!.source;
    const sourceText = sourceXml ? t.slice(sourceXml.start, sourceXml.end) : `<${prefixOf(last)}source></${prefixOf(last)}source>`;
    let added = '';
    extra.forEach((form, k) => {
      const index = entry.parts.length + k;
      const name = `${prefixOf(last)}trans-unit`;
      const content = targetContent(form, false, 'preserve', this.filename);
      const stateAttr = state !== null ? ` state="${state}"` : '';
      const target = `<${prefixOf(last)}target${stateAttr}>${content.inner}</${prefixOf(last)}target>`;
      added += `${gap}<${name} id="${escapeAttribute(`${groupId}[${index}]`)}" xml:space="preserve">${sourceText}${target}</${name}>`;
    });
    this.splices.push({ start: last.end, end: last.end, text: added });
  }

  /** approved="yes" for approved units; an existing "yes" becomes "no" otherwise; never added needlessly. */
  setApproved(el: XElement, approved: boolean): void {
    const current = attr(el, 'approved');
    if (approved ? current === 'yes' : current !== 'yes') return;
    const open = this.text.slice(el.start, el.openEnd);
    this.splices.push({ start: el.start, end: el.openEnd, text: setAttribute(open, 'approved', approved ? 'yes' : 'no') });
  }

  /** Replaces an entry's source content (monolingual files follow their template's source). */
  setSource(p: XliffPart, inner: string): void {
    const source = p.source;
    if (!source) return;
    if (source.selfClosing) {
      const open = `${this.text.slice(source.start, source.openEnd - 2).trimEnd()}>`;
      this.splices.push({ start: source.start, end: source.end, text: `${open}${inner}</${source.name}>` });
    } else {
      this.splices.push({ start: source.openEnd, end: source.closeStart, text: inner });
    }
  }

  remove(entry: XliffEntry): void {
    this.splices.push({ ...removalSpan(this.text, entry.element), text: '' });
  }

  /** The `<body>` new units go to: the first file's (Translate Toolkit's initbody). */
  firstBody(): XElement {
    const file = this.doc.files[0]!;
    const body = firstChild(file, this.doc.ns, 'body');
    if (!body) throw new FormatWriteError(this.filename, 'the first <file> has no <body> to add units to');
    return body;
  }

  /** Appends unit markup at the end of `body`, laid out like the last unit there. */
  append(body: XElement, markup: (indent: string, childIndent: string) => string): void {
    const t = this.text;
    const last = childElements(body).at(-1);
    let indent: string;
    let childIndent: string;
    if (last) {
      indent = indentAt(t, last.start) ?? '';
      const child = childElements(last)[0];
      childIndent = (child && indentAt(t, child.start)) ?? `${indent}  `;
    } else {
      const bodyIndent = indentAt(t, body.start) ?? '';
      indent = `${bodyIndent}  `;
      childIndent = `${indent}  `;
    }
    const unit = markup(indent, childIndent);
    if (last) {
      this.splices.push({ start: last.end, end: last.end, text: this.newline + indent + unit });
    } else if (body.selfClosing) {
      const open = `${t.slice(body.start, body.openEnd - 2).trimEnd()}>`;
      const bodyIndent = indentAt(t, body.start) ?? '';
      this.splices.push({ start: body.start, end: body.end, text: `${open}${this.newline}${indent}${unit}${this.newline}${bodyIndent}</${body.name}>` });
    } else {
      const bodyIndent = indentAt(t, body.start) ?? '';
      const tail = /\n[ \t]*$/.test(t.slice(body.openEnd, body.closeStart)) ? '' : this.newline + bodyIndent;
      this.splices.push({ start: body.openEnd, end: body.openEnd, text: this.newline + indent + unit + tail });
    }
  }
}

function padForms(forms: readonly string[], n: number): string[] {
  const out = forms.slice();
  while (out.length < n) out.push('');
  return out;
}

/** The markup of a brand-new trans-unit (bilingual add): id, source, target with its state. */
function newUnitMarkup(w: XliffWriter, body: XElement, edit: UnitWrite, idAttrs: string): (indent: string, childIndent: string) => string {
  const p = prefixOf(body);
  const source = targetContent(edit.source[0] ?? '', w.reading.rich, 'preserve', w.filename).inner;
  const content = targetContent(edit.target[0] ?? '', w.reading.rich, 'preserve', w.filename);
  const state = targetState(edit.state);
  return (indent, childIndent) => {
    const nl = w.newline;
    let out = `<${p}trans-unit ${idAttrs} xml:space="preserve">${nl}${childIndent}<${p}source>${source}</${p}source>`;
    if (edit.target.some((t) => t !== '')) out += `${nl}${childIndent}<${p}target${state ? ` state="${state}"` : ''}>${content.inner}</${p}target>`;
    return `${out}${nl}${indent}</${p}trans-unit>`;
  };
}

/**
 * A template entry copied for a monolingual translation that lacks it (Weblate clones the template unit without its
 * notes), with the edit applied, re-indented for its new place.
 */
function clonedEntry(template: XliffDocument, te: XliffEntry, edit: UnitWrite, reading: XliffReading, filename: string, indent: string): string {
  const t = template.doc.text;
  const el = te.element;
  // Re-read the copy on its own, with the namespace declarations its place in the template gave it.
  const decls = [...el.scope]
    .filter(([prefix]) => prefix !== 'xml')
    .map(([prefix, uri]) => ` ${prefix === '' ? 'xmlns' : `xmlns:${prefix}`}="${escapeAttribute(uri)}"`);
  const head = `<w${decls.join('')}>`;
  // a template parsed over its bytes has byte offsets (its indentation, ASCII, reads the same either way)
  const wrapped = `${head}${sourceSlice(template.doc, el.start, el.end)}</w>`;
  const tree = buildTree(wrapped, filename);
  const copy = childElements(tree.root)[0]!;
  const ns = template.ns;
  const parts = copy.local === 'group' ? childElements(copy).filter((c) => c.local === 'trans-unit' && c.ns === ns) : [copy];
  const entry: XliffEntry = { element: copy, parts: parts.map((u) => readPart(u, ns)), plural: te.plural, file: null, id: te.id };
  const doc: XliffDocument = { doc: tree, ns, files: [], entries: [entry] };
  const w = new XliffWriter(doc, reading, filename);
  for (const note of childElements(copy).filter((c) => c.local === 'note' && c.ns === ns))
    w.remove({ element: note, parts: [], plural: false, file: null, id: '' });
  w.editEntry(entry, edit.target, edit.state);
  const edited = applySplices(wrapped, w.splices, filename);
  const body = edited.slice(head.length, edited.length - '</w>'.length);
  // The template's own indentation of the unit is replaced by the destination's on every line.
  const own = indentAt(t, el.start) ?? '';
  return body
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(own) ? indent + line.slice(own.length) : line))
    .join('\n');
}

/** What a write needs to know about the file and its template. */
export interface WriteModel {
  doc: XliffDocument;
  listing: XliffListing;
  template: XliffDocument | null;
}

/**
 * Applies edits: existing units get their target and state set, removed units lose their element, units missing from
 * a monolingual file are cloned from the template, new bilingual units are appended to the first <body>.
 * Returns the new text, or null when nothing changed.
 */
export function writeEdits(model: WriteModel, edits: readonly UnitWrite[], reading: XliffReading, ctx: FormatContext): string | null {
  const { doc, listing, template } = model;
  const w = new XliffWriter(doc, reading, ctx.filename);
  const monolingual = template !== null;
  const sites = new Map<bigint, UnitSite>();
  listing.units.forEach((u, i) => sites.set(u.idHash, listing.sites[i]!));
  // Later edits of the same unit win.
  const bySite = new Map<UnitSite, UnitWrite>();
  const added = new Map<bigint, UnitWrite>();
  for (const edit of edits) {
    const idHash = unitIdHash(monolingual, edit.source, edit.context);
    const site = sites.get(idHash);
    if (site) bySite.set(site, edit);
    else if (!edit.remove) {
      if (monolingual) throw new FormatWriteError(ctx.filename, `no unit "${edit.context}" in the template`);
      added.set(idHash, edit);
    }
  }
  for (const [site, edit] of bySite) {
    if (edit.remove) {
      if (site.entry) w.remove(site.entry);
      continue;
    }
    if (site.entry) {
      if (site.template && site.entry !== site.template) followTemplateSource(w, site.entry, site.template, template!);
      w.editEntry(site.entry, edit.target, edit.state);
    } else if (site.template && edit.target.some((t) => t !== '')) {
      const body = w.firstBody();
      w.append(body, (indent) => clonedEntry(template!, site.template!, edit, reading, ctx.filename, indent));
    }
  }
  for (const edit of added.values()) {
    const body = w.firstBody();
    w.append(body, newUnitMarkup(w, body, edit, newUnitIdentity(doc, edit.context)));
  }
  if (w.splices.length === 0) return null;
  return applySplices(doc.doc.text, w.splices, ctx.filename);
}

/** Monolingual: a translation unit that has a source keeps it equal to the template's (Weblate's set_target). */
function followTemplateSource(w: XliffWriter, entry: XliffEntry, te: XliffEntry, template: XliffDocument): void {
  if (entry.plural || te.plural) return;
  const p = entry.parts[0]!;
  const tp = te.parts[0]!;
  if (!p.source || !tp.source) return;
  const read = (x: XliffPart, d: XElement) => (w.reading.rich ? richText(d, unitSpace(x.unit)) : plainText(d, unitSpace(x.unit)));
  const own = read(p, p.source);
  if (own === '' || own === read(tp, tp.source)) return;
  const inner = w.reading.rich
    ? sourceSlice(template.doc, tp.source.openEnd, tp.source.selfClosing ? tp.source.openEnd : tp.source.closeStart)
    : escapeText(plainText(tp.source, unitSpace(tp.unit)));
  w.setSource(p, inner);
}

/**
 * The id (and resname) of a new bilingual unit whose context reads back unchanged: `original///id` contexts name
 * their file's id; other contexts become the id, with a resname when the first file has an `original` (which
 * getid() would otherwise put in front).
 */
function newUnitIdentity(doc: XliffDocument, context: string): string {
  const original = attr(doc.files[0]!, 'original');
  if (original && context.startsWith(`${original}///`)) return `id="${escapeAttribute(context.slice(original.length + 3))}"`;
  if (original) return `id="${escapeAttribute(context)}" resname="${escapeAttribute(context)}"`;
  return `id="${escapeAttribute(context)}"`;
}

/**
 * A new translation from `base` (Weblate's untranslate_store): every translated unit loses its <target> (a singular
 * poxliff unit gets an empty one), approved="yes" becomes "no", and every <file> gets `target-language`.
 */
export function untranslate(
  doc: XliffDocument,
  listingEntries: readonly XliffEntry[],
  reading: XliffReading,
  targetLanguage: string,
  filename: string,
): string {
  const w = new XliffWriter(doc, reading, filename);
  for (const entry of listingEntries) {
    const parts = stateParts(entry, reading);
    if (parts.length === 0) {
      for (const p of entry.parts)
        if (p.target && !p.target.selfClosing && p.target.closeStart > p.target.openEnd)
          w.splices.push({ start: p.target.openEnd, end: p.target.closeStart, text: '' });
    } else {
      for (const p of parts) if (p.target) w.splices.push({ ...removalSpan(doc.doc.text, p.target), text: '' });
    }
    w.setApproved(entry.element, false);
  }
  for (const file of doc.files) {
    const open = doc.doc.text.slice(file.start, file.openEnd);
    w.splices.push({ start: file.start, end: file.openEnd, text: setAttribute(open, 'target-language', targetLanguage) });
  }
  return applySplices(doc.doc.text, w.splices, filename);
}
