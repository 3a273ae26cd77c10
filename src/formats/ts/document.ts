// Reads a Qt TS file into message records: the texts Translate Toolkit sees plus the offsets the writer splices.
import { XmlScanner, XmlToken } from '../xml/index.js';

/** The element holding messages (normally `<context>`); its first `<name>` child names the context. */
export interface TsFrame {
  name: string | null;
}

/** One `<message>` as read from the file. Texts follow lxml's `.text`: the text before the first child. */
export interface TsMessage {
  parent: TsFrame;
  /** Qt disambiguation: the first `<comment>` child of the message. */
  comment: string;
  id: string | null;
  numerus: boolean;
  source: string;
  /** `type` attribute of the first `<translation>` (`unfinished`, `vanished`, `obsolete` or null). */
  type: string | null;
  translation: string;
  /** Texts of the `<numerusform>` children of the translation (null when it has none). */
  forms: string[] | null;
  extracomment: string | null;
  translatorcomment: string | null;
  /** Locations as `file:line`, relative lines expanded, joined by `, `. */
  location: string;
  /** Weblate flags from the message attributes (maxwidth, font, weblate-flags). */
  flags: string;
  /** Offsets: `<message` … `</message>`, the end of its start tag, and the first `<translation>` element (-1 when absent). */
  start: number;
  startTagEnd: number;
  end: number;
  translationStart: number;
  translationEnd: number;
}

/** A `<context>` element under the root, for finding where new messages go. */
export interface TsContextElement {
  frame: TsFrame;
  start: number;
  /** Offset of `</context>` (or of `/>` end for an empty element). */
  closeStart: number;
  end: number;
}

/** A TS file read for units and for splicing. */
export interface TsDocument {
  text: string;
  messages: TsMessage[];
  contexts: TsContextElement[];
  /** End of the `<TS …>` start tag, offset of `</TS>`. */
  rootStartTagEnd: number;
  rootCloseStart: number;
  /** Raw value span of the root's `language` attribute, or null when it has none. */
  language: { start: number; end: number } | null;
}

const CAP_NONE = 0;
const CAP_SOURCE = 1;
const CAP_TRANSLATION = 2;
const CAP_COMMENT = 3;
const CAP_EXTRACOMMENT = 4;
const CAP_TRANSLATORCOMMENT = 5;
const CAP_FORM = 6;
const CAP_NAME = 7;

const RELATIVE_LINE = /^[+-]\d+$/;
const ABSOLUTE_LINE = /^\d+$/;

/**
 * Reads a decoded TS document. Throws FormatParseError on malformed XML, a root other than `<TS>`
 * or a TS version other than 2.x.
 * @example const doc = readTsDocument('<TS version="2.1">…</TS>', 'de.ts');
 */
