// What every repository operation resolves first: the component's store row, working copy, format, lock key and remote.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { resolveRepo } from '../config/config.js';
import { NotFoundError } from '../domain/errors.js';
import type { Format } from '../formats/format.js';
import { getFormat } from '../formats/registry.js';
import type { Db } from '../store/db.js';
import { type ComponentRow, findComponent } from '../store/projects.repo.js';
import { credentialsOf, workingCopyDir } from '../sync/working-copy.js';
import type * as vcs from '../vcs/index.js';

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

/** A component resolved for a repository operation. */
export interface ComponentHandle {
  db: Db;
  config: Config;
  project: ProjectConfig;
  component: ComponentConfig;
  row: ComponentRow;
  /** `project/component`: the component lock's key. */
  key: string;
  dir: string;
  format: Format;
  branch: string;
  /** False for `vcs: local` components: files are written, nothing is committed. */
  git: boolean;
  auth: vcs.Credentials | undefined;
  /** isomorphic-git object cache for this operation. */
  cache: object;
}

/** Resolves a configured component; NotFoundError when it is not in the store yet (sync it first). */
export function resolveComponent(
  db: Db,
  config: Config,
  project: ProjectConfig,
  component: ComponentConfig,
): ComponentHandle {
  const row = findComponent(db, project.slug, component.slug);
  if (!row) throw new NotFoundError('component', `${project.slug}/${component.slug}`);
  return {
    db,
    config,
    project,
    component,
    row,
    key: `${project.slug}/${component.slug}`,
    dir: workingCopyDir(config.repos_dir, project.slug, component.slug),
    format: getFormat(component.file_format),
    branch: component.branch || 'main',
    git: component.vcs !== 'local',
    auth: credentialsOf(component),
    cache: {},
  };
}

/** Whether the working copy has been cloned (a git component the sync has not reached yet has none). */
export function hasWorkingCopy(h: ComponentHandle): boolean {
  return h.git ? existsSync(path.join(h.dir, '.git')) : existsSync(h.dir);
}

/** Where pushes go: the component's `push` URL (resolved like `repo`), else its repository. */
export function pushUrl(h: ComponentHandle): string {
  return h.component.push ? resolveRepo(h.component.push, path.dirname(h.config.file)) : h.component.repoResolved;
}

/** Where pushes go on the remote: `push_branch`, else the branch. */
export function pushBranch(h: ComponentHandle): string {
  return h.component.push_branch || h.branch;
}

const USERINFO_ANYWHERE = /([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;

/**
 * One line of an error for change records and details, with any `user:password@` and the component's
 * password taken out (VcsError messages are credential-free already; other errors may not be).
 */
export function errorLine(e: unknown, h?: ComponentHandle): string {
  let text = (e instanceof Error ? e.message : String(e)).split('\n')[0].replace(USERINFO_ANYWHERE, '$1');
  const password = h?.component.password;
  if (password) text = text.split(password).join('***');
  return text;
}
