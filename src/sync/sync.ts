// Syncing components: working copy up to date, changed files parsed, the store updated in one transaction.
// What a no-change sync does not need (isomorphic-git, the file scan and the formats) is imported when first needed:
// loading it took longer than the no-change sync's own work.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { KnownStrings } from '../checks/known-strings.js';
import { type ComponentTarget, sharersOf } from '../component/resolve.js';
import { State } from '../domain/unit.js';
import { componentAlerts } from '../store/alerts.repo.js';
import type { Tx } from '../store/db.js';
import { setSyncedCommit, setSyncedCommits, syncedCommitOf } from '../store/projects.repo.js';
import { type SyncPoint, readSyncPoints } from '../store/sync-points.repo.js';
import { type TranslationRow, listTranslations } from '../store/translations.repo.js';
import { upToDateHead } from '../vcs/quick-check.js';
import type { ParseJob } from './parse-job.js';
import type { ParsePool } from './parse-pool.js';
import type { ApplyResult, EarlyChecks, FileResult, ScanInput } from './plan.js';
import type { ParseOutcome, ScanPlan } from './scan.js';
import type { WorkingCopyState } from './working-copy.js';

export interface ComponentSyncResult {
  project: string;
  component: string;
  ok: boolean;
  /** One line, credential-free, when the component could not be synced. */
  error?: string;
  /** What the working-copy update did. */
  update?: string;
  commit: string | null;
  files: FileResult[];
  skipped: { path: string; reason: string }[];
  /** Files read and parsed this time. */
  parsed: number;
  /**
   * Whether the working copy's files were listed and compared with the store; false when nothing the component reads
   * changed (same commit, or commits that touch only other components' files of a shared repository).
   */
  scanned: boolean;
  added: number;
  changed: number;
  removed: number;
  pendingKept: ApplyResult['pendingKept'];
  pendingDropped: ApplyResult['pendingDropped'];
  /** What needs a look without failing the sync (a file mask that matches no file). */
  warnings: string[];
  seconds: number;
}

export type SyncEvent =
  | { type: 'component-start'; project: string; component: string }
  | { type: 'stage'; project: string; component: string; stage: 'update' | 'scan' | 'parse' | 'store' }
  | { type: 'file'; project: string; component: string; path: string; done: number; total: number }
  | { type: 'component-done'; result: ComponentSyncResult }
  /** How many components this sync brings up to date (before the first starts): progress counts them done / to do. */
  | { type: 'components'; total: number };

export interface SyncOptions {
  /** Parse every file even when nothing changed upstream. */
  force?: boolean;
  onEvent?: (event: SyncEvent) => void;
  /** isomorphic-git object cache to share across calls. */
  cache?: object;
  /**
   * Read what is checked out without asking the remote: the re-scan after a repository operation that has just
   * fetched and integrated upstream (or had no reason to).
   */
  offline?: boolean;
  /**
   * The working copy as another component sharing it (a `weblate://` link) has just brought it up to date in this
   * run: read, not fetched again.
   */
  updated?: WorkingCopyState;
  /**
   * Threads a sync of many components uses: 1 parses on the calling thread, one component after the other; more
   * parse components' files on worker threads (`threads - 1`, memory permitting) while this thread writes the store.
   */
  threads?: number;
  /** The parse workers of the sync this one is part of (several components synced at once). */
  pool?: ParsePool;
  /**
   * A pool whose worker may take a share of this component's files when they are many (its `shares`): a component
   * nothing else overlaps with (the first of a sync, or each of a sync without a pool).
   */
  share?: ParsePool;
  /**
   * Whether the machine has a core to spare for sharing a large component's files with a worker (default: by the load
   * average, `coreToSpare`); threads asked for (`--threads`, `sync_threads`) are used whatever the load.
   */
  spareCore?: () => boolean;
  /** What this component's store write waits for: the previous component's sync (results are written in order). */
  after?: Promise<unknown>;
  /**
   * The sync points of the components synced together (by component id), read at once under their repository's mutex
   * before any of them was synced: each component's own is what it compares, instead of a read of its own.
   */
  points?: ReadonlyMap<number, SyncPoint>;
  /** `syncSharers`: the components sharing the working copy, when the caller has resolved them already. */
  sharers?: readonly ComponentTarget[];
  /**
   * What a run of syncs keeps of its projects' strings across its components' transactions (checks/known-strings.ts):
   * each component's store write goes through it. The run that makes it drops it when done.
   */
  known?: KnownStrings;
}

