// Run results made by hand, for the reporters and the command's output tests: an audit as the
// service returns it, its occurrences with their real identities (src/audit/identity.ts).
import { failedOccurrences } from '../../src/audit/identity.ts';
import type { ApiAudit, ApiFinding, Branch, FailOn, PageResult, RunResult } from '../../packages/check/src/model.ts';

export const SERVER = 'https://audit.example.test';

export function apiAudit(url: string, branch: Branch, findings: ApiFinding[], id = 'a1'): ApiAudit {
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    id,
    url,
    finalUrl: url,
    branch,
    createdAt: '2025-01-02T03:04:05.000Z',
    totals: { errors, warnings: findings.length - errors, inconclusive: findings.filter((f) => f.status === 'inconclusive').length },
    findings,
    controls: [],
    extraField: 'kept',
  };
}

export const contrast: ApiFinding = {
  control: '1.4.3',
  status: 'fail',
  severity: 'error',
  evidence: 'low contrast',
  location: { selector: 'html > body > p', snippet: '<p style="color:#aaa">Low</p>' },
  occurrences: [
    { rule: 'color-contrast', selector: 'html > body > p', snippet: '<p style="color:#aaa">Low</p>' },
    { rule: 'color-contrast', selector: 'html > body > span', snippet: '<span style="color:#bbb">x</span>' },
  ],
};
export const emptyHeading: ApiFinding = {
  control: '2.4.6',
  status: 'fail',
  severity: 'warning',
  evidence: 'empty heading',
  occurrences: [{ rule: 'empty-heading', selector: 'h2', snippet: '<h2></h2>' }],
};
export const inconclusive: ApiFinding = { control: '1.1.1', status: 'inconclusive', severity: 'warning', evidence: 'judge alt text' };

/** A page audited with these findings; over the threshold as `failOn` (error|warning) counts it. */
export function auditedPage(url: string, branch: Branch, findings: ApiFinding[], failOn: FailOn = 'error', id = 'a1'): PageResult {
  const occurrences = failedOccurrences(findings);
  return {
    url,
    branch,
    audit: apiAudit(url, branch, findings, id),
    dashboardUrl: `${SERVER}/dashboard/audits/${id}`,
    occurrences,
    overThreshold: failOn === 'none' ? [] : occurrences.filter((o) => failOn === 'warning' || o.severity === 'error'),
  };
}

export function notAuditedPage(url: string, branch: Branch, status: number | null, reason: string): PageResult {
  return { url, branch, notAudited: { status, reason }, occurrences: [], overThreshold: [] };
}

export function runOf(pages: PageResult[], fields: Partial<RunResult> = {}): RunResult {
  const exitCode = pages.some((p) => p.audit === undefined) ? 3 : pages.some((p) => p.overThreshold.length > 0) ? 1 : 0;
  return {
    server: SERVER,
    failOn: 'error',
    startedAt: '2025-01-02T03:04:00.000Z',
    finishedAt: '2025-01-02T03:05:00.000Z',
    pages,
    exitCode,
    ...fields,
  };
}
