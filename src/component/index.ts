// A component as the sync and repository operations see it: one handle, one mutex, one working copy.
export type { Actor, ComponentHandle, OperationResult } from './handle.js';
export { configuredComponent, credentialsOf, errorLine, hasWorkingCopy, openComponent, pushBranch, pushUrl, workingCopyDir } from './handle.js';
export { MutexTimeoutError, withComponentMutex } from './mutex.js';
