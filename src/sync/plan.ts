// The sync's decisions, pure: from the parsed files and the stored translations and units, the plan the store writes (applySyncPlan).

import { type TranslationChecking, computeChecks, translationCheckingOf } from '../checks/index.js';
import { unitContentHash } from '../domain/hash.js';
import { type ParsedUnit, State, joinPlural, splitPlural } from '../domain/unit.js';
import { codePoints, countWords } from '../domain/words.js';
import type { LanguageDefinition } from '../languages/languages.js';
import type {
  CheckingRow,
  ComponentCheckingFacts,
  PlannedInsert,
  PlannedTranslation,
  PlannedUnits,
  PlannedUpdate,
  StoredUnit,
  StoredUnits,
  SyncPlan,
  SyncState,
  TranslationIndex,
  TranslationRow,
  UnitValues,
} from '../store/index.js';

/** What happened to one file. */
export interface FileResult {
  path: string;
  language: string;
  status: 'unchanged' | 'parsed' | 'failed' | 'removed';
  added: number;
  changed: number;
  removed: number;
  error?: string;
}

/** What a sync did to the store's units, file by file. */
export interface ApplyResult {
  files: FileResult[];
  added: number;
  changed: number;
  removed: number;
  /** Pending edits kept although the file's text for the same unit changed upstream. */
  pendingKept: { translation: string; context: string; fileTarget: string }[];
  /** Pending edits whose unit disappeared from the file. */
  pendingDropped: { translation: string; context: string; target: string }[];
}

/** What reading one file gave: nothing new (same blob), its units, or the parse error. */
export type FileOutcome =
  | { status: 'unchanged' }
  /** `plural`: the file's own plural where it states one other than its language's (PO's Plural-Forms). */
  | {
      status: 'parsed';
      store: { units: readonly ParsedUnit[] };
      plural?: { number: number; formula: string } | null;
      /** The units' own checks, run where the file was parsed (a parse worker); used where the plan meets the same facts. */
      checks?: UnitChecks;
    }
  | { status: 'failed'; error: string };

/** One translation file found in the working copy. */
export interface ScannedFile {
  path: string;
  /** Code as written in the file name. */
  code: string;
  language: LanguageDefinition;
  /** The language had to be generated (unknown code). */
  generated: boolean;
  /** Blob id(s) of the file (and template): what was parsed last time is compared against this. */
  revision: string;
  isTemplate: boolean;
}

/** What a scan of a component's working copy found. */
export interface ScanInput {
  projectId: number;
  componentId: number;
  /** The component's settings that decide how files become translations. */
  component: { template: string; edit_template: boolean; source_language: string };
  /**
   * Where a stored approval stays while the string's text is unchanged: reviews on (the source's `source_review`,
   * the others' `translation_review`) in a format whose files cannot state approval (Weblate's get_unit_state).
   */
  keepApproval: { source: boolean; translations: boolean };
  /** Whether a stored "needs editing" stays while the string's text is unchanged: a format whose files cannot state it. */
  keepFuzzy: boolean;
  plan: {
    files: readonly ScannedFile[];
    duplicates: readonly { path: string; language: string; other: string }[];
    sourceLanguage: LanguageDefinition;
  };
  outcomes: ReadonlyMap<string, FileOutcome>;
  head: string | null;
  /** How many files the file mask matched (none: Weblate's NoMaskMatches alert). */
  maskMatches: number;
  filemask: string;
}

/** What running a component's units' own checks beside their parse needs: the store's settings, read before. */
export interface EarlyChecks {
  facts: ComponentCheckingFacts;
  /** The stored languages' plurals by code (a language not stored yet: its definition's). */
  languages: Record<string, { plural_number: number; plural_formula: string }>;
  /** Whether a file's approval counts (the project reviews): `source` for the template, `translations` for the others. */
  review: { source: boolean; translations: boolean };
  editTemplate: boolean;
}

/**
 * A parsed file's units' own checks, by unit: the facts they were run with (`checkingKey`), the state each unit was
 * checked in, and each unit's failing checks (comma-separated, units apart by line breaks).
 */
