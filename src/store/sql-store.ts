// The store over SQL: SQLite (better-sqlite3) or PostgreSQL (libpq) underneath, both synchronous inside, each Store
// call one transaction where it writes.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../domain/worker.js';
import { languageDataFingerprint, loadLanguages } from '../languages/languages.js';
import { accountQueries } from './accounts.query.js';
import { addParseError, componentAlerts } from './alerts.repo.js';
import { seedAuth } from './auth.repo.js';
import { catalogQueries } from './catalog.query.js';
import { changeQueries } from './changes.query.js';
import { componentChanges, mergeFailure, recordChangeRow } from './changes.repo.js';
import type * as ChecksRepo from './checks.repo.js';
import type * as CommentsRepo from './comments.repo.js';
import * as lists from './component-lists.repo.js';
import { type Db, StoreError, isPostgres, makeStandalone, openDb, sqliteOf } from './db.js';
import type * as EditsRepo from './edits.repo.js';
import {
  type ComponentKey,
  acceptHookDelivery,
  finishRequestedUpdate,
  recordHookDelivery,
  requestedUpdateMark,
  requestedUpdates,
} from './hook-deliveries.repo.js';
import { findLanguageByCode, seedLanguagesOnce } from './languages.repo.js';
import type * as MemoryRepo from './memory.repo.js';
import { metrics } from './metrics.query.js';
import { PgComponentLocks } from './pg/component-locks.js';
import { isPostgresUrl, openPgDb, testSchemaFor } from './pg/open.js';
import type { PgDb } from './pg/pg-db.js';
import type * as ProjectsRepo from './projects.repo.js';
import { hasPendingRemovals, pendingRemovals } from './removals.repo.js';
import * as sessions from './sessions.repo.js';
import { versionOf } from './statements.js';
import { getStats } from './stats.repo.js';
import type { AccountReads, ChangeReads, ComponentLocks, Store, UnitReads } from './store.js';
import type * as SuggestionsRepo from './suggestions.repo.js';
import type * as SyncRepo from './sync.repo.js';
import { componentTranslations, findTranslationByCode, listTranslations } from './translations.repo.js';
import { unitQueries } from './units.query.js';
import type * as UnitsRepo from './units.repo.js';
import * as users from './users.repo.js';

// The repositories behind configuration, units, checks, memory, suggestions, comments and sync: with the quality
// checks (and the ICU message parser) and the memory's similarity they are most of the store's code, which a command
// on users alone (`tms user list`) never runs. Loaded together at the first call that needs them.
let checks: typeof ChecksRepo;
let comments: typeof CommentsRepo;
let edits: typeof EditsRepo;
let memory: typeof MemoryRepo;
let projects: typeof ProjectsRepo;
let suggestions: typeof SuggestionsRepo;
let sync: typeof SyncRepo;
let units: typeof UnitsRepo;
let heavyLoaded = false;
let heavyLoad: Promise<void> | undefined;

/** Loads the repositories above (once). */
export function loadHeavyRepos(): Promise<void> {
  heavyLoad ??= import('./lazy-repos.js').then(
    (repos) => {
      ({ checks, comments, edits, memory, projects, suggestions, sync, units } = repos);
      heavyLoaded = true;
    },
    (e) => {
      heavyLoad = undefined;
      throw e;
    },
  );
  return heavyLoad;
}

type Methods<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never };

/** The same methods, answering through promises (the Store boundary is asynchronous for every engine). */
function promised<T>(sync: Methods<T>): T {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(sync as Record<string, (...args: unknown[]) => unknown>)) {
    out[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method(...args));
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return out as T;
}

/** SQLite's default checkpoint threshold (pages), and the one kept while a checkpoint thread runs. */
const DEFAULT_AUTOCHECKPOINT = 1000;
const SAFETY_AUTOCHECKPOINT = 20_000;

