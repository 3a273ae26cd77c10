// Uploading a translation file (Weblate's `POST …/translations/<p>/<c>/<lang>/file/`): merged unit by unit, added, or replacing the file.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { enforceChecks } from '../checks/refresh.js';
import { type Actor, type ComponentHandle, hasWorkingCopy } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { NotFoundError, forbidden, invalid } from '../domain/errors.js';
import { unitIdHash } from '../domain/hash.js';
import { PLURAL_SEPARATOR, type ParsedUnit, State, joinPlural } from '../domain/unit.js';
import type { ParsedFile } from '../formats/format.js';
import { recordChanges } from '../store/changes.repo.js';
import { findEditableUnit, setPendingTargets } from '../store/edits.repo.js';
import { type ChangeInput, type NewSuggestion, type NewUnit, type TranslationRef, type Tx, type UnitBrief, type UnitTargetEdit, now } from '../store/index.js';
import { isComponentLocked } from '../store/projects.repo.js';
import { refreshStats } from '../store/stats.repo.js';
import { addSuggestions, hasSuggestion } from '../store/suggestions.repo.js';
import { componentTranslations, findTranslationByCode } from '../store/translations.repo.js';
import { translationUnits } from '../store/units.repo.js';
import { syncLocked, syncSharers } from '../sync/sync.js';
import { commitFiles } from './author.js';
import { commitLocked } from './commit.js';
import { type UnitEdit, propagateEdit } from './edit.js';
import { withMutex } from './exclusive.js';
import { COMPONENT_LOCKED } from './lock.js';
import { pushAfterCommit } from './operations.js';
import { fileContext, templateAtHead } from './pending-write.js';
import { pluralForms } from './plural-forms.js';
import { followTemplateTargets } from './template-source.js';
import { ADD_TO_SOURCE, addRefusal, newUnits, reviewEnabled, storeNewUnits, stringAddedChange } from './units.js';

export const UPLOAD_METHODS = ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'] as const;
export type UploadMethod = (typeof UPLOAD_METHODS)[number];
export const UPLOAD_CONFLICTS = ['', 'ignore', 'replace-translated', 'replace-approved'] as const;
export const UPLOAD_FUZZY = ['', 'process', 'approve'] as const;

export interface UploadInput {
  /** The uploaded file; required except for `method: 'source'`. */
  bytes?: Uint8Array | null;
  /** Default `translate`. */
  method?: string;
  /** `''`/`ignore`: keep translated strings; `replace-translated`; `replace-approved` (needs review). Default `''`. */
  conflicts?: string;
  /** What to do with strings the file marks as needing editing: `''` skip them, `process` keep them so, `approve` take them as translated. */
  fuzzy?: string;
  /** The author of the uploaded strings (Weblate's `author_name`/`author_email`, with `upload.authorship`); default `user`. */
  author?: Actor;
  user: Actor;
  /**
   * Whether the user may edit the same string in another component of the project: uploaded translations propagate
   * there as edits do (Weblate's upload propagates); absent: not propagated.
   */
  mayPropagateTo?: UnitEdit['mayPropagateTo'];
}

/** Weblate's upload answer; `result` (accepted > 0) and `count` (= total) are kept for compatibility. */
export interface UploadResult {
  not_found: number;
  skipped: number;
  accepted: number;
  total: number;
  result: boolean;
  count: number;
}

export const METHOD_UNAVAILABLE = 'This method is not available here. Check your permissions or use different translation object.';
export const ADD_HINT = 'This method is not available here. Try adding to the source instead of the translation.';
export const NO_FILE = 'No translation file, try using method=source.';
export const SOURCE_ONLY = 'Source upload is supported only on source language.';
export const APPROVED_NEEDS_REVIEW = 'You can not overwrite approved translations: reviews are not enabled.';

type Counts = Omit<UploadResult, 'result' | 'count'>;

function choice<T extends string>(field: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  const v = value ?? fallback;
  if (!(choices as readonly string[]).includes(v)) throw invalid(field, `"${v}" is not a valid choice.`);
  return v as T;
}

