// A component resolved once at an edge (API, CLI, webhook): its store row, configuration, working copy, format and remote.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { resolveRepo } from '../config/config.js';
import type { Format } from '../formats/format.js';
import { getFormat } from '../formats/registry.js';
import type { Store } from '../store/index.js';
import { type ComponentDeps, type ComponentTarget, resolveComponent, sharersOf } from './resolve.js';

export { type ComponentDeps, type GitRunner, credentialsOf, workingCopyDir } from './resolve.js';

/** The result every repository operation returns (the API sends `result` and `detail`). */
export interface OperationResult {
  result: boolean;
  /** One or more lines for people: what failed, what was kept. Credential-free. */
  detail?: string;
}

/** Who asked for an operation or made an edit: a user id (the API passes its account row). */
export interface Actor {
  id: number;
}

/** A component resolved for a repository operation: its target and its file format. */
export interface ComponentHandle extends ComponentTarget {
  format: Format;
}

/**
 * Resolves a configured component; NotFoundError when it is not in the store yet (apply the configuration first).
 * `deps.git`: where its git work runs (`tms serve`'s git worker); absent, on this thread.
 * @example const h = await openComponent(store, config, project, component); await pushComponent(h, { user })
 */
export async function openComponent(
  store: Store,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  deps: ComponentDeps = {},
): Promise<ComponentHandle> {
  const target = await resolveComponent(store, config, project, component, deps);
  return { ...target, format: getFormat(component.file_format) };
}

/** The other components sharing `h`'s working copy (weblate:// links), each with its format. */
export async function openSharers(h: ComponentHandle): Promise<ComponentHandle[]> {
  return (await sharersOf(h)).map((t) => ({ ...t, format: getFormat(t.component.file_format) }));
}

/** The configured project and component with these slugs, or undefined. */
export function configuredComponent(
  config: Config,
  projectSlug: string,
  componentSlug: string,
): { project: ProjectConfig; component: ComponentConfig } | undefined {
  const project = config.projects.find((p) => p.slug === projectSlug);
  const component = project?.components.find((c) => c.slug === componentSlug);
  return project && component ? { project, component } : undefined;
}

/** Whether the working copy has been cloned (a git component the sync has not reached yet has none). */
export function hasWorkingCopy(h: ComponentHandle): boolean {
  return h.git ? existsSync(path.join(h.dir, '.git')) : existsSync(h.dir);
}

/** Where pushes go: the component's `push` URL (resolved like `repo`), else its repository. */
export function pushUrl(h: Pick<ComponentHandle, 'component' | 'config'>): string {
  return h.component.push ? resolveRepo(h.component.push, path.dirname(h.config.file)) : h.component.repoResolved;
}

/** Where pushes go on the remote: `push_branch`, else the branch. */
export function pushBranch(h: Pick<ComponentHandle, 'component' | 'branch'>): string {
  return h.component.push_branch || h.branch;
}

const USERINFO_ANYWHERE = /([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;

/**
 * One line of an error for change records and details, with any `user:password@` and the component's
 * password taken out (VcsError messages are credential-free already; other errors may not be).
 */
export function errorLine(e: unknown, h?: ComponentHandle): string {
  let text = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(USERINFO_ANYWHERE, '$1');
  const password = h?.component.password;
  if (password) text = text.split(password).join('***');
  return text;
}
