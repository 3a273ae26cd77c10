// Weblate's `weblate.gettext.msgmerge` add-on: after the working copy moves, PO files are merged with the POT by GNU msgmerge and committed.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pushBranch, pushUrl } from '../component/handle.js';
import type { ComponentTarget } from '../component/resolve.js';
import { renderTemplate } from '../domain/template.js';
import * as vcs from '../vcs/index.js';
import { expandFileMask } from './scan.js';

export const MSGMERGE_NAME = 'Update PO files to match POT (msgmerge)';

export interface MsgmergeResult {
  /** Files msgmerge changed (committed when there is a repository). */
  changed: string[];
  /** The add-on's commit, null when nothing changed or there is no repository. */
  commit: string | null;
  /** One line per file msgmerge could not update (Weblate's MsgmergeAddonError alert). */
  errors: string[];
}

/** Weblate's environment for the tools it runs: C.UTF-8, a plain PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  return { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
}

/** msgmerge's arguments from the add-on's configuration (Weblate's defaults: fuzzy matching, --previous). */
export function msgmergeArgs(configuration: Record<string, unknown>): string[] {
  const args: string[] = [];
  if (configuration.fuzzy === false) args.push('--no-fuzzy-matching');
  if (configuration.previous !== false) args.push('--previous');
  if (configuration.no_location === true) args.push('--no-location');
  return args;
}

function run(file: string, args: string[], cwd: string): Promise<{ error: Error | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 }, (error, _stdout, stderr) => resolve({ error, stderr }));
  });
}

/** Whether the POT differs between two commits (Weblate skips the add-on when the new base did not change). */
async function baseChanged(h: ComponentTarget, before: string, after: string, cache: object): Promise<boolean> {
  const [a, b] = await Promise.all([
    vcs.readBlobAt({ dir: h.dir, cache, ref: before, path: h.component.new_base }).catch(() => null),
    vcs.readBlobAt({ dir: h.dir, cache, ref: after, path: h.component.new_base }).catch(() => null),
  ]);
  return a === null || b === null || Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0;
}

/**
 * Runs the msgmerge add-on when the component has it: every PO file of the file mask (the POT aside) is merged with
 * the POT (`msgmerge --previous --output-file po po pot`, run by the program Weblate runs, so files come out as
 * Weblate's do), and the files it changed are committed as the committer with the component's `addon_message`,
 * pushed when `push_on_commit` is on. Skipped when the POT did not change between `before` and `after`.
 * @example const r = await runMsgmerge(h, previousHead, newHead, cache);
 */
export async function runMsgmerge(h: ComponentTarget, before: string | null, after: string | null, cache: object): Promise<MsgmergeResult | null> {
  const addon = h.component.addons.find((a) => a.name === 'weblate.gettext.msgmerge');
  if (!addon || h.component.new_base === '') return null;
  if (before !== null && after !== null && before !== after && !(await baseChanged(h, before, after, cache))) return null;
  const pot = path.join(h.dir, h.component.new_base);
  const { paths } = await expandFileMask(h.dir, h.component.filemask);
  const args = msgmergeArgs(addon.configuration);
  const result: MsgmergeResult = { changed: [], commit: null, errors: [] };
  for (const file of paths) {
    if (file === h.component.new_base || file === h.component.template) continue;
    const full = path.join(h.dir, file);
    const old = await readFile(full);
    const { error, stderr } = await run('msgmerge', [...args, '--output-file', full, full, pot], path.dirname(full));
    // msgmerge reports progress and harmless warnings on stderr; anything else is an error, as Weblate reads it
    const problems = stderr
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.includes('internationalized messages should not contain the') && !l.includes('. done.'));
    if (error || problems.length > 0) {
      const reason =
        (error as NodeJS.ErrnoException | null)?.code === 'ENOENT' ? 'msgmerge not found, please install gettext' : problems.join(' ') || error!.message;
      result.errors.push(`${file}: msgmerge failed: ${reason.split('\n')[0]}`);
      continue;
    }
    if (!old.equals(await readFile(full))) result.changed.push(file);
  }
  if (result.changed.length === 0 || !h.git) return result;
  const site = h.config.site_url.replace(/\/+$/, '');
  const values: Record<string, string> = {
    addon_name: MSGMERGE_NAME,
    project_name: h.project.name,
    project_slug: h.project.slug,
    component_name: h.component.name,
    component_slug: h.component.slug,
    url: `${site}/projects/${h.project.slug}/${h.component.slug}/`,
    site_title: h.config.site_title,
    site_url: site,
  };
  const message = renderTemplate(h.component.addon_message, values);
  result.commit = await vcs.commit({ dir: h.dir, cache, files: result.changed, message, author: h.config.committer, committer: h.config.committer });
  if (result.commit && h.component.push_on_commit) {
    await vcs.push({ dir: h.dir, cache, url: pushUrl(h), auth: h.auth, branch: h.branch, remoteBranch: pushBranch(h) });
  }
  return result;
}