/**
 * The Store over one connection, SQLite's or PostgreSQL's (the repositories' SQL is SQLite's; the PostgreSQL
 * connection rewrites it). `db` is the connection, for the store's own tests and tools only.
 * @example const store = openSqlStore('tms.sqlite');
 */
export class SqlStore implements Store {
  private readonly version: () => string;
  private checkpointer: Worker | null = null;
  // prepared on first use: a command that reads no units, changes or accounts prepares none of their statements
  private unitReads?: UnitReads;
  private changeReads?: ChangeReads;
  private accountReads?: AccountReads;
  /** Set while the repositories loaded on first use load: calls made meanwhile wait for it, in their order. */
  private waiting?: Promise<void>;
  private locks?: ComponentLocks;

  constructor(readonly db: Db) {
    this.version = versionOf(db);
  }

  get units(): UnitReads {
    this.unitReads ??= promised<UnitReads>(unitQueries(this.db));
    return this.unitReads;
  }

  get changes(): ChangeReads {
    this.changeReads ??= promised<ChangeReads>(changeQueries(this.db));
    return this.changeReads;
  }

  get accounts(): AccountReads {
    this.accountReads ??= promised<AccountReads>(accountQueries(this.db));
    return this.accountReads;
  }

  get location(): string {
    return this.db.name;
  }

