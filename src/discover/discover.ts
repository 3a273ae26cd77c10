// Proposing components for a repository's files, as Weblate's "choose translation files to import" does with the
// translation finder: file masks from path parts that are language codes, templates, bases for new files, formats.
import { findLanguage } from '../languages/find.js';
import { loadLanguageData } from '../languages/languages.js';

/** One proposed component: Weblate's four keys ('' where there is none). */
export interface Proposal {
  filemask: string;
  file_format: string;
  template: string;
  new_base: string;
}

/** The repository's files (paths relative to its root, `/`-separated) and a way to read one. */
export interface RepositoryFiles {
  paths: readonly string[];
  read(path: string): Uint8Array | null;
}

// Not language codes, though the language data knows them as such.
const NOT_LANGUAGES = new Set(['po', 'ts', 'src', 'source']);
let languageCodes: Set<string> | undefined;

/** Whether a path part reads as a language code: a code or alias of the language data (`pt-BR`, `zh_Hans`, `base`). */
export function isLanguageCode(code: string): boolean {
  if (!languageCodes) {
    const data = loadLanguageData();
    languageCodes = new Set([...data.languages.keys()].map((c) => c.toLowerCase()));
    for (const alias of data.aliases.keys()) languageCodes.add(alias.toLowerCase());
  }
  const lower = code.toLowerCase();
  return !NOT_LANGUAGES.has(lower) && languageCodes.has(lower.replaceAll('-', '_'));
}

const fnmatchCache = new Map<string, RegExp>();

/** Python's `fnmatch` (case-sensitive): `*` any run of characters (`/` too), `?` one, `[…]` a set. */
export function fnmatch(name: string, pattern: string): boolean {
  let re = fnmatchCache.get(pattern);
  if (!re) {
    let src = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!;
      if (c === '*') src += '[\\s\\S]*';
      else if (c === '?') src += '[\\s\\S]';
      else if (c === '[') {
        const close = pattern.indexOf(']', i + 2);
        if (close < 0) src += '\\[';
        else {
          let set = pattern.slice(i + 1, close).replaceAll('\\', '\\\\');
          if (set.startsWith('!')) set = `^${set.slice(1)}`;
          src += `[${set}]`;
          i = close;
        }
      } else src += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    }
    re = new RegExp(`^${src}$`);
    fnmatchCache.set(pattern, re);
  }
  return re.test(name);
}

/** The translation finder's view of the files: sorted, test folders left out of searches by name. */
class Finder {
  private readonly lower: [string, string][];
  private readonly set: Set<string>;
  constructor(readonly files: RepositoryFiles) {
    const byLower = new Map<string, string>();
    for (const p of files.paths) byLower.set(p.toLowerCase(), p);
    this.lower = [...byLower].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.set = new Set(files.paths);
  }

  has(path: string): boolean {
    return this.set.has(path);
  }

  /** Files whose lower-cased name matches `glob` (and folder `dirglob`), outside test folders. */
  *filter(glob: string, dirglob?: string): Generator<string> {
    for (const [name, path] of this.lower) {
      const parts = path.split('/');
      if (parts.includes('test') || parts.includes('tests') || parts.includes('test_data')) continue;
      const slash = name.lastIndexOf('/');
      const directory = slash < 0 ? null : name.slice(0, slash);
      const filename = name.slice(slash + 1);
      if (dirglob && (directory === null || !fnmatch(directory, dirglob))) continue;
      if (fnmatch(filename, glob)) yield path;
    }
  }

  /** Files whose name matches a file mask. */
  matches(mask: string): string[] {
    return [...this.files.paths].sort().filter((p) => fnmatch(p, mask));
  }
}

const TOKEN_SPLIT = /([_-])/;

/**
 * The wildcard a path part becomes when it names a language: `de` → `*`, `de.po` → `*.po`, `app_de.ts` →
 * `app_*.ts`, and (unlike the translation finder 1.0, which misses them) `messages.de_CH.xlf` → `messages.*.xlf`.
 */