export interface UnitChecks {
  key: string;
  states: Int32Array;
  names: string;
}

/** What decides the checks of a file's translation: the component's settings, the language, its plural. */
function fileCheckingRow(
  facts: ComponentCheckingFacts,
  file: ScannedFile,
  plural: { number: number; formula: string } | null | undefined,
  stored: { plural_number: number; plural_formula: string } | undefined,
): CheckingRow {
  return {
    ...facts,
    is_source: file.isTemplate ? 1 : 0,
    language: file.language.code,
    language_code: file.code,
    plural_number: plural?.number ?? stored?.plural_number ?? file.language.plural.number,
    plural_formula: plural?.formula ?? stored?.plural_formula ?? file.language.plural.formula,
  };
}

/** Every fact of a checking row, in one order: two rows check alike when their keys are equal. */
function checkingKey(r: CheckingRow): string {
  return JSON.stringify([
    r.is_source,
    r.language,
    r.language_code,
    Number(r.plural_number),
    r.plural_formula,
    r.format,
    r.source_language,
    r.component_flags,
    r.enforced,
    r.project_flags,
  ]);
}

/**
 * Runs the units' own checks of each parsed file beside its parse (a parse worker), as the plan runs them on a unit it
 * inserts: state after the approval a project without review does not keep, a read-only template's state. The plan
 * takes them where its facts, the unit's state and its target agree (no pending edit, no extra flags); else it runs them.
 */
export function runEarlyChecks(files: readonly ScannedFile[], outcomes: Map<string, FileOutcome>, early: EarlyChecks): void {
  for (const file of files) {
    const outcome = outcomes.get(file.path);
    if (outcome?.status !== 'parsed') continue;
    const row = fileCheckingRow(early.facts, file, outcome.plural, early.languages[file.language.code]);
    const checking = translationCheckingOf(row);
    const review = file.isTemplate ? early.review.source : early.review.translations;
    const readonlyTemplate = file.isTemplate && !early.editTemplate;
    const units = outcome.store.units;
    const states = new Int32Array(units.length);
    const names: string[] = new Array(units.length);
    units.forEach((u, i) => {
      const state = readonlyTemplate ? State.READONLY : u.state === State.APPROVED && !review ? State.TRANSLATED : u.state;
      states[i] = state;
      const failed = computeChecks(checking, { source: joinPlural(u.source), target: joinPlural(u.target), state, flags: u.flags, extraFlags: '' });
      names[i] = failed.join(',');
    });
    outcome.checks = { key: checkingKey(row), states, names: names.join('\n') };
  }
}

/** The language codes whose stored rows a plan needs (`readSyncState`). */
export function languageCodes(input: ScanInput): string[] {
  return [input.plan.sourceLanguage.code, ...input.plan.files.map((f) => f.language.code)];
}

/** Which stored translation each translation of the sync is (by language), and which ones are gone. */
function match(input: ScanInput, state: SyncState) {
  const byLanguage = new Map(state.translations.map((t) => [t.language_id, t]));
  const existing = (code: string): TranslationRow | undefined => {
    const language = state.languages.get(code);
    return language ? byLanguage.get(language.id) : undefined;
  };
  const bilingual = !input.component.template;
  const source = bilingual ? existing(input.plan.sourceLanguage.code) : undefined;
  const files = input.plan.files.map((f) => existing(f.language.code));
  const kept = new Set([source, ...files].filter((t) => t !== undefined).map((t) => t.id));
  return { bilingual, source, files, removed: state.translations.filter((t) => !kept.has(t.id)) };
}

/**
 * The stored translations whose units a plan needs (`readStoredUnits`): those of the files that parsed, the ones
 * whose file is gone, and a bilingual component's source translation.
 */
export function translationsToRead(input: ScanInput, state: SyncState): number[] {
  const m = match(input, state);
  const ids = new Set<number>();
  if (m.source) ids.add(m.source.id);
  input.plan.files.forEach((f, i) => {
    if (m.files[i] && input.outcomes.get(f.path)?.status === 'parsed') ids.add(m.files[i].id);
  });
  for (const t of m.removed) ids.add(t.id);
  return [...ids];
}

