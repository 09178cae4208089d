// From rule outcomes to the audit's findings, per criterion of the requested standard:
// - a criterion with a failed outcome gives one `fail` finding (severity error) with the count,
//   the rules and the first examples, located at the first failing element;
// - a criterion with no fail but with cantTell outcomes gives one `inconclusive` warning, so a
//   criterion is reported only where it applies to something on the page;
// - failed outcomes of a rule for which the criterion is only secondary (`WcagRule.secondary`: its
//   ACT rule maps to no criterion for conformance) give one more finding, a `fail` of severity
//   warning, after the error or inconclusive one: never an error;
// - every criterion that some rule applied to is listed among the checked controls (a pass only
//   when every outcome for it passed: what static HTML cannot prove is never a pass).
// With the AI step (index.ts), its answers merge per element into the judgement rules' cantTell
// outcomes (see AiMerge): a pass becomes a passed outcome, a fail or cantTell moves to the AI's
// own warning finding (`source: "ai"`), and an element the AI was not shown stays cantTell.
import type { CheckedControl, Finding, Occurrence, AuditResult, AiUse } from '../findings.ts';
import type { Location } from '../control.ts';
import { totalsOf } from '../findings.ts';
import { outcome } from '../evidence.ts';
import { CRITERIA, REPORTED_CRITERIA, type WcagCriterion, type WcagStandard } from './criteria.ts';
import type { LocatedResult, RuleRun } from './engine.ts';
import type { WcagRule } from './rules/rule.ts';

/** The most occurrences a finding lists. */
export const OCCURRENCES_MAX = 50;

/** The note of a judgement target the AI step was configured for but not shown (over the summary's bounds). */
export const NOT_SHOWN_NOTE = 'not shown to the AI step (over the page summary’s bounds), so not judged';

/** Where the AI step's answers meet the engine's outcomes. */
export interface AiMerge {
  /**
   * Every judgement-rule target the AI was asked about, keyed by `aiTargetKey(rule id, selector)`:
   * its judgement, or `unjudged` when asked and left unanswered.
   */
  verdicts: ReadonlyMap<string, 'pass' | 'fail' | 'cantTell' | 'unjudged'>;
  /** The AI step's findings (warnings, `source: "ai"`), at most one per criterion. */
  findings: readonly Finding[];
}

export function aiTargetKey(ruleId: string, selector: string): string {
  return `${ruleId}\u0000${selector}`;
}

/** Said of judgement criteria when no AI step is configured. */
export const NO_AI_NOTE = 'AI step not configured: judgement criteria (1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1) are inconclusive where they apply';

interface Tally {
  rule: WcagRule;
  result: LocatedResult;
  /** The outcome counted: the rule's, or `passed` where the AI judged a judgement target to pass. */
  outcome: LocatedResult['outcome'];
  note: string;
}

/** How many outcomes of each rule, the first distinct notes, and the first target with an element. */
class Summary {
  count = 0;
  /** The rules in the order of their first outcome, and how many outcomes each. */
  readonly rules: WcagRule[] = [];
  readonly counts: number[] = [];
  readonly notes: string[] = [];
  judgement = false;
  first: LocatedResult | undefined;

  add(rule: WcagRule, result: LocatedResult, note: string): void {
    this.count++;
    // A rule's outcomes come together: the last rule is almost always the one.
    const last = this.rules.length - 1;
    const at = this.rules[last] === rule ? last : this.rules.indexOf(rule);
    if (at < 0) {
      this.rules.push(rule);
      this.counts.push(1);
      if (rule.judgement === true) this.judgement = true;
    } else this.counts[at]!++;
    if (note !== '' && this.notes.length < 3 && !this.notes.includes(note)) this.notes.push(note);
    if (this.first === undefined && result.element !== null) this.first = result;
  }
}

/**
 * One criterion's outcomes. Fails and cantTells are kept, as they become the finding; passes,
 * thousands on a large page (every text passes or fails contrast), are only summarised.
 */
class CriterionOutcomes {
  readonly failed: Tally[] = [];
  /** Failed outcomes of rules for which the criterion is secondary: warnings, never errors. */
  readonly advisory: Tally[] = [];
  readonly unsure: Tally[] = [];
  readonly passed = new Summary();
  get size(): number {
    return this.failed.length + this.advisory.length + this.unsure.length + this.passed.count;
  }
}

