// Read queries for the store's side of repository status: pending edits, the last repository action, the synced commit.
import { ACTIONS_MERGE_FAILURE, ACTIONS_REPOSITORY } from '../domain/actions.js';
import type { Db } from './db.js';

const REPOSITORY = [...ACTIONS_REPOSITORY].join(', ');
const FAILURES = new Set(ACTIONS_MERGE_FAILURE);

/**
 * Prepares the repository-status read queries once per connection.
 * @example repositoryQueries(db).hasPending([1, 2])
 */
export function repositoryQueries(db: Db) {
  const pendingInComponents = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.component_id IN (SELECT value FROM json_each(?)) AND u.pending = 1)`,
    )
    .pluck();
  const lastRepositoryChange = db.prepare(
    `SELECT action, target FROM changes WHERE component_id = ? AND action IN (${REPOSITORY})
     ORDER BY timestamp DESC, id DESC LIMIT 1`,
  );
  const syncedCommit = db.prepare('SELECT synced_commit FROM components WHERE id = ?').pluck();
  return {
    /** Whether any unit of these components has an edit not yet written and committed. */
    hasPending(componentIds: readonly number[]): boolean {
      return componentIds.length > 0 && pendingInComponents.get(JSON.stringify(componentIds)) === 1;
    },
    /** The text of the newest repository action when that action failed (merge, rebase, push), else null. */
    mergeFailure(componentId: number): string | null {
      const row = lastRepositoryChange.get(componentId) as { action: number; target: string } | undefined;
      return row && FAILURES.has(row.action) ? row.target : null;
    },
    /** The commit of the working copy the store was last synced from. */
    syncedCommit(componentId: number): string | null {
      return (syncedCommit.get(componentId) as string | null | undefined) ?? null;
    },
  };
}

export type RepositoryQueries = ReturnType<typeof repositoryQueries>;
