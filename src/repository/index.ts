// The repository module's public surface: unit edits, commits of pending edits, and Weblate's repository operations.
export type { CommitMade, CommitOptions, CommitResult } from './commit.js';
export { commitPending } from './commit.js';
export type { Actor, OperationResult } from './component.js';
export type { UnitEdit, UnitEditResult } from './edit.js';
export { editAction, editUnit, UnitEditError } from './edit.js';
export type { ConflictReport } from './integrate.js';
export type { UnitConflict, UnitMerge } from './merge-units.js';
export { mergeUnits } from './merge-units.js';
export { renderTemplate } from './message.js';
export type { OperationOptions, RepositoryResult } from './operations.js';
export { cleanupComponent, fileScan, fileSync, pullComponent, pushComponent, resetComponent } from './operations.js';
export type { RepositoryStatus, RevisionInfo } from './status.js';
export { repositoryStatus, revisionInfo, rfc2822 } from './status.js';
