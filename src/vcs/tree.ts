// Reading and editing git trees without touching the working tree: file listings, blobs at a ref, tree diffs and edits.
import git, { type TreeEntry } from 'isomorphic-git';
import { type RepoOptions, fsOf } from './context.js';
import { VcsError } from './vcs-error.js';

/** A blob in a tree: its object id and mode (`100644`, `100755`, `120000`). */
export interface BlobEntry {
  oid: string;
  mode: string;
}

const TREE_MODE = '040000';

/** Reads tree objects once per operation. */
export class TreeReader {
  private readonly trees = new Map<string, Promise<TreeEntry[]>>();
  private readonly cache: object;
  constructor(private readonly opts: RepoOptions) {
    this.cache = opts.cache ?? {};
  }

  /** The entries of a tree (or of a commit's tree). */
  entries(oid: string): Promise<TreeEntry[]> {
    let found = this.trees.get(oid);
    if (!found) {
      found = git.readTree({ fs: fsOf(this.opts), dir: this.opts.dir, oid, cache: this.cache }).then((result) => result.tree);
      this.trees.set(oid, found);
    }
    return found;
  }

  /** The blob at `path` in a tree, or null when there is none. */
  async blobAt(treeOid: string, path: string): Promise<BlobEntry | null> {
    const parts = path.split('/');
    let current = treeOid;
    for (let i = 0; i < parts.length; i++) {
      const entry = (await this.entries(current)).find((e) => e.path === parts[i]);
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
        if (change.entry) entries.set(name, { path: name, mode: change.entry.mode, oid: change.entry.oid, type: 'blob' });
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
      if (subtree) entries.set(name, { path: name, mode: TREE_MODE, oid: subtree, type: 'tree' });
      else entries.delete(name);
    }
    if (entries.size === 0) return null;
    return this.write([...entries.values()]);
  }

  private write(tree: TreeEntry[]): Promise<string> {
    return git.writeTree({ fs: fsOf(this.opts), dir: this.opts.dir, tree });
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
