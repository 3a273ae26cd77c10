// Bringing upstream in under the component's mutex: rebase with a unit-aware file merge (or merge), conflicts kept as pending edits.
import { type Actor, type ComponentHandle, errorLine, openSharers } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { type UnitState, joinPlural } from '../domain/unit.js';
import type { FormatContext, ParsedFile } from '../formats/format.js';
import { componentAlerts, setAlert } from '../store/alerts.repo.js';
import { mergeFailure, recordChanges } from '../store/changes.repo.js';
import { findUnitByHash, lastContentAuthor, repend, undoCommit } from '../store/edits.repo.js';
import { type ChangeInput, type RependUnit, type TranslationInfo, now } from '../store/index.js';
import { componentTranslations, componentTranslationsOf } from '../store/translations.repo.js';
import { restoreRemovals } from '../store/units.repo.js';
import * as vcs from '../vcs/index.js';
import type { CommitUndo } from './commit.js';
import { gitWork } from './git-work.js';
import { baseValues, renderTemplate } from './message.js';
import { type FileConflict, type MergerSpec, createUnitMerger } from './unit-merger.js';

/** A local edit that met an upstream change of the same string: upstream's text is in the file, the local one pending. */
export interface ConflictReport {
  path: string;
  language: string;
  context: string;
  local: string[];
  /** Upstream's text; null when upstream removed the string (then the local text could not be kept). */
  upstream: string[] | null;
  /** Whether the local text is pending in the store again. */
  kept: boolean;
}

export interface IntegrateOutcome {
  ok: boolean;
  update: vcs.UpdateResult['result'];
  previousHead: string | null;
  head: string | null;
  conflicts: ConflictReport[];
  /** One line, credential-free, when `ok` is false. */
  error?: string;
  /** When `ok` is false: whether the commits listed in `undo` were taken back (their edits pending again). */
  takenBack?: boolean;
}

/** The change a successful or failed update records for the component's merge style. */
function actions(h: ComponentHandle): { done: number; failed: number } {
  return h.component.merge_style === 'rebase' ? { done: Action.REBASE, failed: Action.FAILED_REBASE } : { done: Action.MERGE, failed: Action.FAILED_MERGE };
}

/** Records a failed update (22 or 23) with its error as the change's target, which `merge_failure` shows. */
export async function recordUpdateFailure(h: ComponentHandle, error: string, user?: Actor): Promise<void> {
  await h.store.write((tx) =>
    recordChanges(tx, [
      {
        action: actions(h).failed,
        timestamp: now(),
        projectId: h.row.project_id,
        componentId: h.row.id,
        userId: user?.id ?? null,
        target: error,
        details: { error },
      },
    ]),
  );
}

/**
 * Integrates `origin/<branch>` (already fetched) into the local branch per `merge_style`. Rebase replays tms's
 * commits with a unit-aware file merge; units both sides changed keep upstream's text in the file and the local
 * text as a pending edit. On failure nothing of git changes except that the commits listed in `undo` are taken
 * back, their edits pending again, and 22/23 is recorded: the component stays usable and no edit is lost.
 * The caller holds the component's mutex and re-syncs afterwards. `opened`: the components sharing the working copy, when
 * the caller has opened them already.
 */
export async function integrateLocked(h: ComponentHandle, undo: CommitUndo, user?: Actor, opened?: readonly ComponentHandle[]): Promise<IntegrateOutcome> {
  const previousHead = (await vcs.headCommit({ dir: h.dir, cache: h.cache }))?.oid ?? null;
  let update!: vcs.UpdateResult;
  let found: FileConflict[] = [];
  const sharers = opened ?? (await openSharers(h));
  const integrate = async () => {
    // every sharing component's translations in one read (not one each)
    const translations = await h.store.read((tx) =>
      componentTranslationsOf(
        tx,
        [h, ...sharers].map((m) => m.row.id),
      ),
    );
    const specOf = (m: ComponentHandle): MergerSpec => ({
      format: m.format.id,
      template: m.component.template,
      sourceLanguage: m.component.source_language,
      branch: m.branch,
      translations: translations.get(m.row.id) ?? [],
    });
    const spec: MergerSpec = specOf(h);
    if (sharers.length > 0) spec.linked = sharers.map(specOf);
    if (h.component.merge_style === 'rebase') {
      ({ update, conflicts: found } = await gitWork(h, 'rebase', { dir: h.dir, merger: spec, committerEmail: h.config.committer.email }));
    } else {
      const message = renderTemplate(h.component.merge_message, baseValues(h.config, h.project, h.component));
      // unit by unit only where isomorphic-git's merge cannot go: a shallow working copy whose merge base upstream dropped
      const merger = createUnitMerger({ dir: h.dir, cache: h.cache }, spec);
      update = await vcs.merge({
        dir: h.dir,
        cache: h.cache,
        branch: h.branch,
        author: h.config.committer,
        committer: h.config.committer,
        message,
        noFastForward: h.component.merge_style === 'merge_noff',
        mergeFile: merger.mergeFile,
      });
      found = merger.conflicts();
    }
  };
  try {
    try {
      await integrate();
    } catch (e) {
      if (!/local changes would be overwritten/.test((e as Error).message)) throw e;
      // tms keeps no work in the working tree between operations (edits live in the store): tracked files that
      // differ from HEAD are what a process killed during a checkout left behind. Put them back and try again.
      await vcs.resetHard({ dir: h.dir, cache: h.cache, ref: 'HEAD' });
      await integrate();
    }
  } catch (e) {
    let error = errorLine(e, h);
    let takenBack = true;
    try {
      await takeBack(h, undo);
    } catch (undoError) {
      takenBack = false;
      error = `${error}; the commits made before could not be taken back: ${errorLine(undoError, h)}`;
    }
    // The same failure as the last one (a retry, another webhook) is not recorded again.
    if ((await h.store.read((tx) => mergeFailure(tx, h.row.id))) !== error) await recordUpdateFailure(h, error, user);
    await alertBrokenFile(h, e);
    const head = (await vcs.headCommit({ dir: h.dir, cache: h.cache }))?.oid ?? null;
    return { ok: false, update: 'up-to-date', previousHead, head, conflicts: [], error, takenBack };
  }
  // a conflict is kept by the component whose file it is in (components sharing the working copy)
  const conflicts = await keepConflicts(h, found, sharers);
  const timestamp = now();
  const change: ChangeInput = {
    action: actions(h).done,
    timestamp,
    projectId: h.row.project_id,
    componentId: h.row.id,
    userId: user?.id ?? null,
    details: { previous_head: previousHead, new_head: update.head, conflicts: conflicts.length },
  };
  if (update.result !== 'up-to-date') await h.store.write((tx) => recordChanges(tx, [change]));
  return { ok: true, update: update.result, previousHead, head: update.head, conflicts };
}

