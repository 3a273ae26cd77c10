// Committing pending edits: files rewritten from HEAD by the format's minimal-diff writer, one commit per author.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Actor, type ComponentHandle, type OperationResult, errorLine, hasWorkingCopy, openSharers } from '../component/handle.js';
import { Action } from '../domain/actions.js';
import { FormatWriteError } from '../domain/errors.js';
import type { FileRevision, FormatContext, ParsedFile } from '../formats/format.js';
import { moPath, poToMo } from '../formats/po/mo.js';
import { recordChanges } from '../store/changes.repo.js';
import { pendingUnits, recordCommit } from '../store/edits.repo.js';
import {
  type ChangeInput,
  type CommittedTranslation,
  type PendingRemoval,
  type PendingUnit,
  type RependUnit,
  type TranslationInfo,
  now,
} from '../store/index.js';
import { componentsWithPendingEdits, syncedCommitOf } from '../store/projects.repo.js';
import { pendingRemovals } from '../store/removals.repo.js';
import { componentTranslations } from '../store/translations.repo.js';
import { clearRemovals } from '../store/units.repo.js';
import { findAuthor } from '../store/users.repo.js';
import { blobId } from '../sync/working-copy.js';
import * as vcs from '../vcs/index.js';
import { gitWork } from './git-work.js';
import { commitValues, renderTemplate } from './message.js';
import { isRemoval, unitWrites } from './pending-write.js';
import { UpstreamMovedError, followUpstream, publishCommits } from './publish.js';

export interface CommitOptions {
  /** Who asked for the commit: recorded as the user of change 17, and the author of edits that have none. */
  user?: Actor;
  /** Commit only these translations' pending edits (Weblate's translation-level `repository/` commit names one). */
  translations?: readonly number[];
  /** The components sharing the working copy (weblate:// links), when the caller has opened them already. */
  sharers?: readonly ComponentHandle[];
}

/** One commit made. */
export interface CommitMade {
  /** The commit id (null for `vcs: local` components, or when the files already held the edits). */
  oid: string | null;
  author: { name: string; email: string };
  files: string[];
  units: number;
}

export interface CommitResult extends OperationResult {
  commits: CommitMade[];
  /** Units written and no longer pending. */
  units: number;
  /** Files that could not be written: nothing of them was committed and their units stay pending. */
  failed: { path: string; language: string; translationId: number; error: string }[];
}

/** What it takes to take the commits of one `commitLocked` call back (a failed pull does). */
export interface CommitUndo {
  /** HEAD before the first commit (null: nothing was committed or no history yet). */
  head: string | null;
  units: RependUnit[];
  revisions: Map<number, string>;
  syncedCommit: string | null;
  changeIds: number[];
  /** Removals the commits wrote (stored again when the commits are taken back). */
  removals?: PendingRemoval[];
  /** The same for each other component whose edits the commits carried (components sharing the working copy). */
  linked?: (Omit<CommitUndo, 'head' | 'linked'> & { componentId: number })[];
}

interface FileWrite {
  translation: TranslationInfo;
  units: PendingUnit[];
  before: Uint8Array;
  after: Uint8Array;
}

/**
 * Writes every pending edit of the component into its file and commits (call holding the component's mutex): the
 * file is read at HEAD, the edits applied by the format's minimal-diff writer, and one commit made per author
 * (all made in one go, the working tree written once; author = the editor, committer = the configured committer, message = the component's `commit_message`). Then
 * `pending` is cleared and the translations' revisions moved to the new blobs so the next sync does not parse
 * tms's own write; change 17 is recorded per translation. Nothing pending: no commit. A file the writer refuses
 * keeps its units pending and is listed in `failed` (change 70 records why). `undo` takes the commits back.
 * With several nodes (`h.nodes`) the commits are pushed before the store records them; when upstream moved on, the
 * working copy follows it and the commit is made again on top (three attempts); a failed push keeps every edit pending.
 */
