// The Format contract: bytes in, units out; edits in, bytes out. No fs, git or database here.
import type { ParsedUnit, UnitState } from '../domain/unit.js';

/** Weblate's file format ids that tms reads and writes. */
export const FORMAT_IDS = [
  'ts',
  'json',
  'json-nested',
  'i18next',
  'i18nextv4',
  'go-i18n-json',
  'go-i18n-json-v2',
  'webextension',
  'arb',
  'tbx',
  'aresource',
  'strings',
  'strings-utf8',
  'stringsdict',
  'xliff',
  'plainxliff',
  'poxliff',
  'po',
  'po-mono',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

/** What a format needs to know about the file besides its bytes. */
export interface FormatContext {
  /** Repository-relative path, used in error messages. */
  filename: string;
  /** The file's language code as written in the file name (e.g. `pt_BR`, `pt-BR`). */
  language: string;
  /** The component's source language code (e.g. `en`). */
  sourceLanguage: string;
  /** Number of plural forms of the file's language (from the language database). */
  plurals?: number;
  /** The language's plural formula (a C expression over n), for formats that write it into a file (PO's Plural-Forms). */
  pluralFormula?: string;
  /** Writes: who saved and when, for formats that record it in the file (the PO header), as Weblate writes it. */
  revision?: FileRevision;
  /** Line width of rewritten strings in formats that wrap them (PO: Weblate's `po_line_wrap`, 77; -1 never wraps). */
  lineWidth?: number;
  /**
   * Monolingual components: the parsed template. Units are then listed in template order,
   * identities come from the template, and keys only in the translation file are not listed.
   */
  template?: ParsedFile | null;
}

/** Who saved a file and when, with the fields Weblate writes into a PO header on every save. */
export interface FileRevision {
  /** `Full Name <email>` */
  translator: string;
  date: Date;
  /** `tms <version>` (Weblate writes `Weblate <version>`). */
  generator: string;
  /** `<Language name> <URL of the translation>` (the project's `set_language_team`); null leaves it as it is. */
  languageTeam?: string | null;
  /** The component's `report_source_bugs` address; null or empty leaves it as it is. */
  reportBugsTo?: string | null;
}

/** A parsed file: its units plus whatever the format keeps to write the file back. */
export interface ParsedFile {
  units: ParsedUnit[];
  /** True when `units` came from a template (monolingual listing). */
  monolingual: boolean;
  /** Format-private state (e.g. offsets of elements in the original text). Opaque to callers. */
  readonly internal?: unknown;
  /** Units the format left out of `units`, each with its line and why (a duplicate identity: the first one wins). */
  skipped?: Array<{ line: number; reason: string }>;
  /**
   * The plural rule the file itself states, as written (PO's `Plural-Forms` header value: `nplurals=4; plural=…;`);
   * absent where the format has no such statement or the file leaves it out.
   */
  pluralForms?: string;
}

/**
 * One change to write into a file. The unit is found by the same identity Weblate uses
 * (`context` for monolingual files, `source` + `context` for bilingual ones); a unit not in
 * the file is added where Weblate would add it (monolingual: cloned from the template).
 */
export interface UnitWrite {
  context: string;
  source: string[];
  target: string[];
  state: UnitState;
  explanation?: string;
  /** Remove the unit from the file instead of setting its target. */
  remove?: boolean;
}

export interface Format {
  id: FormatId;
  /** Human name, as Weblate shows it. */
  name: string;
  /** true: needs a template; false: never uses one; null: either. */
  monolingual: boolean | null;
  /** File extension without the dot, used for new files and downloads. */
  extension: string;
  /** MIME type for downloads. */
  mimeType: string;
  /**
   * How the format's files name languages when a component leaves `language_code_style` empty (Weblate's
   * `language_format`): `posix` (pt_BR, the default), `bcp` (pt-BR) or `android` (pt-rBR, b+sr+Latn).
   */
  languageCodeStyle?: 'posix' | 'bcp' | 'android';
  /**
   * The files state approval (XLIFF's approved="yes"). Elsewhere an approval lives in tms only, and a sync keeps it
   * while the string's text is unchanged (Weblate's get_unit_state).
   */
  approval?: boolean;
  /**
   * The files state "needs editing" (TS's unfinished, PO's fuzzy, XLIFF's state). Elsewhere it lives in tms only, and
   * a sync keeps it while the string's text is unchanged (Weblate's get_unit_state).
   */
  fuzzy?: boolean;
  /**
   * Reads a file. Throws FormatParseError (file-relative line/column, one-line reason) on
   * malformed input; never returns a partial result.
   * @example const store = format.parse(bytes, { filename: 'po/de.ts', language: 'de', sourceLanguage: 'en' });
   */
  parse(bytes: Uint8Array, ctx: FormatContext): ParsedFile;
  /**
   * Reads a monolingual component's template once: the store its translations are read against (their
   * `ctx.template`) and, with `own`, the template's own units as a translation of itself (key identities, its text as
   * target: what `parse(bytes, { ...ctx, template: parse(bytes, ctx) })` lists). Without `own` its `units` are empty:
   * a sync whose template did not change builds no units of it only to throw them away.
   * @example const template = format.parseTemplate(bytes, ctx, changed); format.parse(other, { ...otherCtx, template });
   */
  parseTemplate(bytes: Uint8Array, ctx: FormatContext, own: boolean): ParsedFile;
  /**
   * Applies edits and returns the new bytes. Only the edited units' text spans change;
   * everything else (BOM, indentation, key order, entities, comments) is kept byte for byte.
   * With no edits the output equals the input.
   */
  write(bytes: Uint8Array, edits: readonly UnitWrite[], ctx: FormatContext): Uint8Array;
  /**
   * A new, untranslated file for `ctx.language`: from `base` (new_base) with every target
   * emptied, or the format's empty skeleton when `base` is null (throws where the format has none).
   */
  create(base: Uint8Array | null, ctx: FormatContext): Uint8Array;
}
