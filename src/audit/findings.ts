// Turns control outcomes into the audit's public result: the findings list (fail and
// inconclusive outcomes), the totals, and the outcome of every control that was checked.
import type { Control, Location, Outcome, OutcomeStatus, Severity } from './control.ts';

/** One element a WCAG finding is about: the engine rule that decided it, where, and its markup. */
export interface Occurrence {
  rule: string;
  selector: string;
  snippet: string;
}

export interface Finding {
  control: string;
  status: 'fail' | 'inconclusive';
  severity: Severity;
  evidence: string;
  location?: Location;
  /** WCAG only: up to OCCURRENCES_MAX elements behind the finding, in document order per rule. */
  occurrences?: Occurrence[];
  /** WCAG only: the engine rule ids whose outcomes make up the finding. */
  rules?: string[];
  /** WCAG only: the W3C ACT rule ids those engine rules implement. */
  actRules?: string[];
  /**
   * WCAG only: who decided. `rules`: the static rule engine (fails are errors); `ai`: the AI
   * judgement step (always a warning). Absent for the other branches.
   */
  source?: FindingSource;
}

export type FindingSource = 'rules' | 'ai';

export interface CheckedControl {
  control: string;
  framework: string;
  requirement: string;
  outcome: OutcomeStatus;
  /** Severity a failure of this control carries. */
  severity: Severity;
  /** What matched for a pass; what was missing or undecidable otherwise. */
  evidence: string;
  location?: Location;
}

export interface Totals {
  /** Findings of severity error (always `fail`). */
  errors: number;
  /** Findings of severity warning, `fail` and `inconclusive` alike. */
  warnings: number;
  /** The warnings whose status is `inconclusive`: what a person should review. */
  inconclusive: number;
}

/** WCAG only: how the analysis ran. */
export interface AiUse {
  used: boolean;
  /** The model that judged (operator configuration, never a key or URL); only when `used`. */
  model?: string;
  /** Why not, or what it judged; shown to the client. */
  note: string;
}

export interface AuditResult {
  controls: CheckedControl[];
  findings: Finding[];
  totals: Totals;
  /** WCAG only: whether the AI judgement step ran. */
  ai?: AiUse;
}

export function evaluateControls<P>(controls: readonly Control<string, P>[], page: P, includeWarnings: boolean): AuditResult {
  const checked: CheckedControl[] = [];
  const findings: Finding[] = [];
  for (const control of controls) {
    const outcome = control.evaluate(page);
    const entry: CheckedControl = {
      control: control.id,
      framework: control.framework,
      requirement: control.requirement,
      outcome: outcome.status,
      severity: control.severity,
      evidence: outcome.evidence,
    };
    if (outcome.location) entry.location = outcome.location;
    checked.push(entry);
    const finding = toFinding(control, outcome);
    if (finding && (includeWarnings || finding.severity === 'error')) findings.push(finding);
  }
  return { controls: checked, findings, totals: totalsOf(findings) };
}

function toFinding(control: Control<string, unknown>, outcome: Outcome): Finding | undefined {
  if (outcome.status === 'pass') return undefined;
  const finding: Finding = {
    control: control.id,
    status: outcome.status,
    // What static HTML cannot prove is never an error.
    severity: outcome.status === 'inconclusive' ? 'warning' : control.severity,
    evidence: outcome.evidence,
  };
  if (outcome.location) finding.location = outcome.location;
  return finding;
}

export function totalsOf(findings: readonly Finding[]): Totals {
  const totals: Totals = { errors: 0, warnings: 0, inconclusive: 0 };
  for (const finding of findings) {
    if (finding.severity === 'error') totals.errors++;
    else totals.warnings++;
    if (finding.status === 'inconclusive') totals.inconclusive++;
  }
  return totals;
}
