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
  // every string of the translation at once: one pass over the (source, context) index, no statement per string
  others: tx.prepare(
    `SELECT u.id AS unit_id, o.target, CASE WHEN o.context = u.context THEN 1 ELSE 0 END AS same_context, ot.component_id, o.state
     FROM units u JOIN units o ON o.source = u.source AND o.id <> u.id
     JOIN translations ot ON ot.id = o.translation_id
     WHERE u.translation_id = ? AND ot.language_id = ? AND ot.is_source = 0 AND ot.component_id <> ?
       AND o.state >= ${State.TRANSLATED} AND o.state < ${State.READONLY} AND o.target <> ''
       AND EXISTS (SELECT 1 FROM translations st WHERE st.component_id = ot.component_id AND st.is_source = 1 AND st.language_id = ?)
     ORDER BY u.id, o.state DESC, o.id`,
  ),
  unitNow: tx.prepare(
    `SELECT u.id, u.translation_id, u.target, u.state, u.source, t.component_id, c.project_id, t.language_id
     FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE u.id = ?`,
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
 * For every string of a translation, the translated strings with the same source text in the same language in other
 * components whose source language is `sourceLanguageId` (per string: approved first, then oldest); the caller picks
 * among the components it may use.
 */
export async function otherTranslations(
  tx: Tx,
  translationId: number,
  componentId: number,
  languageId: number,
  sourceLanguageId: number,
): Promise<OtherTranslation[]> {
  return (await sql(tx).others.all(translationId, languageId, componentId, sourceLanguageId)) as OtherTranslation[];
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

/** The unit as it is now (read in the transaction that stores a result on it), or undefined. */
export async function autoUnitNow(tx: Tx, unitId: number): Promise<AutoUnitNow | undefined> {
  return (await sql(tx).unitNow.get(unitId)) as AutoUnitNow | undefined;
}
