// The store's public boundary: plain data in and out, asynchronous, each transaction one call.
import type { Config } from '../config/config.js';
import type { AccountRow, GroupRecordRow, MembershipRow, RoleRecordRow, UserFilter } from './accounts.query.js';
import type { AlertRow } from './alerts.repo.js';
import type { Catalog } from './catalog.query.js';
import type { ChangeFilter, ChangeRecordRow } from './changes.query.js';
import type { ChangeInput, ChangeRow } from './changes.repo.js';
import type { CommentRow, NewComment } from './comments.repo.js';
import type { ComponentListRow } from './component-lists.repo.js';
import type { CommittedTranslation, EditableUnit, PendingAge, PendingUnit, RependUnit, UnitTargetEdit, WrittenUnit } from './edits.repo.js';
import type { ComponentKey } from './hook-deliveries.repo.js';
import type { LanguageRow } from './languages.repo.js';
import type {
  LookupOptions,
  MemoryExportScope,
  MemoryImportEntry,
  MemoryImportResult,
  MemoryMatch,
  MemoryRow,
  MemoryScope,
  MemoryVisibility,
} from './memory.repo.js';
import type { MetricsRow } from './metrics.query.js';
import type { ApplyConfigResult, ComponentRow, ProjectRow } from './projects.repo.js';
import type { PendingRemoval } from './removals.repo.js';
import type { UnitFilter } from './search.query.js';
import type { SessionRow } from './sessions.repo.js';
import type { Slice } from './statements.js';
import type { TranslationStatsRow } from './stats.repo.js';
import type { NewSuggestion, SuggestionRow } from './suggestions.repo.js';
import type { ApplyResult, ScanInput } from './sync.repo.js';
import type { TranslationInfo, TranslationRef, TranslationRow } from './translations.repo.js';
import type { UnitRecordRow, VisibleTranslations } from './units.query.js';
import type { NewUnit, UnitBrief, UnitRow } from './units.repo.js';
import type { Author, UserRow } from './users.repo.js';

export type { AccountRow, GroupRecordRow, MembershipRow, RoleRecordRow, UserFilter } from './accounts.query.js';
export type { AlertRow } from './alerts.repo.js';
export type { ComponentKey } from './hook-deliveries.repo.js';
export type { Catalog, CatalogAddon, CatalogComponent, CatalogLanguage, CatalogProject, CatalogStats, CatalogTranslation } from './catalog.query.js';
export type { ChangeFilter, ChangeRecordRow } from './changes.query.js';
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
export type { MetricsRow } from './metrics.query.js';
export type { NewSuggestion, SuggestionRow } from './suggestions.repo.js';
export type { CommittedTranslation, EditableUnit, PendingAge, PendingUnit, RependUnit, UnitTargetEdit, WrittenUnit } from './edits.repo.js';
export type { LanguageRow } from './languages.repo.js';
export type { ApplyConfigResult, ComponentRow, ComponentSettings, ProjectRow, ProjectSettings } from './projects.repo.js';
export type { PendingRemoval } from './removals.repo.js';
export type { SessionRow } from './sessions.repo.js';
export type { Comparison, UnitFilter, UnitNumberField, UnitProperty, UnitRelatedField, UnitScopeField, UnitTextField } from './search.query.js';
export type { Slice } from './statements.js';
export type { TranslationStatsRow } from './stats.repo.js';
export type { ApplyResult, FileOutcome, FileResult, ScanInput, ScannedFile } from './sync.repo.js';
export type { TranslationInfo, TranslationRef, TranslationRow } from './translations.repo.js';
export type { UnitRecordRow, VisibleTranslations } from './units.query.js';
export type { NewUnit, UnitBrief, UnitRow } from './units.repo.js';
export type { Author, UserRow } from './users.repo.js';

