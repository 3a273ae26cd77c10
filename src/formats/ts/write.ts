// Minimal-diff TS writing: edits splice single `<translation>`/`<message>` elements into the original text.
import { FormatWriteError } from '../../domain/errors.js';
import { State, type UnitState, joinPlural } from '../../domain/unit.js';
import type { FormatContext, UnitWrite } from '../format.js';
import { XmlScanner, XmlToken, endOfLineAfter, escapeAttribute, indentAt, lineEnding, lineStart } from '../xml/index.js';
import type { TsContextElement, TsDocument, TsMessage } from './document.js';
import { escapeTsText } from './escape.js';
import { bilingualSource, indexByKey, isContent, messageContext, messageKey, targetForms } from './units.js';

interface Splice {
  start: number;
  end: number;
  text: string;
}

const DEFAULT_STEP = '    ';

/** Layout facts of the file used for new elements. */
interface Layout {
  eol: string;
  step: string;
  contextIndent: string;
  messageIndent: string;
  childIndent: string;
}

function detectLayout(doc: TsDocument): Layout {
  const text = doc.text;
  const eol = lineEnding(text);
  const firstContext = doc.contexts[0];
  const contextIndent = (firstContext && indentAt(text, firstContext.start)) || '';
  for (const m of doc.messages) {
    const mi = indentAt(text, m.start);
    const child = text.indexOf('<', m.startTagEnd);
    const ci = child >= 0 && child < m.end ? indentAt(text, child) : null;
    if (mi !== null && ci !== null && ci.length > mi.length && ci.startsWith(mi)) {
      return { eol, step: ci.slice(mi.length), contextIndent, messageIndent: mi, childIndent: ci };
    }
  }
  return { eol, step: DEFAULT_STEP, contextIndent, messageIndent: contextIndent + DEFAULT_STEP, childIndent: contextIndent + DEFAULT_STEP + DEFAULT_STEP };
}

/** Indentation of a message's children (the line of its first child element), or null when written inline. */
function childIndentOf(text: string, m: TsMessage): string | null {
  const child = text.indexOf('<', m.startTagEnd);
  if (child < 0 || child >= m.end) return null;
  return indentAt(text, child);
}

