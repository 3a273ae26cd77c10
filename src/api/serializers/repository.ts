// Repository records: a project's and a component's repository status, and the component lock.
import type { Component } from '../../store/index.js';
import { Serializer, t } from '../serializer.js';
import type { Ctx } from './common.js';

/** A repository status as the API shows it (the store's pending edits and failures, git's state). */
export interface RepositoryRecord {
  url: string;
  needsCommit: boolean;
  needsMerge: boolean;
  needsPush: boolean;
  remoteCommit: Record<string, unknown> | null;
  weblateCommit: Record<string, unknown> | null;
  status: string;
  mergeFailure: string | null;
}

/** `/api/projects/<p>/repository/` */
export const projectRepositorySerializer = new Serializer<RepositoryRecord, Ctx>('ProjectRepository', [
  { name: 'needs_commit', type: t.boolean, get: (r) => r.needsCommit },
  { name: 'needs_merge', type: t.boolean, get: (r) => r.needsMerge },
  { name: 'needs_push', type: t.boolean, get: (r) => r.needsPush },
  { name: 'url', type: t.url, get: (r) => r.url },
]);

/** `/api/components/<p>/<c>/repository/` and the translation's. */
export const repositorySerializer = new Serializer<RepositoryRecord, Ctx>('Repository', [
  ...projectRepositorySerializer.fields,
  { name: 'remote_commit', type: t.nullable(t.object), get: (r) => r.remoteCommit },
  { name: 'weblate_commit', type: t.nullable(t.object), get: (r) => r.weblateCommit },
  { name: 'status', type: t.string, get: (r) => r.status },
  { name: 'merge_failure', type: t.nullable(t.string), get: (r) => r.mergeFailure },
]);

/** `/api/components/<p>/<c>/lock/` */
export const lockSerializer = new Serializer<Component, Ctx>('Lock', [{ name: 'locked', type: t.boolean, get: (c) => c.locked }]);
