// What a sync compares first (translations' revisions, synced commit, alerts), read for many components at once.
import { alertNamesOf } from './alerts.repo.js';
import type { Tx } from './db.js';
import { syncedCommitsOf } from './projects.repo.js';
import { type TranslationRow, listTranslationsOf } from './translations.repo.js';

/** What a sync compares before anything else (whether upstream moved past the store, whether a file is to be read again). */
export interface SyncPoint {
  /** The component's translations, with their files' revisions. */
  translations: TranslationRow[];
  /** The commit the store was last synced from. */
  syncedCommit: string | null;
  /** The names of the component's alerts. */
  alerts: string[];
}

/**
 * The sync points of several components in three statements (a sync of many components reads them at once, not one
 * transaction each); a component the store does not hold is absent.
 */
export async function readSyncPoints(tx: Tx, componentIds: readonly number[]): Promise<Map<number, SyncPoint>> {
  const [commits, translations, alerts] = [
    await syncedCommitsOf(tx, componentIds),
    await listTranslationsOf(tx, componentIds),
    await alertNamesOf(tx, componentIds),
  ];
  const out = new Map<number, SyncPoint>();
  for (const [id, syncedCommit] of commits) out.set(id, { translations: translations.get(id) ?? [], syncedCommit, alerts: alerts.get(id) ?? [] });
  return out;
}
