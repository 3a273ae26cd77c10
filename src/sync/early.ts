// Asking upstream early: `tms sync` starts each selected component's ref advertisement request before it loads and
// opens the store, so that the answer travels while the process does that work (see vcs/quick-check.ts).
import { credentialsOf, workingCopyDir } from '../component/resolve.js';
import type { Config } from '../config/config.js';
import { askEarly } from '../vcs/quick-check.js';

/**
 * Only the first few: the answers help the components synced while the store opens and just after, and many
 * requests at once to one host (a whole configuration's) would look like a flood; the rest ask in turn, as before.
 */
const EARLY_COMPONENTS = 4;

/** The components `tms sync` will sync: one project's (or one component), or every project's. */
export async function askUpstreamsEarly(config: Config, select: { project?: string; component?: string; all: boolean }): Promise<void> {
  const projects = select.all ? config.projects : config.projects.filter((p) => p.slug === select.project);
  const asked: Promise<void>[] = [];
  for (const project of projects) {
    for (const component of project.components) {
      if (asked.length >= EARLY_COMPONENTS) break;
      if (component.vcs === 'local' || component.linkedTo || (!select.all && select.component && component.slug !== select.component)) continue;
      const dir = workingCopyDir(config.repos_dir, project.slug, component.slug);
      asked.push(askEarly(dir, component.repoResolved, credentialsOf(component), config.remote_timeout_s * 1000));
    }
  }
  await Promise.all(asked);
}