export async function commitLocked(h: ComponentHandle, opts: CommitOptions = {}): Promise<{ result: CommitResult; undo: CommitUndo }> {
  if (!h.nodes || !h.git) return commitOnce(h, opts);
  // Several nodes: commits are pushed before they are recorded; when upstream moved on, follow it and commit again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await commitOnce(h, opts);
    } catch (e) {
      if (!(e instanceof UpstreamMovedError)) throw e;
      if (attempt === PUBLISH_ATTEMPTS) {
        const detail = `Could not push: upstream kept moving (${PUBLISH_ATTEMPTS} attempts); every edit stays pending.`;
        return {
          result: { result: false, commits: [], units: 0, failed: [], detail },
          undo: emptyUndo(await h.store.read((tx) => syncedCommitOf(tx, h.row.id))),
        };
      }
      await followUpstream(h);
    }
  }
}

/** How many times a commit is made again on top of upstream when upstream moved on before its push (several nodes). */
const PUBLISH_ATTEMPTS = 3;

function emptyUndo(syncedCommit: string | null): CommitUndo {
  return { head: null, units: [], revisions: new Map(), syncedCommit, changeIds: [], removals: [] };
}

/** One component's share of a commit: the files it writes. */
interface Part {
  m: ComponentHandle;
  writes: FileWrite[];
}

/** What one component of a shared working copy brings to a commit: its pending edits and what they are written from. */
interface Member {
  m: ComponentHandle;
  pending: PendingUnit[];
  translations: Map<number, TranslationInfo>;
  heads: Map<string, Uint8Array | null>;
  contents: Map<number, Uint8Array>;
  template: { store?: ParsedFile | null };
  undo: CommitUndo;
}

/**
 * The components whose pending edits a commit of `h` writes: `h`, and when it shares its working copy with others
 * (weblate:// links), theirs too, as Weblate commits linked components together. A translation-level commit
 * (`opts.translations`) writes only those translations.
 */
async function committing(h: ComponentHandle, opts: CommitOptions): Promise<ComponentHandle[]> {
  return opts.translations === undefined ? [h, ...(opts.sharers ?? (await openSharers(h)))] : [h];
}

