// An analysis thread's entry (piscina loads it; Node strips its types as for any .ts module). The
// analysis modules load once per thread, when the thread starts, before its first task.
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { runTaskOutcome, type AnalysisTask, type TaskOutcome } from './tasks.ts';

// Analysis yields the CPU to the main thread. The main thread carries every audit's I/O (HTTP,
// TLS, the crawl, and every statement of the embedded database); with one analysis thread per
// core beside it, the cores are oversubscribed and the main thread gets less CPU than it needs.
// A lower priority for this thread only (Linux keeps a nice value per thread; `0` is the calling
// thread) lets analysis fill what the main thread leaves, while a thread per core still keeps a
// slow page from holding up the others (the README gives the bench's figures). Linux only:
// elsewhere `setpriority(0)` names the whole process.
/** Nice 10 weighs about a tenth of nice 0 in Linux's scheduler. */
const ANALYSIS_NICENESS = 10;
if (process.platform === 'linux') {
  try {
    os.setPriority(0, ANALYSIS_NICENESS);
  } catch {
    // Refused (a sandbox's seccomp policy, say): equal priority, as before.
  }
}

export interface WorkerTask {
  task: AnalysisTask;
  /** Told `started` as the task begins to run: the main thread's budget starts then (pool.ts). */
  started: MessagePort;
}

export default function analyse({ task, started }: WorkerTask): TaskOutcome {
  // Posted before the synchronous work: the message is queued on the port at once, so the main
  // thread gets it while this thread is still busy. The main thread closes the channel when the
  // task settles.
  started.postMessage('started');
  return runTaskOutcome(task);
}
