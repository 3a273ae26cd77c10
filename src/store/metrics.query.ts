// Instance-wide counts for the metrics endpoint (Weblate's GlobalStats as its MetricsSerializer shows them).
import type { Tx } from './db.js';
import { preparedOnce } from './statements.js';

export interface MetricsRow {
  units: number;
  units_translated: number;
  users: number;
  changes: number;
  projects: number;
  components: number;
  translations: number;
  languages: number;
  checks: number;
  configuration_errors: number;
  suggestions: number;
}

const sql = preparedOnce((tx: Tx) => ({
  all: tx.prepare(`SELECT
    (SELECT coalesce(sum(total), 0) FROM translation_stats) AS units,
    (SELECT coalesce(sum(translated), 0) FROM translation_stats) AS units_translated,
    (SELECT count(*) FROM users WHERE is_anonymous = 0 AND is_active = 1) AS users,
    (SELECT count(*) FROM changes) AS changes,
    (SELECT count(*) FROM projects) AS projects,
    (SELECT count(*) FROM components) AS components,
    (SELECT count(*) FROM translations) AS translations,
    (SELECT count(DISTINCT language_id) FROM translations) AS languages,
    (SELECT count(*) FROM checks WHERE dismissed = 0) AS checks,
    (SELECT count(*) FROM alerts) AS configuration_errors,
    (SELECT count(*) FROM suggestions) AS suggestions`),
}));

/** Instance-wide counts. */
export async function metrics(tx: Tx): Promise<MetricsRow> {
  return (await sql(tx).all.get()) as MetricsRow;
}
