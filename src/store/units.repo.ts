// Units of a translation: diff-applied from parsed files so untouched rows (and their ids) stay as they are.
import { Action } from '../domain/actions.js';
import { joinPlural, type ParsedUnit, State } from '../domain/unit.js';
import { codePoints } from '../domain/words.js';
import type { Db } from './db.js';

/** The stored fields sync compares against a parsed unit. */
export interface StoredUnit {
  id: number;
  id_hash: bigint;
  content_hash: bigint;
  context: string;
  source: string;
  target: string;
  previous_source: string;
  location: string;
  note: string;
  flags: string;
  explanation: string;
  source_explanation: string;
  state: number;
  position: number;
  num_words: number;
  pending: number;
}

export interface UnitDiff {
  added: number;
  changed: number;
  removed: number;
  /** Ids of inserted units, in file order. */
  addedIds: number[];
  /** id_hash of every removed unit. */
  removedHashes: bigint[];
  /** Units with a pending edit whose file text changed too: the edit was kept. */
  pendingKept: { id: number; context: string; fileTarget: string }[];
  /** Units with a pending edit that vanished from the file. */
  pendingDropped: { id: number; context: string; target: string }[];
}

const COLUMNS = 'id, id_hash, content_hash, context, source, target, previous_source, location, note, flags, explanation, source_explanation, state, position, num_words, pending';

/** The stored units of a translation keyed by id_hash. */
export function storedUnits(db: Db, translationId: number): Map<bigint, StoredUnit> {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM units WHERE translation_id = ?`).safeIntegers(true).all(translationId) as Record<string, unknown>[];
  const out = new Map<bigint, StoredUnit>();
  for (const r of rows) {
    out.set(r.id_hash as bigint, {
      ...(r as unknown as StoredUnit),
      id: Number(r.id),
      state: Number(r.state),
      position: Number(r.position),
      num_words: Number(r.num_words),
      pending: Number(r.pending),
    });
  }
  return out;
}

/** What a unit row holds for a parsed unit (targets already decided). */
interface UnitValues {
  id_hash: bigint;
  content_hash: bigint;
  context: string;
  source: string;
  target: string;
  previous_source: string;
  location: string;
  note: string;
  flags: string;
  explanation: string;
  source_explanation: string;
  state: number;
  position: number;
  num_words: number;
  num_chars: number;
}

function valuesOf(u: ParsedUnit, position: number, override?: { target: string[]; state: number }): UnitValues {
  const source = joinPlural(u.source);
  return {
    id_hash: u.idHash,
    content_hash: u.contentHash,
    context: u.context,
    source,
    target: joinPlural(override?.target ?? u.target),
    previous_source: u.previousSource,
    location: u.location,
    note: u.note,
    flags: u.flags,
    explanation: u.explanation,
    source_explanation: u.sourceExplanation,
    state: override?.state ?? u.state,
    position,
    num_words: u.numWords,
    num_chars: codePoints(source),
  };
}

function sameValues(s: StoredUnit, v: UnitValues): boolean {
  return (
    s.content_hash === v.content_hash && s.context === v.context && s.source === v.source && s.target === v.target &&
    s.previous_source === v.previous_source && s.location === v.location && s.note === v.note && s.flags === v.flags &&
    s.explanation === v.explanation && s.source_explanation === v.source_explanation && s.state === v.state &&
    s.position === v.position && s.num_words === v.num_words
  );
}

/** Prepared statements for applying unit diffs; prepare once per transaction batch. */
export function unitWriter(db: Db) {
  // positional parameters: binding by name costs a property lookup per column on the hottest path
  const insert = db.prepare(
    `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, previous_source, location, note, flags,
       explanation, source_explanation, state, original_state, position, num_words, num_chars, timestamp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertValues = (translationId: number, v: UnitValues, timestamp: string) =>
    insert.run(translationId, v.id_hash, v.content_hash, v.context, v.source, v.target, v.previous_source, v.location, v.note,
      v.flags, v.explanation, v.source_explanation, v.state, v.state, v.position, v.num_words, v.num_chars, timestamp);
  const update = db.prepare(
    `UPDATE units SET content_hash = @content_hash, context = @context, source = @source, target = @target,
       previous_source = @previous_source, location = @location, note = @note, flags = @flags, explanation = @explanation,
       source_explanation = @source_explanation, state = @state, original_state = @state, position = @position,
       num_words = @num_words, num_chars = @num_chars, timestamp = @timestamp
     WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM units WHERE id = ?');
  const hasUnits = db.prepare('SELECT 1 FROM units WHERE translation_id = ? LIMIT 1').pluck();
  const addedInTms = db.prepare(`SELECT 1 FROM changes WHERE unit_id = ? AND action = ${Action.NEW_UNIT} LIMIT 1`).pluck();
  return {
    /**
     * Makes the translation's units equal to `parsed` (position = listing order): unchanged rows are not
     * written, pending edits keep their target and state. `override` decides target/state (e.g. read-only sources).
     */
    apply(
      translationId: number,
      parsed: readonly ParsedUnit[],
      timestamp: string,
      override?: (u: ParsedUnit) => { target: string[]; state: number },
    ): UnitDiff {
      const stored = hasUnits.get(translationId) === undefined ? new Map<bigint, StoredUnit>() : storedUnits(db, translationId);
      const diff: UnitDiff = { added: 0, changed: 0, removed: 0, addedIds: [], removedHashes: [], pendingKept: [], pendingDropped: [] };
      const seen = new Set<bigint>();
      let position = 0;
      for (const u of parsed) {
        if (seen.has(u.idHash)) continue;
        seen.add(u.idHash);
        position++;
        const values = valuesOf(u, position, override?.(u));
        const existing = stored.get(u.idHash);
        if (!existing) {
          const info = insertValues(translationId, values, timestamp);
          diff.added++;
          diff.addedIds.push(Number(info.lastInsertRowid));
          continue;
        }
        if (existing.pending) {
          if (values.target !== existing.target) diff.pendingKept.push({ id: existing.id, context: existing.context, fileTarget: values.target });
          values.target = existing.target;
          values.state = existing.state;
        }
        if (sameValues(existing, values)) continue;
        update.run({ ...values, id: existing.id, timestamp });
        diff.changed++;
      }
      for (const [hash, s] of stored) {
        if (seen.has(hash)) continue;
        // A string added in tms is not in the file until its commit: keep it, it is not a removal upstream.
        if (s.pending && addedInTms.get(s.id) !== undefined) continue;
        if (s.pending) diff.pendingDropped.push({ id: s.id, context: s.context, target: s.target });
        remove.run(s.id);
        diff.removed++;
        diff.removedHashes.push(hash);
      }
      return diff;
    },
  };
}

/** Read-only source text of a bilingual component: the source itself, state read-only. */
export function readonlySource(u: ParsedUnit): { target: string[]; state: number } {
  return { target: u.source, state: State.READONLY };
}