/**
 * A file upstream broke stops the update (its units cannot be merged; the component stays where it was): listed in
 * the component's ParseError alert, as a sync lists a file it cannot parse, until a sync parses the file again.
 */
async function alertBrokenFile(h: ComponentHandle, e: unknown): Promise<void> {
  // thrown in the git worker thread: a FormatParseError by its code and data, not its class
  const broken = e as { code?: unknown; data?: { filename?: unknown } } | null;
  if (broken?.code !== 'FormatParseError' || typeof broken.data?.filename !== 'string') return;
  const file = { filename: broken.data.filename, error: errorLine(e, h) };
  await h.store.write(async (tx) => {
    // the file's entry replaced when listed; the next sync sets the alert from what it parses, clearing it once the
    // file parses
    const current = (await componentAlerts(tx, h.row.id)).find((a) => a.name === 'ParseError');
    const listed = current ? ((JSON.parse(current.details) as { files?: { filename: string; error: string }[] }).files ?? []) : [];
    await setAlert(tx, h.row.id, 'ParseError', { files: [...listed.filter((f) => f.filename !== file.filename), file] }, now());
  });
}

/** Takes back the commits a failed operation made first, so their edits are pending again and git is as before. */
async function takeBack(h: ComponentHandle, undo: CommitUndo): Promise<void> {
  const parts = [{ componentId: h.row.id, ...undo }, ...(undo.linked ?? [])];
  if (parts.every((p) => p.units.length === 0 && !p.removals?.length)) return;
  const head = (await vcs.headCommit({ dir: h.dir, cache: h.cache }))?.oid ?? null;
  if (undo.head !== null && head !== undo.head) await vcs.resetHard({ dir: h.dir, cache: h.cache, ref: undo.head });
  // the components sharing the working copy whose edits the commits carried are taken back with it
  for (const p of parts) {
    if (p.units.length === 0 && !p.removals?.length) continue;
    await h.store.write((tx) => undoCommit(tx, p.componentId, p.units, p.revisions, p.syncedCommit, p.changeIds));
    await h.store.write((tx) => restoreRemovals(tx, p.removals ?? []));
  }
}

/** Makes each conflicting local edit pending again (unless a newer edit is pending already) and reports it. */
async function keepConflicts(h: ComponentHandle, conflicts: readonly FileConflict[], sharers: readonly ComponentHandle[] = []): Promise<ConflictReport[]> {
  if (conflicts.length === 0) return [];
  const translations = new Map<string, TranslationInfo>();
  for (const m of [...sharers].reverse().concat(h))
    for (const t of await m.store.read((tx) => componentTranslations(tx, m.row.id))) translations.set(t.filename, t);
  const units: RependUnit[] = [];
  const reports: ConflictReport[] = [];
  for (const c of conflicts) {
    const t = translations.get(c.path)!;
    const report: ConflictReport = { path: c.path, language: t.language_code, context: c.context, local: c.local, upstream: c.upstream, kept: false };
    reports.push(report);
    if (c.upstream === null) continue;
    const unit = await h.store.read((tx) => findUnitByHash(tx, t.id, c.idHash));
    if (!unit) continue;
    report.kept = true;
    if (unit.pending) continue;
    const local = joinPlural(c.local);
    // The store holds what tms committed; it knows states the file cannot say (approved), so it wins when the text agrees.
    const keep = unit.target === local ? { target: unit.target, state: unit.state } : { target: local, state: c.localState as UnitState };
    units.push({ id: unit.id, ...keep, authorId: await h.store.read((tx) => lastContentAuthor(tx, unit.id)) });
  }
  await h.store.write((tx) => repend(tx, units));
  return reports;
}