/**
 * Checks an upload as Weblate's view does, before the file is read: choices, lock, review, which methods this
 * translation allows (`source` never: none of tms's formats has a bilingual update).
 */
async function checkRequest(h: ComponentHandle, t: TranslationRef, input: UploadInput): Promise<{ method: UploadMethod; conflicts: string; fuzzy: string }> {
  const method = choice('method', input.method || undefined, UPLOAD_METHODS, 'translate');
  const conflicts = choice('conflicts', input.conflicts, UPLOAD_CONFLICTS, '');
  const fuzzy = choice('fuzzy', input.fuzzy, UPLOAD_FUZZY, '');
  if (await h.store.read((tx) => isComponentLocked(tx, h.row.id))) throw forbidden(COMPONENT_LOCKED);
  const review = reviewEnabled(h.project, t);
  if (conflicts === 'replace-approved' && !review) throw invalid('conflicts', APPROVED_NEEDS_REVIEW);
  switch (method) {
    case 'approve':
      if (!review) throw invalid('method', METHOD_UNAVAILABLE);
      break;
    case 'add': {
      const refusal = await addRefusal(h, t);
      if (refusal) throw invalid('method', refusal === ADD_TO_SOURCE ? ADD_HINT : METHOD_UNAVAILABLE);
      break;
    }
    case 'replace':
      if (t.filename === '') throw invalid('method', METHOD_UNAVAILABLE);
      break;
    case 'source':
      throw invalid('method', t.is_source ? METHOD_UNAVAILABLE : SOURCE_ONLY);
  }
  if (!input.bytes) throw invalid('method', NO_FILE);
  return { method, conflicts, fuzzy };
}

/** The uploaded file parsed as the translation's own file would be; any failure is an error on `file`. */
function parseUpload(h: ComponentHandle, t: TranslationRef, bytes: Uint8Array, template: ParsedFile | null, asTemplate: boolean): ParsedFile {
  const ctx = fileContext(h, { ...t, filename: t.filename || `${t.code}.${h.format.extension}` }, template);
  try {
    if (!asTemplate) return h.format.parse(bytes, ctx);
    // A template upload lists its own keys: read once as the template of itself, as the sync reads templates.
    return h.format.parseTemplate(bytes, { ...ctx, template: null }, true);
  } catch (e) {
    throw invalid('file', e instanceof Error ? e.message : String(e));
  }
}

/** Weblate's `get_unit` for imports: (source, context), then the XLIFF `///`-stripped context, then no context, then source only; one match each. */
function matcher(units: readonly UnitBrief[]): (p: ParsedUnit) => UnitBrief | undefined {
  const byPair = new Map<string, UnitBrief[]>();
  const bySource = new Map<string, UnitBrief[]>();
  const add = (map: Map<string, UnitBrief[]>, key: string, u: UnitBrief) => {
    const list = map.get(key);
    if (list) list.push(u);
    else map.set(key, [u]);
  };
  for (const u of units) {
    add(byPair, `${u.source}\0${u.context}`, u);
    add(bySource, u.source, u);
  }
  const one = (list: UnitBrief[] | undefined) => (list?.length === 1 ? list[0] : undefined);
  return (p) => {
    const source = joinPlural(p.source);
    const tries: (UnitBrief[] | undefined)[] = [byPair.get(`${source}\0${p.context}`)];
    if (p.context.includes('///')) tries.push(byPair.get(`${source}\0${p.context.slice(p.context.indexOf('///') + 3)}`));
    if (p.context !== '') tries.push(byPair.get(`${source}\0`));
    tries.push(bySource.get(source));
    for (const list of tries) {
      const found = one(list);
      if (found) return found;
    }
    return undefined;
  };
}

/** The units an upload merges (Weblate's `iterate_merge`): needs-editing ones only with a `fuzzy` choice, untranslated ones only when adding. */
function* mergeable(units: readonly ParsedUnit[], fuzzy: string, onlyTranslated: boolean): Generator<{ unit: ParsedUnit; setFuzzy: boolean }> {
  for (const unit of units) {
    if (unit.state === State.FUZZY) {
      if (!fuzzy) continue;
    } else if (onlyTranslated && unit.state === State.EMPTY) {
      continue;
    }
    yield { unit, setFuzzy: fuzzy === 'process' && unit.state === State.FUZZY };
  }
}

