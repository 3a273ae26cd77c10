// Automatic translation's store work: the same strings translated in other components (the source "others"), the
// bot author of automatic changes, and the units as they are when a result is stored on them.
import { State } from '../domain/unit.js';
import { type Tx, now } from './db.js';
import { preparedOnce } from './statements.js';

/** The bot every automatic change is authored by; without an e-mail address its commits use a no-reply one. */
export const AUTOMATIC_TRANSLATION_USER = {
  username: 'automatic-translation',
  fullName: 'Automatic translation',
  email: '',
};

/** A string to fill: its unit, what it holds now and where it lives. */
export interface AutoUnit {
  id: number;
  source: string;
  context: string;
  target: string;
  state: number;
}

/** A translation of one of a translation's strings found in another component (same source text). */
export interface OtherTranslation {
  /** The unit of the translation being filled. */
  unit_id: number;
  target: string;
  /** 1 when the other string has the same context too. */
  same_context: number;
  component_id: number;
  state: number;
}

/** What to store for one unit: the text found and how sure the source of it is. */
export interface AutoResult {
  unitId: number;
  target: string;
  /** What the unit held when the job read it: a unit changed since is left alone. */
  seenTarget: string;
  seenState: number;
}

/** How results are stored: as suggestions, as translated strings or as strings needing editing. */
export type AutoMode = 'suggest' | 'translate' | 'fuzzy';

const sql = preparedOnce((tx: Tx) => ({
  bot: tx.prepare('SELECT id FROM users WHERE username = ?').pluck(),
  insertBot: tx.prepare(
    'INSERT INTO users (username, full_name, email, is_bot, is_active, date_joined) VALUES (?, ?, ?, 1, 1, ?) ON CONFLICT (username) DO NOTHING',
  ),
  // the chosen components' translated strings in the language, read once and matched to the translation's strings in
  // memory: a join on the source text visited every language's copies of every string (a fifth of a job)
  others: tx.prepare(
    `SELECT o.id, o.source, o.context, o.target, o.state, ot.component_id
     FROM translations ot JOIN units o ON o.translation_id = ot.id
     WHERE ot.component_id IN (${tx.dialect.idsOfJson}) AND ot.language_id = ? AND ot.is_source = 0 AND ot.component_id <> ?
       AND o.state >= ${State.TRANSLATED} AND o.state < ${State.READONLY} AND o.target <> ''
       AND EXISTS (SELECT 1 FROM translations st WHERE st.component_id = ot.component_id AND st.is_source = 1 AND st.language_id = ?)
     ORDER BY o.state DESC, o.id`,
  ),
  strings: tx.prepare('SELECT id, source, context FROM units WHERE translation_id = ? ORDER BY id'),
  automatic: tx.prepare('SELECT count(*) FROM units WHERE translation_id = ? AND automatically_translated = 1').pluck(),
  unitsNow: tx.prepare(
    `SELECT u.id, u.translation_id, u.target, u.state, u.source, t.component_id, c.project_id, t.language_id
     FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE u.id IN (${tx.dialect.idsOfJson})`,
  ),
}));

/** The bot user of automatic changes, made on first use. */
export async function automaticTranslationUser(tx: Tx): Promise<number> {
  const s = sql(tx);
  const u = AUTOMATIC_TRANSLATION_USER;
  const found = (await s.bot.get(u.username)) as number | undefined;
  if (found !== undefined) return found;
  await s.insertBot.run(u.username, u.fullName, u.email, now());
  return (await s.bot.get(u.username)) as number;
}

/**
 * For every string of a translation, the translated strings with the same source text in the same language in the
 * components `componentIds` whose source language is `sourceLanguageId` (by unit, then approved first, then oldest).
 */
export async function otherTranslations(
  tx: Tx,
  translationId: number,
  componentId: number,
  componentIds: readonly number[],
  languageId: number,
  sourceLanguageId: number,
): Promise<OtherTranslation[]> {
  const s = sql(tx);
  type Row = { id: number; source: string; context: string; target: string; state: number; component_id: number };
  const bySource = new Map<string, Row[]>();
  for (const r of (await s.others.all(JSON.stringify(componentIds), languageId, componentId, sourceLanguageId)) as Row[]) {
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }
  const out: OtherTranslation[] = [];
  for (const u of (await s.strings.all(translationId)) as { id: number; source: string; context: string }[]) {
    for (const o of bySource.get(u.source) ?? []) {
      out.push({ unit_id: u.id, target: o.target, same_context: o.context === u.context ? 1 : 0, component_id: o.component_id, state: o.state });
    }
  }
  return out;
}

/** A unit as an automatic result is stored on it: what it holds now and where it lives. */
export interface AutoUnitNow {
  id: number;
  translation_id: number;
  target: string;
  state: number;
  source: string;
  component_id: number;
  project_id: number;
  language_id: number;
}

/** Units as they are now (read in the transaction that stores results on them), by id. */
export async function autoUnitsNow(tx: Tx, unitIds: readonly number[]): Promise<Map<number, AutoUnitNow>> {
  const rows = (await sql(tx).unitsNow.all(JSON.stringify(unitIds))) as AutoUnitNow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** How many of a translation's strings hold automatic translation's text (nobody changed them since). */
export async function automaticallyTranslatedCount(tx: Tx, translationId: number): Promise<number> {
  return Number(await sql(tx).automatic.get(translationId));
}
