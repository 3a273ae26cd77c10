// A parse worker thread: reads and parses one component's changed files at a time for the sync's parse pool.
import { parentPort } from 'node:worker_threads';
import { blobId } from './blob-id.js';
import { type ParseJob, type ParseReply, encodeOutcomes } from './parse-job.js';
import { runEarlyChecks } from './plan.js';
import { parseChanged } from './scan.js';

parentPort!.on('message', async (job: ParseJob) => {
  // a test's way to see a worker die in the middle of a sync (the pool must neither lose the component nor hang)
  const crash = process.env.TMS_TEST_PARSE_WORKER_CRASH;
  if (crash && job.plan.files.some((f) => f.path.includes(crash))) process.exit(70);
  let damaged = false;
  try {
    const outcomes = await parseChanged(job.dir, job.plan, job.component, new Map(job.known), undefined, job.maxBytes, async (file, bytes) => {
      // a file that is not the blob HEAD names (a checkout cut short): the calling thread restores it from git
      const expected = job.revisions?.[file];
      if (expected !== undefined && blobId(bytes) !== expected) damaged = true;
      return bytes;
    });
    if (damaged) {
      parentPort!.postMessage({ id: job.id, damaged: true } satisfies ParseReply);
      return;
    }
    // the units' own checks here too: the writing thread takes them instead of running them
    if (job.checks) runEarlyChecks(job.plan.files, outcomes, job.checks);
    const { encoded, transfer } = encodeOutcomes(outcomes);
    parentPort!.postMessage({ id: job.id, outcomes: encoded } satisfies ParseReply, transfer);
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: (e as Error).message ?? String(e) } satisfies ParseReply);
  }
});

// loaded: the pool may hand this worker a share of a component the sync's thread is parsing too
parentPort!.postMessage({ ready: true } satisfies ParseReply);
