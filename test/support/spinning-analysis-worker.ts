// The analysis threads' entry for the pool tests (test/support/slow-page.ts): the real one, except
// that a page carrying SLOW_MARKER never finishes, as a page over the budget would not, until the
// pool stops its thread. It posts `started` first, as the real entry does, so the budget runs. A page
// carrying PRIORITY_MARKER fails with the thread's scheduling priority in its message.
import os from 'node:os';
import analyse, { type WorkerTask } from '../../src/audit/analysis/worker.ts';
import type { TaskOutcome } from '../../src/audit/analysis/tasks.ts';
import { PRIORITY_MARKER, SLOW_MARKER } from './slow-page.ts';

export default function spinOrAnalyse(input: WorkerTask): TaskOutcome {
  if (input.task.html.includes(PRIORITY_MARKER)) throw new Error(`priority ${os.getPriority(0)}`);
  if (!input.task.html.includes(SLOW_MARKER)) return analyse(input);
  input.started.postMessage('started');
  for (;;) {
    // Busy, as a page's analysis is: only terminating the thread ends it.
  }
}
