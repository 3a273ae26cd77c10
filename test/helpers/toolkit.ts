// The Translate Toolkit oracle: Debian's translate-toolkit reads a file with a toolkit store class; its units come back as JSON.
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { unitIdHash } from '../../src/domain/hash.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'toolkit-units.py');

/**
 * A toolkit store class: Weblate's format id (`po`, `po-mono`, `xliff`, `poxliff`, `aresource`, `strings`,
 * `strings-utf8`, `stringsdict`, `ts`, `tbx`, `json`…) or a dotted `module.Class` under `translate.storage`.
 */
export type ToolkitStore = string;

/** One unit as the toolkit reads it. Strings are lists of forms (one element unless the toolkit holds plurals). */
export interface ToolkitUnit {
  /** `getid()`: msgctxt `\x04` msgid for PO, `original` `\x04` id for XLIFF, the key elsewhere. */
  id: string;
  /** `getcontext()`. */
  context: string;
  source: string[];
  target: string[];
  plural: boolean;
  fuzzy: boolean;
  translated: boolean;
  approved: boolean;
  obsolete: boolean;
  header: boolean;
  blank: boolean;
  translatable: boolean;
  /** `getnotes()`: translator and developer comments, newline-joined. */
  notes: string;
  /** `getlocations()`, URL-unquoted. */
  locations: string[];
  /** PO: the `#,` flags as written (fuzzy included). */
  flags?: string[];
  /** PO: the toolkit's `prev_source`: the `#|` msgid (and msgid_plural), empty forms when there is none. */
  previousSource?: string[];
  /** PO: the unescaped msgctxt, null when the entry has none. */
  msgctxt?: string | null;
  /** Android: the element's `maxwidth`, `size-unit`, `font` and `weblate-flags` attributes that are set. */
  flagAttributes?: Record<string, string>;
  /** XLIFF: the `state` attribute of each `<target>` (null when absent). */
  xmlState?: Array<string | null>;
  /** Read with a template: the translation file's unit with the template unit's id, null when missing. */
  translation?: ToolkitUnit | null;
  /**
   * What Weblate builds from the toolkit's unit (weblate/formats/ttkit.py), and the id_hash that follows. XLIFF
   * stores also give Weblate's state and whether the unit is listed at all (has_content), with `xliff` rich text
   * (inline elements as XML) as source and target. XLIFF units without a template are only the listed kinds
   * (neither header nor obsolete); with a template they follow the template, matched by Weblate's context.
   */
  weblate: { monolingual: boolean; context: string; source: string[]; target: string[]; idHash: bigint; state?: number; listed?: boolean };
}

export interface ToolkitRequest {
  file: string;
  store: ToolkitStore;
  /** Monolingual reading: units follow this template, keyed as Weblate keys them. */
  template?: string | null;
  /** Set on the store before parsing, as Weblate's fixup does (Android and stringsdict read plural tags from it). */
  targetLanguage?: string | null;
  sourceLanguage?: string | null;
}

export interface ToolkitResult {
  units: ToolkitUnit[];
}

const PYTHON = process.env.TMS_TOOLKIT_PYTHON ?? '/usr/bin/python3';
let available: boolean | null = null;

/** Whether Debian's translate-toolkit can be imported by the system Python. */
export function toolkitAvailable(): boolean {
  if (available === null) available = spawnSync(PYTHON, ['-c', 'import translate.storage.pypo'], { stdio: 'ignore' }).status === 0;
  return available;
}

type RawUnit = Omit<ToolkitUnit, 'weblate' | 'translation'> & {
  translation?: RawUnit | null;
  weblate: Omit<ToolkitUnit['weblate'], 'idHash'>;
};

function finish(raw: RawUnit): ToolkitUnit {
  const translation = raw.translation ? finish(raw.translation) : raw.translation;
  // The translation side of a template join carries no weblate block of its own.
  if (!raw.weblate) return { ...raw, translation } as ToolkitUnit;
  const { monolingual, context, source } = raw.weblate;
  return { ...raw, translation, weblate: { ...raw.weblate, idHash: unitIdHash(monolingual, source, context) } };
}

/**
 * Reads many files in one Python process (its start costs more than a file's parse); one failing file is that
 * file's error, thrown when its result is used.
 * @example const [de] = await toolkitStores([{ file: 'po/de.po', store: 'po' }]);
 */
export async function toolkitStores(requests: readonly ToolkitRequest[]): Promise<Array<ToolkitResult | Error>> {
  const input = JSON.stringify({ requests });
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(PYTHON, [SCRIPT], { maxBuffer: 1 << 30, encoding: 'utf8' }, (error, out, err) => {
      if (error) reject(new Error(`translate-toolkit failed: ${err || error.message}`));
      else resolve(out);
    });
    child.stdin!.end(input);
  });
  const parsed = JSON.parse(stdout) as { version: string; results: Array<{ units?: RawUnit[]; error?: string }> };
  return parsed.results.map((r, i) => (r.error !== undefined ? new Error(`${requests[i]!.file}: ${r.error}`) : { units: r.units!.map((u) => finish(u)) }));
}

/**
 * The units of one file as the toolkit reads them with the given store class.
 * @example const { units } = await toolkitUnits('po/de.po', 'po'); units.filter((u) => !u.header && !u.obsolete)
 */
export async function toolkitUnits(file: string, store: ToolkitStore, options: Omit<ToolkitRequest, 'file' | 'store'> = {}): Promise<ToolkitResult> {
  const [result] = await toolkitStores([{ file, store, ...options }]);
  if (result instanceof Error) throw result;
  return result!;
}

/** The installed toolkit's version, e.g. `3.8.4`. */
export function toolkitVersion(): string {
  return spawnSync(PYTHON, ['-c', 'import translate.__version__ as v; print(v.sver)'], { encoding: 'utf8' }).stdout.trim();
}

/** `describe` over the toolkit, or a skipped block that says why (visible in the run's output). */
export function describeToolkit(name: string, body: () => void): void {
  if (toolkitAvailable()) {
    describe(name, body);
  } else {
    console.warn(`[skip] ${name}: translate-toolkit is not importable by ${PYTHON} (Debian: apt-get install translate-toolkit)`);
    describe.skip(`${name} (skipped: translate-toolkit is absent)`, () => {});
  }
}