/**
 * The stored template translation whose strings edited in tms a plan needs (`readStoredUnits`' `template`): a
 * monolingual component's with an editable template, when a file parsed (its units take those strings' new source).
 */
export function templateToRead(input: ScanInput, state: SyncState): number | undefined {
  if (!input.component.template || !input.component.edit_template) return undefined;
  const m = match(input, state);
  const index = input.plan.files.findIndex((f) => f.isTemplate);
  if (index < 0 || !input.plan.files.some((f) => input.outcomes.get(f.path)?.status === 'parsed')) return undefined;
  return m.files[index]?.id;
}

const NO_UNITS: ReadonlyMap<bigint, StoredUnit> = new Map();

/**
 * Decides what a sync writes: translations created or updated, units inserted, updated (a pending edit keeps its
 * target and state) and removed, their checks, changes, statistics, the memory's index and alerts; with what the
 * sync reports.
 * @example applySyncPlan(tx, planSync(input, state, stored, new Date().toISOString()).plan)
 */
export function planSync(input: ScanInput, state: SyncState, stored: StoredUnits, timestamp: string): { plan: SyncPlan; result: ApplyResult } {
  const { component, plan: scan, outcomes } = input;
  const m = match(input, state);
  const result: ApplyResult = { files: [], added: 0, changed: 0, removed: 0, pendingKept: [], pendingDropped: [] };
  const translations: PlannedTranslation[] = [];
  const touched = new Set<TranslationIndex>();
  const languageOf = (d: LanguageDefinition, generated: boolean): PlannedTranslation['language'] => {
    const row = state.languages.get(d.code);
    return row ? { id: row.id } : { define: d, generated };
  };
  const unitsOf = (t: TranslationRow | undefined) => (t && stored.units.get(t.id)) || NO_UNITS;

  let sourceIndex: TranslationIndex | undefined;
  if (m.bilingual) {
    sourceIndex = translations.length;
    translations.push({
      language: languageOf(scan.sourceLanguage, false),
      row: { language_code: component.source_language, filename: '', is_source: 1, is_template: 0 },
    });
  }

  const parsedInOrder: (readonly ParsedUnit[])[] = [];
  const removedHashes: bigint[] = [];
  scan.files.forEach((file, i) => {
    const before = m.files[i];
    const index = translations.length;
    const planned: PlannedTranslation = {
      language: languageOf(file.language, file.generated),
      row: { language_code: file.code, filename: file.path, is_source: file.isTemplate ? 1 : 0, is_template: file.isTemplate ? 1 : 0 },
    };
    translations.push(planned);
    if (file.isTemplate) sourceIndex = index;
    const outcome: FileOutcome = outcomes.get(file.path) ?? { status: 'unchanged' };
    const fileResult: FileResult = { path: file.path, language: file.language.code, status: outcome.status, added: 0, changed: 0, removed: 0 };
    result.files.push(fileResult);
    if (outcome.status === 'unchanged') {
      // The same blob as last time: a file that did not parse then still does not.
      if (before?.parse_error) Object.assign(fileResult, { status: 'failed', error: before.parse_error });
      return;
    }
    touched.add(index);
    if (outcome.status === 'failed') {
      fileResult.error = outcome.error;
      if (before?.revision !== file.revision || before?.parse_error !== outcome.error) planned.parseError = outcome.error;
      planned.revision = { revision: file.revision, error: outcome.error };
      return;
    }
    planned.plural = outcome.plural ?? null;
    const row = state.checking && fileCheckingRow(state.checking, file, planned.plural, state.languages.get(file.language.code));
    const checking = row && translationCheckingOf(row);
    // the units' own checks as a parse worker ran them, where it met the same facts
    const early = row && outcome.checks?.key === checkingKey(row) ? { states: outcome.checks.states, names: outcome.checks.names.split('\n') } : undefined;
    const readonlyTemplate = file.isTemplate && !component.edit_template;
    const diff = planUnits(unitsOf(before), outcome.store.units, {
      override: readonlyTemplate ? (u) => ({ target: u.target, state: State.READONLY }) : undefined,
      checking,
      early,
      addedInTms: stored.addedInTms,
      keepApproval: file.isTemplate ? input.keepApproval.source : input.keepApproval.translations,
      keepFuzzy: input.keepFuzzy,
      monolingual: component.template !== '' && !file.isTemplate,
      sourceEdits: component.template !== '' ? stored.sourceEdits : undefined,
    });
    planned.units = { ...diff.units, newSource: file.isTemplate };
    planned.revision = { revision: file.revision, error: null };
    Object.assign(fileResult, { added: diff.added, changed: diff.changed, removed: diff.removed });
    result.added += diff.added;
    result.changed += diff.changed;
    result.removed += diff.removed;
    for (const p of diff.pendingKept) result.pendingKept.push({ translation: file.path, context: p.context, fileTarget: p.fileTarget });
    for (const p of diff.pendingDropped) result.pendingDropped.push({ translation: file.path, context: p.context, target: p.target });
    if (!file.isTemplate) {
      parsedInOrder.push(outcome.store.units);
      removedHashes.push(...diff.removedHashes);
    }
  });

  // Files gone from the mask: their translations go, except the source translation of a bilingual component.
  for (const t of m.removed) {
    const units = unitsOf(t);
    const pending = [...units.values()].filter((u) => u.pending).sort((a, b) => a.id - b.id);
    for (const p of pending) result.pendingDropped.push({ translation: t.filename, context: p.context, target: p.target });
    result.removed += units.size;
    result.files.push({ path: t.filename, language: t.language_code, status: 'removed', added: 0, changed: 0, removed: units.size });
    for (const hash of units.keys()) removedHashes.push(hash);
  }

  let source: SyncPlan['source'];
  if (m.bilingual && sourceIndex !== undefined) {
    const units = bilingualSource(unitsOf(m.source), parsedInOrder, removedHashes, scan.files.length === parsedInOrder.length, stored.addedInTms);
    source = { translation: sourceIndex, units: units.units, removeUnused: units.removeUnused };
    if (units.units.insert.length > 0 || removedHashes.length > 0 || parsedInOrder.length > 0) touched.add(sourceIndex);
  }

  // Source checks look across languages (multiple_failures, long_untranslated): again after anything changed.
  // inconsistent looks across the project's components: the strings this sync touched, and after a removal every
  // string flagged now; the source translation's statistics follow its checks.
  const changedAny = result.added > 0 || result.changed > 0 || result.removed > 0;
  const checksAcross = changedAny ? { translations: [...touched], swept: result.removed > 0 } : undefined;
  const stats = new Set(touched);
  if (changedAny && sourceIndex !== undefined) stats.add(sourceIndex);
  // the memory's pre-filter index follows the source strings (a few thousand rows, not every translation's units);
  // source texts no unit or imported entry uses any more leave it
  const memory =
    sourceIndex !== undefined && stats.has(sourceIndex) ? { translation: sourceIndex, prune: result.removed > 0 || result.changed > 0 } : undefined;
  const broken = result.files.filter((f) => f.status === 'failed').map((f) => ({ filename: f.path, error: f.error }));
  const plan: SyncPlan = {
    projectId: input.projectId,
    componentId: input.componentId,
    timestamp,
    translations,
    removeTranslations: m.removed.map((t) => t.id),
    source,
    checksAcross,
    stats: [...stats],
    memory,
    alerts: [
      { name: 'DuplicateLanguage', details: scan.duplicates.length > 0 ? { files: scan.duplicates } : null },
      { name: 'ParseError', details: broken.length > 0 ? { files: broken } : null },
      { name: 'NoMaskMatches', details: input.maskMatches === 0 ? { filemask: input.filemask } : null },
    ],
    head: input.head,
  };
  return { plan, result };
}

