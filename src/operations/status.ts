// Repository status as Weblate's `GET …/repository/` shows it: pending edits, commits to merge and push, the last commits.
import { type ComponentHandle, hasWorkingCopy } from '../component/handle.js';
import { mergeFailure } from '../store/changes.repo.js';
import { hasPendingUnits } from '../store/edits.repo.js';
import { hasPendingRemovals } from '../store/removals.repo.js';
import * as vcs from '../vcs/index.js';

/** A commit as Weblate describes it (`git log -1 --format=fuller`): dates in RFC 2822. */
export interface RevisionInfo {
  revision: string;
  shortrevision: string;
  author: string;
  author_name: string;
  author_email: string;
  authordate: string;
  commit: string;
  commit_name: string;
  commit_email: string;
  commitdate: string;
  message: string;
  summary: string;
}

export interface RepositoryStatus {
  needs_commit: boolean;
  needs_merge: boolean;
  needs_push: boolean;
  remote_commit: RevisionInfo | null;
  weblate_commit: RevisionInfo | null;
  status: string;
  merge_failure: string | null;
  /** Commits the branch has that upstream lacks, and upstream's that the branch lacks (as of the last fetch). */
  ahead: number;
  behind: number;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A git date as RFC 2822 in its own zone. `timezoneOffset` has the sign of `Date.getTimezoneOffset()`.
 * `rfc2822(1416397824, -60) === 'Wed, 19 Nov 2014 12:50:24 +0100'`
 */
export function rfc2822(timestamp: number, timezoneOffset: number): string {
  const d = new Date((timestamp - timezoneOffset * 60) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const zone = -timezoneOffset;
  const sign = zone < 0 ? '-' : '+';
  const abs = Math.abs(zone);
  return (
    `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}

/** Weblate's revision info dict of a commit. */
export function revisionInfo(c: vcs.CommitInfo): RevisionInfo {
  const message = c.message.replace(/\n+$/, '');
  return {
    revision: c.oid,
    shortrevision: c.oid.slice(0, 7),
    author: `${c.author.name} <${c.author.email}>`,
    author_name: c.author.name,
    author_email: c.author.email,
    authordate: rfc2822(c.author.timestamp, c.author.timezoneOffset),
    commit: `${c.committer.name} <${c.committer.email}>`,
    commit_name: c.committer.name,
    commit_email: c.committer.email,
    commitdate: rfc2822(c.committer.timestamp, c.committer.timezoneOffset),
    message,
    summary: message.split('\n')[0]!,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The branch part of `git status` for a branch and its remote-tracking ref. */
export function statusText(s: vcs.RepoStatus): string {
  const remote = `${vcs.REMOTE}/${s.branch}`;
  const lines = [`On branch ${s.branch}`];
  if (!s.remoteCommit) lines.push(`Your branch is based on '${remote}', but the upstream is gone.`);
  else if (s.ahead > 0 && s.behind > 0) {
    lines.push(`Your branch and '${remote}' have diverged,`, `and have ${s.ahead} and ${s.behind} different commits each, respectively.`);
  } else if (s.ahead > 0) lines.push(`Your branch is ahead of '${remote}' by ${plural(s.ahead, 'commit')}.`);
  else if (s.behind > 0) lines.push(`Your branch is behind '${remote}' by ${plural(s.behind, 'commit')}, and can be fast-forwarded.`);
  else lines.push(`Your branch is up to date with '${remote}'.`);
  return lines.join('\n');
}

/**
 * The component's repository status as of the last fetch: never fetches, commits or writes (reads never mutate).
 * @example const s = await repositoryStatus(h); s.needs_push
 */
export async function repositoryStatus(h: ComponentHandle): Promise<RepositoryStatus> {
  const out: RepositoryStatus = {
    needs_commit: (await h.store.read((tx) => hasPendingUnits(tx, h.row.id))) || (await h.store.read((tx) => hasPendingRemovals(tx, h.row.id))),
    needs_merge: false,
    needs_push: false,
    remote_commit: null,
    weblate_commit: null,
    status: '',
    merge_failure: await h.store.read((tx) => mergeFailure(tx, h.row.id)),
    ahead: 0,
    behind: 0,
  };
  if (!h.git || !hasWorkingCopy(h)) return out;
  const s = await vcs.status({ dir: h.dir, cache: h.cache, branch: h.branch });
  out.needs_merge = s.needsMerge;
  out.needs_push = s.needsPush;
  out.ahead = s.ahead;
  out.behind = s.behind;
  out.remote_commit = s.remoteCommit ? revisionInfo(s.remoteCommit) : null;
  out.weblate_commit = s.localCommit ? revisionInfo(s.localCommit) : null;
  out.status = statusText(s);
  return out;
}