export function readTsDocument(text: string, filename: string): TsDocument {
  const s = new XmlScanner(text, filename);
  const messages: TsMessage[] = [];
  const contexts: TsContextElement[] = [];
  const frames: (TsFrame | null)[] = [];
  let rootStartTagEnd = -1;
  let rootCloseStart = -1;
  let language: TsDocument['language'] = null;

  let msg: TsMessage | null = null;
  let msgDepth = 0;
  let translationDepth = 0;
  let seenSource = false;
  let seenComment = false;
  let locations: string[] | null = null;
  let contextStart = -1;

  let cap = CAP_NONE;
  let capDepth = 0;
  let capText = '';
  let capFrame: TsFrame | null = null;

  // Relative `<location line="+N">` counts from the previous location in the file.
  let lastFile: string | null = null;
  let lastLine = 0;

  const frameAt = (depth: number): TsFrame => {
    let f = frames[depth];
    if (!f) {
      f = { name: null };
      frames[depth] = f;
    }
    return f;
  };

  const commit = (): void => {
    const m = msg;
    switch (cap) {
      case CAP_SOURCE:
        m!.source = capText;
        break;
      case CAP_TRANSLATION:
        m!.translation = capText;
        break;
      case CAP_COMMENT:
        m!.comment = capText;
        break;
      case CAP_EXTRACOMMENT:
        m!.extracomment = capText;
        break;
      case CAP_TRANSLATORCOMMENT:
        m!.translatorcomment = capText;
        break;
      case CAP_FORM: {
        const forms = m!.forms!;
        forms[forms.length - 1] = capText;
        break;
      }
      case CAP_NAME:
        capFrame!.name = capText;
        capFrame = null;
        break;
    }
    cap = CAP_NONE;
    capText = '';
  };

  for (let kind = s.next(); kind !== XmlToken.Eof; kind = s.next()) {
    switch (kind) {
      case XmlToken.StartTag: {
        if (cap !== CAP_NONE) commit();
        const depth = s.depth;
        const name = s.name;
        frames[depth] = null;
        if (depth === 1) {
          if (name !== 'TS') s.fail(s.start, `the root element is <${name}>, expected <TS>`);
          const version = s.attr('version');
          if (version !== null && !version.startsWith('2.')) s.fail(s.start, `unsupported TS version "${version}" (expected 2.x)`);
          const li = s.attrIndex('language');
          if (li >= 0) language = { start: s.attrValueStart[li]!, end: s.attrValueEnd[li]! };
          rootStartTagEnd = s.end;
          break;
        }
        if (msg !== null) {
          if (depth === msgDepth + 1) {
            switch (name) {
              case 'source':
                if (!seenSource) {
                  seenSource = true;
                  cap = CAP_SOURCE;
                }
                break;
              case 'translation':
                if (msg.translationStart < 0) {
                  msg.translationStart = s.start;
                  msg.type = s.attr('type');
                  translationDepth = depth;
                  cap = CAP_TRANSLATION;
                }
                break;
              case 'comment':
                if (!seenComment) {
                  seenComment = true;
                  cap = CAP_COMMENT;
                }
                break;
              case 'extracomment':
                if (msg.extracomment === null) cap = CAP_EXTRACOMMENT;
                break;
              case 'translatorcomment':
                if (msg.translatorcomment === null) cap = CAP_TRANSLATORCOMMENT;
                break;
              case 'location': {
                let file = s.attr('filename');
                let line = s.attr('line');
                if (line !== null && RELATIVE_LINE.test(line)) {
                  lastLine += Number(line);
                  line = String(lastLine);
                  if (file === null) file = lastFile;
                } else if (line !== null && ABSOLUTE_LINE.test(line)) {
                  lastLine = Number(line);
                }
                if (file !== null) lastFile = file;
                let where = file;
                if (line) where = where ? `${where}:${line}` : line;
                if (where) (locations ??= []).push(where);
                break;
              }
            }
            if (cap !== CAP_NONE) capDepth = depth;
          } else if (depth === translationDepth + 1 && name === 'numerusform' && msg.translationEnd < 0) {
            (msg.forms ??= []).push('');
            cap = CAP_FORM;
            capDepth = depth;
          }
          if (s.selfClosing && cap !== CAP_NONE) commit();
          break;
        }
        if (name === 'message') {
          msg = startMessage(s, frameAt(depth - 1));
          msgDepth = depth;
          translationDepth = -1;
          seenSource = false;
          seenComment = false;
          locations = null;
          break;
        }
        if (name === 'name') {
          const frame = frameAt(depth - 1);
          if (frame.name === null) {
            frame.name = '';
            cap = CAP_NAME;
            capDepth = depth;
            capFrame = frame;
            if (s.selfClosing) commit();
          }
        } else if (name === 'context' && depth === 2) {
          contextStart = s.start;
        }
        break;
      }
      case XmlToken.EndTag: {
        const depth = s.depth;
        if (cap !== CAP_NONE && depth === capDepth) commit();
        if (msg !== null) {
          if (depth === translationDepth && msg.translationEnd < 0) {
            msg.translationEnd = s.end;
          } else if (depth === msgDepth) {
            msg.end = s.end;
            if (locations !== null) msg.location = locations.join(', ');
            messages.push(msg);
            msg = null;
          }
        } else if (depth === 2 && s.name === 'context') {
          contexts.push({ frame: frameAt(2), start: contextStart, closeStart: s.start, end: s.end });
        } else if (depth === 1) {
          rootCloseStart = s.start;
        }
        break;
      }
      case XmlToken.Text:
      case XmlToken.CData:
        if (cap !== CAP_NONE) capText += s.textValue();
        break;
      case XmlToken.Comment:
      case XmlToken.ProcessingInstruction:
        // lxml's `.text` stops at a comment or PI child.
        if (cap !== CAP_NONE) commit();
        break;
    }
  }
  return { text, messages, contexts, rootStartTagEnd, rootCloseStart, language };
}

function startMessage(s: XmlScanner, parent: TsFrame): TsMessage {
  let numerus = false;
  let id: string | null = null;
  let flags = '';
  if (s.attrCount > 0) {
    numerus = s.attr('numerus') === 'yes';
    id = s.attr('id');
    flags = messageFlags(s);
  }
  return {
    parent,
    comment: '',
    id,
    numerus,
    source: '',
    type: null,
    translation: '',
    forms: null,
    extracomment: null,
    translatorcomment: null,
    location: '',
    flags,
    start: s.start,
    startTagEnd: s.end,
    end: -1,
    translationStart: -1,
    translationEnd: -1,
  };
}

/** Weblate's flags from `maxwidth`/`size-unit`, `font` and `weblate-flags` on `<message>`. */
function messageFlags(s: XmlScanner): string {
  const flags: string[] = [];
  const maxwidth = s.attr('maxwidth');
  if (maxwidth !== null) {
    const unit = s.attr('size-unit');
    if (unit === null || unit === 'pixel' || unit === 'point') flags.push(`max-size:${flagValue(maxwidth)}`);
    else if (unit === 'byte' || unit === 'char') flags.push(`max-length:${flagValue(maxwidth)}`);
  }
  const font = s.attr('font');
  if (font !== null) {
    const [family, size, weight] = font.split(';').map((p) => p.trim());
    if (family) flags.push(`font-family:${flagValue(family)}`);
    if (size) flags.push(`font-size:${flagValue(size)}`);
    if (weight) flags.push(`font-weight:${flagValue(weight)}`);
  }
  const extra = s.attr('weblate-flags');
  if (extra !== null) {
    for (const f of splitFlags(extra)) if (!flags.includes(f)) flags.push(f);
  }
  return flags.join(', ');
}

/** Quotes a flag value the way Weblate prints values holding separators or spaces. */
function flagValue(v: string): string {
  return /^[^\s,:"\\]*$/.test(v) ? v : `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Splits a Weblate flag list on commas outside double quotes. */
export function splitFlags(list: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '\\' && quoted && i + 1 < list.length) {
      cur += c + list[++i];
    } else if (c === '"') {
      quoted = !quoted;
      cur += c;
    } else if (c === ',' && !quoted) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else {
      cur += c;
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
