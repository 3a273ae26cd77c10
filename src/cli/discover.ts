// `tms discover <repository URL or path>`: the components a repository holds, printed as configuration to paste.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { type Proposal, discoverComponents, fileCodeStyle, languageRegexFor } from '../discover/discover.js';
import { getFormat, isFormatId } from '../formats/registry.js';
import { clone, redactUrl } from '../vcs/index.js';
import type { CliIo } from './io.js';

/** Whether a folder is a git repository without a working tree (it cannot be listed, only cloned). */
function isBareRepository(dir: string): boolean {
  return existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects')) && !existsSync(path.join(dir, '.git'));
}

/**
 * The working tree a folder belongs to: the nearest folder at or above it holding `.git`, or null (not in a repository).
 * @example repositoryRoot('/src/app/po') // '/src/app'
 */
function repositoryRoot(dir: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return null;
  }
}

/** A slug for a proposal: the words of the file mask's file name (`strings` for Android's strings.xml), made unique. */
function slugFor(p: Proposal, taken: Set<string>): string {
  const name = p.filemask
    .split('/')
    .pop()!
    .replace(/\.[^.]*$/, '')
    .replace(/\*/g, '');
  const folder =
    p.filemask
      .split('/')
      .slice(0, -1)
      .filter((part) => !part.includes('*'))
      .pop() ?? '';
  let slug = (name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || folder.replace(/[^A-Za-z0-9]+/g, '-') || 'translations').toLowerCase();
  const base = slug;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  taken.add(slug);
  return slug;
}

/**
 * The `language_code_style` a component needs for new languages' files to be named as its files are (`posix` where
 * they write `pt_BR` and the format's default is `pt-BR`, …), or null when the format's default already does.
 * Android's own `values-pt-rBR` names are left to its format.
 */
function codeStyle(p: Proposal, paths: readonly string[]): string | null {
  if (!isFormatId(p.file_format)) return null;
  const fallback = getFormat(p.file_format).languageCodeStyle ?? 'posix';
  if (fallback === 'android') return null;
  const style = fileCodeStyle(p.filemask, paths);
  return style !== null && style !== fallback ? style : null;
}

/**
 * Lists the repository's files (a working tree, or a clone of a URL or bare repository in a temporary folder) and
 * prints the proposed components: JSON component objects to paste into a project's `components` (with `project`,
 * the project's slug, those after the first link to its repository), or with `json` the list of
 * `{filemask, file_format, template, new_base}`.
 * @example await runDiscover(io, 'https://github.com/org/app.git', { json: true })
 */
export async function runDiscover(io: CliIo, source: string, opts: { json: boolean; project?: string }): Promise<number> {
  let dir = source;
  let temporary: string | null = null;
  const local = existsSync(source) && statSync(source).isDirectory();
  if (!local || isBareRepository(source)) {
    temporary = await mkdtemp(path.join(os.tmpdir(), 'tms-discover-'));
    dir = path.join(temporary, 'repo');
    await clone({ dir, url: source, depth: 1 });
  }
  // a working tree's subfolder: masks are relative to the repository, which tms sync clones whole
  const root = temporary ? dir : repositoryRoot(dir);
  if (root === null) {
    io.err(`tms: ${source} is not in a git repository; tms sync clones one (git init there and commit the files first)`);
  }
  const base = root ?? dir;
  const prefix = path.relative(base, path.resolve(dir)).split(path.sep).join('/');
  try {
    // the subfolder's files, named from the repository root (a POT beside them is found as from the root)
    const paths = fg.sync(prefix === '' ? '**/*' : `${fg.escapePath(prefix)}/**/*`, {
      cwd: base,
      dot: false,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: ['**/.git/**'],
    });
    // a Transifex client's configuration, the one hidden file discovery reads (its paths are from the root)
    if (prefix === '' && existsSync(path.join(base, '.tx', 'config'))) paths.push('.tx/config');
    const proposals = discoverComponents({
      paths,
      read(file) {
        try {
          return readFileSync(path.join(base, file));
        } catch {
          return null;
        }
      },
    });
    // Mastodon's Base.lproj/infoPlist.strings beside en.lproj/InfoPlist.strings: two masks, one set of files where
    // the file system ignores case (macOS, Windows), where a language added to each would be one file written twice
    const byFolded = new Map<string, string>();
    for (const p of proposals) {
      const other = byFolded.get(p.filemask.toLowerCase());
      if (other !== undefined) {
        io.err(
          `tms: note: the masks ${other} and ${p.filemask} differ only in letter case: on a file system that ignores case (macOS, Windows) they are the same files; rename the files alike upstream and keep one component`,
        );
      } else byFolded.set(p.filemask.toLowerCase(), p.filemask);
    }
    if (opts.json) {
      io.out(JSON.stringify(proposals, null, 2));
      return 0;
    }
    if (proposals.length === 0) {
      io.err(`tms: no translation files found in ${local ? source : redactUrl(source)}`);
      return 1;
    }
    const taken = new Set<string>();
    const repo = temporary ? redactUrl(source) : (root ?? path.resolve(source));
    // with the project's slug, the components after the first share its working copy, as Weblate links them
    let first: string | null = null;
    const components = proposals.map((p) => {
      const slug = slugFor(p, taken);
      const shared = opts.project !== undefined && first !== null ? `weblate://${opts.project}/${first}` : null;
      first ??= slug;
      const component: Record<string, string | boolean> = {
        name: slug,
        slug,
        vcs: 'git',
        repo: shared ?? repo,
        filemask: p.filemask,
        file_format: p.file_format,
      };
      if (p.template) component.template = p.template;
      if (p.new_base) component.new_base = p.new_base;
      const style = codeStyle(p, paths);
      if (style) component.language_code_style = style;
      const languages = languageRegexFor(p.filemask, paths);
      if (languages) component.language_regex = languages;
      // a TBX file is a glossary: its terms then show in the editor beside the project's strings that use them
      if (p.file_format === 'tbx') component.is_glossary = true;
      return component;
    });
    if (temporary && repo !== source) {
      io.err(`tms: note: the credentials in the URL are left out of "repo": give the components "username" and "password" (or put them back in the URL)`);
    }
    if (!temporary && root !== null) {
      // git refuses a push into a branch checked out in a working tree, so commits would stay in tms's working copy
      io.err(
        `tms: note: "repo" is the working tree ${root}: tms clones and pulls from it, but git refuses pushes into its checked-out branch; for commits to be pushed, set "repo" (or "push") to the repository it pushes to`,
      );
    }
    // standard output is the JSON alone, so that it can be pasted or redirected whole; the hint goes beside it
    io.err(`tms: ${proposals.length} component${proposals.length === 1 ? '' : 's'} found; paste the list into a project's "components" in tms.config.json`);
    io.out(JSON.stringify(components, null, 2));
    return 0;
  } finally {
    if (temporary) await rm(temporary, { recursive: true, force: true });
  }
}