async function commitOnce(h: ComponentHandle, opts: CommitOptions): Promise<{ result: CommitResult; undo: CommitUndo }> {
  const only = opts.translations === undefined ? undefined : new Set(opts.translations);
  const members: Member[] = [];
  const [, ...others] = await committing(h, opts);
  // the components sharing the working copy that hold edits not committed yet, asked once for all of them (the others
  // bring nothing to the commit)
  const holding =
    others.length > 0
      ? await h.store.read((tx) =>
          componentsWithPendingEdits(
            tx,
            others.map((m) => m.row.id),
          ),
        )
      : new Set<number>();
  for (const m of [h, ...others.filter((m) => holding.has(m.row.id))]) {
    // Removals (strings deleted in tms) are written with the edits, by their author.
    const all: PendingUnit[] = [...(await m.store.read((tx) => pendingUnits(tx, m.row.id))), ...(await m.store.read((tx) => pendingRemovals(tx, m.row.id)))];
    const pending = only === undefined ? all : all.filter((u) => only.has(u.translation_id));
    const syncedCommit = await m.store.read((tx) => syncedCommitOf(tx, m.row.id));
    if (m !== h && pending.length === 0) continue;
    members.push({ m, pending, translations: new Map(), heads: new Map(), contents: new Map(), template: {}, undo: emptyUndo(syncedCommit) });
  }
  const undo = members[0]!.undo;
  const result: CommitResult = { result: true, commits: [], units: 0, failed: [] };
  if (members.every((x) => x.pending.length === 0)) return { result, undo };
  if (!hasWorkingCopy(h)) {
    return { result: { ...result, result: false, detail: `${h.key}: the repository has not been cloned yet (sync the component first)` }, undo };
  }
  const headBefore = h.git ? ((await vcs.headCommit({ dir: h.dir, cache: h.cache }))?.oid ?? null) : null;
  undo.head = headBefore;
  const linked = members.slice(1);

  // Every author's edits are applied in memory, each file read once at HEAD and carried from author to author;
  // then the commits are made in one go and the working tree written once: the cost is the edits', not the authors'.
  // Components sharing the working copy go into the same commits, one per author.
  const authors = new Map<number | null, { units: PendingUnit[]; parts: Part[]; messages: string[] }>();
  for (const x of members) {
    if (x.pending.length === 0) continue;
    x.translations = new Map((await x.m.store.read((tx) => componentTranslations(tx, x.m.row.id))).map((t) => [t.id, t]));
    x.heads = await readHeads(x.m, [
      ...new Set([...x.pending.map((u) => x.translations.get(u.translation_id)?.filename ?? ''), x.m.component.template].filter((f) => f !== '')),
    ]);
    for (const [authorId, units] of byAuthor(x.pending, opts.user?.id ?? null)) {
      let entry = authors.get(authorId);
      if (!entry) authors.set(authorId, (entry = { units: [], parts: [], messages: [] }));
      entry.units.push(...units);
    }
  }
  const planned: { authorId: number | null; parts: Part[]; author: vcs.Signature; message: string }[] = [];
  for (const authorId of [...authors.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b))) {
    const entry = authors.get(authorId)!;
    const author = await signatureOf(h, authorId, entry.units);
    const parts: Part[] = [];
    const messages: string[] = [];
    for (const x of members) {
      const units = x.pending.filter((u) => (u.pending_author_id ?? opts.user?.id ?? null) === authorId);
      if (units.length === 0) continue;
      const writes = await applyEdits(x.m, units, x.translations, x.heads, x.contents, x.template, result, author);
      if (writes.length === 0) continue;
      parts.push({ m: x.m, writes });
      if (x.m.git) {
        const message = renderTemplate(
          x.m.component.commit_message,
          await commitValues(
            x.m,
            writes.map((w) => w.translation),
          ),
        );
        if (!messages.includes(message)) messages.push(message);
      }
    }
    if (parts.length > 0) planned.push({ authorId, parts, author, message: messages.join('\n\n') });
  }
  let oids: (string | null)[] = planned.map(() => null);
  try {
    if (h.git && planned.length > 0) {
      const series = planned.map((p) => ({
        files: new Map(p.parts.flatMap(({ m, writes }) => writes.flatMap((w) => [[w.translation.filename, w.after] as const, ...addonFiles(m, w)]))),
        message: p.message,
        author: p.author,
        committer: h.config.committer,
      }));
      oids = await gitWork(h, 'commitSeries', { dir: h.dir, commits: series });
      // several nodes: upstream has the commits before the store records them (else they are taken back)
      if (h.nodes) await publishCommits(h, headBefore, opts.user?.id ?? null);
    } else {
      for (const x of members)
        for (const [translationId, bytes] of x.contents) await writeFile(path.join(h.dir, x.translations.get(translationId)!.filename), bytes);
      for (const p of planned)
        for (const { m, writes } of p.parts)
          for (const w of writes) for (const [file, bytes] of addonFiles(m, w)) await writeFile(path.join(h.dir, file), bytes);
    }
  } catch (e) {
    if (e instanceof UpstreamMovedError) throw e;
    // Nothing was committed (the branch moves last, or was put back): every edit stays pending.
    const error = errorLine(e, h);
    const files = new Map(planned.flatMap((p) => p.parts.flatMap(({ writes }) => writes.map((w) => [w.translation.id, w.translation] as const))));
    for (const t of files.values()) result.failed.push({ path: t.filename, language: t.language_code, translationId: t.id, error });
    planned.length = 0;
  }

  // each component's store moves with the commits that carry its files, from the commit it last knew
  const parents = new Map(members.map((x) => [x.m.row.id, headBefore]));
  const undoOf = new Map(members.map((x) => [x.m.row.id, x.undo]));
  for (const [i, { authorId, parts, author }] of planned.entries()) {
    const oid = oids[i] ?? null;
    const timestamp = now();
    for (const { m, writes } of parts) {
      const partUndo = undoOf.get(m.row.id)!;
      const committed: CommittedTranslation[] = writes.map((w) => {
        if (!partUndo.revisions.has(w.translation.id)) partUndo.revisions.set(w.translation.id, w.translation.revision);
        const revision = nextRevision(w.translation.revision, blobId(w.before), blobId(w.after));
        if (revision !== null) w.translation.revision = revision;
        const change: ChangeInput = {
          action: Action.COMMIT,
          timestamp,
          projectId: m.row.project_id,
          componentId: m.row.id,
          translationId: w.translation.id,
          languageId: w.translation.language_id,
          userId: opts.user?.id ?? null,
          authorId,
          details: oid ? { commit: oid } : {},
        };
        // No commit (a local component, or the files held the edits already): nothing to record as committed.
        return { translationId: w.translation.id, revision, changes: oid ? [change] : [] };
      });
      const written = writes.flatMap((w) =>
        w.units.filter((u) => !isRemoval(u)).map((u) => ({ id: u.id, target: u.target, state: u.state, pending_author_id: u.pending_author_id })),
      );
      const removed = writes.flatMap((w) => w.units.filter(isRemoval));
      // A new template changes what every translation of a monolingual component lists: leave synced_commit
      // behind so the next sync re-parses them (their revisions embed the template's old blob).
      const templateWritten = writes.some((w) => w.translation.is_template === 1);
      const parent = parents.get(m.row.id) ?? null;
      const recorded = await h.store.write((tx) => recordCommit(tx, m.row.id, written, committed, { parent, head: templateWritten ? null : oid }));
      if (oid) parents.set(m.row.id, oid);
      await h.store.write((tx) => clearRemovals(tx, removed));
      partUndo.changeIds.push(...recorded.changeIds);
      partUndo.removals?.push(...removed);
      for (const u of written) partUndo.units.push({ id: u.id, target: u.target, state: u.state, authorId: u.pending_author_id });
      result.units += recorded.cleared + removed.length;
    }
    const units = parts.reduce((n, { writes }) => n + writes.reduce((k, w) => k + w.units.length, 0), 0);
    result.commits.push({
      oid,
      author: { name: author.name, email: author.email },
      files: parts.flatMap(({ writes }) => writes.map((w) => w.translation.filename)),
      units,
    });
  }
  if (linked.length > 0) undo.linked = linked.map((x) => ({ componentId: x.m.row.id, ...x.undo }));

  result.result = result.failed.length === 0;
  result.detail = commitDetail(result);
  return { result, undo };
}