/** translate / fuzzy / approve: each matched string takes the uploaded text unless a skip rule holds; 9 per string. */
async function mergeTranslations(
  h: ComponentHandle,
  t: TranslationRef,
  store: ParsedFile,
  method: UploadMethod,
  conflicts: string,
  fuzzy: string,
  input: UploadInput,
): Promise<Counts> {
  const find = matcher(await h.store.read((tx) => translationUnits(tx, t.id)));
  const author = input.author ?? input.user;
  const timestamp = now();
  const counts: Counts = { not_found: 0, skipped: 0, accepted: 0, total: store.units.length };
  const edits: UnitTargetEdit[] = [];
  const changes: ChangeInput[] = [];
  const taken = new Set<number>();
  for (const { unit: p, setFuzzy } of mergeable(store.units, fuzzy, true)) {
    const u = find(p);
    if (!u) {
      counts.not_found++;
      continue;
    }
    const state = method === 'fuzzy' || setFuzzy ? State.FUZZY : method === 'approve' ? State.APPROVED : State.TRANSLATED;
    const target = joinPlural(p.target);
    const keepTranslated = conflicts === '' || conflicts === 'ignore';
    if (
      (u.state >= State.TRANSLATED && keepTranslated) ||
      (u.state === State.APPROVED && conflicts !== 'replace-approved') ||
      u.state === State.READONLY ||
      (u.target === target && u.state === state) ||
      taken.has(u.id)
    ) {
      counts.skipped++;
      continue;
    }
    counts.accepted++;
    taken.add(u.id);
    edits.push({ id: u.id, target, state, authorId: author.id, timestamp });
    changes.push({
      action: Action.UPLOAD,
      timestamp,
      projectId: h.row.project_id,
      componentId: h.row.id,
      translationId: t.id,
      unitId: u.id,
      languageId: t.language_id,
      userId: input.user.id,
      authorId: author.id,
      target,
      old: u.target,
      details: { state, old_state: u.state, source: u.source },
    });
  }
  changes.push(fileUploaded(h, t, method, counts, input));
  await h.store.write(async (tx) => {
    await saveUploadedTargets(tx, t.id, edits, changes);
    const { mayPropagateTo } = input;
    if (!mayPropagateTo) return;
    // a string the upload left translated (an enforced check may have made it "needs editing") fills the same string
    // in the project's other components, as an edit does
    for (const e of edits) {
      const unit = e.state >= State.TRANSLATED ? await findEditableUnit(tx, e.id) : undefined;
      if (!unit || unit.state < State.TRANSLATED) continue;
      await propagateEdit(tx, unit, {
        target: e.target,
        plurals: unit.source.includes(PLURAL_SEPARATOR) ? pluralForms(unit) : 1,
        userId: input.user.id,
        authorId: author.id,
        timestamp,
        mayPropagateTo,
      });
    }
  });
  return counts;
}

/** suggest: each matched string gets the uploaded text as a suggestion (4 each), unless it equals the translation or a suggestion. */
async function suggestFromUpload(
  h: ComponentHandle,
  t: TranslationRef,
  store: ParsedFile,
  method: UploadMethod,
  fuzzy: string,
  input: UploadInput,
): Promise<Counts> {
  const find = matcher(await h.store.read((tx) => translationUnits(tx, t.id)));
  const author = input.author ?? input.user;
  const timestamp = now();
  const counts: Counts = { not_found: 0, skipped: 0, accepted: 0, total: store.units.length };
  const items: NewSuggestion[] = [];
  const taken = new Set<string>();
  for (const { unit: p } of mergeable(store.units, fuzzy, true)) {
    const u = find(p);
    if (!u) {
      counts.not_found++;
      continue;
    }
    const target = joinPlural(p.target);
    const key = `${u.id}\0${target}`;
    if (
      u.state === State.READONLY ||
      (u.target === target && u.state >= State.TRANSLATED) ||
      taken.has(key) ||
      (await h.store.read((tx) => hasSuggestion(tx, u.id, target)))
    ) {
      counts.skipped++;
      continue;
    }
    taken.add(key);
    counts.accepted++;
    items.push({
      unitId: u.id,
      target,
      userId: author.id,
      timestamp,
      change: { ...uploadChange(h, t, input), action: Action.SUGGESTION, unitId: u.id, target, timestamp },
    });
  }
  await h.store.write(async (tx) => {
    await addSuggestions(tx, items);
    // many strings at once: the translation counted once
    await refreshStats(tx, [t.id]);
  });
  await h.store.write((tx) => recordChanges(tx, [fileUploaded(h, t, method, counts, input)]));
  return counts;
}

