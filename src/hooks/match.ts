// Which configured components a push notification is for: repository URL, then branch, then per-project enable_hooks.
import type { ComponentConfig, Config, ProjectConfig } from '../config/config.js';
import { redactUrl } from '../domain/url.js';
import { normalizeFullName, normalizeRepoUrl } from './repo-url.js';
import type { HookData } from './services.js';

/** A configured component with its project. */
export interface ComponentTarget {
  project: ProjectConfig;
  component: ComponentConfig;
}

/** Weblate's `match_status` (the three counts), plus tms's one-line explanation when nothing was updated. */
export interface MatchStatus {
  repository_matches: number;
  branch_matches: number;
  enabled_hook_matches: number;
  reason?: string;
}

/** A component that almost matched, and why it did not (only shown to authenticated senders). */
export interface NearMiss {
  component: string;
  reason: string;
}

export interface MatchResult {
  matched: ComponentTarget[];
  status: MatchStatus;
  nearMisses: NearMiss[];
}

const MAX_NEAR_MISSES = 20;

/** The branch a component follows: its `branch`, or `main` as the working copy is cloned with. */
export function trackedBranch(component: ComponentConfig): string {
  return component.branch || 'main';
}

function lastSegment(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * Finds the components a push is for, as Weblate does but comparing normalised URLs (scheme, credentials, port,
 * `.git` and trailing slashes do not matter); when no URL matches, a plausible `owner/repo` name matches the end of
 * a component's repository path.
 * @example matchComponents(config, hook).matched.map((t) => t.component.slug)
 */
export function matchComponents(config: Config, hook: HookData): MatchResult {
  const wanted = new Set(hook.repos.map(normalizeRepoUrl).filter((k): k is string => k !== null));
  const all: (ComponentTarget & { key: string })[] = [];
  for (const project of config.projects) {
    for (const component of project.components) {
      // a linked component (weblate://) is updated with the component whose repository it shares, as in Weblate
      const key = component.vcs === 'git' && !component.linkedTo ? normalizeRepoUrl(component.repo) : null;
      if (key !== null) all.push({ project, component, key });
    }
  }
  let byRepository = all.filter((t) => wanted.has(t.key));
  const fullName = normalizeFullName(hook.full_name);
  if (byRepository.length === 0 && fullName.includes('/') && fullName.length > 5) {
    byRepository = all.filter((t) => t.key.endsWith(`/${fullName}`));
  }
  const byBranch = hook.branch === null ? byRepository : byRepository.filter((t) => trackedBranch(t.component) === hook.branch);
  const enabled = byBranch.filter((t) => t.project.enable_hooks);

  const status: MatchStatus = {
    repository_matches: byRepository.length,
    branch_matches: byBranch.length,
    enabled_hook_matches: enabled.length,
  };
  const repoUrl = redactUrl(hook.repo_url);
  if (byRepository.length === 0) {
    status.reason = `No component's repository is ${repoUrl} (compared ${wanted.size} URL forms${fullName.includes('/') ? ` and the name "${fullName}"` : ''}, ignoring scheme, credentials, port, ".git" and trailing "/").`;
  } else if (byBranch.length === 0) {
    status.reason = `${byRepository.length} component(s) use ${repoUrl}, but none follows the pushed branch "${hook.branch}".`;
  } else if (enabled.length === 0) {
    status.reason = `${byBranch.length} component(s) match, but hooks are disabled for their project (enable_hooks: false).`;
  }

  const nearMisses: NearMiss[] = [];
  const name = (t: ComponentTarget) => `${t.project.slug}/${t.component.slug}`;
  const repoNames = new Set([...wanted].map(lastSegment));
  for (const t of all) {
    if (!byRepository.includes(t)) {
      if (repoNames.has(lastSegment(t.key))) nearMisses.push({ component: name(t), reason: `its repository ${redactUrl(t.component.repo)} is not ${repoUrl}` });
    } else if (!byBranch.includes(t)) {
      nearMisses.push({ component: name(t), reason: `follows branch "${trackedBranch(t.component)}", the push was to "${hook.branch}"` });
    } else if (!enabled.includes(t)) {
      nearMisses.push({ component: name(t), reason: `hooks are disabled for project "${t.project.slug}"` });
    }
  }
  return { matched: enabled.map(({ project, component }) => ({ project, component })), status, nearMisses: nearMisses.slice(0, MAX_NEAR_MISSES) };
}