/** What a commit did, in lines for people: the edits committed, and each file that could not be written. */
function commitDetail(result: CommitResult): string | undefined {
  const lines: string[] = [];
  if (result.commits.length > 0) {
    const files = new Set(result.commits.flatMap((c) => c.files)).size;
    const written = result.commits.reduce((n, c) => n + c.units, 0);
    lines.push(`Committed ${written} pending edit(s) in ${files} file(s) (${result.commits.length} commit(s)).`);
    // written, but edited again meanwhile: the newer text stays pending for the next commit
    if (result.units < written) lines.push(`${written - result.units} of them were edited again meanwhile and stay pending.`);
  }
  for (const f of result.failed) lines.push(`Could not write ${f.path}: ${f.error}; its edits stay pending.`);
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * After an update moved the branch (call holding the component's mutex): commits again the edits of the files
 * `first` could not write. A file upstream had broken is refused by the writer at the old HEAD; the update may have
 * brought upstream's fix, and then the edits go out with this operation instead of staying pending until someone
 * commits again. Returns one result and one undo for both commits, as if made at once.
 * @example const { result, undo } = await commitAgain(h, opts, await commitLocked(h, opts)) // after integrateLocked
 */
export async function commitAgain(
  h: ComponentHandle,
  opts: CommitOptions,
  first: { result: CommitResult; undo: CommitUndo },
): Promise<{ result: CommitResult; undo: CommitUndo }> {
  if (first.result.failed.length === 0) return first;
  const second = await commitLocked(h, { ...opts, translations: first.result.failed.map((f) => f.translationId) });
  const result: CommitResult = {
    result: second.result.result,
    commits: [...first.result.commits, ...second.result.commits],
    units: first.result.units + second.result.units,
    failed: second.result.failed,
  };
  result.detail = commitDetail(result);
  const undo: CommitUndo = {
    // taking both back returns to where the first one started
    head: first.undo.head ?? second.undo.head,
    units: [...first.undo.units, ...second.undo.units],
    revisions: new Map([...second.undo.revisions, ...first.undo.revisions]),
    syncedCommit: first.undo.syncedCommit,
    changeIds: [...first.undo.changeIds, ...second.undo.changeIds],
    removals: [...(first.undo.removals ?? []), ...(second.undo.removals ?? [])],
    linked: [...(first.undo.linked ?? []), ...(second.undo.linked ?? [])],
  };
  return { result, undo };
}

/**
 * Files Weblate's pre-commit add-ons write beside a committed file: the MO file of a PO file
 * (`weblate.gettext.mo`, at its `path` template, `{{ filename|stripext }}.mo` by default).
 */
function addonFiles(h: ComponentHandle, w: FileWrite): Array<readonly [string, Uint8Array]> {
  const mo = h.component.addons.find((a) => a.name === 'weblate.gettext.mo');
  if (!mo || (h.format.id !== 'po' && h.format.id !== 'po-mono')) return [];
  const ctx = { filename: w.translation.filename, language: w.translation.language_code, sourceLanguage: h.component.source_language };
  const target = moPath(w.translation.filename, typeof mo.configuration.path === 'string' ? mo.configuration.path : undefined, w.translation.language_code);
  return [[target, poToMo(w.after, ctx)]];
}

/** Pending units grouped by author (the editor; else the user who asked; else none), authors in id order. */
function byAuthor(units: readonly PendingUnit[], fallback: number | null): Map<number | null, PendingUnit[]> {
  const groups = new Map<number | null, PendingUnit[]>();
  for (const u of units) {
    const author = u.pending_author_id ?? fallback;
    let list = groups.get(author);
    if (!list) groups.set(author, (list = []));
    list.push(u);
  }
  const order = [...groups.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
  return new Map(order.map((k) => [k, groups.get(k)!]));
}

/**
 * Applies one author's edits to each file: the file as `contents` holds it after the authors before (else as HEAD
 * has it), the result kept in `contents` for the next. Nothing is written; a file the writer refuses is reported.
 */
async function applyEdits(
  h: ComponentHandle,
  units: readonly PendingUnit[],
  translations: ReadonlyMap<number, TranslationInfo>,
  heads: ReadonlyMap<string, Uint8Array | null>,
  contents: Map<number, Uint8Array>,
  template: { store?: ParsedFile | null },
  result: CommitResult,
  author: vcs.Signature,
): Promise<FileWrite[]> {
  const byTranslation = new Map<number, PendingUnit[]>();
  for (const u of units) {
    let list = byTranslation.get(u.translation_id);
    if (!list) byTranslation.set(u.translation_id, (list = []));
    list.push(u);
  }
  const writes: FileWrite[] = [];
  const failures: ChangeInput[] = [];
  for (const [translationId, list] of byTranslation) {
    const translation = translations.get(translationId)!;
    try {
      if (translation.filename === '') throw new FormatWriteError('(source)', 'the source strings of a bilingual component have no file');
      if (h.component.template && template.store === undefined) template.store = readTemplate(h, heads);
      const before = contents.get(translationId) ?? headOf(heads, translation.filename);
      const ctx: FormatContext = {
        filename: translation.filename,
        language: translation.language_code,
        sourceLanguage: h.component.source_language,
        plurals: translation.plural_number,
        pluralFormula: translation.plural_formula,
        template: template.store ?? null,
        revision: fileRevision(h, translation, author),
      };
      const edits = unitWrites(h.format, before, ctx, list);
      const after = h.format.write(before, edits, ctx);
      contents.set(translationId, after);
      writes.push({ translation, units: list, before, after });
    } catch (e) {
      const error = errorLine(e, h);
      result.failed.push({ path: translation.filename, language: translation.language_code, translationId, error });
      failures.push({
        action: Action.SAVE_FAILED,
        timestamp: now(),
        projectId: h.row.project_id,
        componentId: h.row.id,
        translationId,
        languageId: translation.language_id,
        target: error,
        details: { error, filename: translation.filename },
      });
    }
  }
  if (failures.length > 0) await h.store.write((tx) => recordChanges(tx, failures));
  return writes;
}

/**
 * Who saved the file and when, as Weblate writes it into a PO header: the commit's author, the time of the
 * author's newest edit (now without one), Language-Team when the project sets it, the bug report address.
 */
function fileRevision(h: ComponentHandle, translation: TranslationInfo, author: vcs.Signature): FileRevision {
  const site = h.config.site_url.replace(/\/+$/, '');
  return {
    translator: `${author.name} <${author.email}>`,
    date: author.timestamp === undefined ? new Date() : new Date(author.timestamp * 1000),
    generator: 'tms',
    languageTeam: h.project.set_language_team
      ? `${translation.language_name} <${site}/projects/${h.project.slug}/${h.component.slug}/${translation.language_code}/>`
      : null,
    reportBugsTo: h.component.report_source_bugs || null,
  };
}

/** The files as HEAD has them (as the disk has them for `vcs: local`), read in one go; null for a missing one. */
async function readHeads(h: ComponentHandle, files: string[]): Promise<Map<string, Uint8Array | null>> {
  if (files.length === 0) return new Map();
  const bytes = h.git
    ? await gitWork(h, 'readBlobs', { dir: h.dir, ref: 'HEAD', paths: files })
    : await Promise.all(files.map((f) => readFile(path.join(h.dir, f)).catch(() => null)));
  return new Map(files.map((f, i) => [f, bytes[i] ?? null]));
}

/** A file as HEAD has it; FormatWriteError when it is missing. */
function headOf(heads: ReadonlyMap<string, Uint8Array | null>, file: string): Uint8Array {
  const bytes = heads.get(file);
  if (!bytes) throw new FormatWriteError(file, 'the file is not in the repository');
  return bytes;
}

/** The component's template parsed as the sync parses it (the identities of a monolingual component). */
function readTemplate(h: ComponentHandle, heads: ReadonlyMap<string, Uint8Array | null>): ParsedFile {
  const file = h.component.template;
  return h.format.parseTemplate(
    headOf(heads, file),
    { filename: file, language: h.component.source_language, sourceLanguage: h.component.source_language },
    false,
  );
}

/**
 * The translation's revision after tms wrote `after` over `before`: the file's part replaced when the store had
 * parsed exactly `before`; null (leave it, so the sync parses the file) when the store was behind the file.
 */
export function nextRevision(revision: string, before: string, after: string): string | null {
  const comma = revision.lastIndexOf(',');
  const own = comma >= 0 ? revision.slice(comma + 1) : revision;
  if (own !== before) return null;
  return comma >= 0 ? `${revision.slice(0, comma + 1)}${after}` : after;
}

/** The commit author: the editor's name and e-mail (a no-reply address without one), else the committer. */
async function signatureOf(h: ComponentHandle, authorId: number | null, units: readonly PendingUnit[]): Promise<vcs.Signature> {
  const user = authorId === null ? undefined : await h.store.read((tx) => findAuthor(tx, authorId));
  if (!user) return { ...h.config.committer };
  // The author date is the newest edit's time; units marked pending without an editor carry no edit time.
  const newest = units.reduce((t, u) => (u.pending_author_id === authorId && u.timestamp > t ? u.timestamp : t), '');
  const seconds = Math.floor(Date.parse(newest) / 1000);
  const domain = h.config.committer.email.split('@')[1] || 'localhost';
  return {
    name: user.full_name || user.username,
    email: user.email || `noreply+${user.id}@${domain}`,
    ...(Number.isFinite(seconds) ? { timestamp: seconds, timezoneOffset: 0 } : {}),
  };
}
