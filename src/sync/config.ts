// The configuration brought into the store: projects and components written, and the checks and memory index that follow.

import { recheckComponent, refreshInconsistentOfProject, settleInconsistent } from '../checks/refresh.js';
import type { Config } from '../config/config.js';
import type { ApplyConfigResult, Tx } from '../store/index.js';
import { pruneMemorySources } from '../store/memory.repo.js';
import { type Prune, writeConfig } from '../store/projects.repo.js';

/**
 * Creates or updates the configured projects and components (by slug; ids stay stable), in the caller's
 * transaction. Components whose check settings changed have their checks run again. With `prune`, components no
 * longer configured are deleted with their translations, units and history — except those holding edits not
 * committed yet, which are kept (and reported) so no user's edit is lost — and projects left empty go too; the
 * strings of their projects flagged inconsistent with a deleted component only are checked again.
 * @example await store.write((tx) => applyConfig(tx, config, { prune: true }))
 */
export async function applyConfig(tx: Tx, config: Config, opts: { prune?: Prune } = {}): Promise<ApplyConfigResult> {
  const { recheck, pruned, ...result } = await writeConfig(tx, config, opts);
  for (const id of recheck) await recheckComponent(tx, id);
  for (const p of pruned) await settleInconsistent(tx, await refreshInconsistentOfProject(tx, p));
  if (pruned.length > 0) await pruneMemorySources(tx);
  return result;
}
