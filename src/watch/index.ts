// The watching layer's public surface: the configuration file, local components, and both kept in step with the store.
export { type ComponentKey, type ConfigDiff, type ConfigWatchHandlers, diffConfig, type Watcher, watchConfig } from './config-watch.js';
export { createDebouncer, type Debouncer } from './debounce.js';
export { isLocalPathRepo, type LocalWatchOptions, watchLocalComponents } from './local-watch.js';
export { startWatching, type WatchRuntime, type WatchRuntimeOptions } from './runtime.js';
export { runSyncWatch, type SyncWatchOptions } from './sync-watch.js';
