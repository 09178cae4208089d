// Audits every URL through every branch against the service, within the concurrency, waiting out
// 429 and 503 answers, and compares with the baseline.
import type { RunIO, RunOptions, RunResult } from './model.ts';

export async function runCheck(_options: RunOptions, _io: RunIO): Promise<RunResult> {
  throw new Error('runCheck: not built yet');
}