function version(standard: WcagStandard): string {
  return standard.startsWith('WCAG22') ? '2.2' : '2.1';
}

/**
 * The outcome a tally counts with the AI's answers merged: undefined when the AI covers it (its
 * finding speaks for the element). Only judgement rules' cantTell outcomes are touched.
 */
function merged(rule: WcagRule, result: LocatedResult, merge: AiMerge | undefined): Pick<Tally, 'outcome' | 'note'> | undefined {
  if (merge === undefined || rule.judgement !== true || result.outcome !== 'cantTell') return result;
  const verdict = merge.verdicts.get(aiTargetKey(rule.id, result.location?.selector ?? ':root'));
  if (verdict === undefined) return { outcome: 'cantTell', note: NOT_SHOWN_NOTE };
  if (verdict === 'pass') return { outcome: 'passed', note: 'judged to pass by the AI step' };
  return undefined;
}

export function aggregate(runs: readonly RuleRun[], standard: WcagStandard, includeWarnings: boolean, ai: AiUse, merge?: AiMerge): AuditResult {
  // 4.1.1 is always satisfied (criteria.ts): in the 2.1 standards, and never reported.
  const inStandard = REPORTED_CRITERIA[standard];
  const byCriterion = new Map<WcagCriterion, CriterionOutcomes>();
  /** Criteria with an outcome the AI covers (so the criterion applies even when no tally is left). */
  const covered = new Set<WcagCriterion>();
  for (const { rule, results } of runs) {
    const criteria: CriterionOutcomes[] = [];
    const add = (criterion: WcagCriterion) => {
      if (!inStandard.has(criterion)) return;
      let outcomes = byCriterion.get(criterion);
      if (outcomes === undefined) byCriterion.set(criterion, (outcomes = new CriterionOutcomes()));
      criteria.push(outcomes);
      if (merge !== undefined && rule.judgement === true && results.some((r) => merged(rule, r, merge) === undefined)) covered.add(criterion);
    };
    rule.criteria.forEach(add);
    /** From this index on, `criteria` are the rule's secondary criteria. */
    const secondaryFrom = criteria.length;
    rule.secondary?.forEach(add);
    if (criteria.length === 0) continue;
    for (const result of results) {
      const counted = merged(rule, result, merge);
      if (counted === undefined) continue;
      for (let i = 0; i < criteria.length; i++) {
        const outcomes = criteria[i]!;
        if (counted.outcome === 'passed') outcomes.passed.add(rule, result, counted.note);
        else {
          const to = counted.outcome === 'cantTell' ? outcomes.unsure : i < secondaryFrom ? outcomes.failed : outcomes.advisory;
          to.push({ rule, result, outcome: counted.outcome, note: counted.note });
        }
      }
    }
  }
  const aiFindings = new Map((merge?.findings ?? []).map((f) => [f.control, f]));
  const findings: Finding[] = [];
  const controls: CheckedControl[] = [];
  for (const row of CRITERIA) {
    const outcomes = byCriterion.get(row.num);
    const aiFinding = inStandard.has(row.num) ? aiFindings.get(row.num) : undefined;
    if ((outcomes === undefined || outcomes.size === 0) && aiFinding === undefined && !covered.has(row.num)) continue;
    const failedTallies = outcomes?.failed ?? [];
    const unsure = outcomes?.unsure ?? [];
    const status = failedTallies.length > 0 ? 'fail' : unsure.length > 0 ? 'inconclusive' : 'pass';
    const chosen = status === 'fail' ? failedTallies : unsure;
    const summary = status === 'pass' ? (outcomes?.passed ?? new Summary()) : summarise(chosen);
    // "(no AI step configured)" only where none is: not in the rules' verdicts the AI step is shown.
    const evidence = evidenceOf(status, summary, merge === undefined && ai.note === NO_AI_NOTE);
    const first = summary.first?.location;
    const advisory = outcomes !== undefined && outcomes.advisory.length > 0 ? secondaryWarning(row.num, outcomes.advisory) : undefined;
    // A secondary rule's fail marks the control as a warning-severity fail, before the AI's.
    controls.push(checkedControl(row, standard, status, evidence.evidence, first, advisory ?? aiFinding));
    if (status !== 'pass') {
      const finding: Finding = {
        control: row.num,
        status,
        severity: status === 'fail' ? 'error' : 'warning',
        evidence: evidence.evidence,
      };
      if (first) finding.location = first;
      finding.occurrences = occurrencesOf(chosen);
      finding.rules = summary.rules.map((rule) => rule.id);
      finding.actRules = [...new Set(summary.rules.flatMap((rule) => rule.actRules))];
      finding.source = 'rules';
      if (includeWarnings || finding.severity === 'error') findings.push(finding);
    }
    if (advisory !== undefined && includeWarnings) findings.push(advisory);
    // The AI's warning follows the engine's finding of the same criterion.
    if (aiFinding !== undefined && includeWarnings) findings.push(aiFinding);
  }
  return { controls, findings, totals: totalsOf(findings), ai };
}