function wildcard(part: string): string | null {
  if (isLanguageCode(part)) return '*';
  const dot = part.lastIndexOf('.');
  if (dot < 0) return null;
  const base = part.slice(0, dot);
  const ext = part.slice(dot + 1);
  if (isLanguageCode(base)) return `*.${ext}`;
  const inner = base.lastIndexOf('.');
  if (inner > 0 && isLanguageCode(base.slice(inner + 1))) return `${base.slice(0, inner)}.*.${ext}`;
  const tokens = base.split(TOKEN_SPLIT);
  for (const [pos, token] of tokens.entries()) {
    if (token === '-' || token === '_') continue;
    if (isLanguageCode(token)) return `${tokens.slice(0, pos).join('')}*.${ext}`;
  }
  return null;
}

interface Candidate {
  filemask: string;
  template?: string;
  file_format?: string;
  new_base?: string;
}

/** One rule of discovery: which files it looks at, the masks it makes, how it names the format. */
interface Rule {
  format: string;
  monoFormat?: string;
  newBaseMask?: string;
  /** The template may be the mask's file with its language code dropped (`messages.xlf` for `messages.*.xlf`). */
  templateWithoutCode?: boolean;
  /** No template is ever proposed (TBX). */
  noTemplate?: boolean;
  /**
   * The format makes no file from nothing (XLIFF): the template is proposed as the base for new translations too, as
   * the finder does for such formats (its MonoTemplateDiscovery), so that languages can be added.
   */
  templateAsNewBase?: boolean;
  /**
   * Bilingual files whose source-language file is the base for new translations (Qt TS): where the finder proposes
   * that file as the template, and Weblate then reads every source from its translations, empty in a file of
   * unfinished messages (KeePassXC's, qBittorrent's and Flameshot's `_en.ts`), tms proposes it as `new_base` only.
   */
  sourceFileAsNewBase?: boolean;
  masks(finder: Finder): Generator<Candidate>;
  /** A format decided by the files' contents. */
  adjust?(candidate: Candidate, finder: Finder): void;
}

/** Masks from every path part that names a language (the finder's generic rule). */
function* genericMasks(finder: Finder, glob: string): Generator<Candidate> {
  for (const path of finder.filter(glob)) {
    const parts = path.split('/');
    const skip = new Set<number>();
    for (const [pos, part] of parts.entries()) {
      if (skip.has(pos)) continue;
      const w = wildcard(part);
      if (!w) continue;
      const mask = parts.slice();
      for (const [i, p] of parts.entries()) {
        if (p === part) {
          skip.add(i);
          mask[i] = w;
        }
      }
      yield { filemask: mask.join('/') };
    }
  }
}

/** Files under `<dir>/<code>.lproj/` with a Base or en folder as the template. */
function* lprojMasks(finder: Finder, glob: string): Generator<Candidate> {
  for (const dir of ['*/base.lproj', '*/en.lproj']) {
    for (const path of finder.filter(glob, dir)) {
      const parts = path.split('/');
      parts[parts.length - 2] = '*.lproj';
      yield { filemask: parts.join('/'), template: path };
    }
  }
}

function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || bytes.includes(0);
}

/**
 * The JSON variant a template's shape shows: i18next v3 when a key has its `_plural` sibling, v4 when `_one` and
 * `_other` siblings pair up (a lone `…_one` is just a key), nested when objects nest, else flat JSON.
 */
function jsonVariant(bytes: Uint8Array | null): string {
  if (!bytes) return 'json';
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return 'json';
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return 'json';
  let nested = false;
  let v3 = false;
  let v4 = false;
  const walk = (node: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(node)) {
      if (k.endsWith('_plural') && k.slice(0, -'_plural'.length) in node) v3 = true;
      if (k.endsWith('_one') && `${k.slice(0, -'_one'.length)}_other` in node) v4 = true;
      if (isObject(v)) {
        nested = true;
        walk(v);
      }
    }
  };
  walk(value);
  if (v3) return 'i18next';
  if (v4) return 'i18nextv4';
  return nested ? 'json-nested' : 'json';
}