/** add: strings of the file the translation lacks are added as the add-string request adds them (31 each); present ones are skipped. */
async function addFromUpload(
  h: ComponentHandle,
  t: TranslationRef,
  store: ParsedFile,
  method: UploadMethod,
  fuzzy: string,
  input: UploadInput,
): Promise<Counts> {
  const monolingual = Boolean(h.component.template);
  const author = input.author ?? input.user;
  const timestamp = now();
  const counts: Counts = { not_found: 0, skipped: 0, accepted: 0, total: store.units.length };
  const units: NewUnit[] = [];
  const positions = new Map<number, number>();
  const seen = new Set<bigint>();
  for (const { unit: p, setFuzzy } of mergeable(store.units, fuzzy, false)) {
    const idHash = unitIdHash(monolingual, p.source, p.context);
    const target = t.is_source ? p.source : p.target;
    const blank = target.every((v) => v === '');
    const state = blank ? State.EMPTY : setFuzzy ? State.FUZZY : State.TRANSLATED;
    const created = seen.has(idHash) ? null : await newUnits(h, t, { context: p.context, source: p.source, target }, state, author.id, timestamp, positions);
    if (!created) {
      counts.skipped++;
      continue;
    }
    seen.add(idHash);
    counts.accepted++;
    units.push(...created);
  }
  const languages = new Map((await h.store.read((tx) => componentTranslations(tx, h.row.id))).map((x) => [x.id, x.language_id]));
  await h.store.write((tx) => storeNewUnits(tx, units, (u, id) => stringAddedChange(h, languages, input.user, author, u, id)));
  await h.store.write((tx) => recordChanges(tx, [fileUploaded(h, t, method, counts, input)]));
  return counts;
}

/**
 * replace: pending edits of the translation are committed, the file is replaced and committed (54), the component
 * re-synced; with `push_on_commit` the commits are pushed.
 */
async function replaceFile(
  h: ComponentHandle,
  t: TranslationRef,
  bytes: Uint8Array,
  store: ParsedFile,
  method: UploadMethod,
  input: UploadInput,
): Promise<Counts> {
  const author = input.author ?? input.user;
  await commitLocked(h, { translations: [t.id], user: input.user });
  await writeFile(path.join(h.dir, t.filename), bytes);
  await commitFiles(h, [t.filename], h.component.commit_message, t, author);
  await h.store.write((tx) => recordChanges(tx, [{ ...uploadChange(h, t, input), action: Action.REPLACE_UPLOAD }]));
  await syncLocked(h);
  // the components sharing the working copy move to the new commit too (another node aligns its copy by them)
  await syncSharers(h);
  await pushAfterCommit(h, { user: input.user });
  const counts: Counts = { not_found: 0, skipped: 0, accepted: (await h.store.read((tx) => translationUnits(tx, t.id))).length, total: store.units.length };
  await h.store.write((tx) => recordChanges(tx, [fileUploaded(h, t, method, counts, input)]));
  return counts;
}

/** What every change of an upload records: where, who asked and whose text it is. */
function uploadChange(h: ComponentHandle, t: TranslationRef, input: UploadInput): Omit<ChangeInput, 'action'> {
  return {
    timestamp: now(),
    projectId: h.row.project_id,
    componentId: h.row.id,
    translationId: t.id,
    languageId: t.language_id,
    userId: input.user.id,
    authorId: (input.author ?? input.user).id,
  };
}

