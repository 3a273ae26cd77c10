// A configured component resolved to its store row, working copy and remote: everything of a ComponentHandle but its
// file format, whose registry loads every format's parser (a no-change sync reads no file and needs none of them).
import path from 'node:path';
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { isPostgresUrl } from '../config/database.js';
import { NotFoundError } from '../domain/errors.js';
import type { ComponentLocks, ComponentRow, Store } from '../store/index.js';
import { componentsBySlug, findComponent } from '../store/projects.repo.js';
import type * as vcs from '../vcs/index.js';

/** A configured component resolved for a sync: everything of a ComponentHandle but its file format. */
export interface ComponentTarget {
  store: Store;
  config: Config;
  project: ProjectConfig;
  component: ComponentConfig;
  row: ComponentRow;
  /**
   * `project/component` of the component that owns the working copy (this one, or the one its `weblate://` repository
   * link names): the key of the mutex, which is the repository's (linked components serialise on the working copy).
   */
  key: string;
  /** The working copy: the repository owner's. */
  dir: string;
  branch: string;
  /** False for `vcs: local` components: files are written, nothing is committed. */
  git: boolean;
  auth: vcs.Credentials | undefined;
  /** How long the remote may stay silent before a fetch or push gives up (the configuration's `remote_timeout_s`). */
  remoteTimeoutMs: number;
  /** isomorphic-git object cache for this operation. */
  cache: object;
  /**
   * With several nodes on one PostgreSQL database (the configuration names a PostgreSQL URL): the database's component
   * locks, which the component's mutex takes too, and whose holder pushes its commits at once. Undefined on one node.
   */
  nodes: ComponentLocks | undefined;
  /** Where the git work of repository operations runs (`tms serve`'s git worker thread); undefined: this thread. */
  gitRunner: GitRunner | undefined;
}

/**
 * Runs one git operation (a name of `operations/git-ops.ts` and its plain arguments) away from the calling thread and
 * resolves with its result; `operations/git-work.ts` holds the typed entry and the worker thread.
 */
export interface GitRunner {
  run(op: string, args: unknown): Promise<unknown>;
}

/** What a component's operations run on besides the store and the configuration: given by the process that owns them. */
export interface ComponentDeps {
  git?: GitRunner;
}

/** `<repos_dir>/<project>/<component>` */
export function workingCopyDir(reposDir: string, projectSlug: string, componentSlug: string): string {
  return path.join(reposDir, projectSlug, componentSlug);
}

/** A configured component with its project. */
export interface Configured {
  project: ProjectConfig;
  component: ComponentConfig;
}

/** The component whose working copy `component` uses: the one its `weblate://` link names, else itself. */
export function repositoryOwner(config: Pick<Config, 'projects'>, project: ProjectConfig, component: ComponentConfig): Configured {
  const link = component.linkedTo;
  if (!link) return { project, component };
  const owner = config.projects.find((p) => p.slug === link.project);
  const target = owner?.components.find((c) => c.slug === link.component);
  // the configuration refuses links to nothing: a missing target here is a configuration built by hand
  if (!owner || !target) throw new NotFoundError('linked component', `${link.project}/${link.component}`);
  return { project: owner, component: target };
}

/** Every component sharing the working copy of `owner` (a component with its own repository): it first, then those linking to it. */
export function sharingRepository(config: Pick<Config, 'projects'>, owner: Configured): Configured[] {
  const out: Configured[] = [owner];
  for (const project of config.projects) {
    for (const component of project.components) {
      if (component.linkedTo?.project === owner.project.slug && component.linkedTo.component === owner.component.slug) out.push({ project, component });
    }
  }
  return out;
}

/**
 * The other components sharing `h`'s working copy (weblate:// links), resolved with `h`'s object cache; a component
 * the store has not seen yet is left out (it holds nothing).
 */
export async function sharersOf(h: ComponentTarget): Promise<ComponentTarget[]> {
  if (!h.git) return [];
  const members = sharingRepository(h.config, repositoryOwner(h.config, h.project, h.component));
  if (members.length === 1) return [];
  const others = members.filter((c) => c.project.slug !== h.project.slug || c.component.slug !== h.component.slug);
  const resolved = await resolveComponents(h.store, h.config, others, { git: h.gitRunner });
  return resolved.filter((t) => t !== undefined).map((t) => ({ ...t, cache: h.cache }));
}

/** Credentials for http(s) repositories given in the configuration rather than the URL. */
export function credentialsOf(component: ComponentConfig): vcs.Credentials | undefined {
  return component.username ? { username: component.username, password: component.password } : undefined;
}

/** Resolves a configured component; NotFoundError when it is not in the store yet (apply the configuration first). */
export async function resolveComponent(
  store: Store,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
  deps: ComponentDeps = {},
): Promise<ComponentTarget> {
  const row = await store.read((tx) => findComponent(tx, project.slug, component.slug));
  if (!row) throw new NotFoundError('component', `${project.slug}/${component.slug}`);
  return targetOf(store, config, { project, component }, row, deps);
}

/**
 * Resolves many configured components from one read of the store (a sync of the whole site asks once, not once per
 * component); undefined in the place of one the store has not seen yet.
 */
export async function resolveComponents(
  store: Store,
  config: Config,
  components: readonly Configured[],
  deps: ComponentDeps = {},
): Promise<(ComponentTarget | undefined)[]> {
  const rows = await store.read((tx) => componentsBySlug(tx));
  return components.map((c) => {
    const row = rows.get(`${c.project.slug}/${c.component.slug}`);
    return row && targetOf(store, config, c, row, deps);
  });
}

function targetOf(store: Store, config: Config, { project, component }: Configured, row: ComponentRow, deps: ComponentDeps): ComponentTarget {
  const owner = repositoryOwner(config, project, component);
  return {
    store,
    config,
    project,
    component,
    row,
    key: `${owner.project.slug}/${owner.component.slug}`,
    dir: workingCopyDir(config.repos_dir, owner.project.slug, owner.component.slug),
    branch: component.branch || 'main',
    git: component.vcs !== 'local',
    auth: credentialsOf(component),
    remoteTimeoutMs: config.remote_timeout_s * 1000,
    cache: {},
    nodes: isPostgresUrl(config.database) ? store.componentLocks() : undefined,
    gitRunner: deps.git,
  };
}