export function emptyResult(project: string, component: string): ComponentSyncResult {
  return {
    project,
    component,
    ok: true,
    commit: null,
    files: [],
    skipped: [],
    parsed: 0,
    scanned: false,
    added: 0,
    changed: 0,
    removed: 0,
    pendingKept: [],
    pendingDropped: [],
    warnings: [],
    seconds: 0,
  };
}

function message(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0]!;
}

function noMatches(filemask: string): string {
  return `file mask "${filemask}" matches no file`;
}

/** Marks the result failed while any file of the component does not parse (a broken file keeps failing every sync). */
function failures(result: ComponentSyncResult): ComponentSyncResult {
  const failed = result.files.filter((f) => f.status === 'failed');
  result.ok = failed.length === 0;
  if (!result.ok) result.error = failed.map((f) => f.error).join('; ');
  return result;
}

/**
 * After the working copy `h` shares with other components (weblate:// links) moved under `h` (its own commit, a pull,
 * a reset), each of the others reads what it holds now, from the working copy as it is: one whose files did not change
 * only moves its store to the new commit, one whose files did is re-read. Call holding the repository's mutex.
 * @example await syncSharers(h) // after a new language's commit on h
 */
export async function syncSharers(h: ComponentTarget, opts: SyncOptions = {}): Promise<{ target: ComponentTarget; result: ComponentSyncResult }[]> {
  const targets = opts.sharers ?? (await sharersOf(h));
  if (targets.length === 0) return [];
  const cache = opts.cache ?? h.cache;
  // read once for all of them: the working copy's HEAD (a ref read each cost as much as the rest of an untouched
  // component's sync), their sync points (one read), and those the commits did not touch moved on in one write
  const state = await checkedOut(h, cache);
  const read = await h.store.read((tx) =>
    readSyncPoints(
      tx,
      targets.map((t) => t.row.id),
    ),
  );
  const points = await moveUntouched(targets, state, read, cache, opts.force);
  const out: { target: ComponentTarget; result: ComponentSyncResult }[] = [];
  for (const target of targets) out.push({ target, result: await syncLocked(target, { ...opts, sharers: undefined, cache, updated: state, points }) });
  return out;
}

/**
 * Moves to the working copy's new commit, in one write, the store of each of these components (sharing `state`'s
 * working copy) whose files the commits since its synced commit did not touch: what each one's sync would write alone,
 * a transaction each. Returns the sync points with those components at the new commit, where their syncs find nothing
 * to read. A component with the msgmerge add-on or without a sync point is left to its own sync.
 * @example points = await moveUntouched(linked, state, points, cache)
 */
export async function moveUntouched(
  targets: readonly ComponentTarget[],
  state: WorkingCopyState,
  points: ReadonlyMap<number, SyncPoint>,
  cache: object,
  force?: boolean,
): Promise<ReadonlyMap<number, SyncPoint>> {
  const head = state.head;
  if (force || head === null) return points;
  const moved: number[] = [];
  for (const h of targets) {
    const point = points.get(h.row.id);
    // (msgmerge may commit before the component is read: its own sync decides)
    if (!point || h.component.addons.some((a) => a.name === 'weblate.gettext.msgmerge')) continue;
    if (await untouchedSince(h, point.translations, point.syncedCommit, head, async () => point.alerts, cache)) moved.push(h.row.id);
  }
  if (moved.length === 0) return points;
  await targets[0]!.store.write((tx) => setSyncedCommits(tx, moved, head));
  const out = new Map(points);
  for (const id of moved) out.set(id, { ...points.get(id)!, syncedCommit: head });
  return out;
}

