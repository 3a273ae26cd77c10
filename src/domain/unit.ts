// Units as Weblate models them: states, plural joining and the parsed-unit shape every format returns.

/** Unit states, numbered as Weblate's StringState. */
export const State = {
  EMPTY: 0,
  FUZZY: 10,
  TRANSLATED: 20,
  APPROVED: 30,
  READONLY: 100,
} as const;
export type UnitState = (typeof State)[keyof typeof State];

/** Weblate stores plural forms joined by this separator (and hashes them joined). */
export const PLURAL_SEPARATOR = '\x1e\x1e';

export function joinPlural(forms: readonly string[]): string {
  // most units have one form: join() of one element still builds a new string (25 against 5 ns)
  return forms.length === 1 ? forms[0]! : forms.join(PLURAL_SEPARATOR);
}

export function splitPlural(joined: string): string[] {
  return joined.split(PLURAL_SEPARATOR);
}

/**
 * A unit as the domain sees it: one string of one translation, as stored (its row: the store's `UnitRow`). Plural
 * forms are joined (`splitPlural` separates them); flags are the file's and the user's, comma-separated.
 */
export interface Unit {
  id: number;
  translationId: number;
  /** Weblate's id hash (exact, 64-bit): the same string in every translation of a component. */
  idHash: bigint;
  contentHash: bigint;
  context: string;
  source: string;
  target: string;
  previousSource: string;
  location: string;
  note: string;
  flags: string;
  extraFlags: string;
  explanation: string;
  sourceExplanation: string;
  state: UnitState;
  /** The state the file last gave it. */
  originalState: UnitState;
  position: number;
  numWords: number;
  numChars: number;
  priority: number;
  /** An edit made in tms and not yet written to the file and committed. */
  pending: boolean;
  pendingAuthorId: number | null;
  timestamp: string;
}

/**
 * One unit as a format reads it from a file, already shaped as Weblate shows it.
 * `source` and `target` hold one element per plural form.
 */
export interface ParsedUnit {
  /** Weblate's context: TS context/comment/id joined, the JSON key path, the TBX entry id. */
  context: string;
  source: string[];
  target: string[];
  /** Comma+space separated locations. */
  location: string;
  note: string;
  flags: string;
  explanation: string;
  /** TBX only: the explanation on the source side. */
  sourceExplanation: string;
  previousSource: string;
  state: UnitState;
  /** 1-based order in the listing. */
  position: number;
  idHash: bigint;
  contentHash: bigint;
  numWords: number;
}

/**
 * The first character no translation file can keep, or null: control characters other than tab and line ends
 * (XML cannot hold them at all; the writers would drop them while the store kept them) and unpaired surrogates
 * (they cannot be encoded as UTF-8).
 */
export function unwritableCharacter(text: string): string | null {
  const m = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text);
  return m ? m[0] : null;
}

/** `'\x07'` or `U+D800` for the messages that name an unwritable character. */
export function describeCharacter(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x20 ? `'\\x${code.toString(16).padStart(2, '0')}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
