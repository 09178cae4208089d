// JUnit XML for CI systems: one <testsuite> per page and branch, one <testcase> per checked control.
import type { RunResult } from './model.ts';

export function junitReport(_run: RunResult): string {
  throw new Error('junitReport: not built yet');
}