/**
 * Whether the store of `h`, read at `synced`, only has to move to `head`: the commits between touch none of its files
 * (another component's files in a shared repository), no file's revision was forgotten, and no file failed to parse
 * (one may have failed in a working copy the store never read as a whole, a pull that stopped on it: it is read again).
 */
async function untouchedSince(
  h: ComponentTarget,
  translations: readonly TranslationRow[],
  synced: string | null,
  head: string,
  alerts: () => Promise<string[]>,
  cache: object,
): Promise<boolean> {
  if (!h.git || synced === null || head === synced || translations.length === 0) return false;
  if (translations.some((t) => (t.filename !== '' && t.revision === '') || t.parse_error !== null)) return false;
  if ((await alerts()).includes('ParseError')) return false;
  return touchesComponent(h, synced, head, cache).then((touches) => !touches);
}

/**
 * `syncComponent` for a caller that already holds the component's mutex (repository operations re-sync
 * inside their own, so no other operation slips in between).
 */
export async function syncLocked(h: ComponentTarget, opts: SyncOptions = {}): Promise<ComponentSyncResult> {
  const { store, project, component, dir } = h;
  const started = performance.now();
  const result = emptyResult(project.slug, component.slug);
  const emit = (stage: 'update' | 'scan' | 'parse' | 'store') => opts.onEvent?.({ type: 'stage', project: project.slug, component: component.slug, stage });
  opts.onEvent?.({ type: 'component-start', project: project.slug, component: component.slug });
  const cache = opts.cache ?? h.cache;
  try {
    emit('update');
    const state = opts.updated ?? (opts.offline ? await checkedOut(h, cache) : ((await upToDate(h)) ?? (await updateWorkingCopy(h, cache))));
    result.update = state.update;
    result.commit = state.head;
    const point = opts.points?.get(h.row.id);
    const read = point
      ? ([point.translations, point.syncedCommit] as const)
      : await store.read(async (tx) => [await listTranslations(tx, h.row.id), await syncedCommitOf(tx, h.row.id)] as const);
    const translations = read[0];
    let synced = read[1];
    const alerts = async () => point?.alerts ?? (await store.read((tx) => componentAlerts(tx, h.row.id))).map((a) => a.name);
    if (state.head !== null && state.head !== synced && h.component.addons.length > 0) {
      // the working copy moved past what the store read (a clone, a fetch, a pull): Weblate runs its post-update
      // add-on then, PO files merged with a changed POT, committed (and pushed) before they are read
      const { runMsgmerge } = await import('./msgmerge.js');
      const merged = await runMsgmerge(h, synced, state.head, cache);
      for (const e of merged?.errors ?? []) result.warnings.push(e);
      if (merged?.commit) result.commit = state.head = merged.commit;
    }
    // a file whose revision the store forgot (a migration that needs it read again) is read even at the same commit
    const forgotten = translations.some((t) => t.filename !== '' && t.revision === '');
    if (!opts.force && state.head !== null && (await untouchedSince(h, translations, synced, state.head, alerts, cache))) {
      // the commits since the store's read touch none of the component's files: the store moves to the new commit
      // without a scan
      const head = state.head;
      await store.write((tx) => setSyncedCommit(tx, h.row.id, head));
      synced = head;
    }
    if (!opts.force && !forgotten && state.head !== null && state.head === synced && translations.length > 0) {
      // Nothing to read; files that did not parse last time are still broken (their blob did not change).
      result.files = translations
        .filter((t) => t.filename !== '')
        .map((t) => ({
          path: t.filename,
          language: t.language_code,
          status: t.parse_error === null ? 'unchanged' : 'failed',
          added: 0,
          changed: 0,
          removed: 0,
          ...(t.parse_error === null ? {} : { error: t.parse_error }),
        }));
      if ((await alerts()).includes('NoMaskMatches')) result.warnings.push(noMatches(component.filemask));
      return failures(result);
    }
    emit('scan');
    result.scanned = true;
    const [{ expandFileMask, parseChanged, planFiles }, { blobIdsOf, verifiedBytes }, { parseShared }] = await Promise.all([
      import('./scan.js'),
      import('./working-copy.js'),
      import('./share.js'),
    ]);
    const { paths, refused } = await expandFileMask(dir, component.filemask);
    if (paths.length === 0 && refused.length === 0) result.warnings.push(noMatches(component.filemask));
    // A file that cannot be taken is refused alone; the rest of the component loads.
    for (const r of refused) result.warnings.push(`${r.path} refused: ${r.reason}`);
    const extra = [component.template, component.intermediate].filter((p) => p && !paths.includes(p));
    const revisions = await blobIdsOf(state, [...paths, ...extra], cache);
    const plan = planFiles(paths.concat(extra.filter((p) => p === component.template)), component, project, revisions);
    result.skipped = [...refused, ...plan.skipped];
    const known = new Map(translations.map((t) => [t.filename, opts.force ? '' : t.revision]));
    emit('parse');
    let restored = 0;
    const parseHere = (p: ScanPlan, own: ReadonlyMap<string, string>, progress?: (file: string) => void) =>
      parseChanged(
        dir,
        p,
        component,
        own,
        (file, done, total) =>
          progress ? progress(file) : opts.onEvent?.({ type: 'file', project: project.slug, component: component.slug, path: file, done, total }),
        h.config.max_file_bytes,
        async (file, bytes) => {
          const verified = await verifiedBytes(state, file, bytes, revisions.get(file), cache);
          if (verified !== bytes) restored++;
          return verified;
        },
      );
    const changed = plan.files.filter((f) => known.get(f.path) !== f.revision);
    const share = !opts.pool && opts.share && changed.length >= 2 && opts.share.shares(await weight(dir, changed)) ? opts.share : undefined;
    const pool = opts.pool && changed.length > 0 ? opts.pool : share;
    // a worker runs the units' own checks beside their parse, from the settings the store holds now
    const early = pool ? await earlyChecksOf(h, plan) : undefined;
    const job = (p: ScanPlan, own: ReadonlyMap<string, string>): Omit<ParseJob, 'id'> => ({
      dir,
      plan: p,
      component: { file_format: component.file_format, source_language: component.source_language },
      known: [...own],
      maxBytes: h.config.max_file_bytes,
      ...(state.head === null ? {} : { revisions: Object.fromEntries(revisions) }),
      ...(early ? { checks: early } : {}),
    });
    let outcomes: Map<string, ParseOutcome>;
    if (share) {
      // one large component: its files shared between this thread and a worker, each taking the next when done
      let done = 0;
      const total = changed.filter((f) => !f.isTemplate).length;
      const progress = (file: string) => opts.onEvent?.({ type: 'file', project: project.slug, component: component.slug, path: file, done: ++done, total });
      const here = (p: ScanPlan, own: Map<string, string>) => parseHere(p, own, progress);
      outcomes = await parseShared(
        plan,
        known,
        here,
        async (p, own, files) => {
          const got = await share.parse(job(p, own), () => here(p, own), true);
          for (const f of files) if (!f.isTemplate && got.has(f.path)) progress(f.path);
          return got;
        },
        share.ready(),
      );
    } else if (pool) {
      // on a parse worker when this sync has them (and a file changed): the same function, there
      outcomes = await pool.parse(job(plan, known), () => parseHere(plan, known));
    } else outcomes = await parseHere(plan, known);
    // A file found damaged means a checkout was cut short: the files not read this time get the same check.
    if (restored > 0) {
      for (const f of plan.files) {
        if (outcomes.get(f.path)?.status !== 'unchanged') continue;
        const bytes = await readFile(path.join(dir, f.path)).catch(() => new Uint8Array());
        await verifiedBytes(state, f.path, bytes, revisions.get(f.path), cache);
      }
    }
    result.parsed = [...outcomes.values()].filter((o) => o.status !== 'unchanged').length;
    // A file's approval (XLIFF approved="yes") counts only where the project reviews: Weblate's get_unit_state.
    for (const f of plan.files) {
      const outcome = outcomes.get(f.path);
      if (outcome?.status !== 'parsed' || (f.isTemplate ? project.source_review : project.translation_review)) continue;
      for (const u of outcome.store.units) if (u.state === State.APPROVED) u.state = State.TRANSLATED;
    }
    // strings a format left out (a duplicate identity: the first one is kept, as in Weblate)
    for (const [file, o] of outcomes) {
      if (o.status === 'parsed') for (const s of o.store.skipped ?? []) result.warnings.push(`${file}:${s.line}: skipped: ${s.reason}`);
    }
    // several components synced at once: each writes after the one before it, as one after the other would
    await opts.after;
    emit('store');
    // the plan brings the checks and the formats' plural names: a no-change sync loads neither
    const [
      { languageCodes, planSync, templateToRead, translationsToRead },
      { FIRST_LOAD_TABLES, applySyncPlan, readStoredUnits, readSyncState },
      checks,
      { refreshStats },
      { getFormat },
    ] = await Promise.all([
      import('./plan.js'),
      import('../store/sync.repo.js'),
      import('../checks/refresh.js'),
      import('../store/stats.repo.js'),
      import('../formats/registry.js'),
    ]);
    const format = getFormat(component.file_format);
    const fileApproval = format.approval === true;
    const scan: ScanInput = {
      projectId: h.row.project_id,
      componentId: h.row.id,
      component,
      keepApproval: { source: project.source_review && !fileApproval, translations: project.translation_review && !fileApproval },
      keepFuzzy: format.fuzzy !== true,
      plan,
      outcomes,
      head: state.head,
      maskMatches: paths.length,
      filemask: component.filemask,
    };
    // what the plan starts from is read in the same transaction as it is written: a user's edit that lands between
    // a read and the write would otherwise be planned over (a pending edit is never overwritten by a sync)
    let firstLoad = false;
    const write = <T>(fn: (tx: Tx) => Promise<T>) => (opts.known ? opts.known.write(store, fn) : store.write(fn));
    const applied = await write(async (tx) => {
      const stored = await readSyncState(tx, h.row.id, languageCodes(scan));
      const units = await readStoredUnits(tx, translationsToRead(scan, stored), templateToRead(scan, stored));
      const { plan: syncPlan, result: planned } = planSync(scan, stored, units, new Date().toISOString());
      const written = await applySyncPlan(tx, syncPlan);
      const ids = written.ids;
      firstLoad = written.firstLoad;
      // inconsistent looks across the project's components (the strings this sync touched, and after a removal every
      // string flagged now), the source checks across languages; the statistics follow, then the strings whose
      // inconsistent changed elsewhere
      let inconsistent: Map<number, number> | undefined;
      if (syncPlan.checksAcross) {
        const touched = new Set(syncPlan.checksAcross.translations.map((i) => ids[i]!));
        inconsistent = await checks.refreshInconsistentOfComponent(tx, h.row.id, touched, syncPlan.checksAcross.swept, touched, opts.known);
        await checks.refreshSourceChecks(tx, h.row.id);
      }
      await refreshStats(tx, new Set(syncPlan.stats.map((i) => ids[i]!)));
      if (inconsistent) await checks.settleInconsistent(tx, inconsistent);
      return planned;
    });
    // a first load, committed: statistics and visibility for the tables it filled before anyone pages through them
    if (firstLoad) await store.settleLoad(FIRST_LOAD_TABLES);
    Object.assign(result, {
      files: applied.files,
      added: applied.added,
      changed: applied.changed,
      removed: applied.removed,
      pendingKept: applied.pendingKept,
      pendingDropped: applied.pendingDropped,
    });
    failures(result);
  } catch (e) {
    result.ok = false;
    result.error = message(e);
  } finally {
    result.seconds = (performance.now() - started) / 1000;
    // done only after the component before it, whichever way this one ended (the next one's write waits for it)
    await opts.after;
    opts.onEvent?.({ type: 'component-done', result });
  }
  return result;
}

