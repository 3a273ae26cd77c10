// The repositories the store loads at their first use (loadHeavyRepos in sql-store.ts), behind one import:
// the CLI bundle then splits the modules they share with the rest of the store into a few chunks, not one per set of
// repositories reaching them (each file a command loads costs it about a millisecond).
export * as checks from './checks.repo.js';
export * as comments from './comments.repo.js';
export * as edits from './edits.repo.js';
export * as memory from './memory.repo.js';
export * as projects from './projects.repo.js';
export * as suggestions from './suggestions.repo.js';
export * as sync from './sync.repo.js';
export * as units from './units.repo.js';