/** What a parsed unit's row holds at a position (`override`: the target and state decided otherwise). */
function valuesOf(u: ParsedUnit, position: number, override?: { target: readonly string[]; state: number }): UnitValues {
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
    s.content_hash === v.content_hash &&
    s.context === v.context &&
    s.source === v.source &&
    s.target === v.target &&
    s.previous_source === v.previous_source &&
    s.location === v.location &&
    s.note === v.note &&
    s.flags === v.flags &&
    s.explanation === v.explanation &&
    s.source_explanation === v.source_explanation &&
    s.state === v.state &&
    s.position === v.position &&
    s.num_words === v.num_words
  );
}

/**
 * A translation read against its template whose source string changed while its text did not (Weblate's
 * update_from_unit, "monolingual files handling"): a translated or approved string needs editing, with the source it
 * was translated from as its previous source; a change taken back (the source again what it was) makes it translated
 * again; a string still needing editing keeps that previous source where the file states none.
 */
function monolingualSourceChange(existing: StoredUnit, values: UnitValues): void {
  if (existing.target !== values.target) return;
  if (existing.source !== values.source && (values.state === State.TRANSLATED || values.state === State.APPROVED)) {
    if (existing.state === State.FUZZY && existing.previous_source === values.source) {
      values.previous_source = '';
      values.state = State.TRANSLATED;
    } else {
      if (values.previous_source === '') values.previous_source = existing.source;
      values.state = State.FUZZY;
    }
  } else if (existing.state === State.FUZZY && values.state === State.FUZZY && values.previous_source === '') {
    values.previous_source = existing.previous_source;
  }
}

