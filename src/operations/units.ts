// Adding and deleting strings (Weblate's `POST …/units/` and `DELETE /api/units/<id>/`): store first, files at the next commit.

import { checkAddedUnits, removingUnits } from '../checks/refresh.js';
import type { Actor, ComponentHandle } from '../component/handle.js';
import type { ProjectConfig } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { NotFoundError, forbidden, invalid } from '../domain/errors.js';
import { unitContentHash, unitIdHash } from '../domain/hash.js';
import { State, joinPlural } from '../domain/unit.js';
import { codePoints, countWords } from '../domain/words.js';
import type { FormatId } from '../formats/format.js';
import { type ChangeInput, type NewUnit, type TranslationInfo, type TranslationRef, type Tx, now } from '../store/index.js';
import { indexMemorySource } from '../store/memory.repo.js';
import { isComponentLocked } from '../store/projects.repo.js';
import { componentTranslations, findTranslationByCode } from '../store/translations.repo.js';
import { componentUnitsByHash, findUnitBrief, hasUnitHash, insertUnits, maxUnitPosition, removeUnits } from '../store/units.repo.js';
import { COMPONENT_LOCKED } from './lock.js';

/** The body of Weblate's add-string request: `key` + `value` (monolingual) or `context` + `source` + `target` (bilingual). */
export interface AddUnitInput {
  key?: string;
  value?: string[];
  context?: string;
  source?: string[];
  target?: string[];
  /** 0, 10, 20 or 30; by default 20 for a non-empty text, else 0. */
  state?: number;
  user: Actor;
}

export interface AddUnitResult {
  /** The unit created in the addressed translation. */
  unitId: number;
  /** Every unit created (source and translations), in translation order. */
  unitIds: number[];
}

export interface DeleteUnitResult {
  /** Units deleted: the string in every translation of the component. */
  removed: number;
  changeIds: number[];
}

/** A string to create in a component: identity and texts, as the add-string request and the `add` upload give it. */
export interface NewString {
  context: string;
  source: string[];
  /** The addressed translation's text (ignored on the source translation, whose text is the source). */
  target: string[];
  state?: number;
}

// Weblate: TS, the JSON variants with plural keys or objects, Android, .stringsdict and gettext PO store plurals;
// plain/nested JSON, ARB, WebExtension, TBX and .strings do not.
const PLURAL_FORMATS: ReadonlySet<FormatId> = new Set([
  'ts',
  'i18next',
  'i18nextv4',
  'go-i18n-json',
  'go-i18n-json-v2',
  'aresource',
  'stringsdict',
  'po',
  'po-mono',
]);
const STATE_CHOICES: ReadonlySet<number> = new Set([State.EMPTY, State.FUZZY, State.TRANSLATED, State.APPROVED]);
// Weblate's CONTROLCHARS: C0 controls except tab, newline and carriage return.
const CONTROL_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

export const ADDING_DISABLED = 'Adding strings is disabled in the component configuration.';
export const REMOVING_DISABLED = 'Removing strings is disabled in the component configuration.';
export const ADD_TO_SOURCE = 'Strings of a monolingual component can be added only to its source language.';

/** Python's type name of a JSON value, as DRF's `not_a_list` message shows it. */
function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}

function stringList(field: string, value: unknown, required: boolean): string[] | undefined {
  if (value === undefined) {
    if (required) throw invalid(field, 'This field is required.');
    return undefined;
  }
  if (!Array.isArray(value)) throw invalid(field, `Expected a list of items but got type "${pythonType(value)}".`);
  if (value.some((v) => typeof v !== 'string')) throw invalid(field, 'Not a valid string.');
  if (required && value.length === 0) throw invalid(field, 'This list may not be empty.');
  return value as string[];
}

function text(field: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw invalid(field, 'This field is required.');
    return undefined;
  }
  if (typeof value !== 'string') throw invalid(field, 'Not a valid string.');
  if (required && value === '') throw invalid(field, 'This field may not be blank.');
  return value;
}

async function translationOf(h: ComponentHandle, language: string): Promise<TranslationRef> {
  const t = await h.store.read((tx) => findTranslationByCode(tx, h.row.id, language));
  if (!t) throw new NotFoundError('translation', `${h.key}/${language}`);
  return t;
}

/** Whether review (approved state) is on for a translation: source_review for the source, translation_review otherwise. */
export function reviewEnabled(project: ProjectConfig, t: Pick<TranslationInfo, 'is_source'>): boolean {
  return t.is_source ? project.source_review : project.translation_review;
}

/** Why strings cannot be added to this translation, or null (used by add-string and the `add` upload). */
export async function addRefusal(h: ComponentHandle, t: Pick<TranslationInfo, 'is_source'>): Promise<string | null> {
  if (await h.store.read((tx) => isComponentLocked(tx, h.row.id))) return COMPONENT_LOCKED;
  if (!h.component.manage_units) return ADDING_DISABLED;
  if (h.component.template && !t.is_source) return ADD_TO_SOURCE;
  return null;
}

