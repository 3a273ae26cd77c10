// The vcs layer's public surface: the only module of tms that imports isomorphic-git (see local-transport.ts for local remotes).
export type { RemoteOptions, RepoOptions } from './context.js';
export { REMOTE } from './context.js';
export type { CommitInfo, RepoStatus } from './history.js';
export { hasCommit, headCommit, headOid, log, remoteTrackingHead, repairRemoteTracking, status } from './history.js';
export type { MergeFile, MergeFileInput, UpdateResult } from './integrate.js';
export { defaultMergeFile, fastForward, merge, rebase, updateBranch } from './integrate.js';
export { clone, fetch, push, remoteBranchHead } from './remote.js';
export type { Credentials, Remote } from './remote-url.js';
export { parseRemote, redactUrl } from './remote-url.js';
export { removeStaleTemporaries } from './temporaries.js';
export { blobIdsAt, changedPaths, listFilesWithBlobIds, readBlobAt } from './tree.js';
export type { VcsErrorData, VcsErrorKind } from './vcs-error.js';
export { VcsError } from './vcs-error.js';
export type { CommitSpec, Signature } from './worktree.js';
export { commit, commitSeries, resetHard } from './worktree.js';