/** Read-only source text of a bilingual component: the source itself, state read-only. */
function readonlySource(u: ParsedUnit): { target: readonly string[]; state: number } {
  return { target: u.source, state: State.READONLY };
}

/** What a translation's units become, with the counts and pending edits a sync reports. */
export interface UnitsDiff {
  units: Omit<PlannedUnits, 'newSource'>;
  added: number;
  changed: number;
  removed: number;
  /** id_hash of every removed unit. */
  removedHashes: bigint[];
  /** Units with a pending edit whose file text changed too: the edit was kept. */
  pendingKept: { id: number; context: string; fileTarget: string }[];
  /** Units with a pending edit that vanished from the file. */
  pendingDropped: { id: number; context: string; target: string }[];
}

/**
 * Makes a translation's units equal to `parsed` (position = listing order; a repeated identity is taken once, the
 * first): unchanged rows are not written, and a pending edit keeps its target and state whatever the file says.
 * A pending string added in tms (`addedInTms`) is not in the file until its commit: it stays. With `keepApproval`
 * (`keepFuzzy`) an approved (needs-editing) string the file calls translated stays so while its source and target
 * are unchanged.
 */
export function planUnits(
  stored: ReadonlyMap<bigint, StoredUnit>,
  parsed: readonly ParsedUnit[],
  opts: {
    override?: (u: ParsedUnit) => { target: readonly string[]; state: number };
    checking?: TranslationChecking;
    /** The units' own checks run beside the parse (by index in `parsed`): the state each was checked in, its failing checks. */
    early?: { states: Int32Array; names: readonly string[] };
    addedInTms?: ReadonlySet<number>;
    keepApproval?: boolean;
    keepFuzzy?: boolean;
    /** The units are a translation read against the component's template (not the template itself). */
    monolingual?: boolean;
    /**
     * A monolingual template's strings edited in tms and not committed yet (id_hash → text): their source, whatever the
     * template file still says, until the commit writes them (the edit gave every translation that source).
     */
    sourceEdits?: ReadonlyMap<bigint, string>;
  } = {},
): UnitsDiff {
  const { override, checking, early } = opts;
  // a unit's checks as run beside its parse: where it is checked in the same state, with the file's target and no extra flags
  const earlyChecks = (i: number, state: number): string[] | undefined => {
    if (early?.states[i] !== state) return undefined;
    const names = early.names[i]!;
    return names === '' ? [] : names.split(',');
  };
  const insert: PlannedInsert[] = [];
  const update: PlannedUpdate[] = [];
  const remove: number[] = [];
  const diff: UnitsDiff = { units: { insert, update, remove }, added: 0, changed: 0, removed: 0, removedHashes: [], pendingKept: [], pendingDropped: [] };
  const seen = new Set<bigint>();
  let position = 0;
  for (const [i, u] of parsed.entries()) {
    if (seen.has(u.idHash)) continue;
    seen.add(u.idHash);
    position++;
    const values = valuesOf(u, position, override?.(u));
    const edited = opts.sourceEdits?.get(u.idHash);
    // checks run beside the parse saw the file's source
    const fromFile = edited === undefined || edited === values.source;
    if (!fromFile) {
      const forms = splitPlural(edited);
      Object.assign(values, { source: edited, content_hash: unitContentHash(forms, u.context), num_words: countWords(forms), num_chars: codePoints(edited) });
    }
    const existing = stored.get(u.idHash);
    if (!existing) {
      const checks = checking
        ? ((fromFile ? earlyChecks(i, values.state) : undefined) ??
          computeChecks(checking, { source: values.source, target: values.target, state: values.state, flags: values.flags, extraFlags: '' }))
        : null;
      insert.push({ values, checks });
      diff.added++;
      continue;
    }
    if (existing.pending) {
      if (values.target !== existing.target) diff.pendingKept.push({ id: existing.id, context: existing.context, fileTarget: values.target });
      values.target = existing.target;
      values.state = existing.state;
    }
    const unchangedText = existing.source === values.source && existing.target === values.target;
    if (values.state === State.TRANSLATED && unchangedText) {
      if ((opts.keepApproval && existing.state === State.APPROVED) || (opts.keepFuzzy && existing.state === State.FUZZY)) values.state = existing.state;
    }
    if (opts.monolingual) monolingualSourceChange(existing, values);
    if (sameValues(existing, values)) continue;
    const checks = checking
      ? ((fromFile && !existing.pending && existing.extra_flags === '' ? earlyChecks(i, values.state) : undefined) ??
        computeChecks(checking, { source: values.source, target: values.target, state: values.state, flags: values.flags, extraFlags: existing.extra_flags }))
      : null;
    update.push({ id: existing.id, values, checks });
    diff.changed++;
  }
  for (const [hash, s] of stored) {
    if (seen.has(hash)) continue;
    if (s.pending && opts.addedInTms?.has(s.id)) continue;
    if (s.pending) diff.pendingDropped.push({ id: s.id, context: s.context, target: s.target });
    remove.push(s.id);
    diff.removed++;
    diff.removedHashes.push(hash);
  }
  return diff;
}

