// Watching local components: the working copy of `vcs: local` components and the refs of repositories given as local paths.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import { workingCopyDir } from '../component/handle.js';
import type { ComponentConfig, Config } from '../config/config.js';
import { maskRegex } from '../sync/filemask.js';
import type { ComponentKey, Watcher } from './config-watch.js';
import { createDebouncer } from './debounce.js';

export interface LocalWatchOptions {
  /** Quiet period before a burst of file events becomes one call (default 300 ms). */
  debounceMs?: number;
  /** Which components to watch (default: all). */
  include?: (project: string, component: string) => boolean;
  onError?: (error: Error) => void;
}

/** What a component's watch covers: a folder, which events count, and a description for logs. */
interface Target {
  key: ComponentKey;
  root: string;
  ignored: (file: string) => boolean;
  relevant: (file: string) => boolean;
  what: string;
}

/** True when a component's repository is a path on this machine (`file://` URLs are resolved to paths). */
export function isLocalPathRepo(component: ComponentConfig): boolean {
  return component.vcs === 'git' && path.isAbsolute(component.repoResolved);
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}

function targetsOf(config: Config, include: (p: string, c: string) => boolean): Target[] {
  const targets: Target[] = [];
  for (const project of config.projects) {
    for (const component of project.components) {
      if (!include(project.slug, component.slug)) continue;
      const key = { project: project.slug, component: component.slug };
      if (component.vcs === 'local') {
        // outside edits of translation files in the working copy tms reads
        const root = workingCopyDir(config.repos_dir, project.slug, component.slug);
        const mask = maskRegex(component.filemask);
        const extra = new Set([component.template, component.intermediate].filter(Boolean));
        const rel = (file: string) => toPosix(path.relative(root, file));
        targets.push({
          key,
          root,
          what: `working copy ${root}`,
          ignored: (file) => rel(file).split('/').includes('.git'),
          relevant: (file) => mask.test(rel(file)) || extra.has(rel(file)),
        });
      } else if (isLocalPathRepo(component)) {
        // commits in a local upstream repository: its refs move (bare or with a working tree)
        const repo = component.repoResolved;
        const gitdir = existsSync(path.join(repo, '.git')) ? path.join(repo, '.git') : repo;
        const refs = path.join(gitdir, 'refs');
        const isRef = (file: string) =>
          file === path.join(gitdir, 'HEAD') || file === path.join(gitdir, 'packed-refs') || file === refs || file.startsWith(refs + path.sep);
        targets.push({
          key,
          root: gitdir,
          what: `repository ${repo}`,
          ignored: (file) => file !== gitdir && !isRef(file),
          relevant: (file) => isRef(file) && !file.endsWith('.lock'),
        });
      }
    }
  }
  return targets;
}

/**
 * Watches the local components of a configuration and calls `onChange(project, component)` once per burst of
 * relevant file events: translation files (by the file mask, template, intermediate) in the working copy of a
 * `vcs: local` component, and ref updates (commits, branch moves) of a repository given as a local path.
 * @example const w = watchLocalComponents(config, (p, c) => queue.enqueue(p, c)); await w.ready; … await w.close();
 */
export function watchLocalComponents(
  config: Config,
  onChange: (project: string, component: string) => void,
  opts: LocalWatchOptions = {},
): Watcher & { watched: { key: ComponentKey; what: string }[] } {
  const debounce = createDebouncer(opts.debounceMs ?? 300);
  const targets = targetsOf(config, opts.include ?? (() => true));
  let closed = false;
  const watchers = targets.map((target) => {
    mkdirSync(target.root, { recursive: true });
    const watcher = watch(target.root, { ignoreInitial: true, ignored: target.ignored });
    const event = (file: string) => {
      if (closed || !target.relevant(path.resolve(file))) return;
      debounce.trigger(`${target.key.project}/${target.key.component}`, () => {
        if (!closed) onChange(target.key.project, target.key.component);
      });
    };
    watcher.on('add', event).on('change', event).on('unlink', event);
    watcher.on('error', (e) => opts.onError?.(e instanceof Error ? e : new Error(String(e))));
    return watcher;
  });
  const ready = Promise.all(watchers.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve())))).then(() => undefined);
  return {
    watched: targets.map((t) => ({ key: t.key, what: t.what })),
    ready,
    async close() {
      closed = true;
      debounce.cancel();
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
