// The sync worker's public surface.
export type { ApplyResult, FileResult } from './plan.js';
export { languageCodeOf, maskRegex, selectMaskMatches } from './filemask.js';
export type { ComponentSyncResult, SyncEvent, SyncOptions } from './sync.js';
export { syncAll, syncComponent, syncProject, syncShared, UnknownProjectError } from './run.js';
export { syncLocked } from './sync.js';
