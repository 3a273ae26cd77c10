// Loaded into a benchmarked tms process (`node --require`, inherited by its cluster workers and worker threads): each
// second, `process.memoryUsage()` (the thread's own V8 heap, external memory and array buffers) written to
// `<TMS_MEMORY_PROBE_DIR>/<pid>.json` by the main thread and `<pid>-<threadId>.json` by each worker thread; and, where
// TMS_MEMORY_SNAPSHOT_DIR is set, a V8 heap snapshot of each thread of a process on request (a file `request` there
// holding `<label> <pid>` makes every thread of that pid write `<label>-<pid>-<threadId>.heapsnapshot`, once a label).
const { existsSync, readFileSync, unlinkSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const { isMainThread, threadId } = require('node:worker_threads');

const dir = process.env.TMS_MEMORY_PROBE_DIR;
const snapshots = process.env.TMS_MEMORY_SNAPSHOT_DIR;
if (dir) {
  const file = path.join(dir, isMainThread ? `${process.pid}.json` : `${process.pid}-${threadId}.json`);
  const taken = new Set();
  const snapshot = () => {
    if (!snapshots) return;
    try {
      const request = path.join(snapshots, 'request');
      if (!existsSync(request)) return;
      const [label, pid] = readFileSync(request, 'utf8').trim().split(/\s+/);
      if (!label || Number(pid) !== process.pid || taken.has(label)) return;
      taken.add(label);
      v8.writeHeapSnapshot(path.join(snapshots, `${label}-${process.pid}-${threadId}.heapsnapshot`));
    } catch {}
  };
  const write = () => {
    try {
      writeFileSync(file, JSON.stringify(process.memoryUsage()));
    } catch {
      // the benchmark's folder is gone: it is ending
    }
    snapshot();
  };
  write();
  setInterval(write, 1000).unref();
  // a thread that ended holds nothing: its report goes with it
  process.on('exit', () => {
    try {
      unlinkSync(file);
    } catch {}
  });
}
