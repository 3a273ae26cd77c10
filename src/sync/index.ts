// The sync worker's public surface.
export type { ApplyResult, FileResult } from './apply.js';
export { LockTimeoutError, withComponentLock } from './component-lock.js';
export { languageCodeOf, maskRegex, selectMaskMatches } from './filemask.js';
export type { ComponentSyncResult, SyncEvent, SyncOptions } from './sync.js';
export { syncAll, syncComponent, syncLocked, syncProject, UnknownProjectError } from './sync.js';
export { workingCopyDir } from './working-copy.js';