/** The units the API lists. */
export interface UnitReads {
  byId(id: number): Promise<UnitRecordRow | undefined>;
  /** Units of one translation in position order; `sourceTranslationId` resolves `source_unit_id`. */
  ofTranslation(translationId: number, sourceTranslationId: number | null, filter: UnitFilter | null, slice: Slice): Promise<UnitRecordRow[]>;
  countOfTranslation(translationId: number, filter: UnitFilter | null): Promise<number>;
  /** Units of the visible translations, by id. */
  all(visible: VisibleTranslations, filter: UnitFilter | null, slice: Slice): Promise<UnitRecordRow[]>;
  countAll(visible: VisibleTranslations, filter: UnitFilter | null): Promise<number>;
}

/** The change log as the API lists it. */
export interface ChangeReads {
  byId(id: number): Promise<ChangeRecordRow | undefined>;
  /** Newest first: descending timestamp, then id. */
  list(filter: ChangeFilter, slice: Slice): Promise<ChangeRecordRow[]>;
  count(filter: ChangeFilter): Promise<number>;
}

/** Who is asking, and the account records the API shows. */
export interface AccountReads {
  /** The user owning this API token (active or not), or undefined. */
  byToken(token: string): Promise<AccountRow | undefined>;
  byId(id: number): Promise<AccountRow | undefined>;
  /** A real (non-anonymous) user by username. */
  byUsername(username: string): Promise<AccountRow | undefined>;
  /** The user that stands for unauthenticated requests. */
  anonymous(): Promise<AccountRow | undefined>;
  /** The user's team memberships with roles, projects, languages and components. */
  memberships(userId: number): Promise<MembershipRow[]>;
  /** Real users by id. */
  users(filter: UserFilter, slice: Slice): Promise<AccountRow[]>;
  countUsers(filter: UserFilter): Promise<number>;
  /** Every team, or only the teams of this user. */
  groups(memberOf?: number): Promise<GroupRecordRow[]>;
  /** Every role, or only the roles this user's teams grant. */
  roles(grantedTo?: number): Promise<RoleRecordRow[]>;
}

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
  held(key: string): boolean;
  /** Gives every lock back and closes the connection. */
  close(): void;
}

/**
 * Everything tms keeps: one implementation per database engine. Every method is one unit of work: the ones that
 * write do all of it in one transaction, so callers never hold a transaction open across an await.
 * @example const store = await openStore('tms.sqlite'); await store.findComponent('hello', 'app')
 */
export interface Store {
  /** Where the data lives (a file name; never credentials). */
  readonly location: string;
  close(): Promise<void>;
  /**
   * For long-running servers: storage upkeep moves off the request path (SQLite: WAL checkpoints in a thread of
   * their own, so no write waits for one). Stopped by `close()`.
   */
  checkpointInBackground(): void;
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

  /** Records a webhook delivery id; false when it was recorded before (the newest `limit` are kept). */
  recordHookDelivery(delivery: string, received: string, limit: number): Promise<boolean>;
  /**
   * Accepts a webhook notification: its delivery id (when it has one) and the component updates it asks for, in one
   * transaction, so that a crash before the updates ran leaves them asked for. A delivery id recorded before records
   * nothing and gives false.
   */
  acceptHookDelivery(delivery: string | null, received: string, limit: number, updates: readonly ComponentKey[]): Promise<boolean>;
  /** Component updates notifications asked for that have not finished, oldest first (`tms serve` runs them at start). */
  requestedUpdates(): Promise<ComponentKey[]>;
  /** Where a component's update requests stand (0: none); read when its update starts. */
  requestedUpdateMark(update: ComponentKey): Promise<number>;
  /** A component's update finished: forgets its requests up to `mark` (read when it started); later ones stay. */
  finishRequestedUpdate(update: ComponentKey, mark: number): Promise<void>;

