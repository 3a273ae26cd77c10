// What crosses between the sync and a parse worker: one component's files to parse, and what parsing them gave.
import type { ComponentConfig } from '../config/config.js';
import type { ParsedUnit } from '../domain/unit.js';
import type { EarlyChecks, UnitChecks } from './plan.js';
import type { ParseOutcome, ScanPlan } from './scan.js';

/** One component's changed files to read and parse (`parseChanged`'s arguments, as plain data). */
export interface ParseJob {
  id: number;
  dir: string;
  plan: ScanPlan;
  component: Pick<ComponentConfig, 'file_format' | 'source_language'>;
  /** path → the revision parsed last time. */
  known: [string, string][];
  maxBytes: number;
  /** path → the blob id HEAD names (git working copies): a file that differs is left to the calling thread. */
  revisions?: Record<string, string>;
  /** What the units' own checks need (the store's settings as read before the job): the worker runs them too. */
  checks?: EarlyChecks;
}

/**
 * What a worker answers: the outcomes, a file found damaged (read again on the calling thread), or a failure; and
 * once, when it has loaded, that it is ready.
 */
export type ParseReply = { id: number; outcomes: EncodedOutcomes } | { id: number; damaged: true } | { id: number; error: string } | { ready: true };

/**
 * The outcomes as they cross the thread boundary: a parsed file's units columnar (`ColumnarUnits`), the rest (errors,
 * skipped strings, the file's plural) by structured clone. Measured against cloning the units' objects
 * (`npm run bench:parse-transfer`, KeePassXC's 72,000 units): the sync's thread, which also writes the store, rebuilds
 * them in a fifth of the time or less it took to deserialize the objects, and the worker sends them a little faster. The
 * format's private state (`internal`: offsets for writing back) stays behind: a sync does not use it.
 */
export type EncodedOutcomes = [string, EncodedOutcome][];

type EncodedOutcome =
  | Exclude<ParseOutcome, { status: 'parsed' }>
  | {
      status: 'parsed';
      units: ColumnarUnits;
      monolingual: boolean;
      skipped?: { line: number; reason: string }[];
      plural?: { number: number; formula: string } | null;
      checks?: UnitChecks;
    };

/** The outcomes to send, with the buffers to transfer (not copy). */
export function encodeOutcomes(outcomes: ReadonlyMap<string, ParseOutcome>): { encoded: EncodedOutcomes; transfer: ArrayBuffer[] } {
  const encoded: EncodedOutcomes = [];
  const transfer: ArrayBuffer[] = [];
  for (const [file, o] of outcomes) {
    if (o.status !== 'parsed') {
      encoded.push([file, o]);
      continue;
    }
    const units = columnarUnits(o.store.units);
    transfer.push(units.lengths.buffer as ArrayBuffer, units.numbers.buffer as ArrayBuffer, units.hashes.buffer as ArrayBuffer);
    if (o.checks) transfer.push(o.checks.states.buffer as ArrayBuffer);
    encoded.push([
      file,
      {
        status: 'parsed',
        units,
        monolingual: o.store.monolingual,
        ...(o.store.skipped ? { skipped: o.store.skipped } : {}),
        ...('plural' in o ? { plural: o.plural } : {}),
        ...(o.checks ? { checks: o.checks } : {}),
      },
    ]);
  }
  return { encoded, transfer };
}

export function decodeOutcomes(encoded: EncodedOutcomes): Map<string, ParseOutcome> {
  const out = new Map<string, ParseOutcome>();
  for (const [file, o] of encoded) {
    if (o.status !== 'parsed') {
      out.set(file, o);
      continue;
    }
    const store = { units: unitsFromColumns(o.units), monolingual: o.monolingual, ...(o.skipped ? { skipped: o.skipped } : {}) };
    out.set(file, { status: 'parsed', store, ...('plural' in o ? { plural: o.plural } : {}), ...(o.checks ? { checks: o.checks } : {}) });
  }
  return out;
}

/** Parsed units as they cross to the sync's thread: every text in one string, numbers and hashes in typed arrays. */
export interface ColumnarUnits {
  text: string;
  lengths: Uint32Array;
  numbers: Int32Array;
  hashes: BigInt64Array;
}

const STRING_FIELDS = ['context', 'location', 'note', 'flags', 'explanation', 'sourceExplanation', 'previousSource'] as const;

/** Units as one string of every text (lengths apart) and typed arrays of the numbers and hashes (transferable). */
export function columnarUnits(units: readonly ParsedUnit[]): ColumnarUnits {
  const parts: string[] = [];
  const lengths: number[] = [];
  const numbers = new Int32Array(units.length * 5);
  const hashes = new BigInt64Array(units.length * 2);
  units.forEach((u, i) => {
    for (const f of STRING_FIELDS) {
      parts.push(u[f]);
      lengths.push(u[f].length);
    }
    for (const s of [...u.source, ...u.target]) {
      parts.push(s);
      lengths.push(s.length);
    }
    numbers.set([u.state, u.position, u.numWords, u.source.length, u.target.length], i * 5);
    hashes[i * 2] = u.idHash;
    hashes[i * 2 + 1] = u.contentHash;
  });
  return { text: parts.join(''), lengths: Uint32Array.from(lengths), numbers, hashes };
}

/** The units of `columnarUnits`, rebuilt. */
export function unitsFromColumns(c: ColumnarUnits): ParsedUnit[] {
  const { text, lengths, numbers, hashes } = c;
  const count = numbers.length / 5;
  const units: ParsedUnit[] = new Array(count);
  let at = 0;
  let k = 0;
  const next = (): string => {
    const end = at + lengths[k++]!;
    const s = text.slice(at, end);
    at = end;
    return s;
  };
  for (let i = 0; i < count; i++) {
    const context = next();
    const location = next();
    const note = next();
    const flags = next();
    const explanation = next();
    const sourceExplanation = next();
    const previousSource = next();
    const source: string[] = [];
    for (let n = numbers[i * 5 + 3]!; n > 0; n--) source.push(next());
    const target: string[] = [];
    for (let n = numbers[i * 5 + 4]!; n > 0; n--) target.push(next());
    units[i] = {
      context,
      source,
      target,
      location,
      note,
      flags,
      explanation,
      sourceExplanation,
      previousSource,
      state: numbers[i * 5] as ParsedUnit['state'],
      position: numbers[i * 5 + 1]!,
      idHash: hashes[i * 2]!,
      contentHash: hashes[i * 2 + 1]!,
      numWords: numbers[i * 5 + 2]!,
    };
  }
  return units;
}