  /**
   * Runs `work` in one transaction (better-sqlite3 transactions are synchronous: nothing awaits inside). IMMEDIATE:
   * the write lock is taken first, waiting up to busy_timeout for another connection's writer (`tms serve --workers`).
   * A deferred transaction that reads, then writes after another connection committed cannot wait: SQLite refuses it
   * at once ("database is locked").
   */
  private tx<T>(work: (db: Db) => T): Promise<T> {
    if (this.waiting) return this.waiting.then(() => this.tx(work));
    try {
      return Promise.resolve(this.db.transaction(() => work(this.db)).immediate());
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Runs a read (or a single statement) and answers through a promise. */
  private read<T>(work: (db: Db) => T): Promise<T> {
    if (this.waiting) return this.waiting.then(() => this.read(work));
    try {
      return Promise.resolve(work(this.db));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** tx() for work that uses the repositories loaded on first use. */
  private heavyTx<T>(work: (db: Db) => T): Promise<T> {
    this.awaitHeavyRepos();
    return this.tx(work);
  }

  /** read() for work that uses the repositories loaded on first use. */
  private heavyRead<T>(work: (db: Db) => T): Promise<T> {
    this.awaitHeavyRepos();
    return this.read(work);
  }

  /**
   * Starts loading the repositories that load on first use, if not loaded yet. Until they are, every call waits
   * (read() and tx() chain behind `waiting`), so the calls still run in the order they were made, as they do once
   * everything is loaded: each at once, synchronously.
   */
  private awaitHeavyRepos(): void {
    if (heavyLoaded || this.waiting) return;
    const done = () => {
      this.waiting = undefined;
    };
    this.waiting = loadHeavyRepos().then(done, (e) => {
      done();
      throw e;
    });
  }

  /**
   * Moves checkpoints off this connection: a thread of its own copies the write-ahead log into the database every
   * `intervalMs`, and this connection checkpoints only past a high threshold (a safety net), so writes never wait
   * for one. For long-running servers; `close()` stops it.
   */
  checkpointInBackground(intervalMs = 500): void {
    if (this.checkpointer || this.db.name === ':memory:' || !this.db.open || isPostgres(this.db)) return;
    const worker = startWorker(import.meta.url, 'checkpoint-worker', { file: this.db.name, intervalMs });
    worker.unref();
    worker.on('error', () => {
      // without it, SQLite's own checkpoints take over again
      sqliteOf(this.db).pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
      this.checkpointer = null;
    });
    sqliteOf(this.db).pragma(`wal_autocheckpoint = ${SAFETY_AUTOCHECKPOINT}`);
    this.checkpointer = worker;
  }

  async close(): Promise<void> {
    // the calls waiting for the repositories loaded on first use run first, as they would have before close()
    await this.waiting?.catch(() => {});
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    if (checkpointer) {
      // referenced again while it closes its connection, so the process waits for it
      checkpointer.ref();
      const exited = new Promise((resolve) => checkpointer.once('exit', resolve));
      checkpointer.postMessage('stop');
      await exited;
    }
    this.locks?.close();
    this.locks = undefined;
    if (this.db.open) this.db.close();
  }

  componentLocks(): ComponentLocks | undefined {
    if (!isPostgres(this.db)) return undefined;
    this.locks ??= new PgComponentLocks((this.db as PgDb).sibling());
    return this.locks;
  }

  ping() {
    return this.read((db) => {
      db.prepare(isPostgres(db) ? 'SELECT count(*) FROM tms_schema' : 'SELECT count(*) FROM sqlite_master')
        .pluck()
        .get();
    });
  }

  async backup(file: string) {
    if (isPostgres(this.db)) {
      throw new StoreError(`${this.db.name}: a PostgreSQL store is backed up by PostgreSQL's own tools (pg_dump), not tms backup`, { file });
    }
    const { totalPages } = await sqliteOf(this.db).backup(file);
    // SQLite's copy is in WAL mode, as the database is: a backup is one file
    makeStandalone(file);
    return { pages: totalPages };
  }

  recordHookDelivery(delivery: string, received: string, limit: number) {
    return this.tx((db) => recordHookDelivery(db, delivery, received, limit));
  }

  acceptHookDelivery(delivery: string | null, received: string, limit: number, updates: readonly ComponentKey[]) {
    return this.tx((db) => acceptHookDelivery(db, delivery, received, limit, updates));
  }

  requestedUpdates() {
    return this.read((db) => requestedUpdates(db));
  }

  requestedUpdateMark(update: ComponentKey) {
    return this.read((db) => requestedUpdateMark(db, update));
  }

  finishRequestedUpdate(update: ComponentKey, mark: number) {
    return this.tx((db) => finishRequestedUpdate(db, update, mark));
  }

  /**
   * SQLite: read on every call (no round trip). PostgreSQL: the counter is read once per turn of the event loop and
   * shared by the calls of that turn — requests handled in one turn were received before its first read, so the
   * counter is as new as each of them asks — with this connection's own writes (totalChanges) added at every call:
   * one round trip per turn instead of one per cached request.
   */
  dataVersion() {
    return this.read(() => this.version());
  }

  // ---- configuration ----
  applyConfig(...args: Parameters<Store['applyConfig']>) {
    return this.heavyTx((db) => projects.applyConfig(db, ...args));
  }
  findProject(slug: string) {
    return this.heavyRead((db) => projects.findProjectBySlug(db, slug));
  }
  findComponent(projectSlug: string, componentSlug: string) {
    return this.heavyRead((db) => projects.findComponent(db, projectSlug, componentSlug));
  }
  listComponents(projectId?: number) {
    return this.heavyRead((db) => projects.listComponents(db, projectId));
  }
  syncedCommit(componentId: number) {
    return this.heavyRead((db) => projects.syncedCommitOf(db, componentId));
  }
  isComponentLocked(componentId: number) {
    return this.heavyRead((db) => projects.isComponentLocked(db, componentId));
  }
  setComponentLocked(...args: Parameters<Store['setComponentLocked']>) {
    return this.heavyTx((db) => projects.setComponentLocked(db, ...args));
  }
  componentAlerts(componentId: number) {
    return this.read((db) => componentAlerts(db, componentId));
  }
  addParseError(...args: Parameters<Store['addParseError']>) {
    return this.tx((db) => addParseError(db, ...args));
  }

  // ---- sync ----
  listTranslations(componentId: number) {
    return this.read((db) => listTranslations(db, componentId));
  }
  applyScan(...args: Parameters<Store['applyScan']>) {
    return this.heavyTx((db) => sync.applyScan(db, ...args));
  }

  // ---- changes ----
  recordChanges(...args: Parameters<Store['recordChanges']>) {
    return this.tx((db) => args[0].map((c) => recordChangeRow(db, c)));
  }
  recordComponentChanges(...[config, components, change]: Parameters<Store['recordComponentChanges']>) {
    return this.heavyTx((db) => {
      if (components.some((c) => !projects.findComponent(db, c.project, c.component))) projects.applyConfig(db, config);
      return components.map((c) => {
        const row = projects.findComponent(db, c.project, c.component)!;
        return recordChangeRow(db, { ...change, projectId: row.project_id, componentId: row.id });
      });
    });
  }
  componentChanges(componentId: number, limit?: number) {
    return this.read((db) => componentChanges(db, componentId, limit));
  }
  mergeFailure(componentId: number) {
    return this.read((db) => mergeFailure(db, componentId));
  }

  // ---- languages and translations ----
  findLanguage(code: string) {
    return this.read((db) => findLanguageByCode(db, code));
  }
  componentTranslations(componentId: number) {
    return this.read((db) => componentTranslations(db, componentId));
  }
  findTranslationByCode(componentId: number, code: string) {
    return this.read((db) => findTranslationByCode(db, componentId, code));
  }
  translationStats(translationId: number) {
    return this.read((db) => getStats(db, translationId));
  }

  // ---- units and pending edits ----
  findEditableUnit(unitId: number) {
    return this.heavyRead((db) => edits.findEditableUnit(db, unitId));
  }
  saveUnitEdit(...args: Parameters<Store['saveUnitEdit']>) {
    return this.heavyTx((db) => edits.saveUnitEdit(db, ...args));
  }
  setCheckDismissed(...args: Parameters<Store['setCheckDismissed']>) {
    return this.heavyTx((db) => checks.setCheckDismissed(db, ...args));
  }
  unitChecks(unitId: number) {
    return this.heavyRead((db) => checks.unitChecks(db, unitId));
  }
  previewChecks(unitId: number, target: string) {
    return this.heavyRead((db) => checks.previewChecks(db, unitId, target));
  }
  checkCounts(translationId: number) {
    return this.heavyRead((db) => checks.checkCounts(db, translationId));
  }
  saveUploadedTargets(...args: Parameters<Store['saveUploadedTargets']>) {
    return this.heavyTx((db) => edits.saveUploadedTargets(db, ...args));
  }
  pendingUnits(componentId: number) {
    return this.heavyRead((db) => edits.pendingUnits(db, componentId));
  }
  hasPendingUnits(componentId: number) {
    return this.heavyRead((db) => edits.hasPendingUnits(db, componentId));
  }
  pendingAges() {
    return this.heavyRead((db) => edits.pendingAgesOf(db));
  }
  hasPendingInComponents(componentIds: readonly number[]) {
    return this.heavyRead((db) => edits.hasPendingInComponents(db, componentIds));
  }
  findUnitByHash(translationId: number, idHash: bigint) {
    return this.heavyRead((db) => edits.findUnitByHash(db, translationId, idHash));
  }
  lastContentAuthor(unitId: number) {
    return this.heavyRead((db) => edits.lastContentAuthor(db, unitId));
  }
  repend(...args: Parameters<Store['repend']>) {
    return this.heavyTx((db) => edits.repend(db, ...args));
  }
  markAllPending(componentId: number) {
    return this.heavyTx((db) => edits.markAllPending(db, componentId));
  }
  translationUnits(translationId: number) {
    return this.heavyRead((db) => units.translationUnits(db, translationId));
  }
  findUnitBrief(unitId: number) {
    return this.heavyRead((db) => units.findUnitBrief(db, unitId));
  }
  componentUnitsByHash(componentId: number, idHash: bigint) {
    return this.heavyRead((db) => units.componentUnitsByHash(db, componentId, idHash));
  }
  hasUnitHash(translationId: number, idHash: bigint) {
    return this.heavyRead((db) => units.hasUnitHash(db, translationId, idHash));
  }
  maxUnitPosition(translationId: number) {
    return this.heavyRead((db) => units.maxUnitPosition(db, translationId));
  }
  insertUnits(...args: Parameters<Store['insertUnits']>) {
    return this.heavyTx((db) => units.insertUnits(db, ...args));
  }
  removeUnits(...args: Parameters<Store['removeUnits']>) {
    return this.heavyTx((db) => units.removeUnits(db, ...args));
  }
  pendingRemovals(componentId: number) {
    return this.read((db) => pendingRemovals(db, componentId));
  }
  hasPendingRemovals(componentId: number) {
    return this.read((db) => hasPendingRemovals(db, componentId));
  }
  clearRemovals(...args: Parameters<Store['clearRemovals']>) {
    return this.heavyTx((db) => units.clearRemovals(db, ...args));
  }
  restoreRemovals(...args: Parameters<Store['restoreRemovals']>) {
    return this.heavyTx((db) => units.restoreRemovals(db, ...args));
  }

  // ---- suggestions and comments ----
  hasSuggestion(unitId: number, target: string) {
    return this.heavyRead((db) => suggestions.hasSuggestion(db, unitId, target));
  }
  addSuggestions(...args: Parameters<Store['addSuggestions']>) {
    return this.heavyTx((db) => suggestions.addSuggestions(db, ...args));
  }
  unitSuggestions(unitId: number) {
    return this.heavyRead((db) => suggestions.unitSuggestions(db, unitId));
  }
  findSuggestion(id: number) {
    return this.heavyRead((db) => suggestions.findSuggestion(db, id));
  }
  deleteSuggestion(...args: Parameters<Store['deleteSuggestion']>) {
    return this.heavyTx((db) => suggestions.deleteSuggestion(db, ...args));
  }
  voteSuggestion(...args: Parameters<Store['voteSuggestion']>) {
    return this.heavyTx((db) => suggestions.voteSuggestion(db, ...args));
  }
  userVote(id: number, userId: number) {
    return this.heavyRead((db) => suggestions.userVote(db, id, userId));
  }
  acceptSuggestion(...args: Parameters<Store['acceptSuggestion']>) {
    return this.heavyTx((db) => suggestions.acceptSuggestion(db, ...args));
  }
  addComment(...args: Parameters<Store['addComment']>) {
    return this.heavyTx((db) => comments.addComment(db, ...args));
  }
  unitComments(unitId: number) {
    return this.heavyRead((db) => comments.unitComments(db, unitId));
  }
  findComment(id: number) {
    return this.heavyRead((db) => comments.findComment(db, id));
  }
  resolveComment(...args: Parameters<Store['resolveComment']>) {
    return this.heavyTx((db) => comments.resolveComment(db, ...args));
  }
  deleteComment(...args: Parameters<Store['deleteComment']>) {
    return this.heavyTx((db) => comments.deleteComment(db, ...args));
  }

  // ---- translation memory ----
  listMemory(...args: Parameters<Store['listMemory']>) {
    return this.heavyRead((db) => memory.listMemory(db, ...args));
  }
  countMemory() {
    return this.heavyRead((db) => memory.countMemory(db));
  }
  findMemory(id: number) {
    return this.heavyRead((db) => memory.findMemory(db, id));
  }
  deleteMemory(id: number) {
    return this.heavyTx((db) => memory.deleteMemory(db, id));
  }
  importMemory(...args: Parameters<Store['importMemory']>) {
    return this.heavyTx((db) => memory.importMemory(db, ...args));
  }
  exportMemory(...args: Parameters<Store['exportMemory']>) {
    return this.heavyRead((db) => memory.exportMemory(db, ...args));
  }
  lookupMemory(...args: Parameters<Store['lookupMemory']>) {
    return this.heavyRead((db) => memory.lookupMemory(db, ...args));
  }

  // ---- component lists and metrics ----
  componentLists() {
    return this.read((db) => lists.componentLists(db));
  }
  findComponentList(slug: string) {
    return this.read((db) => lists.findComponentList(db, slug));
  }
  createComponentList(...args: Parameters<Store['createComponentList']>) {
    return this.tx((db) => lists.createComponentList(db, ...args));
  }
  deleteComponentList(slug: string) {
    return this.tx((db) => lists.deleteComponentList(db, slug));
  }
  setComponentListMember(...args: Parameters<Store['setComponentListMember']>) {
    return this.tx((db) => lists.setComponentListMember(db, ...args));
  }
  metrics() {
    return this.read((db) => metrics(db));
  }

  // ---- commits ----
  findAuthor(userId: number) {
    return this.read((db) => users.findAuthor(db, userId));
  }
  recordCommit(...args: Parameters<Store['recordCommit']>) {
    return this.heavyTx((db) => edits.recordCommit(db, ...args));
  }
  undoCommit(...args: Parameters<Store['undoCommit']>) {
    return this.heavyTx((db) => edits.undoCommit(db, ...args));
  }

  // ---- users ----
  createUser(...args: Parameters<Store['createUser']>) {
    return this.tx((db) => users.createUser(db, ...args));
  }
  rotateToken(username: string) {
    return this.tx((db) => users.rotateToken(db, username));
  }
  findUser(username: string) {
    return this.read((db) => users.findUserByUsername(db, username));
  }
  setUserActive(username: string, active: boolean) {
    return this.tx((db) => {
      users.setUserActive(db, username, active);
      // a disabled account's browsers are signed out for good: enabling it again does not bring their sessions back
      if (!active) sessions.endUserSessions(db, username);
    });
  }
  deleteUser(username: string) {
    return this.tx((db) => users.deleteUser(db, username));
  }
  listUsers() {
    return this.read((db) => users.listUsers(db));
  }

  // ---- web sign-in ----
  setPasswordHash(username: string, hash: string) {
    return this.tx((db) => sessions.setPasswordHash(db, username, hash));
  }
  findCredentials(username: string) {
    return this.read((db) => sessions.findCredentials(db, username));
  }
  createSession(...args: Parameters<Store['createSession']>) {
    return this.tx((db) => sessions.createSession(db, ...args));
  }
  findSession(token: string, at: string) {
    return this.read((db) => sessions.findSession(db, token, at));
  }
  deleteSession(token: string) {
    return this.tx((db) => sessions.deleteSession(db, token));
  }

  // ---- the API's reads ----
  catalog() {
    return this.read((db) => catalogQueries(db).load());
  }
}

/**
 * Opens (creating and migrating if needed) the store — a PostgreSQL URL or a SQLite file — and seeds what a fresh
 * database needs (languages, roles, teams, the anonymous user); safe on every start. Languages are seeded again only
 * when the bundled language data changed. With `TMS_TEST_POSTGRES` set (test runs), a file name stands for a schema
 * of that PostgreSQL database.
 */
export function openSqlStore(database: string): SqlStore {
  const testPostgres = process.env.TMS_TEST_POSTGRES;
  const db: Db = isPostgresUrl(database)
    ? openPgDb(database)
    : testPostgres && database !== ':memory:'
      ? openPgDb(testPostgres, { schema: testSchemaFor(database) })
      : openDb(database);
  const store = new SqlStore(db);
  db.transaction(() => {
    // reading the language CSVs costs tens of milliseconds: only when the bundled data changed since the last seed
    seedLanguagesOnce(db, languageDataFingerprint(), () => loadLanguages().values());
    seedAuth(db);
  }).immediate();
  return store;
}