  // ---- configuration: projects and components ----
  /** Creates or updates the configured projects and components; `prune` removes the unconfigured ones without edits. */
  applyConfig(config: Config, opts?: { prune?: boolean }): Promise<ApplyConfigResult>;
  findProject(slug: string): Promise<ProjectRow | undefined>;
  findComponent(projectSlug: string, componentSlug: string): Promise<ComponentRow | undefined>;
  listComponents(projectId?: number): Promise<ComponentRow[]>;
  /** The commit of the working copy the store was last synced from (or moved to by a commit). */
  syncedCommit(componentId: number): Promise<string | null>;
  /** Weblate's component lock: no edits, added strings or uploads while set. */
  isComponentLocked(componentId: number): Promise<boolean>;
  /** Locks or unlocks and records 14/15; false when it already was so, undefined for an unknown component. */
  setComponentLocked(componentId: number, locked: boolean, userId: number | null, timestamp: string): Promise<boolean | undefined>;
  componentAlerts(componentId: number): Promise<AlertRow[]>;
  /** Adds a file that does not parse to the component's ParseError alert (as a sync lists the files it could not parse). */
  addParseError(componentId: number, file: { filename: string; error: string }, timestamp: string): Promise<void>;

  // ---- sync ----
  listTranslations(componentId: number): Promise<TranslationRow[]>;
  /** Applies what a scan of the working copy found: translations, units, source strings, changes, statistics, alerts. */
  applyScan(input: ScanInput): Promise<ApplyResult>;

  // ---- changes ----
  /** Records changes; returns their ids. */
  recordChanges(changes: readonly ChangeInput[]): Promise<number[]>;
  /**
   * Records one change per component named, for a configuration the store may not have seen yet (it is applied
   * first when a component is missing), e.g. change 53 for a webhook.
   */
  recordComponentChanges(
    config: Config,
    components: readonly { project: string; component: string }[],
    change: Omit<ChangeInput, 'projectId' | 'componentId'>,
  ): Promise<number[]>;
  /** Changes of a component, newest first. */
  componentChanges(componentId: number, limit?: number): Promise<ChangeRow[]>;
  /** The text of the newest repository change when it is a failure (22, 23, 28), else null. */
  mergeFailure(componentId: number): Promise<string | null>;

  // ---- languages and translations ----
  findLanguage(code: string): Promise<LanguageRow | undefined>;
  /** The component's translations with their languages. */
  componentTranslations(componentId: number): Promise<TranslationInfo[]>;
  /** The component's translation in the language with this exact `Language.code`. */
  findTranslationByCode(componentId: number, code: string): Promise<TranslationRef | undefined>;
  translationStats(translationId: number): Promise<TranslationStatsRow | undefined>;

