// SARIF 2.1.0 for code-scanning consumers: one rule per control, one result per failed occurrence.
import type { RunResult } from './model.ts';

/** The SARIF log as JSON text; `toolVersion` is the client's package version. */
export function sarifReport(_run: RunResult, _toolVersion: string): string {
  throw new Error('sarifReport: not built yet');
}
