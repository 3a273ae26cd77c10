// The repository module's public surface: unit edits, added and deleted strings, locks, downloads, uploads, new languages, commits and Weblate's repository operations.
export type { Actor, OperationResult } from '../component/handle.js';
export type { BulkEdit, BulkResult, BulkRights, BulkTarget, PlannedReplacement, ReplaceSpec } from './bulk-edit.js';
export type { SourceEdit } from './source-strings.js';
export { editSourceStrings } from './source-strings.js';
export { bulkEdit, editedFlags, planReplace, replaceInTranslation } from './bulk-edit.js';
export type { CommitMade, CommitOptions, CommitResult } from './commit.js';
export type { UnitEdit, UnitEditResult } from './edit.js';
export { editAction, editUnit } from './edit.js';
export type { DownloadedFile } from './files.js';
export { downloadComponentZip, downloadProjectZip, downloadTranslation, exportTranslation } from './files.js';
export { GitWorker } from './git-work.js';
export type { ConflictReport } from './integrate.js';
export type { AddLanguageResult } from './language.js';
export { addLanguage } from './language.js';
export { COMPONENT_LOCKED, isLocked, setLock } from './lock.js';
export { catalogPlural } from './plural-forms.js';
export type { UnitConflict, UnitMerge } from './merge-units.js';
export { mergeUnits } from './merge-units.js';
export { renderTemplate } from './message.js';
export type { OperationOptions, RepositoryResult } from './operations.js';
export { cleanupComponent, commitPending, fileScan, fileSync, pullComponent, pushComponent, resetComponent } from './operations.js';
export type { RepositoryStatus, RevisionInfo } from './status.js';
export { repositoryStatus, revisionInfo, rfc2822 } from './status.js';
export type { AddUnitInput, AddUnitResult, DeleteUnitResult } from './units.js';
export { addUnit, deleteUnit } from './units.js';
export type { UploadInput, UploadMethod, UploadResult } from './upload.js';
export { UPLOAD_CONFLICTS, UPLOAD_FUZZY, UPLOAD_METHODS, uploadTranslation } from './upload.js';
export type { ZipEntry } from './zip.js';
export { zipStore } from './zip.js';
export type { DiscussionActor } from './discussion.js';
export {
  acceptSuggestion,
  addComment,
  commentOf,
  deleteComment,
  deleteSuggestion,
  reportSourceIssue,
  resolveComment,
  suggest,
  suggestionOf,
  voteSuggestion,
} from './discussion.js';