  // ---- units and pending edits ----
  findEditableUnit(unitId: number): Promise<EditableUnit | undefined>;
  /**
   * Stores an edit as pending with its change record, checks and statistics; a translated string failing an
   * enforced check is stored as needing editing (change 76). Returns the change id and the state stored.
   */
  saveUnitEdit(
    unit: Pick<EditableUnit, 'id' | 'translation_id'>,
    edit: { target: string; state: number; authorId: number; timestamp: string; change: ChangeInput },
  ): Promise<{ changeId: number; state: number }>;
  /** Dismisses (or restores) a failing check of a unit; false when the unit has no such check. */
  setCheckDismissed(unitId: number, name: string, dismissed: boolean): Promise<boolean>;
  /** The failing checks of a unit, dismissed or not. */
  unitChecks(unitId: number): Promise<{ name: string; dismissed: boolean }[]>;
  /** The checks a unit would fail with `target` (plural forms joined) instead of its text; nothing is stored. */
  previewChecks(unitId: number, target: string): Promise<string[]>;
  /** Per check, the strings of a translation failing it (active) and those that dismissed it. */
  checkCounts(translationId: number): Promise<{ name: string; active: number; dismissed: number }[]>;
  /** Sets uploaded targets as pending edits, records the changes, refreshes statistics; returns the change ids. */
  saveUploadedTargets(translationId: number, edits: readonly UnitTargetEdit[], changes: readonly ChangeInput[]): Promise<number[]>;
  /** Every pending unit of a component, by translation then position. */
  pendingUnits(componentId: number): Promise<PendingUnit[]>;
  hasPendingUnits(componentId: number): Promise<boolean>;
  /** Every component holding pending edits or removals, with the timestamp of the oldest (background commits). */
  pendingAges(): Promise<PendingAge[]>;
  /** Whether any unit of these components has an edit not yet written and committed. */
  hasPendingInComponents(componentIds: readonly number[]): Promise<boolean>;
  findUnitByHash(translationId: number, idHash: bigint): Promise<Pick<UnitRow, 'id' | 'target' | 'state' | 'pending'> | undefined>;
  /** The author of the newest content change of a unit (null when none or anonymous). */
  lastContentAuthor(unitId: number): Promise<number | null>;
  /** Makes units pending again with the given target, state and author. */
  repend(units: readonly RependUnit[]): Promise<void>;
  /** file-sync: marks every unit of the component's non-source translations pending (read-only units aside). */
  markAllPending(componentId: number): Promise<number>;
  /** Every unit of a translation, in position order. */
  translationUnits(translationId: number): Promise<UnitBrief[]>;
  findUnitBrief(unitId: number): Promise<(UnitBrief & { component_id: number }) | undefined>;
  /** The units of a string in every translation of a component, by translation. */
  componentUnitsByHash(componentId: number, idHash: bigint): Promise<UnitBrief[]>;
  hasUnitHash(translationId: number, idHash: bigint): Promise<boolean>;
  maxUnitPosition(translationId: number): Promise<number>;
  /** Creates units (a pending removal of the same string is dropped), their changes and statistics; returns the ids. */
  insertUnits(units: readonly NewUnit[], changeOf: (unit: NewUnit, id: number) => ChangeInput | null): Promise<number[]>;
  /** Deletes units, recording `changes` and a pending removal for translations with a file; returns the change ids. */
  removeUnits(
    units: readonly UnitBrief[],
    withFile: ReadonlySet<number>,
    author: { id: number | null; timestamp: string },
    changes: readonly ChangeInput[],
  ): Promise<number[]>;
  pendingRemovals(componentId: number): Promise<PendingRemoval[]>;
  hasPendingRemovals(componentId: number): Promise<boolean>;
  /** After a commit wrote them: forgets the removals and deletes units a sync brought back meanwhile. */
  clearRemovals(removals: readonly PendingRemoval[]): Promise<void>;
  /** Stores removals again after their commit was taken back. */
  restoreRemovals(removals: readonly PendingRemoval[]): Promise<void>;

  // ---- suggestions and comments ----
  /** Whether the unit has a suggestion with exactly this text. */
  hasSuggestion(unitId: number, target: string): Promise<boolean>;
  /** Stores suggestions with their changes (4) and statistics; returns their ids. */
  addSuggestions(items: readonly NewSuggestion[]): Promise<number[]>;
  /** A unit's suggestions, oldest first, with authors and vote totals. */
  unitSuggestions(unitId: number): Promise<SuggestionRow[]>;
  findSuggestion(id: number): Promise<SuggestionRow | undefined>;
  /** Deletes a suggestion, recording `change` (26) when given; false when there was none. */
  deleteSuggestion(id: number, change: ChangeInput | null): Promise<boolean>;
  /** Sets (±1) or withdraws (0) a user's vote; the new total, undefined when the suggestion is gone. */
  voteSuggestion(id: number, userId: number, value: number): Promise<number | undefined>;
  userVote(id: number, userId: number): Promise<number>;
  /** The unit takes the suggestion's text as a pending edit (change 7, authored by the suggestion's author); the suggestion goes. */
  acceptSuggestion(
    id: number,
    unit: Pick<EditableUnit, 'id' | 'translation_id'>,
    edit: { target: string; state: number; authorId: number; timestamp: string; change: ChangeInput },
  ): Promise<{ changeId: number; state: number }>;
  /** Adds a comment (3); undefined for an unknown unit. */
  addComment(input: NewComment): Promise<number | undefined>;
  /** The comments shown on a unit: its own and its source string's. */
  unitComments(unitId: number): Promise<CommentRow[]>;
  findComment(id: number): Promise<CommentRow | undefined>;
  resolveComment(id: number, change: ChangeInput): Promise<boolean>;
  deleteComment(id: number, change: ChangeInput): Promise<boolean>;

