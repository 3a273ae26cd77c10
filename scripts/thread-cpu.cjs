// Loaded into a benchmarked tms process (`node --require`): at its exit, the CPU time of its main thread — the one that
// writes the store — apart from its other threads' (Linux /proc, clock ticks), on standard error as `thread-cpu main=… others=…`.
const { readFileSync, readdirSync } = require('node:fs');

process.on('exit', () => {
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
      if (Number(tid) === process.pid) main += ticks;
      else others += ticks;
    }
    process.stderr.write(`thread-cpu main=${main} others=${others}\n`);
  } catch {
    // not Linux: nothing to say
  }
});