/**
 * Checks a new string as Weblate's `validate_new_unit_data` does (errors on `non_field_errors`) and returns the
 * state of the addressed unit.
 */
function validateString(h: ComponentHandle, t: TranslationRef, s: NewString): number {
  const general = (message: string) => invalid('non_field_errors', message);
  const own = t.is_source ? s.source : s.target;
  if ((s.source.length > 1 || s.target.length > 1) && !PLURAL_FORMATS.has(h.format.id)) throw general('Plurals are not supported by the file format!');
  for (const value of [s.context, ...s.source, ...s.target]) {
    const bad = CONTROL_CHAR.exec(value);
    if (bad) throw general(`String contains control character: '\\x${bad[0].charCodeAt(0).toString(16).padStart(2, '0')}'`);
  }
  const blank = own.every((v) => v === '');
  if (s.state !== undefined) {
    if (s.state === State.EMPTY && !blank) throw general('Empty state is supported for blank strings only.');
    if (s.state !== State.EMPTY && blank) throw general('Blank strings require an empty state.');
    if (s.state === State.APPROVED && !reviewEnabled(h.project, t)) throw general('Approved state is not available as reviews are not enabled.');
  }
  return s.state ?? (blank ? State.EMPTY : State.TRANSLATED);
}

/**
 * The units a new string becomes (Weblate's `Translation.add_unit`): on the source translation in every
 * translation, otherwise in the source translation and the addressed one. Monolingual: the template unit is
 * pending (its file gets the key), the others are empty. Bilingual: the source unit is read-only, the
 * translations' units are pending (their files get the string). Null when the string exists already.
 */
export async function newUnits(
  h: ComponentHandle,
  t: TranslationRef,
  s: NewString,
  state: number,
  author: number | null,
  timestamp: string,
  positions: Map<number, number>,
): Promise<NewUnit[] | null> {
  const monolingual = Boolean(h.component.template);
  const idHash = unitIdHash(monolingual, s.source, s.context);
  const all = await h.store.read((tx) => componentTranslations(tx, h.row.id));
  const source = all.find((x) => x.is_source === 1);
  if ((await h.store.read((tx) => hasUnitHash(tx, t.id, idHash))) || (source && (await h.store.read((tx) => hasUnitHash(tx, source.id, idHash))))) return null;
  const targets = t.is_source ? all : all.filter((x) => x.id === t.id || x.is_source === 1);
  const joinedSource = joinPlural(s.source);
  const base = {
    idHash,
    contentHash: unitContentHash(s.source, s.context),
    context: s.context,
    source: joinedSource,
    numWords: countWords(s.source),
    numChars: codePoints(joinedSource),
    timestamp,
  };
  const units: NewUnit[] = [];
  for (const x of targets) {
    if (x.id !== t.id && (await h.store.read((tx) => hasUnitHash(tx, x.id, idHash)))) continue;
    const position = (positions.get(x.id) ?? (await h.store.read((tx) => maxUnitPosition(tx, x.id)))) + 1;
    positions.set(x.id, position);
    let unit: Pick<NewUnit, 'target' | 'state' | 'pending'>;
    if (monolingual) {
      unit = x.is_source
        ? { target: joinedSource, state: h.component.edit_template ? state : State.READONLY, pending: true }
        : { target: '', state: State.EMPTY, pending: false };
    } else if (x.is_source) {
      unit = { target: joinedSource, state: State.READONLY, pending: false };
    } else if (x.id === t.id) {
      unit = { target: joinPlural(s.target), state, pending: true };
    } else {
      unit = { target: '', state: State.EMPTY, pending: true };
    }
    units.push({ ...base, ...unit, translationId: x.id, position, authorId: unit.pending ? author : null });
  }
  return units;
}

/** Change 31 "String added" for a created unit. */
export function stringAddedChange(h: ComponentHandle, languages: ReadonlyMap<number, number>, user: Actor, author: Actor, u: NewUnit, id: number): ChangeInput {
  return {
    action: Action.NEW_UNIT,
    timestamp: u.timestamp,
    projectId: h.row.project_id,
    componentId: h.row.id,
    translationId: u.translationId,
    unitId: id,
    languageId: languages.get(u.translationId) ?? null,
    userId: user.id,
    authorId: author.id,
    target: u.target,
    details: { source: u.source, context: u.context, state: u.state },
  };
}