  // ---- translation memory ----
  /** Every record by id: the units' translations (read from the units), then the imported entries. */
  listMemory(slice: Slice): Promise<MemoryRow[]>;
  countMemory(): Promise<number>;
  findMemory(id: number): Promise<MemoryRow | undefined>;
  /** Deletes an imported entry, or hides a unit's translation from the memory until it changes. */
  deleteMemory(id: number): Promise<boolean>;
  /** Imports entries into a scope (one transaction; call once per batch); unknown languages, empty and duplicate entries are skipped by reason. */
  importMemory(entries: readonly MemoryImportEntry[], scope: MemoryScope): Promise<MemoryImportResult>;
  /** A scope's records (a project's: its strings' translations and its imported entries), or every record. */
  exportMemory(scope: MemoryExportScope): Promise<MemoryRow[]>;
  /** Exact and fuzzy matches in a language pair, best first. */
  lookupMemory(text: string, sourceLanguageId: number, targetLanguageId: number, visibility: MemoryVisibility, opts?: LookupOptions): Promise<MemoryMatch[]>;

  // ---- component lists and metrics ----
  componentLists(): Promise<ComponentListRow[]>;
  findComponentList(slug: string): Promise<ComponentListRow | undefined>;
  /** Creates a list; undefined when its name or slug is taken. */
  createComponentList(input: { name: string; slug: string; showDashboard: boolean }): Promise<ComponentListRow | undefined>;
  deleteComponentList(slug: string): Promise<boolean>;
  setComponentListMember(listId: number, componentId: number, member: boolean): Promise<boolean>;
  /** Instance-wide counts. */
  metrics(): Promise<MetricsRow>;

  // ---- commits ----
  /** The user a commit is attributed to. */
  findAuthor(userId: number): Promise<Author | undefined>;
  /**
   * After a commit: clears `pending` on written units not edited meanwhile, stores revisions, records changes,
   * moves `synced_commit` from `parent` to `head` when it was in step.
   */
  recordCommit(
    componentId: number,
    written: readonly WrittenUnit[],
    translations: readonly CommittedTranslation[],
    heads: { parent: string | null; head: string | null },
  ): Promise<{ changeIds: number[]; cleared: number }>;
  /** Undoes `recordCommit` after the commit itself was taken back. */
  undoCommit(
    componentId: number,
    units: readonly RependUnit[],
    revisions: ReadonlyMap<number, string>,
    syncedCommit: string | null,
    changeIds: readonly number[],
  ): Promise<void>;

  // ---- users ----
  /** Creates a user (joined to the new-user teams) with a fresh API token. */
  createUser(input: { username: string; fullName?: string; email?: string; admin?: boolean }): Promise<{ user: UserRow; token: string }>;
  /** Replaces a user's API token; the old one stops working at once. */
  rotateToken(username: string): Promise<string>;
  findUser(username: string): Promise<UserRow | undefined>;
  /** Stops (or restores) a user's token and sign-in; stopping ends their browser sessions; the user and their history stay. */
  setUserActive(username: string, active: boolean): Promise<void>;
  /** Deletes a user: their changes stay without a user, their pending edits stay pending without an author. */
  deleteUser(username: string): Promise<{ pendingEdits: number }>;
  listUsers(): Promise<UserRow[]>;

  // ---- web sign-in ----
  /** Stores a user's password hash and ends their browser sessions (hashing is the caller's: the store never sees a password). */
  setPasswordHash(username: string, hash: string): Promise<void>;
  /** A real user by username with their password hash (null when none is set). */
  findCredentials(username: string): Promise<{ user: AccountRow; passwordHash: string | null } | undefined>;
  /** Opens a browser session (its token is stored hashed); drops expired sessions. */
  createSession(input: { token: string; userId: number; csrf: string; created: string; expires: string }): Promise<void>;
  /** The session of a cookie token, unexpired at `at`, with its user. */
  findSession(token: string, at: string): Promise<SessionRow | undefined>;
  deleteSession(token: string): Promise<void>;

  // ---- the API's reads ----
  /** Everything the API needs to describe objects, read in one go. */
  catalog(): Promise<Catalog>;
  readonly units: UnitReads;
  readonly changes: ChangeReads;
  readonly accounts: AccountReads;
}
