// Loaded into a benchmarked tms process (`node --require`, inherited by its cluster workers and worker threads): each
// second, `process.memoryUsage()` (the thread's own V8 heap, external memory and array buffers) written to
// `<TMS_MEMORY_PROBE_DIR>/<pid>.json` by the main thread and `<pid>-<threadId>.json` by each worker thread.
const { unlinkSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { isMainThread, threadId } = require('node:worker_threads');

const dir = process.env.TMS_MEMORY_PROBE_DIR;
if (dir) {
  const file = path.join(dir, isMainThread ? `${process.pid}.json` : `${process.pid}-${threadId}.json`);
  const write = () => {
    try {
      writeFileSync(file, JSON.stringify(process.memoryUsage()));
    } catch {
      // the benchmark's folder is gone: it is ending
    }
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