/**
 * Adds a string to a component, as Weblate's `POST /api/translations/<p>/<c>/<lang>/units/` (`language` is the
 * `Language.code` in the URL). Needs `manage_units`; a monolingual component takes `key` + `value` on its source
 * (template) translation, a bilingual one `context?` + `source` + `target` (target optional on the source
 * translation). Units are created in one transaction (31 per unit, statistics refreshed); the new units are
 * pending, so the next commit writes them into the file(s).
 * Throws NotFoundError, and ValidationError (with the field) and ForbiddenError (with Weblate's reason).
 * @example await addUnit(h, 'en', { key: 'menu.help', value: ['Help'], user })
 */
export async function addUnit(h: ComponentHandle, language: string, input: AddUnitInput): Promise<AddUnitResult> {
  const t = await translationOf(h, language);
  const refusal = await addRefusal(h, t);
  if (refusal) throw forbidden(refusal);
  const body = input as unknown as Record<string, unknown>;
  let s: NewString;
  if (h.component.template) {
    const key = text('key', body.key, true)!;
    const value = stringList('value', body.value, true)!;
    s = { context: key, source: value, target: value };
  } else {
    const context = text('context', body.context, false) ?? '';
    const source = stringList('source', body.source, true)!;
    const target = stringList('target', body.target, !t.is_source) ?? [];
    s = { context, source, target: t.is_source ? source : target };
  }
  if (body.state !== undefined && body.state !== null) {
    if (typeof body.state !== 'number' || !STATE_CHOICES.has(body.state)) throw invalid('state', `"${String(body.state)}" is not a valid choice.`);
    s.state = body.state;
  }
  const state = validateString(h, t, s);
  const timestamp = now();
  const units = await newUnits(h, t, s, state, input.user.id, timestamp, new Map());
  if (!units) throw invalid('non_field_errors', 'This string seems to already exist.');
  const languages = new Map((await h.store.read((tx) => componentTranslations(tx, h.row.id))).map((x) => [x.id, x.language_id]));
  const ids = await h.store.write((tx) => storeNewUnits(tx, units, (u, id) => stringAddedChange(h, languages, input.user, input.user, u, id)));
  // the addressed translation always gets a unit (newUnits puts it first among the targets it creates)
  return { unitId: ids[units.findIndex((u) => u.translationId === t.id)]!, unitIds: ids };
}

/**
 * Deletes a string, as Weblate's `DELETE /api/units/<id>/`: its units in every translation of the component (for a
 * monolingual component the key leaves the template and every translation file) go from the store at once, with
 * 63 "String removed" per unit (`details: {source, target}`) and statistics refreshed, in one transaction. The
 * removal from each file is pending: the next commit writes it (UnitWrite `remove`).
 * Throws NotFoundError (also for a unit of another component) and ForbiddenError.
 * @example await deleteUnit(h, 42, user)
 */
export async function deleteUnit(h: ComponentHandle, unitId: number, user: Actor): Promise<DeleteUnitResult> {
  const unit = await h.store.read((tx) => findUnitBrief(tx, unitId));
  if (!unit || unit.component_id !== h.row.id) throw new NotFoundError('unit', String(unitId));
  if (await h.store.read((tx) => isComponentLocked(tx, h.row.id))) throw forbidden(COMPONENT_LOCKED);
  if (!h.component.manage_units) throw forbidden(REMOVING_DISABLED);
  const units = await h.store.read((tx) => componentUnitsByHash(tx, h.row.id, unit.id_hash));
  const translations = new Map((await h.store.read((tx) => componentTranslations(tx, h.row.id))).map((t) => [t.id, t]));
  const withFile = new Set([...translations.values()].filter((t) => t.filename !== '').map((t) => t.id));
  const timestamp = now();
  const changes: ChangeInput[] = units.map((u) => ({
    action: Action.STRING_REMOVE,
    timestamp,
    projectId: h.row.project_id,
    componentId: h.row.id,
    translationId: u.translation_id,
    unitId: u.id,
    languageId: translations.get(u.translation_id)?.language_id ?? null,
    userId: user.id,
    authorId: user.id,
    target: u.target,
    old: u.target,
    details: { source: u.source, target: u.target },
  }));
  const changeIds = await h.store.write((tx) =>
    removingUnits(
      tx,
      units.map((u) => u.id),
      new Set(units.map((u) => u.translation_id)),
      () => removeUnits(tx, units, withFile, { id: user.id, timestamp }, changes),
    ),
  );
  return { removed: units.length, changeIds };
}

/**
 * Stores new strings (call inside a transaction): the units with their changes, their sources in the memory's index,
 * their checks and their strings' `inconsistent`, and the statistics. Returns the ids in the order of `units`.
 */
export async function storeNewUnits(tx: Tx, units: readonly NewUnit[], changeOf: (unit: NewUnit, id: number) => ChangeInput | null): Promise<number[]> {
  const ids = await insertUnits(tx, units, changeOf);
  for (const u of units) await indexMemorySource(tx, u.source);
  await checkAddedUnits(tx, ids, new Set(units.map((u) => u.translationId)));
  return ids;
}
