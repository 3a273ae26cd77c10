// The sync's plan, decided without a store: new, changed, pending, removed and duplicate units, plurals, files gone.

import { describe, expect, it } from 'vitest';
import { unitContentHash } from '../domain/hash.js';
import { PLURAL_SEPARATOR, type ParsedUnit, State } from '../domain/unit.js';
import type { LanguageDefinition } from '../languages/languages.js';
import type { LanguageRow, StoredUnit, StoredUnits, SyncState, TranslationRow } from '../store/index.js';
import { type EarlyChecks, type FileOutcome, type ScanInput, type ScannedFile, planSync, planUnits, runEarlyChecks, translationsToRead } from './plan.js';

const T = '2026-01-01T00:00:00.000Z';

function language(code: string, number = 2, formula = 'n != 1'): LanguageDefinition {
  return { code, name: code, plural: { source: 0, number, formula, type: 1 }, aliases: [], direction: 'ltr', population: 0 };
}
const en = language('en');
const de = language('de');
const fr = language('fr');

function unit(hash: bigint, source: string | string[], target: string | string[] = '', more: Partial<ParsedUnit> = {}): ParsedUnit {
  const s = typeof source === 'string' ? [source] : source;
  const t = typeof target === 'string' ? [target] : target;
  return {
    context: `c${hash}`,
    source: s,
    target: t,
    location: '',
    note: '',
    flags: '',
    explanation: '',
    sourceExplanation: '',
    previousSource: '',
    state: t.join('') === '' ? State.EMPTY : State.TRANSLATED,
    position: 0,
    idHash: hash,
    contentHash: hash * 1000n,
    numWords: 1,
    ...more,
  };
}

/** The stored row of a parsed unit at a position (what an earlier sync wrote). */
function stored(id: number, u: ParsedUnit, position: number, more: Partial<StoredUnit> = {}): StoredUnit {
  return {
    id,
    id_hash: u.idHash,
    content_hash: u.contentHash,
    context: u.context,
    source: u.source.join(PLURAL_SEPARATOR),
    target: u.target.join(PLURAL_SEPARATOR),
    previous_source: u.previousSource,
    location: u.location,
    note: u.note,
    flags: u.flags,
    extra_flags: '',
    explanation: u.explanation,
    source_explanation: u.sourceExplanation,
    state: u.state,
    position,
    num_words: u.numWords,
    pending: 0,
    ...more,
  };
}

function file(path: string, lang: LanguageDefinition, more: Partial<ScannedFile> = {}): ScannedFile {
  return { path, code: lang.code, language: lang, generated: false, revision: `rev-${path}`, isTemplate: false, ...more };
}

function translation(id: number, languageId: number, code: string, filename: string, more: Partial<TranslationRow> = {}): TranslationRow {
  return {
    id,
    component_id: 1,
    language_id: languageId,
    language_code: code,
    filename,
    revision: `old-${filename}`,
    is_source: 0,
    is_template: 0,
    parse_error: null,
    plural_number: null,
    plural_formula: null,
    seq: 0,
    ...more,
  };
}

function languageRow(id: number, d: LanguageDefinition): LanguageRow {
  return {
    id,
    code: d.code,
    name: d.name,
    direction: d.direction,
    population: 0,
    plural_number: d.plural.number,
    plural_formula: d.plural.formula,
    plural_type: 1,
    plural_source: 0,
    aliases: '[]',
    generated: 0,
  };
}

const CHECKING = { format: 'po', source_language: 'en', component_flags: '', enforced: '[]', project_flags: '' };

function scan(files: ScannedFile[], outcomes: Record<string, FileOutcome>, more: Partial<ScanInput> = {}): ScanInput {
  return {
    projectId: 7,
    componentId: 1,
    component: { template: '', edit_template: true, source_language: 'en' },
    keepApproval: { source: false, translations: false },
    keepFuzzy: false,
    plan: { files, duplicates: [], sourceLanguage: en },
    outcomes: new Map(Object.entries(outcomes)),
    head: 'abc',
    maskMatches: files.length,
    filemask: 'po/*.po',
    ...more,
  };
}