/** The warning of a criterion's secondary fails: who failed, how often, where. */
function secondaryWarning(control: string, tallies: readonly Tally[]): Finding {
  const summary = summarise(tallies);
  const finding: Finding = { control, status: 'fail', severity: 'warning', evidence: evidenceOf('fail', summary, false, true).evidence };
  const first = summary.first?.location;
  if (first) finding.location = first;
  finding.occurrences = occurrencesOf(tallies);
  finding.rules = summary.rules.map((rule) => rule.id);
  finding.actRules = [...new Set(summary.rules.flatMap((rule) => rule.actRules))];
  finding.source = 'rules';
  return finding;
}

function summarise(tallies: readonly Tally[]): Summary {
  const summary = new Summary();
  for (const t of tallies) summary.add(t.rule, t.result, t.note);
  return summary;
}

/**
 * The criterion as a checked control. The engine's fail decides it (severity error); else a
 * secondary rule's fail or an AI fail (`warning`, that finding) makes it a fail carrying a
 * warning, since neither is an error; else any cantTell left, the engine's or the AI's, makes it
 * inconclusive; else it passed.
 */
function checkedControl(
  row: (typeof CRITERIA)[number],
  standard: WcagStandard,
  status: 'pass' | 'fail' | 'inconclusive',
  evidence: string,
  location: Location | undefined,
  warning: Finding | undefined,
): CheckedControl {
  const fromWarning = warning !== undefined && status !== 'fail' && (warning.status === 'fail' || status === 'pass');
  const control: CheckedControl = {
    control: row.num,
    framework: `WCAG ${version(standard)} Level ${row.level}`,
    requirement: `${row.num} ${row.title}`,
    outcome: fromWarning ? warning.status : status,
    severity: fromWarning && warning.status === 'fail' ? 'warning' : 'error',
    evidence: fromWarning ? warning.evidence : evidence,
  };
  const at = fromWarning ? warning.location : location;
  if (at) control.location = at;
  return control;
}

function occurrencesOf(tallies: readonly Tally[]): Occurrence[] {
  const out: Occurrence[] = [];
  const seen = new Set<string>();
  for (const { rule, result } of tallies) {
    if (out.length === OCCURRENCES_MAX) break;
    const selector = result.location?.selector ?? ':root';
    const key = `${rule.id}\u0000${selector}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rule: rule.id, selector, snippet: result.location?.snippet ?? '' });
  }
  return out;
}

/** `3 failed (link-name 2, button-name 1): first note; second note`, within the evidence bound. */
function evidenceOf(status: 'pass' | 'fail' | 'inconclusive', summary: Summary, noAiStep: boolean, secondary = false) {
  const rules = summary.rules.map((rule, i) => `${rule.id} ${summary.counts[i]}`).join(', ');
  const notes = summary.notes;
  const verb = status === 'fail' ? 'failed' : status === 'inconclusive' ? 'cannot be decided from static HTML' : 'passed';
  const judgement = status === 'inconclusive' && noAiStep && summary.judgement ? ' (no AI step configured)' : '';
  const warning = secondary ? ', a warning: under W3C ACT’s mapping this alone does not fail the criterion' : '';
  const head = `${summary.count} ${verb}${judgement} (${rules})${warning}`;
  return outcome(status, notes.length === 0 ? head : `${head}: ${notes.join('; ')}`);
}