/** A complete `<translation>` element as Translate Toolkit writes it (numerus forms one per line when `indent` is set). */
function translationElement(forms: readonly string[], numerus: boolean, state: UnitState, indent: string | null, step: string, eol: string): string {
  const unfinished = state === State.FUZZY || state === State.EMPTY;
  const open = unfinished ? '<translation type="unfinished">' : '<translation>';
  if (!numerus) return `${open}${escapeTsText(forms[0] ?? '')}</translation>`;
  const items = forms.map((f) => `<numerusform>${escapeTsText(f)}</numerusform>`);
  if (indent === null) return `${open}${items.join('')}</translation>`;
  const formIndent = indent + step;
  return `${open}${items.map((i) => eol + formIndent + i).join('')}${eol}${indent}</translation>`;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Splices that set a message's translation (and numerus marker); none when the file already says the same. */
function translationSplices(text: string, m: TsMessage, target: readonly string[], state: UnitState, layout: Layout): Splice[] {
  const numerus = m.numerus || target.length > 1;
  const unfinished = state === State.FUZZY || state === State.EMPTY;
  const forms = numerus ? target : [target[0] ?? ''];
  if (m.translationStart >= 0 && numerus === m.numerus && unfinished === (m.type === 'unfinished') && sameStrings(targetForms(m), forms)) {
    return [];
  }
  const splices: Splice[] = [];
  if (numerus && !m.numerus) splices.push({ start: m.startTagEnd - 1, end: m.startTagEnd - 1, text: ' numerus="yes"' });
  const mi = indentAt(text, m.start);
  if (m.translationStart >= 0) {
    const ti = indentAt(text, m.translationStart);
    let step = layout.step;
    if (mi !== null && ti !== null && ti.length > mi.length && ti.startsWith(mi)) step = ti.slice(mi.length);
    const formAt = text.indexOf('<numerusform', m.translationStart);
    const hasForms = formAt >= 0 && formAt < m.translationEnd;
    const fi = hasForms ? indentAt(text, formAt) : null;
    if (ti !== null && fi !== null && fi.length > ti.length && fi.startsWith(ti)) step = fi.slice(ti.length);
    // Forms written on the translation's own line stay on one line.
    const indent = hasForms && fi === null ? null : ti;
    splices.push({ start: m.translationStart, end: m.translationEnd, text: translationElement(forms, numerus, state, indent, step, layout.eol) });
    return splices;
  }
  // No <translation> yet: add one as the last child of the message.
  const close = text.lastIndexOf('</', m.end);
  const ci = childIndentOf(text, m);
  const closeIndent = indentAt(text, close);
  if (ci !== null && closeIndent !== null) {
    const element = translationElement(forms, numerus, state, ci, layout.step, layout.eol);
    splices.push({ start: lineStart(text, close), end: lineStart(text, close), text: ci + element + layout.eol });
  } else {
    splices.push({ start: close, end: close, text: translationElement(forms, numerus, state, null, layout.step, layout.eol) });
  }
  return splices;
}

/** Removes the element [start, end), with its whole line when it stands alone on it. */
function removalSplice(text: string, start: number, end: number): Splice {
  const indent = indentAt(text, start);
  const after = endOfLineAfter(text, end);
  if (indent !== null && after !== null) return { start: lineStart(text, start), end: after, text: '' };
  return { start, end, text: '' };
}

/** Rebuilds the TS source text whose synthesized forms are `forms` (`%n file(s)` from `%n file`/`%n files`). */
function sourceText(forms: readonly string[]): string {
  const [one = '', other] = forms;
  if (other === undefined || one === other) return one;
  if (other.length === one.length + 1) {
    for (let k = 0; k <= one.length; k++) {
      if (other[k] === 's' && other.startsWith(one.slice(0, k)) && other.endsWith(one.slice(k))) {
        const candidate = `${one.slice(0, k)}(s)${one.slice(k)}`;
        if (candidate.replaceAll('(s)', '') === one && candidate.replaceAll('(s)', 's') === other) return candidate;
      }
    }
  }
  return one;
}

/** Where new messages for context `name` go: before its `</context>`, or into a new context at the end of the file. */
class Insertions {
  private readonly pending = new Map<string, string[]>();
  constructor(
    private readonly doc: TsDocument,
    private readonly layout: Layout,
  ) {}

  add(contextName: string, messageLines: string[]): void {
    const list = this.pending.get(contextName);
    if (list) list.push(...messageLines);
    else this.pending.set(contextName, [...messageLines]);
  }

  splices(): Splice[] {
    const { doc, layout } = this;
    const text = doc.text;
    const out: Splice[] = [];
    const created: string[] = [];
    for (const [name, lines] of this.pending) {
      const context = findContext(doc.contexts, name);
      if (context) {
        const at = context.closeStart;
        if (indentAt(text, at) !== null) {
          out.push({ start: lineStart(text, at), end: lineStart(text, at), text: lines.map((l) => l + layout.eol).join('') });
        } else {
          out.push({ start: at, end: at, text: lines.map((l) => l.trim()).join('') });
        }
        continue;
      }
      const ci = layout.contextIndent;
      created.push(`${ci}<context>`, `${layout.messageIndent}<name>${escapeTsText(name)}</name>`, ...lines, `${ci}</context>`);
    }
    if (created.length > 0) {
      const at = doc.rootCloseStart;
      if (indentAt(text, at) !== null) {
        out.push({ start: lineStart(text, at), end: lineStart(text, at), text: created.map((l) => l + layout.eol).join('') });
      } else {
        out.push({ start: at, end: at, text: layout.eol + created.map((l) => l + layout.eol).join('') });
      }
    }
    return out;
  }
}

function findContext(contexts: readonly TsContextElement[], name: string): TsContextElement | undefined {
  return contexts.find((c) => (c.frame.name ?? '') === name);
}

/** Lines of a new bilingual message (context first line → `<name>`, the rest → `<comment>`). */
function newMessageLines(edit: UnitWrite, layout: Layout): { contextName: string; lines: string[] } {
  const [contextName = '', ...rest] = edit.context.split('\n');
  const numerus = edit.source.length > 1 || edit.target.length > 1;
  const mi = layout.messageIndent;
  const ci = layout.childIndent;
  const lines = [`${mi}<message${numerus ? ' numerus="yes"' : ''}>`, `${ci}<source>${escapeTsText(sourceText(edit.source))}</source>`];
  if (rest.length > 0) lines.push(`${ci}<comment>${escapeTsText(rest.join('\n'))}</comment>`);
  const forms = numerus ? edit.target : [edit.target[0] ?? ''];
  lines.push(ci + translationElement(forms, numerus, edit.state, ci, layout.step, layout.eol), `${mi}</message>`);
  return { contextName, lines };
}

/** Lines of a message cloned from the template: every child except notes, the translation replaced. */
function clonedMessageLines(template: TsDocument, tm: TsMessage, edit: UnitWrite, layout: Layout, filename: string): string[] {
  const raw = template.text.slice(tm.start, tm.end);
  const children: Array<{ name: string; start: number; end: number }> = [];
  const s = new XmlScanner(raw, filename);
  let childStart = 0;
  for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
    if (kind === XmlToken.StartTag && s.depth === 2) childStart = s.start;
    else if (kind === XmlToken.EndTag && s.depth === 2) children.push({ name: s.name, start: childStart, end: s.end });
  }
  const startTag = raw.slice(0, tm.startTagEnd - tm.start);
  const numerus = tm.numerus || edit.target.length > 1;
  const forms = numerus ? edit.target : [edit.target[0] ?? ''];
  const ci = layout.childIndent;
  const translation = ci + translationElement(forms, numerus, edit.state, ci, layout.step, layout.eol);
  const lines = [layout.messageIndent + (numerus && !tm.numerus ? startTag.replace(/\s*>$/, ' numerus="yes">') : startTag)];
  let placed = false;
  for (const c of children) {
    if (c.name === 'extracomment' || c.name === 'translatorcomment') continue;
    if (c.name === 'translation') {
      if (!placed) lines.push(translation);
      placed = true;
      continue;
    }
    lines.push(ci + raw.slice(c.start, c.end));
  }
  if (!placed) lines.push(translation);
  lines.push(`${layout.messageIndent}</message>`);
  return lines;
}