/** Change 78 "File uploaded", recorded for every upload, with the method and counters. */
function fileUploaded(h: ComponentHandle, t: TranslationRef, method: UploadMethod, counts: Counts, input: UploadInput): ChangeInput {
  return { ...uploadChange(h, t, input), action: Action.FILE_UPLOAD, details: { method, ...counts } };
}

/**
 * Uploads a file into a translation (`language` is the `Language.code` in the URL), per Weblate's §5.5:
 * - `translate` / `fuzzy` / `approve`: each translated string of the file (needs-editing ones per `fuzzy`) is matched
 *   by (context, source) and becomes a pending edit unless it is translated already (`conflicts` empty), approved
 *   (unless `replace-approved`), read-only, or unchanged; 9 per accepted string.
 * - `suggest`: each matched string gets the uploaded text as a suggestion (4 per string) unless it equals the
 *   translation or an existing suggestion.
 * - `add`: strings the translation lacks are added (31 per unit), as the add-string request would.
 * - `replace`: the file is replaced and committed (54), then the component re-synced.
 * Always records 78 with the counters. Accepted edits are pending: the normal commit path writes them.
 * Throws NotFoundError and ValidationError (on `method`/`conflicts`/`fuzzy`/`file`) and ForbiddenError (locked).
 * @example await uploadTranslation(h, 'de', { bytes, method: 'translate', user })
 */
export async function uploadTranslation(h: ComponentHandle, language: string, input: UploadInput): Promise<UploadResult> {
  const t = await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language));
  if (!t) throw new NotFoundError('translation', `${h.key}/${language}`);
  const { method, conflicts, fuzzy } = await checkRequest(h, t, input);
  const bytes = input.bytes!;
  const counts = await withMutex(h, async () => {
    const needsRepository = method === 'replace' || (Boolean(h.component.template) && !(method === 'add' && t.is_source));
    if (needsRepository && !hasWorkingCopy(h)) throw forbidden(`${h.key}: the repository has not been cloned yet (sync the component first)`);
    if (await h.store.read((tx) => isComponentLocked(tx, h.row.id))) throw forbidden(COMPONENT_LOCKED);
    const asTemplate = method === 'add' && Boolean(h.component.template);
    const template = h.component.template && !asTemplate ? await templateAtHead(h) : null;
    const store = parseUpload(h, t, bytes, template, asTemplate);
    if (method === 'add') return addFromUpload(h, t, store, method, fuzzy, input);
    if (method === 'replace') return replaceFile(h, t, bytes, store, method, input);
    if (method === 'suggest') return suggestFromUpload(h, t, store, method, fuzzy, input);
    return mergeTranslations(h, t, store, method, conflicts, fuzzy, input);
  });
  return { ...counts, result: counts.accepted > 0, count: counts.total };
}

/**
 * Sets uploaded targets as pending edits, records `changes`, runs the checks (enforced ones mark the string as
 * needing editing), refreshes statistics (call inside a transaction); bulk edit and search and replace save so too.
 */
export async function saveUploadedTargets(tx: Tx, translationId: number, edits: readonly UnitTargetEdit[], changes: readonly ChangeInput[]): Promise<number[]> {
  // a monolingual template's text is its strings' source in every translation (read before the targets change)
  const [first] = edits;
  if (first) await followTemplateTargets(tx, translationId, edits, { userId: changes[0]?.userId ?? first.authorId, timestamp: first.timestamp });
  await setPendingTargets(
    tx,
    edits.map((e) => ({ ...e, unitId: e.id })),
  );
  const ids = await recordChanges(tx, changes);
  const changeOf = new Map(changes.filter((c) => c.unitId != null).map((c) => [c.unitId as number, c]));
  await enforceChecks(
    tx,
    edits.map((e) => ({ id: e.id, state: e.state, change: changeOf.get(e.id) })),
    [translationId],
  );
  await refreshStats(tx, [translationId]);
  return ids;
}