const parsed = (units: ParsedUnit[], plural?: { number: number; formula: string } | null): FileOutcome => ({ status: 'parsed', store: { units }, plural });
const noUnits: StoredUnits = { units: new Map(), addedInTms: new Set() };

/** A bilingual component synced once: source translation 1 (en, id 1) and de.po (translation 2, language 2). */
function syncedOnce(deUnits: StoredUnit[], sourceUnits: StoredUnit[] = [], addedInTms: number[] = []) {
  const state: SyncState = {
    translations: [translation(1, 1, 'en', '', { is_source: 1 }), translation(2, 2, 'de', 'po/de.po')],
    languages: new Map([
      ['en', languageRow(1, en)],
      ['de', languageRow(2, de)],
    ]),
    checking: CHECKING,
  };
  const units: StoredUnits = {
    units: new Map([
      [1, new Map(sourceUnits.map((u) => [u.id_hash, u]))],
      [2, new Map(deUnits.map((u) => [u.id_hash, u]))],
    ]),
    addedInTms: new Set(addedInTms),
  };
  return { state, units };
}

describe('planSync', () => {
  it('inserts the units of a first sync with their checks, the source strings read-only, and asks for the languages it lacks', () => {
    const units = [unit(1n, 'Open file.', 'Datei öffnen'), unit(2n, 'Close', '')];
    const input = scan([file('po/de.po', de)], { 'po/de.po': parsed(units) });
    const state: SyncState = { translations: [], languages: new Map([['en', languageRow(1, en)]]), checking: CHECKING };
    expect(translationsToRead(input, state)).toEqual([]);
    const { plan, result } = planSync(input, state, noUnits, T);
    expect(plan.translations.map((t) => [t.language, t.row.filename, t.row.is_source])).toEqual([
      [{ id: 1 }, '', 1],
      [{ define: de, generated: false }, 'po/de.po', 0],
    ]);
    const deUnits = plan.translations[1]!.units!;
    expect(deUnits.insert.map((i) => [i.values.position, i.values.source, i.values.target, i.values.state])).toEqual([
      [1, 'Open file.', 'Datei öffnen', State.TRANSLATED],
      [2, 'Close', '', State.EMPTY],
    ]);
    // the translation lost the source's full stop: Weblate's end_stop
    expect(deUnits.insert[0]!.checks).toEqual(['end_stop']);
    expect(deUnits.insert[1]!.checks).toEqual([]);
    expect(deUnits.newSource).toBe(false);
    expect(plan.translations[1]!.revision).toEqual({ revision: 'rev-po/de.po', error: null });
    // the source translation: each string once, read-only, its checks left to the source checks across languages
    expect(plan.source!.translation).toBe(0);
    expect(plan.source!.units.insert.map((i) => [i.values.target, i.values.state, i.checks])).toEqual([
      ['Open file.', State.READONLY, null],
      ['Close', State.READONLY, null],
    ]);
    expect(plan.source!.units.newSource).toBe(true);
    expect(result).toMatchObject({ added: 2, changed: 0, removed: 0, files: [{ path: 'po/de.po', language: 'de', status: 'parsed', added: 2 }] });
    expect(plan.checksAcross).toEqual({ translations: [1, 0], swept: false });
    expect(new Set(plan.stats)).toEqual(new Set([0, 1]));
    expect(plan.memory).toEqual({ translation: 0, prune: false });
    expect(plan.alerts).toEqual([
      { name: 'DuplicateLanguage', details: null },
      { name: 'ParseError', details: null },
      { name: 'NoMaskMatches', details: null },
    ]);
  });

  it('writes nothing for units that did not change, and touches neither checks across languages nor the memory', () => {
    const u = [unit(1n, 'Open', 'Öffnen')];
    const { state, units } = syncedOnce([stored(10, u[0]!, 1)], [stored(1, { ...u[0]!, target: u[0]!.source, state: State.READONLY }, 1)]);
    const input = scan([file('po/de.po', de)], { 'po/de.po': parsed(u) });
    expect(translationsToRead(input, state).sort()).toEqual([1, 2]);
    const { plan, result } = planSync(input, state, units, T);
    expect(plan.translations[1]!.units).toMatchObject({ insert: [], update: [], remove: [] });
    expect(plan.source!.units).toMatchObject({ insert: [], update: [], remove: [] });
    expect(result).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expect(plan.checksAcross).toBeUndefined();
    // the file was read: its translation's (and the source's) statistics are counted again, the memory reads the source
    expect(new Set(plan.stats)).toEqual(new Set([0, 1]));
    expect(plan.memory).toEqual({ translation: 0, prune: false });
  });

  it('takes a changed source from upstream (monolingual identity: the key) and a changed target', () => {
    const before = unit(1n, 'Open', 'Öffnen');
    const other = unit(2n, 'Save', 'Sichern');
    const { state, units } = syncedOnce([stored(10, before, 1), stored(11, other, 2)]);
    const input = scan([file('po/de.po', de)], {
      'po/de.po': parsed([
        { ...before, source: ['Open…'] },
        { ...other, target: ['Speichern'] },
      ]),
    });
    const { plan, result } = planSync(input, state, units, T);
    const update = plan.translations[1]!.units!.update;
    expect(update.map((u) => [u.id, u.values.source, u.values.target])).toEqual([
      [10, 'Open…', 'Öffnen'],
      [11, 'Save', 'Speichern'],
    ]);
    expect(update[0]!.checks).toEqual(['end_ellipsis']);
    expect(result).toMatchObject({ changed: 2, pendingKept: [] });
    expect(plan.checksAcross).toEqual({ translations: [1, 0], swept: false });
    expect(plan.memory).toEqual({ translation: 0, prune: true });
  });

  it("never overwrites a user's pending edit: upstream's new target is reported, the edit's target and state stay", () => {
    const fromFile = unit(1n, 'Open', 'Öffnen');
    const edited = stored(10, fromFile, 1, { target: 'Aufmachen', state: State.TRANSLATED, pending: 1 });
    const { state, units } = syncedOnce([edited]);
    // upstream changed the target and the note of the same string
    const upstream = { ...fromFile, target: ['Öffne'], note: 'menu', state: State.FUZZY };
    const { plan, result } = planSync(scan([file('po/de.po', de)], { 'po/de.po': parsed([upstream]) }), state, units, T);
    const [update] = plan.translations[1]!.units!.update;
    expect(update).toMatchObject({ id: 10, values: { target: 'Aufmachen', state: State.TRANSLATED, note: 'menu' } });
    expect(result.pendingKept).toEqual([{ translation: 'po/de.po', context: 'c1', fileTarget: 'Öffne' }]);

    // only the target changed upstream: nothing is written at all
    const again = planSync(scan([file('po/de.po', de)], { 'po/de.po': parsed([{ ...fromFile, target: ['Öffne'] }]) }), state, units, T);
    expect(again.plan.translations[1]!.units!.update).toEqual([]);
    expect(again.result.pendingKept).toHaveLength(1);
  });

  it('removes units gone from the file, reports a pending edit lost with them, and keeps a string added in tms', () => {
    const kept = unit(1n, 'Open', 'Öffnen');
    const gone = unit(2n, 'Save', 'Sichern');
    const goneEdited = unit(3n, 'Quit', 'Ende');
    const added = unit(4n, 'New', 'Neu');
    const { state, units } = syncedOnce(
      [stored(10, kept, 1), stored(11, gone, 2), stored(12, goneEdited, 3, { target: 'Beenden', pending: 1 }), stored(13, added, 4, { pending: 1 })],
      [],
      [13],
    );
    const { plan, result } = planSync(scan([file('po/de.po', de)], { 'po/de.po': parsed([kept]) }), state, units, T);
    expect(plan.translations[1]!.units!.remove).toEqual([11, 12]);
    expect(result.pendingDropped).toEqual([{ translation: 'po/de.po', context: 'c3', target: 'Beenden' }]);
    expect(result).toMatchObject({ removed: 2, files: [{ removed: 2 }] });
    // every file was read: the source translation is rebuilt from them, without the strings gone
    expect(plan.source!.units.insert.map((i) => i.values.source)).toEqual(['Open']);
    expect(plan.checksAcross).toEqual({ translations: [1, 0], swept: true });
    expect(plan.memory).toEqual({ translation: 0, prune: true });
  });

  it('joins plural forms and takes the plural the file states, for the row and for the checks', () => {
    // the singular leaves the number out: fine where that form is the number 1 alone (Czech), not where it also
    // takes 21, 31 … (the Russian-style rule this file states)
    const plural = unit(1n, ['%d file', '%d files'], ['jeden soubor', '%d soubory', '%d souborů'], { flags: 'c-format' });
    const cs = language('cs', 3, '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2');
    const own = { number: 3, formula: '(n%10==1 && n%100!=11) ? 0 : (n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20)) ? 1 : 2' };
    const state: SyncState = { translations: [], languages: new Map([['cs', languageRow(3, cs)]]), checking: CHECKING };
    const { plan } = planSync(scan([file('po/cs.po', cs)], { 'po/cs.po': parsed([plural], own) }), state, noUnits, T);
    const t = plan.translations[1]!;
    expect(t.plural).toEqual(own);
    expect(t.units!.insert[0]!.values).toMatchObject({
      source: `%d file${PLURAL_SEPARATOR}%d files`,
      target: ['jeden soubor', '%d soubory', '%d souborů'].join(PLURAL_SEPARATOR),
      num_chars: `%d file${PLURAL_SEPARATOR}%d files`.length,
    });
    expect(t.units!.insert[0]!.checks).toContain('c_format');
    // a file that states no plural of its own follows its language's again
    const again = planSync(scan([file('po/cs.po', cs)], { 'po/cs.po': parsed([plural]) }), state, noUnits, T);
    expect(again.plan.translations[1]!.plural).toBeNull();
    expect(again.plan.translations[1]!.units!.insert[0]!.checks).toEqual([]);
  });

  it('deletes the translation of a removed file (reporting its pending edits) and keeps a renamed one by its language', () => {
    const u = unit(1n, 'Open', 'Öffnen');
    const { state, units } = syncedOnce([stored(10, u, 1)]);
    const frUnit = unit(1n, 'Open', 'Ouvrir');
    state.translations = [...state.translations, translation(3, 3, 'fr', 'po/fr.po')];
    state.languages = new Map([...state.languages, ['fr', languageRow(3, fr)]]);
    const withFr: StoredUnits = {
      units: new Map([...units.units, [3, new Map([[1n, stored(20, frUnit, 1, { pending: 1, target: 'Ouvrez' })]])]]),
      addedInTms: units.addedInTms,
    };
    // de.po moved to de/app.po; fr.po is gone
    const input = scan([file('de/app.po', de)], { 'de/app.po': { status: 'unchanged' } });
    expect(translationsToRead(input, state).sort()).toEqual([1, 3]);
    const { plan, result } = planSync(input, state, withFr, T);
    expect(plan.translations[1]!.row.filename).toBe('de/app.po');
    expect(plan.translations[1]!.language).toEqual({ id: 2 });
    expect(plan.translations[1]!.units).toBeUndefined();
    expect(plan.removeTranslations).toEqual([3]);
    expect(result.files).toEqual([
      { path: 'de/app.po', language: 'de', status: 'unchanged', added: 0, changed: 0, removed: 0 },
      { path: 'po/fr.po', language: 'fr', status: 'removed', added: 0, changed: 0, removed: 1 },
    ]);
    expect(result.pendingDropped).toEqual([{ translation: 'po/fr.po', context: 'c1', target: 'Ouvrez' }]);
    // not every file was read: the source keeps its strings and drops those no translation holds any more
    expect(plan.source!.units.insert).toEqual([]);
    expect(plan.source!.removeUnused).toEqual([1n]);
    expect(plan.checksAcross).toEqual({ translations: [0], swept: true });
  });

  it('appends new strings to the source after its last position when only some files were read', () => {
    const open = unit(1n, 'Open', 'Öffnen');
    const { state, units } = syncedOnce([stored(10, open, 1)], [stored(1, { ...open, target: open.source, state: State.READONLY }, 7)]);
    state.translations = [...state.translations, translation(3, 3, 'fr', 'po/fr.po')];
    state.languages = new Map([...state.languages, ['fr', languageRow(3, fr)]]);
    const input = scan([file('po/de.po', de), file('po/fr.po', fr)], {
      'po/de.po': parsed([open, unit(5n, 'Quit', 'Beenden', { previousSource: 'Exit' })]),
      'po/fr.po': { status: 'unchanged' },
    });
    const { plan } = planSync(input, state, units, T);
    expect(plan.source!.units.insert.map((i) => [i.values.source, i.values.position, i.values.previous_source, i.values.state])).toEqual([
      ['Quit', 8, '', State.READONLY],
    ]);
    expect(plan.source!.units.newSource).toBe(true);
  });

  it('takes a repeated identity once (the first), and reports languages found twice', () => {
    const first = unit(1n, 'Open', 'Öffnen');
    const twice = { ...first, target: ['Aufmachen'] };
    const input = scan(
      [file('po/de.po', de)],
      { 'po/de.po': parsed([first, twice, unit(2n, 'Save', 'Sichern')]) },
      {
        plan: { files: [file('po/de.po', de)], duplicates: [{ path: 'po/de_DE.po', language: 'de', other: 'po/de.po' }], sourceLanguage: en },
      },
    );
    const state: SyncState = { translations: [], languages: new Map(), checking: CHECKING };
    const { plan, result } = planSync(input, state, noUnits, T);
    expect(plan.translations[1]!.units!.insert.map((i) => [i.values.target, i.values.position])).toEqual([
      ['Öffnen', 1],
      ['Sichern', 2],
    ]);
    expect(result.added).toBe(2);
    expect(plan.alerts[0]).toEqual({ name: 'DuplicateLanguage', details: { files: [{ path: 'po/de_DE.po', language: 'de', other: 'po/de.po' }] } });
  });

  it('records a parse error once, keeps reporting it while the blob stays, and raises the ParseError alert', () => {
    const { state, units } = syncedOnce([]);
    const failed: FileOutcome = { status: 'failed', error: 'po/de.po:3: bad' };
    const first = planSync(scan([file('po/de.po', de)], { 'po/de.po': failed }), state, units, T).plan;
    expect(first.translations[1]).toMatchObject({ parseError: 'po/de.po:3: bad', revision: { revision: 'rev-po/de.po', error: 'po/de.po:3: bad' } });
    expect(first.alerts[1]).toEqual({ name: 'ParseError', details: { files: [{ filename: 'po/de.po', error: 'po/de.po:3: bad' }] } });
    // the same blob failing the same way: no new change
    state.translations = [state.translations[0]!, translation(2, 2, 'de', 'po/de.po', { revision: 'rev-po/de.po', parse_error: 'po/de.po:3: bad' })];
    const again = planSync(scan([file('po/de.po', de)], { 'po/de.po': failed }), state, units, T).plan;
    expect(again.translations[1]!.parseError).toBeUndefined();
    // not read again: still failed in the result and the alert
    const unchanged = planSync(scan([file('po/de.po', de)], { 'po/de.po': { status: 'unchanged' } }), state, units, T);
    expect(unchanged.result.files[0]).toMatchObject({ status: 'failed', error: 'po/de.po:3: bad' });
    expect(unchanged.plan.alerts[1]!.details).not.toBeNull();
  });

  it('keeps a monolingual template read-only unless its edits are allowed, and records its new strings as new sources', () => {
    const u = unit(1n, 'Open', 'Open');
    const files = [file('en.json', en, { isTemplate: true }), file('de.json', de)];
    const outcomes = { 'en.json': parsed([u]), 'de.json': parsed([{ ...u, target: ['Öffnen'] }]) };
    const state: SyncState = { translations: [], languages: new Map(), checking: { ...CHECKING, format: 'json' } };
    const mono = { template: 'en.json', edit_template: false, source_language: 'en' };
    const { plan } = planSync(scan(files, outcomes, { component: mono }), state, noUnits, T);
    expect(plan.source).toBeUndefined();
    expect(plan.translations[0]!.row).toMatchObject({ filename: 'en.json', is_source: 1, is_template: 1 });
    expect(plan.translations[0]!.units).toMatchObject({ newSource: true, insert: [{ values: { state: State.READONLY }, checks: [] }] });
    expect(plan.translations[1]!.units!.newSource).toBe(false);
    expect(plan.memory).toEqual({ translation: 0, prune: false });
    const editable = planSync(scan(files, outcomes, { component: { ...mono, edit_template: true } }), state, noUnits, T).plan;
    expect(editable.translations[0]!.units!.insert[0]!.values.state).toBe(State.TRANSLATED);
  });

  it('raises NoMaskMatches when the mask matched no file', () => {
    const { plan } = planSync(scan([], {}, { maskMatches: 0 }), { translations: [], languages: new Map(), checking: CHECKING }, noUnits, T);
    expect(plan.alerts[2]).toEqual({ name: 'NoMaskMatches', details: { filemask: 'po/*.po' } });
  });
});