/** The bytes of these files in the working copy (a file that cannot be read: none). */
async function weight(dir: string, files: readonly { path: string }[]): Promise<number> {
  const sizes = await Promise.all(
    files.map((f) =>
      stat(path.join(dir, f.path)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/** What a parse worker needs to run the units' own checks: the component's checking settings and its languages' plurals as stored. */
async function earlyChecksOf(h: ComponentTarget, plan: ScanPlan): Promise<EarlyChecks | undefined> {
  const { readSyncState } = await import('../store/sync.repo.js');
  const codes = [plan.sourceLanguage.code, ...plan.files.map((f) => f.language.code)];
  const state = await h.store.read((tx) => readSyncState(tx, h.row.id, codes));
  if (!state.checking) return undefined;
  const languages: EarlyChecks['languages'] = {};
  for (const [code, l] of state.languages) languages[code] = { plural_number: l.plural_number, plural_formula: l.plural_formula };
  return {
    facts: { ...state.checking },
    languages,
    review: { source: h.project.source_review, translations: h.project.translation_review },
    editTemplate: h.component.edit_template,
  };
}

/** Patterns a file mask may hold that `maskRegex` does not read as fast-glob does (a `**`, a class, a brace list). */
const GLOB_SPECIALS = /\*\*|[?[\]{}!()+@]/;

/** Changed paths by object cache and commits: components sharing a working copy (and its cache) diff it once. */
const diffs = new WeakMap<object, Map<string, Promise<string[] | null>>>();

function changedPathsOnce(
  changedPaths: (opts: { dir: string; cache: object }, from: string, to: string) => Promise<string[] | null>,
  dir: string,
  from: string,
  to: string,
  cache: object,
): Promise<string[] | null> {
  let byCommits = diffs.get(cache);
  if (!byCommits) diffs.set(cache, (byCommits = new Map()));
  const key = `${dir}\0${from}\0${to}`;
  let found = byCommits.get(key);
  if (!found) {
    found = changedPaths({ dir, cache }, from, to);
    byCommits.set(key, found);
  }
  return found;
}

/**
 * Whether the commits from `from` to `to` change any file of the component (a mask match, the template, the
 * intermediate file, the base of new translations); true when that cannot be told (a commit missing, a mask whose
 * glob syntax goes beyond `*`).
 */
async function touchesComponent(h: ComponentTarget, from: string, to: string, cache: object): Promise<boolean> {
  const { filemask, template, intermediate, new_base } = h.component;
  if (GLOB_SPECIALS.test(filemask)) return true;
  const [vcs, { maskRegex }] = await Promise.all([import('../vcs/index.js'), import('./filemask.js')]);
  const changed = await changedPathsOnce(vcs.changedPaths, h.dir, from, to, cache);
  if (changed === null) return true;
  const mask = maskRegex(filemask);
  const own = new Set([template, intermediate, new_base].filter((f) => f !== ''));
  return changed.some((p) => mask.test(p) || own.has(p));
}

/**
 * The working copy when one ref advertisement shows upstream's branch where the working copy already is (what
 * updateWorkingCopy answers `up-to-date` without fetching), read without loading isomorphic-git; undefined when that
 * is not so, or not sure.
 */
async function upToDate(h: ComponentTarget): Promise<WorkingCopyState | undefined> {
  if (!h.git) return undefined;
  const head = await upToDateHead(h.dir, h.component.repoResolved, h.auth, h.remoteTimeoutMs);
  return head === undefined ? undefined : { dir: h.dir, head, update: 'up-to-date' };
}

async function updateWorkingCopy(h: ComponentTarget, cache: object): Promise<WorkingCopyState> {
  const { updateWorkingCopy } = await import('./working-copy.js');
  return updateWorkingCopy(h.component, h.dir, cache, h.remoteTimeoutMs);
}

/** The working copy as it is: its HEAD, nothing fetched or moved. */
async function checkedOut(h: ComponentTarget, cache: object): Promise<WorkingCopyState> {
  if (!h.git) return { dir: h.dir, head: null, update: 'local' };
  const vcs = await import('../vcs/index.js');
  return { dir: h.dir, head: await vcs.headOid({ dir: h.dir, cache }), update: 'up-to-date' };
}