const RULES: Rule[] = [
  { format: 'auto', masks: transifexMasks },
  { format: 'po', monoFormat: 'po-mono', newBaseMask: '*.pot', masks: (f) => genericMasks(f, '*.po') },
  { format: 'ts', newBaseMask: '*.ts', noTemplate: true, sourceFileAsNewBase: true, masks: (f) => genericMasks(f, '*.ts') },
  {
    format: 'aresource',
    *masks(f) {
      for (const path of f.filter('strings*.xml', '*/values')) {
        const parts = path.split('/');
        parts[parts.length - 2] = 'values-*';
        yield { filemask: parts.join('/'), template: path };
      }
    },
  },
  {
    format: 'strings',
    masks: (f) => lprojMasks(f, '*.strings'),
    adjust(candidate, finder) {
      // UTF-16 files keep Weblate's `strings`; UTF-8 ones (ASCII too, which a UTF-16 reader cannot read) `strings-utf8`
      const files = [...finder.matches(candidate.filemask), candidate.template ?? ''].filter((p) => finder.has(p));
      const utf16 = files.some((p) => {
        const bytes = finder.files.read(p);
        return bytes !== null && isUtf16(bytes);
      });
      candidate.file_format = utf16 ? 'strings' : 'strings-utf8';
    },
  },
  {
    format: 'properties',
    *masks(f) {
      for (const path of f.filter('*_*.properties')) {
        const parts = path.split('/');
        const name = parts[parts.length - 1]!.split('.')[0]!;
        let cut = name.indexOf('_');
        if (!isLanguageCode(name.slice(cut + 1))) {
          cut = name.lastIndexOf('_');
          if (!isLanguageCode(name.slice(cut + 1))) continue;
        }
        const base = name.slice(0, cut);
        const mask = parts.slice();
        mask[mask.length - 1] = `${base}_*.properties`;
        const template = parts.slice();
        template[template.length - 1] = `${base}.properties`;
        yield { filemask: mask.join('/'), template: template.join('/') };
      }
    },
    adjust(candidate, finder) {
      const files = [...finder.matches(candidate.filemask), candidate.template ?? ''].filter((p) => finder.has(p));
      const texts = files.map((p) => finder.files.read(p)).filter((b): b is Uint8Array => b !== null);
      if (texts.some(isUtf16)) candidate.file_format = 'properties-utf16';
      else if (texts.some((b) => b.some((x) => x >= 0x80))) candidate.file_format = 'properties-utf8';
    },
  },
  { format: 'joomla', masks: (f) => genericMasks(f, '*.ini') },
  {
    format: 'resx',
    *masks(f) {
      for (const path of f.filter('*.*.res[xw]')) {
        const parts = path.split('/');
        const [base, code, ext] = rsplit3(parts[parts.length - 1]!);
        if (!isLanguageCode(code)) continue;
        const mask = parts.slice();
        mask[mask.length - 1] = `${base}.*.${ext}`;
        const template = parts.slice();
        template[template.length - 1] = `${base}.${ext}`;
        yield { filemask: mask.join('/'), template: template.join('/') };
      }
      for (const c of genericMasks(f, 'resources.res[xw]')) yield { ...c, template: c.filemask.replace('*', 'en') };
    },
  },
  { format: 'xliff', templateWithoutCode: true, templateAsNewBase: true, masks: (f) => genericMasks(f, '*.xliff') },
  { format: 'xliff', templateWithoutCode: true, templateAsNewBase: true, masks: (f) => genericMasks(f, '*.xlf') },
  { format: 'webextension', masks: (f) => genericMasks(f, 'messages.json') },
  // beyond the translation finder 1.0: the formats tms reads that it does not look for
  { format: 'stringsdict', masks: (f) => lprojMasks(f, '*.stringsdict') },
  {
    format: 'json',
    *masks(f) {
      for (const c of genericMasks(f, '*.json')) if (!c.filemask.endsWith('/messages.json') && c.filemask !== 'messages.json') yield c;
    },
    adjust(candidate, finder) {
      candidate.file_format = jsonVariant(finder.files.read(candidate.template ?? finder.matches(candidate.filemask)[0] ?? ''));
    },
  },
  { format: 'arb', masks: (f) => genericMasks(f, '*.arb') },
  { format: 'tbx', noTemplate: true, masks: (f) => genericMasks(f, '*.tbx') },
];