describe('planUnits', () => {
  it('leaves a stored unit alone when only its position is the same and nothing else moved', () => {
    const a = unit(1n, 'A', 'a');
    const b = unit(2n, 'B', 'b');
    const rows = new Map([
      [1n, stored(1, a, 1)],
      [2n, stored(2, b, 2)],
    ]);
    expect(planUnits(rows, [a, b]).units).toEqual({ insert: [], update: [], remove: [] });
    // swapped: both move
    expect(planUnits(rows, [b, a]).units.update.map((u) => [u.id, u.values.position])).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it('keeps an approval or needs editing the file cannot state while the text is unchanged, and drops it when the text changes', () => {
    const a = unit(1n, 'A', 'a', { state: State.TRANSLATED });
    const rows = new Map([[1n, stored(1, a, 1, { state: State.APPROVED })]]);
    expect(planUnits(rows, [a], { keepApproval: true }).units.update).toEqual([]);
    // without keepApproval (a format that states approval, or reviews off) the file's state wins
    expect(planUnits(rows, [a]).units.update.map((u) => u.values.state)).toEqual([State.TRANSLATED]);
    // the target changed upstream: translated again, waiting for review
    expect(planUnits(rows, [{ ...a, target: ['b'] }], { keepApproval: true }).units.update.map((u) => u.values.state)).toEqual([State.TRANSLATED]);
    // needs editing kept the same way where the file cannot state it
    const b = new Map([[1n, stored(1, a, 1, { state: State.FUZZY })]]);
    expect(planUnits(b, [a], { keepFuzzy: true }).units.update).toEqual([]);
    expect(planUnits(b, [a]).units.update.map((u) => u.values.state)).toEqual([State.TRANSLATED]);
    expect(planUnits(b, [{ ...a, target: ['b'] }], { keepFuzzy: true }).units.update.map((u) => u.values.state)).toEqual([State.TRANSLATED]);
    // the file says "needs editing": that wins
    expect(planUnits(rows, [{ ...a, state: State.FUZZY }], { keepApproval: true }).units.update.map((u) => u.values.state)).toEqual([State.FUZZY]);
  });

  it('a monolingual translation whose source changed under an unchanged target needs editing, the old source kept (Weblate)', () => {
    // uptime-kuma: en.json's "Database Name" became "Database name"; de-DE.json still says "Datenbankname"
    const before = unit(1n, 'Database Name', 'Datenbankname');
    const rows = new Map([[1n, stored(1, before, 1)]]);
    const changed = { ...before, source: ['Database name'] };
    const [update] = planUnits(rows, [changed], { monolingual: true, keepFuzzy: true }).units.update;
    expect(update!.values).toMatchObject({ source: 'Database name', target: 'Datenbankname', state: State.FUZZY, previous_source: 'Database Name' });
    // an approved one too
    const approved = new Map([[1n, stored(1, before, 1, { state: State.APPROVED })]]);
    expect(planUnits(approved, [{ ...changed, state: State.APPROVED }], { monolingual: true }).units.update[0]!.values.state).toBe(State.FUZZY);
    // the next sync (nothing changed) keeps it so, with its previous source, where the file states neither
    const marked = new Map([[1n, stored(1, changed, 1, { state: State.FUZZY, previous_source: 'Database Name' })]]);
    expect(planUnits(marked, [changed], { monolingual: true, keepFuzzy: true }).units.update).toEqual([]);
    // the source changed back: translated again, no previous source
    const [reverted] = planUnits(marked, [before], { monolingual: true, keepFuzzy: true }).units.update;
    expect(reverted!.values).toMatchObject({ source: 'Database Name', state: State.TRANSLATED, previous_source: '' });
    // the target changed with it (translated upstream): as the file says
    const both = planUnits(rows, [{ ...changed, target: ['Name der Datenbank'] }], { monolingual: true }).units.update;
    expect(both[0]!.values).toMatchObject({ state: State.TRANSLATED, previous_source: '' });
    // an untranslated string stays untranslated; a bilingual file's source is its own: no change of state
    const empty = unit(2n, 'Save', '');
    expect(planUnits(new Map([[2n, stored(2, empty, 1)]]), [{ ...empty, source: ['Save all'] }], { monolingual: true }).units.update[0]!.values.state).toBe(
      State.EMPTY,
    );
    expect(planUnits(rows, [changed]).units.update[0]!.values.state).toBe(State.TRANSLATED);
  });

  it('takes a template string edited in tms and not committed yet as the source, whatever the template file still says', () => {
    // the template's "Database Name" edited to "Database name" in tms, which marked German's string then
    const file = unit(1n, 'Database Name', 'Datenbankname', { numWords: 2 });
    const marked = stored(1, { ...file, source: ['Database name'] }, 1, {
      state: State.FUZZY,
      previous_source: 'Database Name',
      content_hash: unitContentHash(['Database name'], 'c1'),
    });
    const sourceEdits = new Map([[1n, 'Database name']]);
    expect(planUnits(new Map([[1n, marked]]), [file], { monolingual: true, keepFuzzy: true, sourceEdits }).units.update).toEqual([]);
    // without it the file's old source would take the mark back
    expect(planUnits(new Map([[1n, marked]]), [file], { monolingual: true, keepFuzzy: true }).units.update[0]!.values).toMatchObject({
      source: 'Database Name',
      state: State.TRANSLATED,
    });
    // a new translation's string, and the words of the new source
    const [inserted] = planUnits(new Map(), [file], { monolingual: true, sourceEdits: new Map([[1n, 'The name of the database']]) }).units.insert;
    expect(inserted!.values).toMatchObject({
      source: 'The name of the database',
      content_hash: unitContentHash(['The name of the database'], 'c1'),
      num_words: 5,
      num_chars: 24,
    });
  });

  it('planSync marks them in a component with a template, not in the template itself', () => {
    const template = unit(1n, 'Database name', 'Database name');
    const german = unit(1n, 'Database name', 'Datenbankname');
    const tStored = stored(10, { ...template, source: ['Database Name'], target: ['Database Name'] }, 1);
    const dStored = stored(11, { ...german, source: ['Database Name'] }, 1);
    const files = [file('locales/en.json', en, { isTemplate: true }), file('locales/de.json', de)];
    const input = scan(
      files,
      { 'locales/en.json': parsed([template]), 'locales/de.json': parsed([german]) },
      {
        component: { template: 'locales/en.json', edit_template: true, source_language: 'en' },
        filemask: 'locales/*.json',
      },
    );
    const state: SyncState = {
      translations: [
        translation(1, 1, 'en', 'locales/en.json', { is_source: 1, is_template: 1, revision: 'old-en' }),
        translation(2, 2, 'de', 'locales/de.json', { revision: 'old-de' }),
      ],
      languages: new Map([
        ['en', languageRow(1, en)],
        ['de', languageRow(2, de)],
      ]),
      checking: CHECKING,
    };
    const units: StoredUnits = {
      units: new Map([
        [1, new Map([[1n, tStored]])],
        [2, new Map([[1n, dStored]])],
      ]),
      addedInTms: new Set(),
    };
    const { plan } = planSync(input, state, units, T);
    const byId = new Map(plan.translations.flatMap((t) => t.units?.update ?? []).map((u) => [u.id, u.values]));
    expect(byId.get(10)).toMatchObject({ source: 'Database name', state: State.TRANSLATED });
    expect(byId.get(11)).toMatchObject({ source: 'Database name', state: State.FUZZY, previous_source: 'Database Name' });
  });
});

describe('checks run beside the parse (a parse worker)', () => {
  const early: EarlyChecks = {
    facts: CHECKING,
    languages: { de: { plural_number: 2, plural_formula: 'n != 1' } },
    review: { source: false, translations: false },
    editTemplate: true,
  };
  const units = () => [unit(1n, 'Open file.', 'Datei öffnen'), unit(2n, 'Close', ''), unit(3n, 'Name:', 'Name', { state: State.APPROVED })];
  const checksOf = (input: ScanInput, state: SyncState, storedUnits = noUnits) => {
    const { plan } = planSync(input, state, storedUnits, T);
    const planned = plan.translations[1]!.units!;
    return [...planned.insert.map((u) => [u.values.id_hash, u.checks]), ...planned.update.map((u) => [u.values.id_hash, u.checks])];
  };

  it('gives each unit the checks the plan runs, and the plan takes them where its facts, state and target agree', () => {
    const state: SyncState = { translations: [], languages: new Map([['de', languageRow(2, de)]]), checking: CHECKING };
    const expected = checksOf(scan([file('po/de.po', de)], { 'po/de.po': parsed(units()) }), state);
    expect(expected).toEqual([
      [1n, ['end_stop']],
      [2n, []],
      [3n, ['end_colon']],
    ]);
    const outcomes = new Map<string, FileOutcome>([['po/de.po', parsed(units())]]);
    runEarlyChecks([file('po/de.po', de)], outcomes, early);
    const got = outcomes.get('po/de.po') as Extract<FileOutcome, { status: 'parsed' }>;
    // the approved unit is checked as translated: a project without review does not keep a file's approval
    expect([...got.checks!.states]).toEqual([State.TRANSLATED, State.EMPTY, State.TRANSLATED]);
    expect(got.checks!.names.split('\n')).toEqual(['end_stop', '', 'end_colon']);
    // taken as they are (told apart here by a name no check has), not run again; the sync leaves the approval as the
    // worker assumed it
    const downgraded = got.store.units.map((u) => (u.state === State.APPROVED ? { ...u, state: State.TRANSLATED } : u));
    const marked = { ...got, store: { units: downgraded }, checks: { ...got.checks!, names: 'marked\n\nmarked' } };
    expect(checksOf(scan([file('po/de.po', de)], { 'po/de.po': marked }), state)).toEqual([
      [1n, ['marked']],
      [2n, []],
      [3n, ['marked']],
    ]);
    // other settings in the store than the worker was given: run again
    const flagged = { ...state, checking: { ...CHECKING, component_flags: 'ignore-end-stop' } };
    expect(checksOf(scan([file('po/de.po', de)], { 'po/de.po': marked }), flagged)).toEqual([
      [1n, []],
      [2n, []],
      [3n, ['end_colon']],
    ]);
    // a stored unit with a pending edit (its target kept) or extra flags, or checked in another state: run again
    const { state: once, units: rows } = syncedOnce([
      stored(10, unit(1n, 'Open file.', 'Alt'), 5, { pending: 1, target: 'Datei öffnen.' }),
      stored(11, unit(2n, 'Close', 'x'), 2, { extra_flags: 'ignore-end-stop' }),
      stored(12, unit(3n, 'Name:', 'Alt'), 3),
    ]);
    const again = scan([file('po/de.po', de)], { 'po/de.po': marked }, { keepApproval: { source: false, translations: false } });
    expect(checksOf(again, once, rows)).toEqual([
      [1n, []],
      [2n, []],
      [3n, ['marked']],
    ]);
    const states = { ...marked, checks: { ...marked.checks, states: Int32Array.from([State.TRANSLATED, State.EMPTY, State.FUZZY]) } };
    expect(checksOf(scan([file('po/de.po', de)], { 'po/de.po': states }), state)).toEqual([
      [1n, ['marked']],
      [2n, []],
      [3n, ['end_colon']],
    ]);
  });
});
