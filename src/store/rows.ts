// Row shapes that several repositories share: a unit's row, which edits, removals and units all read.

/** A row of the units table; hashes exact (BigInt). The domain's view of a unit is `Unit` (domain/unit.ts), which the API and the editor read (`UnitRecord`); the write path and the sync read `Pick<UnitRow, …>`s. */
export interface UnitRow {
  id: number;
  translation_id: number;
  id_hash: bigint;
  content_hash: bigint;
  context: string;
  source: string;
  target: string;
  previous_source: string;
  location: string;
  note: string;
  flags: string;
  extra_flags: string;
  explanation: string;
  source_explanation: string;
  state: number;
  original_state: number;
  position: number;
  num_words: number;
  num_chars: number;
  priority: number;
  /** 1: an edit made in tms and not yet written to the file and committed. */
  pending: number;
  pending_author_id: number | null;
  timestamp: string;
}
