// `tms sync`: sync a project's components (or all) with a progress display and one summary line each.

import type { Config } from '../config/config.js';
import { openStore } from '../store/index.js';
import { type ComponentSyncResult, type SyncEvent, syncAll, syncProject } from '../sync/index.js';
import type { CliIo } from './io.js';

export interface SyncOptions {
  project?: string;
  component?: string;
  all: boolean;
  watch: boolean;
  /** Threads for a sync of many components (default: the configuration's `sync_threads`, else the cores available). */
  threads?: number;
}

const STAGES = ['update', 'scan', 'parse', 'store'] as const;

/** The summary line of one component. */
export function summaryLine(r: ComponentSyncResult): string {
  const files = r.files.filter((f) => f.status !== 'removed').length;
  const failed = r.files.filter((f) => f.status === 'failed').length;
  const head = `${r.project}/${r.component}`;
  if (!r.ok && r.files.length === 0) return `${head}: FAILED: ${r.error} (${r.seconds.toFixed(2)} s)`;
  const parts = [`${files} files (${r.parsed} parsed)`, `units +${r.added} ~${r.changed} -${r.removed}`, `${failed} errors`, `${r.seconds.toFixed(2)} s`];
  if (r.pendingKept.length > 0) parts.push(`${r.pendingKept.length} pending edits kept over upstream changes`);
  if (r.pendingDropped.length > 0) parts.push(`${r.pendingDropped.length} pending edits on removed strings`);
  for (const w of r.warnings) parts.push(`warning: ${w}`);
  return `${head}: ${parts.join(', ')}`;
}

/** What a sync's events show while it runs; `end` when it is over. */
type Progress = ((event: SyncEvent) => void) & { end?: () => void };

async function progress(io: CliIo): Promise<Progress> {
  if (!io.isTty) {
    return (event) => {
      if (event.type === 'component-start') io.out(`${event.project}/${event.component}: syncing`);
    };
  }
  // one bar per component: the stages, and one step per file while parsing (the bar's module only on a terminal)
  // the CommonJS module's exports are its default export (in the bundle, esbuild gives no named ones)
  const { SingleBar } = (await import('cli-progress')).default;
  const bar = new SingleBar({ format: '{name} [{bar}] {value}/{total} {stage}', hideCursor: true, clearOnComplete: true }, undefined);
  let files = 0;
  // several components (synced side by side with parse workers): one bar of the components done / to do
  let total = 0;
  let done = 0;
  const show: Progress = (event) => {
    if (event.type === 'components') {
      total = event.total;
      if (total > 1) bar.start(total, 0, { name: 'components', stage: '' });
    } else if (total > 1) {
      if (event.type === 'component-start') bar.update(done, { stage: `${event.project}/${event.component}` });
      else if (event.type === 'component-done') {
        // (components the discovery add-on found come on top of those configured)
        done++;
        if (done > total) bar.setTotal(done);
        bar.update(done, { stage: `${event.result.project}/${event.result.component}` });
      }
    } else if (event.type === 'component-start') {
      files = 0;
      bar.start(STAGES.length, 0, { name: `${event.project}/${event.component}`, stage: 'starting' });
    } else if (event.type === 'stage') {
      bar.update(STAGES.indexOf(event.stage) + files, { stage: event.stage });
    } else if (event.type === 'file') {
      if (files === 0) bar.setTotal(STAGES.length + event.total);
      files = event.done;
      bar.update(STAGES.indexOf('parse') + files, { stage: event.path });
    } else {
      bar.stop();
    }
  };
  show.end = () => {
    if (total > 1) bar.stop();
  };
  return show;
}

export async function runSync(config: Config, io: CliIo, opts: SyncOptions): Promise<number> {
  if (opts.watch) {
    // sync once as without --watch, then keep watching the configuration and local components until SIGINT
    await runSync(config, io, { ...opts, watch: false });
    const { runSyncWatch } = await import('../watch/sync-watch.js');
    const until = new Promise((resolve) => process.once('SIGINT', resolve));
    await runSyncWatch({ config, project: opts.project, component: opts.component, all: opts.all, out: io.out, err: io.err, describe: summaryLine, until });
    return 0;
  }
  const store = await openStore(config.database);
  try {
    const onEvent = await progress(io);
    const asked = opts.threads ?? (config.sync_threads || undefined);
    const threads = asked ?? (await import('./cores.js')).defaultWorkers();
    // threads asked for are used whatever the machine's load; the cores by default only where one is to spare
    const sync = { onEvent, threads, spareCore: asked === undefined ? undefined : () => true };
    const results = await (opts.all ? syncAll(store, config, sync) : syncProject(store, config, opts.project!, opts.component, sync)).finally(() =>
      onEvent.end?.(),
    );
    for (const r of results) {
      io.out(summaryLine(r));
      for (const f of r.files) if (f.status === 'failed') io.err(`tms: ${r.project}/${r.component}: ${f.error}`);
      if (!r.ok && r.files.length === 0) io.err(`tms: ${r.project}/${r.component}: ${r.error}`);
    }
    // the strings are committed and visible; the search's index a first load left behind (or a stopped process's) is
    // complete before the command exits
    await store.fillSearchIndex();
    const failed = results.filter((r) => !r.ok).length;
    if (results.length === 0) io.out('nothing to sync');
    return failed === 0 ? 0 : 1;
  } finally {
    await store.close();
  }
}
