// Reading and editing git trees without touching the working tree: file listings, blobs at a ref, tree diffs and edits.
import git from 'isomorphic-git';
import { type RepoOptions, fsOf } from './context.js';
import { VcsError } from './vcs-error.js';

/** A blob in a tree: its object id and mode (`100644`, `100755`, `120000`). */
export interface BlobEntry {
  oid: string;
  mode: string;
}

const TREE_MODE = '040000';

/**
 * An entry of a tree object. `name` keeps the bytes git stores, so a name that is not valid UTF-8 is written back
 * exactly as it was (isomorphic-git's readTree/writeTree decode and re-encode names, turning such a name into
 * U+FFFD, which renames the file in the next commit); `path` is its decoded form, for lookups.
 */
export interface TreeEntry {
  path: string;
  name: Uint8Array;
  mode: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** The entries of a raw tree object, in stored order. */
function parseTree(bytes: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = bytes.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) throw new Error('malformed tree object');
    const mode = utf8.decode(bytes.subarray(i, space)).padStart(6, '0');
    const name = bytes.slice(space + 1, nul);
    const oid = Buffer.from(bytes.subarray(nul + 1, nul + 21)).toString('hex');
    const type = mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.push({ path: utf8.decode(name), name, mode, oid, type });
    i = nul + 21;
  }
  return out;
}

/** git's order of tree entries: by name bytes, a tree's name compared as if it ended in `/`. */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const key = (e: TreeEntry) => (e.type === 'tree' ? Buffer.concat([e.name, Buffer.from('/')]) : Buffer.from(e.name));
  return Buffer.compare(key(a), key(b));
}

