// One large component's changed files parsed on the sync's thread and on a parse worker at once: each takes the next
// share of files when done with its last, and the outcomes come together as one parse of them all gives them.
import { availableParallelism, loadavg } from 'node:os';
import type { ParseOutcome, ScanPlan, ScannedFile } from './scan.js';

/**
 * Changed files that weigh at least this are shared with a parse worker when the sync has one and nothing else to
 * overlap the component with. A worker takes a few hundred ms of its own CPU to start (`npm run bench:parse-transfer`),
 * on the other core; KeePassXC's 33 files weigh 12 MB and parse in about half a second.
 */
export const SHARE_BYTES = 4 * 1024 * 1024;

/**
 * Whether the machine has a core to spare for a worker: the last minute's load average leaves one idle (as `make -l`
 * holds back jobs). On a machine whose cores are all busy the worker only added its start and its first, slow parses
 * to the sync (KeePassXC at a load average of 15 on 2 cores: ×1.26 wall time, ×1.30 CPU time; BENCHMARKS.md).
 */
export function coreToSpare(cores = availableParallelism(), load = loadavg()[0]!): boolean {
  return load + 1 <= cores;
}

/** Shares of a monolingual component (each parses the template again for its context): its files in this many. */
const TEMPLATE_SHARES = 8;

/** How each side parses a share: the plan cut to its files, the revisions known (an unchanged file is not read). */
export type ParseShare = (plan: ScanPlan, known: Map<string, string>, files: readonly ScannedFile[]) => Promise<Map<string, ParseOutcome>>;

/**
 * Parses the changed files of `plan` here and, once `ready` says a worker has loaded, there too: the worker takes
 * shares only while some are left (the sync's thread never waits for it to load). A changed template is a share of
 * its own; the other shares read it for their context without giving its outcome again.
 * @example await parseShared(plan, known, (p, k) => parseChanged(dir, p, c, k), (p, k) => pool.parse(job(p, k), …, true), pool.ready())
 */
export async function parseShared(
  plan: ScanPlan,
  known: ReadonlyMap<string, string>,
  here: ParseShare,
  worker: ParseShare,
  ready: Promise<boolean>,
): Promise<Map<string, ParseOutcome>> {
  const template = plan.files.find((f) => f.isTemplate);
  const changed = plan.files.filter((f) => !f.isTemplate && known.get(f.path) !== f.revision);
  const shares: ScannedFile[][] = [];
  if (template && known.get(template.path) !== template.revision) shares.push([template]);
  const size = template ? Math.ceil(changed.length / TEMPLATE_SHARES) : 1;
  for (let i = 0; i < changed.length; i += size) shares.push(changed.slice(i, i + size));
  const parts: Map<string, ParseOutcome>[] = [];
  const take = async (parse: ParseShare) => {
    for (let share = shares.shift(); share; share = shares.shift()) {
      const files = template && share[0] !== template ? [template, ...share] : share;
      // the template of another share: read for the context only (its outcome is its own share's)
      const own = new Map(known);
      if (template && share[0] !== template) own.set(template.path, template.revision);
      parts.push(await parse({ ...plan, files }, own, share));
    }
  };
  const mine = take(here);
  const theirs = Promise.race([ready, mine.then(() => false)]).then((ok) => (ok ? take(worker) : undefined));
  await Promise.all([mine, theirs]);
  return merged(plan, parts);
}

/** The outcomes of the shares in the order one parse of every file gives them: the template, the changed files, the rest. */
function merged(plan: ScanPlan, parts: readonly Map<string, ParseOutcome>[]): Map<string, ParseOutcome> {
  const out = new Map<string, ParseOutcome>();
  const of = (file: string) => {
    for (const part of parts) {
      const o = part.get(file);
      if (o && o.status !== 'unchanged') return o;
    }
    return undefined;
  };
  const template = plan.files.find((f) => f.isTemplate);
  for (const f of template ? [template, ...plan.files.filter((f) => f !== template)] : plan.files) {
    const o = of(f.path);
    if (o) out.set(f.path, o);
  }
  for (const f of plan.files) if (!out.has(f.path)) out.set(f.path, { status: 'unchanged' });
  return out;
}
