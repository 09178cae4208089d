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

/** What the command line asks of a run (src/cli.ts parses it; src/run.ts performs it). */
export interface RunOptions {
  /** The service's base URL, e.g. `https://audit.example.com` (no trailing slash). */
  server: string;
  /** From AUDIT_API_KEY only, never a flag. */
  apiKey: string;
  /** The pages, in the order given, each audited through every branch. */
  urls: string[];
  branches: Branch[];
  standard?: string;
  includeWarnings: boolean;
  /** Audits in flight at once (1–32). */
  concurrency: number;
  failOn: FailOn;
  /** Identities per `${branch} ${url}` key, from `--baseline FILE` (src/baseline.ts). */
  baseline?: { file: string; identities: Map<string, Set<string>> };
}

/** Where a run writes what a person watches: progress and warnings go to stderr, never stdout. */
export interface RunIO {
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Injectable for tests: `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  /** Injectable for tests: the wait between a 429/503 and the retry. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}