/** Weblate's format for a Transifex resource `type` (the translation finder's table); `auto` for any other type. */
const TRANSIFEX_TYPES: Readonly<Record<string, string>> = {
  ANDROID: 'aresource',
  STRINGS: 'strings',
  CHROME: 'webextension',
  PO: 'po',
  PROPERTIES: 'properties',
  UNICODEPROPERTIES: 'properties-utf8',
  INI: 'joomla',
  KEYVALUEJSON: 'json-nested',
  MAGENTO: 'csv',
  DTD: 'dtd',
  PHP_ARRAY: 'php',
  QT: 'ts',
  RESX: 'resx',
  XLIFF: 'xliff',
  XLSX: 'xlsx',
  YAML_GENERIC: 'yaml',
  YML: 'ruby-yaml',
};

/**
 * The sections of an INI file as Python's RawConfigParser reads them: `key = value` or `key: value` (keys lower
 * case, both sides stripped), `#` and `;` comment lines, indented lines continuing a value, `[DEFAULT]` under every
 * section.
 */
function readIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  const defaults = new Map<string, string>();
  let current: Map<string, string> | null = null;
  let last: string | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/\s+$/, '');
    if (/^\s*[#;]/.test(line)) continue;
    if (line === '') {
      last = null;
      continue;
    }
    if (/^\s/.test(line) && current && last !== null) {
      current.set(last, `${current.get(last)}\n${line.trim()}`);
      continue;
    }
    const section = /^\[([^\]]+)\]/.exec(line);
    if (section) {
      const name = section[1]!;
      current = name === 'DEFAULT' ? defaults : (sections.get(name) ?? new Map<string, string>());
      if (name !== 'DEFAULT') sections.set(name, current);
      last = null;
      continue;
    }
    const option = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line.trim());
    if (!option || !current) continue;
    last = option[1]!.toLowerCase();
    current.set(last, option[2]!);
  }
  for (const options of sections.values()) for (const [k, v] of defaults) if (!options.has(k)) options.set(k, v);
  return sections;
}

/**
 * A Transifex client's `.tx/config` at the root: each resource section with a `file_filter` is a component, its
 * `<lang>` the mask's `*`, its `type` the format, its `source_file` the template (a `.pot` the base for new files).
 */
function* transifexMasks(finder: Finder): Generator<Candidate> {
  for (const path of finder.filter('config', '.tx')) {
    const bytes = finder.files.read(path);
    if (!bytes) continue;
    for (const options of readIni(new TextDecoder().decode(bytes)).values()) {
      const filter = options.get('file_filter');
      if (filter === undefined) continue;
      const type = options.get('type');
      const candidate: Candidate = { filemask: filter.replaceAll('<lang>', '*'), file_format: 'auto' };
      if (type !== undefined) candidate.file_format = TRANSIFEX_TYPES[type.toUpperCase()] ?? 'auto';
      const source = options.get('source_file');
      if (source !== undefined) {
        if (source.toLowerCase().endsWith('.pot')) candidate.new_base = source;
        else candidate.template = source;
      }
      yield candidate;
    }
  }
}

function rsplit3(name: string): [string, string, string] {
  const last = name.lastIndexOf('.');
  const middle = name.lastIndexOf('.', last - 1);
  return [name.slice(0, middle), name.slice(middle + 1, last), name.slice(last + 1)];
}

function fillNewBase(candidate: Candidate, finder: Finder, newBaseMask: string): void {
  let path = candidate.filemask;
  const basename = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '');
  const newName = newBaseMask.replace('*', basename);
  while (path.includes('/')) {
    path = path.slice(0, path.lastIndexOf('/'));
    for (const glob of [newName, newBaseMask]) {
      for (const match of finder.filter(glob, path)) {
        candidate.new_base = match;
        return;
      }
    }
  }
}

/**
 * The components a repository holds, in the translation finder's order (the resources of a Transifex `.tx/config`,
 * gettext, Qt, Android, Apple strings, properties, Joomla, RESX, XLIFF, WebExtension, then stringsdict, JSON, ARB and
 * TBX, which it does not look for); a mask is proposed once, by the first rule that finds it.
 * @example discoverComponents({ paths: ['po/de.po', 'po/app.pot'], read: () => null }) // [{ filemask: 'po/*.po', file_format: 'po', template: '', new_base: 'po/app.pot' }]
 */