function applySplices(text: string, splices: Splice[]): string {
  splices.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let last = 0;
  for (const sp of splices) {
    out += text.slice(last, sp.start) + sp.text;
    last = Math.max(last, sp.end);
  }
  return out + text.slice(last);
}

/** The template document behind `ctx.template`, when it was read by this format. */
export function templateDocument(ctx: FormatContext): TsDocument | null {
  const internal = ctx.template?.internal as { tsDocument?: TsDocument } | undefined;
  return internal?.tsDocument ?? null;
}

/**
 * Applies edits to a TS document and returns the new text. Bilingual edits find the message by
 * source + context; monolingual ones by the template key, cloning the template message when missing.
 */
export function writeTsText(doc: TsDocument, edits: readonly UnitWrite[], ctx: FormatContext): string {
  const text = doc.text;
  const layout = detectLayout(doc);
  const template = ctx.template ? templateDocument(ctx) : null;
  if (ctx.template && !template) throw new FormatWriteError(ctx.filename, 'the template was not read as a TS file');

  const byKey = new Map<string, TsMessage>();
  if (template) {
    for (const [k, m] of indexByKey(doc)) byKey.set(k, m);
  } else {
    for (const m of doc.messages) {
      if (!isContent(m)) continue;
      const key = joinPlural(bilingualSource(m)) + messageContext(m);
      if (!byKey.has(key)) byKey.set(key, m);
    }
  }
  const templateByKey = new Map<string, TsMessage>();
  if (template) {
    for (const tm of template.messages) {
      if (isContent(tm) && !templateByKey.has(messageKey(tm))) templateByKey.set(messageKey(tm), tm);
    }
  }

  // The last edit of a unit wins.
  const latest = new Map<string, UnitWrite>();
  for (const e of edits) {
    const key = template ? e.context : joinPlural(e.source) + e.context;
    latest.delete(key);
    latest.set(key, e);
  }

  const splices: Splice[] = [];
  const insertions = new Insertions(doc, layout);
  for (const [key, edit] of latest) {
    const m = byKey.get(key);
    if (m) {
      if (edit.remove) splices.push(removalSplice(text, m.start, m.end));
      else splices.push(...translationSplices(text, m, edit.target, edit.state, layout));
      continue;
    }
    if (edit.remove) {
      if (template) continue;
      throw new FormatWriteError(ctx.filename, `cannot remove a unit that is not in the file (context "${edit.context}")`);
    }
    if (template) {
      const tm = templateByKey.get(key);
      if (!tm) throw new FormatWriteError(ctx.filename, `the template has no unit "${edit.context}"`);
      insertions.add(tm.parent.name ?? '', clonedMessageLines(template, tm, edit, layout, ctx.filename));
    } else {
      const { contextName, lines } = newMessageLines(edit, layout);
      insertions.add(contextName, lines);
    }
  }
  splices.push(...insertions.splices());
  return splices.length === 0 ? text : applySplices(text, splices);
}

/**
 * A new translation from a base file: `language` set, every translated message emptied and marked
 * unfinished (numerus ones with `plurals` empty forms); unfinished, vanished and obsolete messages kept.
 */
export function createTsText(doc: TsDocument, language: string, plurals: number | undefined): string {
  const text = doc.text;
  const layout = detectLayout(doc);
  const splices: Splice[] = [];
  if (doc.language) {
    splices.push({ start: doc.language.start, end: doc.language.end, text: escapeAttribute(language) });
  } else {
    const close = text.charCodeAt(doc.rootStartTagEnd - 2) === 0x2f ? doc.rootStartTagEnd - 2 : doc.rootStartTagEnd - 1;
    splices.push({ start: close, end: close, text: ` language="${escapeAttribute(language)}"` });
  }
  for (const m of doc.messages) {
    if (!isContent(m) || m.type === 'unfinished') continue;
    const count = m.numerus ? Math.max(1, plurals ?? m.forms?.length ?? 1) : 1;
    splices.push(...translationSplices(text, m, new Array<string>(count).fill(''), State.EMPTY, layout));
  }
  return applySplices(text, splices);
}