/** The bytes of a tree object holding `entries` (modes as git writes them: `40000` for trees). */
function serializeTree(entries: readonly TreeEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const e of [...entries].sort(compareEntries)) {
    parts.push(Buffer.from(`${e.mode.replace(/^0+(?=\d{5})/, '')} `), Buffer.from(e.name), Buffer.from([0]), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/** Reads tree objects once per operation. */
export class TreeReader {
  private readonly trees = new Map<string, Promise<TreeEntry[]>>();
  private readonly names = new Map<string, Promise<Map<string, TreeEntry>>>();
  private readonly cache: object;
  constructor(private readonly opts: RepoOptions) {
    this.cache = opts.cache ?? {};
  }

  /** The entries of a tree (or of a commit's tree). */
  entries(oid: string): Promise<TreeEntry[]> {
    let found = this.trees.get(oid);
    if (!found) {
      found = this.readTree(oid);
      this.trees.set(oid, found);
    }
    return found;
  }

  private async readTree(oid: string): Promise<TreeEntry[]> {
    const fs = fsOf(this.opts);
    let object = await git.readObject({ fs, dir: this.opts.dir, oid, format: 'content', cache: this.cache });
    if (object.type === 'commit') {
      const { commit } = await git.readCommit({ fs, dir: this.opts.dir, oid, cache: this.cache });
      object = await git.readObject({ fs, dir: this.opts.dir, oid: commit.tree, format: 'content', cache: this.cache });
    }
    if (object.type !== 'tree') throw new Error(`${oid} is a ${object.type}, not a tree`);
    return parseTree(object.object as Uint8Array);
  }

  /** The entries of a tree by name (a lookup in a folder of thousands of files is not a scan of them). */
  private byName(oid: string): Promise<Map<string, TreeEntry>> {
    let found = this.names.get(oid);
    if (!found) {
      found = this.entries(oid).then((list) => new Map(list.map((e) => [e.path, e])));
      this.names.set(oid, found);
    }
    return found;
  }

  /** The blob at `path` in a tree, or null when there is none. */
  async blobAt(treeOid: string, path: string): Promise<BlobEntry | null> {
    const parts = path.split('/');
    let current = treeOid;
    for (let i = 0; i < parts.length; i++) {
      const entry = (await this.byName(current)).get(parts[i]!);
      if (!entry) return null;
      const last = i === parts.length - 1;
      if (last) return entry.type === 'blob' ? { oid: entry.oid, mode: entry.mode } : null;
      if (entry.type !== 'tree') return null;
      current = entry.oid;
    }
    return null;
  }

  /** Every blob under a tree, keyed by its repository-relative path; subtrees are read in parallel. */
  async listBlobs(treeOid: string): Promise<Map<string, BlobEntry>> {
    const out = new Map<string, BlobEntry>();
    const visit = async (oid: string, prefix: string): Promise<void> => {
      const subtrees: Promise<void>[] = [];
      for (const entry of await this.entries(oid)) {
        const path = prefix + entry.path;
        if (entry.type === 'blob') out.set(path, { oid: entry.oid, mode: entry.mode });
        else if (entry.type === 'tree') subtrees.push(visit(entry.oid, `${path}/`));
        // `commit` entries are submodules: not files of this repository.
      }
      await Promise.all(subtrees);
    };
    await visit(treeOid, '');
    return out;
  }

  /**
   * The blobs that differ between two trees (null = no tree), skipping identical subtrees by object id.
   * Each change maps a path to its entry before and after (null = absent).
   */
  async diff(before: string | null, after: string | null): Promise<Map<string, { before: BlobEntry | null; after: BlobEntry | null }>> {
    const out = new Map<string, { before: BlobEntry | null; after: BlobEntry | null }>();
    const visit = async (a: string | null, b: string | null, prefix: string): Promise<void> => {
      if (a === b) return;
      const left = new Map((a ? await this.entries(a) : []).map((e) => [e.path, e]));
      const right = new Map((b ? await this.entries(b) : []).map((e) => [e.path, e]));
      const names = new Set([...left.keys(), ...right.keys()]);
      const subtrees: Promise<void>[] = [];
      for (const name of names) {
        const l = left.get(name);
        const r = right.get(name);
        if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
        const path = prefix + name;
        const lBlob = l?.type === 'blob' ? { oid: l.oid, mode: l.mode } : null;
        const rBlob = r?.type === 'blob' ? { oid: r.oid, mode: r.mode } : null;
        if (lBlob || rBlob) out.set(path, { before: lBlob, after: rBlob });
        const lTree = l?.type === 'tree' ? l.oid : null;
        const rTree = r?.type === 'tree' ? r.oid : null;
        if (lTree || rTree) subtrees.push(visit(lTree, rTree, `${path}/`));
      }
      await Promise.all(subtrees);
    };
    await visit(before, after, '');
    return out;
  }

  /**
   * Writes the tree that results from applying `changes` (path → new blob, or null to delete) to `base`
   * (null = empty tree) and returns its id. Directories left empty disappear, as in git.
   */
  async edit(base: string | null, changes: Map<string, BlobEntry | null>): Promise<string> {
    const oid = await this.editLevel(
      base,
      [...changes].map(([path, entry]) => ({ parts: path.split('/'), entry })),
    );
    return oid ?? (await this.write([]));
  }

  private async editLevel(base: string | null, changes: { parts: string[]; entry: BlobEntry | null }[]): Promise<string | null> {
    const entries = new Map((base ? await this.entries(base) : []).map((e) => [e.path, e]));
    const nested = new Map<string, { parts: string[]; entry: BlobEntry | null }[]>();
    for (const change of changes) {
      const [name = '', ...rest] = change.parts;
      if (rest.length === 0) {
        if (change.entry)
          entries.set(name, {
            path: name,
            name: entries.get(name)?.name ?? encoder.encode(name),
            mode: change.entry.mode,
            oid: change.entry.oid,
            type: 'blob',
          });
        else entries.delete(name);
      } else {
        const list = nested.get(name) ?? [];
        list.push({ parts: rest, entry: change.entry });
        nested.set(name, list);
      }
    }
    for (const [name, list] of nested) {
      const existing = entries.get(name);
      const subtree = await this.editLevel(existing?.type === 'tree' ? existing.oid : null, list);
      if (subtree) entries.set(name, { path: name, name: existing?.name ?? encoder.encode(name), mode: TREE_MODE, oid: subtree, type: 'tree' });
      else entries.delete(name);
    }
    if (entries.size === 0) return null;
    return this.write([...entries.values()]);
  }

  private write(tree: TreeEntry[]): Promise<string> {
    return git.writeObject({ fs: fsOf(this.opts), dir: this.opts.dir, type: 'tree', object: serializeTree(tree), format: 'content' });
  }
}

/** The tree of a commit (or ref); VcsError not-found when the ref does not exist. */
export async function treeOf(opts: RepoOptions, ref: string, operation: string): Promise<string> {
  try {
    const oid = await git.resolveRef({ fs: fsOf(opts), dir: opts.dir, ref });
    const { commit } = await git.readCommit({ fs: fsOf(opts), dir: opts.dir, oid, cache: opts.cache });
    return commit.tree;
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') {
      throw new VcsError(`${operation}: no such ref: ${ref}`, { kind: 'not-found', operation });
    }
    throw err;
  }
}

/**
 * Every file at a ref (default HEAD) with its blob id, read from tree objects only (no file is opened or hashed):
 * the sync compares these ids to skip files that did not change.
 * `await listFilesWithBlobIds({ dir })` → `Map { 'po/de.po' => '3b18e5…', … }`.
 */
export async function listFilesWithBlobIds(opts: RepoOptions & { ref?: string }): Promise<Map<string, string>> {
  const reader = new TreeReader({ ...opts, cache: opts.cache ?? {} });
  const blobs = await reader.listBlobs(await treeOf(opts, opts.ref ?? 'HEAD', 'listFilesWithBlobIds'));
  const out = new Map<string, string>();
  for (const [path, entry] of blobs) out.set(path, entry.oid);
  return out;
}

/** The tree reader of the last commit looked up, by object cache and working copy (its trees are read once for all the components sharing both). */
const readers = new WeakMap<object, Map<string, { ref: string; reader: TreeReader }>>();

/**
 * The blob ids of `paths` at a commit (by its object id), reading only the trees on their way, not every tree of the
 * commit as `listFilesWithBlobIds` does: one component's files of a repository many share cost its own trees. A path
 * with no blob there is absent. Calls with the same object cache and commit share the trees read.
 * `await blobIdsAt({ dir, cache, ref: head }, ['po/de.po'])` → `Map { 'po/de.po' => '3b18e5…' }`.
 */
export async function blobIdsAt(opts: RepoOptions & { ref: string; cache: object }, paths: readonly string[]): Promise<Map<string, string>> {
  let byDir = readers.get(opts.cache);
  if (!byDir) readers.set(opts.cache, (byDir = new Map()));
  let found = byDir.get(opts.dir);
  if (found?.ref !== opts.ref) byDir.set(opts.dir, (found = { ref: opts.ref, reader: new TreeReader(opts) }));
  const reader = found.reader;
  const out = new Map<string, string>();
  const entries = await Promise.all(paths.map((p) => reader.blobAt(opts.ref, p)));
  for (const [i, entry] of entries.entries()) if (entry) out.set(paths[i]!, entry.oid);
  return out;
}

/**
 * The bytes of `path` at `ref`, or null when the file does not exist there (VcsError not-found when the ref does not).
 * `await readBlobAt({ dir, ref: 'origin/main', path: 'po/de.po' })` → `Uint8Array`.
 */
export async function readBlobAt(opts: RepoOptions & { ref: string; path: string }): Promise<Uint8Array | null> {
  const reader = new TreeReader(opts);
  const entry = await reader.blobAt(await treeOf(opts, opts.ref, 'readBlobAt'), opts.path);
  if (!entry) return null;
  const { blob } = await git.readBlob({ fs: fsOf(opts), dir: opts.dir, oid: entry.oid, cache: opts.cache });
  return blob;
}

/**
 * The paths of the files that differ between two commits (added, removed or changed), identical subtrees skipped by
 * object id; null when either commit is not in the repository (a shallow boundary, a rewritten history).
 * `await changedPaths({ dir }, syncedCommit, head)` → `['po/de.po']`.
 */
export async function changedPaths(opts: RepoOptions, from: string, to: string): Promise<string[] | null> {
  let before: string;
  let after: string;
  try {
    before = await treeOf(opts, from, 'changedPaths');
    after = await treeOf(opts, to, 'changedPaths');
  } catch (e) {
    if (e instanceof VcsError || (e as { code?: string }).code === 'NotFoundError') return null;
    throw e;
  }
  const reader = new TreeReader({ ...opts, cache: opts.cache ?? {} });
  return [...(await reader.diff(before, after)).keys()];
}
