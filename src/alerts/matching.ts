// Which findings of an audit a registration receives (spec section 6). Data first: the branch map
// and the severities each threshold admits are tables, and the functions read them. A
// `new-failures` registration (issue 19) receives only the matching failures the previous audit of
// the same page did not have, compared by occurrence identity (src/audit/identity.ts).
import type { Branch, Severity } from '../audit/control.ts';
import type { Finding } from '../audit/findings.ts';
import { compareOccurrences, type Comparable, type FailedOccurrence } from '../audit/identity.ts';

export const TRIGGER_BRANCHES = ['privacy', 'ai_gov', 'accessibility'] as const;
export type TriggerBranch = (typeof TRIGGER_BRANCHES)[number];

export const TRIGGER_SEVERITIES = ['medium', 'high', 'critical'] as const;
export type TriggerSeverity = (typeof TRIGGER_SEVERITIES)[number];

/**
 * When a registration gets an event: after every audit with matching failures (the spec's
 * behaviour, and every registration stored before issue 19), or only when some of them are new.
 */
export const TRIGGER_ON = ['every-audit', 'new-failures'] as const;
export type TriggerOn = (typeof TRIGGER_ON)[number];

/** An audit branch as events and triggers name it. */
export const EVENT_BRANCH: Record<Branch, TriggerBranch> = {
  wcag: 'accessibility',
  'ai-governance': 'ai_gov',
  privacy: 'privacy',
};

/**
 * The finding severities each threshold admits. The threshold is a minimum: `medium` takes
 * warnings and errors, `high` errors only, and `critical` nothing, since audits emit no critical
 * findings.
 */
const ADMITTED: Record<TriggerSeverity, readonly Severity[]> = {
  medium: ['warning', 'error'],
  high: ['error'],
  critical: [],
};

/** A failure as the event carries it: the finding without its location. */
export interface EventFailure {
  control: string;
  status: 'fail';
  severity: Severity;
  evidence: string;
}

/** The findings a registration with this threshold receives; empty means no event for it. */
export function matchingFailures(findings: readonly Finding[], severity: TriggerSeverity): EventFailure[] {
  const admitted = ADMITTED[severity];
  return findings
    .filter((f) => f.status === 'fail' && admitted.includes(f.severity))
    .map((f) => ({ control: f.control, status: 'fail', severity: f.severity, evidence: f.evidence }));
}

/** The previous audit of the same page (key, URL, branch, standard), as a new-failures event compares. */
export interface PreviousAudit {
  id: string;
  includeWarnings: boolean;
  occurrences: readonly Comparable[];
}

/** What a new-failures event says changed, counted in failed occurrences at its threshold. */
export interface EventChanges {
  /** The audit compared with; null when the page had no earlier audit (everything is new). */
  againstAuditId: string | null;
  new: number;
  fixed: number;
  persisting: number;
}

/**
 * The findings a new-failures registration with this threshold receives: those with at least one
 * failed occurrence the previous audit did not have (empty means no event), and the counts. When
 * either audit was stored without its warnings (`includeWarnings: false`), only errors can be
 * compared, so only errors count: a warning then is never new.
 */
export function newFailures(
  audit: { findings: readonly Finding[]; occurrences: readonly FailedOccurrence[]; includeWarnings: boolean },
  previous: PreviousAudit | null,
  severity: TriggerSeverity,
): { failures: EventFailure[]; changes: EventChanges } {
  const comparable = previous === null || (previous.includeWarnings && audit.includeWarnings);
  const admitted = ADMITTED[severity].filter((s) => comparable || s === 'error');
  const current = audit.occurrences.filter((o) => admitted.includes(o.severity));
  const earlier = (previous?.occurrences ?? []).filter((o) => admitted.includes(o.severity));
  const { occurrences } = compareOccurrences(current, earlier);
  const withNew = new Set(occurrences.new.map((o) => o.finding));
  return {
    failures: matchingFailures(
      audit.findings.filter((_, index) => withNew.has(index)),
      severity,
    ),
    changes: {
      againstAuditId: previous?.id ?? null,
      new: occurrences.new.length,
      fixed: occurrences.fixed.length,
      persisting: occurrences.persisting.length,
    },
  };
}
