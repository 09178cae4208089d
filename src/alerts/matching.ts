// Which findings of an audit a registration receives (spec section 6). Data first: the branch map
// and the severities each threshold admits are tables, and the one function reads them.
import type { Branch, Severity } from '../audit/control.ts';
import type { Finding } from '../audit/findings.ts';

export const TRIGGER_BRANCHES = ['privacy', 'ai_gov', 'accessibility'] as const;
export type TriggerBranch = (typeof TRIGGER_BRANCHES)[number];

export const TRIGGER_SEVERITIES = ['medium', 'high', 'critical'] as const;
export type TriggerSeverity = (typeof TRIGGER_SEVERITIES)[number];

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
