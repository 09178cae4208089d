// What a `check` run produces, as every reporter (summary, JSON, JUnit, SARIF) reads it. The run
// (src/run.ts) fills it; the reporters only format it.
import type { FailedOccurrence } from '../../../src/audit/identity.ts';

export type Branch = 'wcag' | 'privacy' | 'ai-governance';
export type FailOn = 'error' | 'warning' | 'new' | 'none';

/** The exit codes, as the README documents them. */
export const EXIT = { ok: 0, failures: 1, usage: 2, notAudited: 3 } as const;

/** A finding as `POST /api/v1/audit` returns it (only the fields the client reads are typed). */
export interface ApiFinding {
  control: string;
  status: 'fail' | 'inconclusive';
  severity: 'error' | 'warning';
  evidence: string;
  location?: { selector: string; snippet: string };
  occurrences?: { rule: string; selector: string; snippet: string }[];
  rules?: string[];
  actRules?: string[];
  source?: 'rules' | 'ai';
}

/** A checked control as `POST /api/v1/audit` returns it. */
export interface ApiControl {
  control: string;
  framework: string;
  requirement: string;
  outcome: 'pass' | 'fail' | 'inconclusive';
  severity: 'error' | 'warning';
  evidence: string;
  location?: { selector: string; snippet: string };
}

/** The audit response, kept whole in `--json` (unknown fields included). */
export interface ApiAudit {
  id: string;
  url: string;
  finalUrl: string;
  branch: Branch;
  standard?: string;
  createdAt: string;
  totals: { errors: number; warnings: number; inconclusive: number };
  findings: ApiFinding[];
  controls: ApiControl[];
  [field: string]: unknown;
}

/** One URL through one branch. Exactly one of `audit` and `notAudited` is set. */
export interface PageResult {
  url: string;
  branch: Branch;
  /** The service's answer. */
  audit?: ApiAudit;
  /** Why the page was not audited, without network detail: the service's status and error text, or "server unreachable". */
  notAudited?: { status: number | null; reason: string };
  /** The audit's page in the service's dashboard (`<server>/dashboard/audits/<id>`). */
  dashboardUrl?: string;
  /** Every failed occurrence of the audit, with its stable identity (src/audit/identity.ts). */
  occurrences: FailedOccurrence[];
  /** With a baseline: the occurrences whose identity the baseline lacks for this URL and branch. */
  newOccurrences?: FailedOccurrence[];
  /** The occurrences that make the run fail under `--fail-on` (a subset of `occurrences`). */
  overThreshold: FailedOccurrence[];
}

export interface RunResult {
  server: string;
  failOn: FailOn;
  /** The baseline file compared with, if any. */
  baseline?: string;
  startedAt: string;
  finishedAt: string;
  pages: PageResult[];
  exitCode: 0 | 1 | 2 | 3;
}