export function discoverComponents(files: RepositoryFiles, sourceLanguage = 'en'): Proposal[] {
  const finder = new Finder(files);
  const proposals: Proposal[] = [];
  const seen = new Set<string>();
  for (const rule of RULES) {
    for (const candidate of rule.masks(finder)) {
      if (seen.has(candidate.filemask)) continue;
      if (candidate.template !== undefined && !finder.has(candidate.template)) continue;
      rule.adjust?.(candidate, finder);
      if (candidate.template === undefined && !rule.noTemplate) {
        const template = candidate.filemask.replaceAll('*', sourceLanguage);
        const withoutCode = candidate.filemask.replace('.*.', '.');
        if (finder.has(template)) candidate.template = template;
        else if (rule.templateWithoutCode && withoutCode !== candidate.filemask && finder.has(withoutCode)) candidate.template = withoutCode;
      }
      if (rule.newBaseMask) fillNewBase(candidate, finder, rule.newBaseMask);
      const sourceFile = candidate.filemask.replaceAll('*', sourceLanguage);
      if (rule.sourceFileAsNewBase && finder.has(sourceFile)) candidate.new_base = sourceFile;
      if (rule.templateAsNewBase && candidate.template && !candidate.new_base) candidate.new_base = candidate.template;
      if (rule.format === 'json' && candidate.template) candidate.file_format = jsonVariant(files.read(candidate.template));
      const format = candidate.file_format ?? (candidate.template && rule.monoFormat ? rule.monoFormat : rule.format);
      seen.add(candidate.filemask);
      proposals.push({ filemask: candidate.filemask, file_format: format, template: candidate.template ?? '', new_base: candidate.new_base ?? '' });
    }
  }
  return proposals;
}

/**
 * How the mask's files write a language with a region or script, when most of them agree: `posix` (`pt_BR`,
 * `zh_Hans`) or `bcp` (`pt-BR`, `zh-Hans`); null when no file says (`de`, `fr`) or as many say each. A new language's
 * file is named in the component's `language_code_style`, so a component whose files disagree with its format's
 * default would add `messages.pt-PT.xlf` beside `messages.pt_BR.xlf`.
 * @example fileCodeStyle('locales/*.json', ['locales/en.json', 'locales/pt-BR.json', 'locales/zh-CN.json']) // 'bcp'
 */
export function fileCodeStyle(filemask: string, paths: readonly string[]): 'posix' | 'bcp' | null {
  let posix = 0;
  let bcp = 0;
  for (const code of maskCodes(filemask, paths)) {
    // a language, then a region (`BR`, `419`) or a script (`Hans`), as the two styles write them
    const parts = /^[a-z]{2,3}([_-])(?:[A-Z]{2}|\d{3}|[A-Z][a-z]{3})(?![A-Za-z0-9])/.exec(code);
    if (parts?.[1] === '_') posix++;
    else if (parts?.[1] === '-') bcp++;
  }
  if (posix === bcp) return null;
  return posix > bcp ? 'posix' : 'bcp';
}

/** The part of each path the mask's `*` stands for (`pt-BR` of `locales/pt-BR.json`), in the paths' order. */
function maskCodes(filemask: string, paths: readonly string[]): string[] {
  const star = filemask.indexOf('*');
  if (star < 0) return [];
  const head = filemask.slice(0, star);
  const tail = filemask.slice(star + 1);
  const codes: string[] = [];
  for (const p of paths) {
    if (p.length <= head.length + tail.length || !p.startsWith(head) || !p.endsWith(tail)) continue;
    const code = p.slice(head.length, p.length - tail.length);
    if (!code.includes('/')) codes.push(code);
  }
  return codes;
}

/**
 * A `language_regex` that leaves out the mask's files whose part for `*` is no language (excalidraw's
 * `locales/percentages.json`), keeping Weblate's default otherwise; null when every file names a language.
 * @example languageRegexFor('locales/*.json', ['locales/de-DE.json', 'locales/percentages.json']) // '^(?!(?:percentages)$)[^.]+$'
 */
export function languageRegexFor(filemask: string, paths: readonly string[]): string | null {
  // a code the sync would not find among the languages (it would make one up, as Weblate's scan does)
  const others = [...new Set(maskCodes(filemask, paths).filter((code) => /^[^.]+$/.test(code) && findLanguage(code).generated))].sort();
  if (others.length === 0) return null;
  return `^(?!(?:${others.map((code) => code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$)[^.]+$`;
}
