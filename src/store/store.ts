// The store's public boundary: units of work (a read, or one writing transaction) over repository functions, and the engine's own operations.
import type { Tx } from './db.js';

export type { AccountRow, GroupRecordRow, MembershipRow, RoleRecordRow, UserFilter } from './accounts.repo.js';
export type { AlertRow } from './alerts.repo.js';
export type { ComponentKey } from './hook-deliveries.repo.js';
export type { Catalog, CatalogAddon, Component, Language, Project, CatalogStats, Translation } from './catalog.repo.js';
export type { ChangeFilter, ChangeRecordRow } from './change-records.repo.js';
export type { ChangeInput, ChangeRow } from './changes.repo.js';
export type { CommentRow, NewComment } from './comments.repo.js';
export type { ComponentListRow } from './component-lists.repo.js';
export type {
  LookupOptions,
  MemoryExportScope,
  MemoryImportEntry,
  MemoryImportResult,
  MemoryMatch,
  MemoryRow,
  MemoryScope,
  MemorySkipReason,
  MemoryStrategy,
  MemoryVisibility,
} from './memory.repo.js';
export type { MetricsRow } from './metrics.repo.js';
export type { NewScreenshot, ScreenshotBrief, ScreenshotRow, ScreenshotString } from './screenshots.repo.js';
export type { NewSuggestion, SuggestionRow } from './suggestions.repo.js';
export type { CommittedTranslation, EditableUnit, PendingAge, PendingUnit, RependUnit, UnitTargetEdit, WrittenUnit } from './edits.repo.js';
export type { LanguageRow } from './languages.repo.js';
export type { ApplyConfigResult, ComponentRow, ComponentSettings, ProjectRow, ProjectSettings } from './projects.repo.js';
export type { PendingRemoval } from './removals.repo.js';
export type { SessionRow } from './sessions.repo.js';
export type { Comparison, UnitFilter, UnitNumberField, UnitProperty, UnitRelatedField, UnitScopeField, UnitTextField } from './unit-search.js';
export type { Slice } from './statements.js';
export type { Statement, Tx } from './db.js';
export type { TranslationStatsRow } from './stats.repo.js';
export type { CheckingRow, ComponentCheckingFacts } from './checks.repo.js';
export type {
  PlannedInsert,
  PlannedTranslation,
  PlannedUnits,
  PlannedUpdate,
  StoredUnit,
  StoredUnits,
  SyncPlan,
  SyncState,
  TranslationIndex,
  UnitValues,
} from './sync.repo.js';
export type { TranslationInfo, TranslationRef, TranslationRow } from './translations.repo.js';
export type { UnitRecord, VisibleTranslations } from './unit-records.repo.js';
export type { NewUnit, UnitBrief, UnitRow } from './units.repo.js';
export type { Author, UserRow } from './users.repo.js';

/** A lock per component shared by every node on one database (see `Store.componentLocks`). */
export interface ComponentLocks {
  /**
   * Waits (without blocking the event loop) until this process holds `key`'s lock; resolves to its release, or to
   * null when `timeoutMs` passed first.
   */
  acquire(key: string, timeoutMs: number): Promise<(() => void) | null>;
  /**
   * Whether this process still holds `key`'s lock (asked before work another node must not overlap, e.g. a push):
   * false once the session that took it was lost, as its locks went with it.
   */
  held(key: string): Promise<boolean>;
  /** Gives every lock back and closes the connection. */
  close(): void;
}

/**
 * Everything tms keeps: one implementation per database engine. Work on the data is a function of a `Tx` calling
 * repository functions (`store/*.repo.ts`), run by `read` or, in one transaction, by `write`; the rest are the
 * engine's own operations.
 * @example const store = await openStore('tms.sqlite'); await store.read((tx) => findComponent(tx, 'hello', 'app'))
 */
export interface Store {
  /** Where the data lives (a file name; never credentials). */
  readonly location: string;
  /**
   * Runs `fn` with a connection for reading: beside other reads, never inside another caller's open write (it sees
   * committed data only). `fn` calls repository functions with it and should do nothing else that waits.
   * @example const component = await store.read((tx) => findComponent(tx, 'hello', 'app'))
   */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one writing transaction: committed when it returns, rolled back when it throws; writers take turns
   * (across all processes on one database). Do the git and file work first, then write what it gave.
   * @example await store.write((tx) => applySyncPlan(tx, plan))
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * For long-running servers: storage upkeep moves off the request path (SQLite: WAL checkpoints in a thread of
   * their own, so no write waits for one). Stopped by `close()`.
   */
  checkpointInBackground(): void;
  /**
   * After a committed first load (or any bulk fill) of these tables: the engine's upkeep of them, outside any
   * transaction, so plans see real statistics and index-only scans a visibility map (PostgreSQL: VACUUM (ANALYZE),
   * which autovacuum would reach only later; SQLite: nothing, its plans need no statistics here).
   * @example await store.settleLoad(FIRST_LOAD_TABLES)
   */
  settleLoad(tables: readonly string[]): Promise<void>;
  /**
   * Brings the search's index up to date where a first load left it behind, resolving once it is (or the store
   * closes). SQLite: a first load commits its strings before their texts are indexed, and the index catches up in
   * short transactions (search-fill.repo.ts), started by settleLoad; `tms sync` waits for it before it exits, `tms
   * serve` resumes one a stopped process left. PostgreSQL the same, its search's table (pg/search-fill.ts).
   * @example await store.fillSearchIndex()
   */
  fillSearchIndex(): Promise<void>;
  /** Reads the database once (for health checks); rejects when it cannot be read. */
  ping(): Promise<void>;
  /**
   * A consistent copy of the whole database in `file` (SQLite's online backup), taken while others keep writing: one
   * file, out of WAL mode.
   */
  backup(file: string): Promise<{ pages: number }>;
  /** A token that changes whenever the data changes, through this connection or any other process's. */
  dataVersion(): Promise<string>;
  /**
   * Locks that hold across every process on this database, one per component (PostgreSQL: session advisory locks on
   * a connection of their own, freed by the server when the process dies); undefined where the database is one
   * machine's file (SQLite).
   */
  componentLocks(): ComponentLocks | undefined;
}
