// A three-way merge of one translation file by units: each unit takes the side that changed it; both sides → upstream.
import { FormatParseError } from '../domain/errors.js';
import { type ParsedUnit, joinPlural } from '../domain/unit.js';
import type { Format, FormatContext, ParsedFile, UnitWrite } from '../formats/format.js';

/** A unit both sides changed to different text: upstream's text is in the merged file, the local text is here. */
export interface UnitConflict {
  context: string;
  idHash: bigint;
  /** The local (tms) side. */
  local: string[];
  localState: number;
  /** Upstream's text, or null when upstream removed the unit. */
  upstream: string[] | null;
}

export interface UnitMerge {
  bytes: Uint8Array;
  conflicts: UnitConflict[];
}

function index(units: readonly ParsedUnit[]): Map<bigint, ParsedUnit> {
  const out = new Map<bigint, ParsedUnit>();
  for (const u of units) if (!out.has(u.idHash)) out.set(u.idHash, u);
  return out;
}

function same(a: ParsedUnit | undefined, b: ParsedUnit | undefined): boolean {
  if (!a || !b) return a === b;
  return a.state === b.state && joinPlural(a.target) === joinPlural(b.target);
}

function write(u: ParsedUnit): UnitWrite {
  return { context: u.context, source: u.source, target: u.target, state: u.state };
}

/**
 * Merges the local side (`theirs`: tms's commit being replayed) into upstream's file (`ours`) unit by unit,
 * from their common `base`:
 * - a unit only the local side changed takes the local target and state;
 * - a unit only upstream changed, or both changed alike, stays as upstream has it;
 * - a unit both changed differently stays as upstream has it and is returned as a conflict (the caller keeps
 *   the local text as a pending edit); so is a unit upstream removed that the local side changed;
 * - units the local side added are added, units it removed (and upstream left alone) are removed.
 * The result is upstream's bytes with the format's minimal-diff writer applied. Returns null when the local or
 * base side cannot be parsed or the writer refuses: the caller treats that as a conflict of the whole file.
 * Upstream's side that does not parse is no conflict but a broken file: its FormatParseError is thrown, so the
 * failure names the file and the position instead of the commit being replayed.
 * @example mergeUnits(tsFormat, ctx, base, upstream, local)?.conflicts
 */
/** Parses upstream's version of a file; a parse error says whose file it is. */
export function parseUpstream(format: Format, bytes: Uint8Array, ctx: FormatContext): ParsedFile {
  try {
    return format.parse(bytes, ctx);
  } catch (e) {
    if (e instanceof FormatParseError) {
      const { filename, line, column, reason } = e.data;
      throw new FormatParseError(filename, line, column, `${reason} (in upstream's version; fix the file upstream, then pull again)`);
    }
    throw e;
  }
}

export function mergeUnits(format: Format, ctx: FormatContext, base: Uint8Array, ours: Uint8Array, theirs: Uint8Array): UnitMerge | null {
  let b: Map<bigint, ParsedUnit>;
  let o: Map<bigint, ParsedUnit>;
  let t: ParsedUnit[];
  o = index(parseUpstream(format, ours, ctx).units);
  try {
    b = index(format.parse(base, ctx).units);
    t = format.parse(theirs, ctx).units;
  } catch {
    return null;
  }
  const edits: UnitWrite[] = [];
  const conflicts: UnitConflict[] = [];
  const inTheirs = new Set<bigint>();
  for (const tu of t) {
    if (inTheirs.has(tu.idHash)) continue;
    inTheirs.add(tu.idHash);
    const bu = b.get(tu.idHash);
    const ou = o.get(tu.idHash);
    if (same(bu, tu)) continue;
    if (!ou) {
      // Upstream removed (or never had) the unit the local side changed or added.
      if (bu) conflicts.push({ context: tu.context, idHash: tu.idHash, local: tu.target, localState: tu.state, upstream: null });
      else edits.push(write(tu));
      continue;
    }
    if (same(ou, tu)) continue;
    if (bu && same(bu, ou)) {
      edits.push(write(tu));
      continue;
    }
    conflicts.push({ context: tu.context, idHash: tu.idHash, local: tu.target, localState: tu.state, upstream: ou.target });
  }
  for (const [hash, bu] of b) {
    if (inTheirs.has(hash)) continue;
    const ou = o.get(hash);
    if (ou && same(bu, ou)) edits.push({ ...write(ou), remove: true });
  }
  try {
    return { bytes: edits.length === 0 ? ours : format.write(ours, edits, ctx), conflicts };
  } catch {
    return null;
  }
}