/**
 * The source translation of a bilingual component holds each string once, from the first file that has it,
 * read-only. With every file parsed it is rebuilt in file order; otherwise new strings are appended and
 * strings no file has any more are removed (unless a translation not read this time still holds them).
 */
function bilingualSource(
  stored: ReadonlyMap<bigint, StoredUnit>,
  parsedInOrder: readonly (readonly ParsedUnit[])[],
  removedHashes: readonly bigint[],
  complete: boolean,
  addedInTms: ReadonlySet<number>,
): { units: PlannedUnits; removeUnused: bigint[] } {
  if (complete) {
    const diff = planUnits(stored, distinctUnits(parsedInOrder), { override: readonlySource, addedInTms });
    return { units: { ...diff.units, newSource: true }, removeUnused: [] };
  }
  // appended source units get their checks from the source checks at the end of the sync
  let position = 0;
  for (const s of stored.values()) position = Math.max(position, s.position);
  const insert = distinctUnits(parsedInOrder, new Set(stored.keys())).map(
    (u): PlannedInsert => ({ values: { ...valuesOf(u, ++position, readonlySource(u)), previous_source: '' }, checks: null }),
  );
  return { units: { insert, update: [], remove: [], newSource: true }, removeUnused: [...new Set(removedHashes)] };
}

/** Each string once (by id_hash), from the first list that has it, leaving out those `seen` already. */
function distinctUnits(lists: readonly (readonly ParsedUnit[])[], seen = new Set<bigint>()): ParsedUnit[] {
  const out: ParsedUnit[] = [];
  for (const list of lists) {
    for (const u of list) {
      if (seen.has(u.idHash)) continue;
      seen.add(u.idHash);
      out.push(u);
    }
  }
  return out;
}
