// An analysis thread's entry (piscina loads it; Node strips its types as for any .ts module). The
// analysis modules load once per thread, when the thread starts, before its first task.
import type { MessagePort } from 'node:worker_threads';
import { runTaskOutcome, type AnalysisTask, type TaskOutcome } from './tasks.ts';

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
