// `--json FILE`: the audits as the service returned them (each kept whole, unknown fields
// included) with what the client made of them: which occurrences are new against the baseline
// and which are over the threshold, and the exit code.
import type { FailedOccurrence } from '../../../src/audit/identity.ts';
import type { ApiAudit, Branch, FailOn, RunResult } from './model.ts';

export interface JsonReportPage {
  url: string;
  branch: Branch;
  audit?: ApiAudit;
  notAudited?: { status: number | null; reason: string };
  dashboardUrl?: string;
  /** With a baseline only. */
  newOccurrences?: FailedOccurrence[];
  overThreshold: FailedOccurrence[];
}

export interface JsonReport {
  server: string;
  failOn: FailOn;
  /** The baseline file compared with, or null. */
  baseline: string | null;
  startedAt: string;
  finishedAt: string;
  exitCode: number;
  pages: JsonReportPage[];
}

export function jsonReportOf(run: RunResult): JsonReport {
  return {
    server: run.server,
    failOn: run.failOn,
    baseline: run.baseline ?? null,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    exitCode: run.exitCode,
    pages: run.pages.map((page) => ({
      url: page.url,
      branch: page.branch,
      ...(page.audit !== undefined ? { audit: page.audit } : { notAudited: page.notAudited ?? { status: null, reason: 'not audited' } }),
      ...(page.dashboardUrl !== undefined ? { dashboardUrl: page.dashboardUrl } : {}),
      ...(page.newOccurrences !== undefined ? { newOccurrences: page.newOccurrences } : {}),
      overThreshold: page.overThreshold,
    })),
  };
}

/** The report as two-space JSON with a final newline. */
export function jsonReport(run: RunResult): string {
  return `${JSON.stringify(jsonReportOf(run), null, 2)}\n`;
}
