// From rule outcomes to the audit's findings, per criterion of the requested standard:
// - a criterion with a failed outcome gives one `fail` finding (severity error) with the count,
//   the rules and the first examples, located at the first failing element;
// - a criterion with no fail but with cantTell outcomes gives one `inconclusive` warning, so a
//   criterion is reported only where it applies to something on the page;
// - every criterion that some rule applied to is listed among the checked controls (a pass only
//   when every outcome for it passed: what static HTML cannot prove is never a pass).
import type { CheckedControl, Finding, Occurrence, AuditResult, AiUse } from '../findings.ts';
import { totalsOf } from '../findings.ts';
import { outcome } from '../evidence.ts';
import { CRITERIA, STANDARD_CRITERIA, type WcagCriterion, type WcagStandard } from './criteria.ts';
import type { LocatedResult, RuleRun } from './engine.ts';
import type { WcagRule } from './rules/rule.ts';

/** The most occurrences a finding lists. */
export const OCCURRENCES_MAX = 50;

/** Said of judgement criteria when no AI step is configured. */
export const NO_AI_NOTE = 'AI step not configured: judgement criteria (1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1) are inconclusive where they apply';

interface Tally {
  rule: WcagRule;
  result: LocatedResult;
}

function version(standard: WcagStandard): string {
  return standard.startsWith('WCAG22') ? '2.2' : '2.1';
}

export function aggregate(runs: readonly RuleRun[], standard: WcagStandard, includeWarnings: boolean, ai: AiUse): AuditResult {
  const inStandard = STANDARD_CRITERIA[standard];
  const byCriterion = new Map<WcagCriterion, Tally[]>();
  for (const { rule, results } of runs) {
    for (const criterion of rule.criteria) {
      if (!inStandard.has(criterion)) continue;
      const list = byCriterion.get(criterion) ?? [];
      for (const result of results) list.push({ rule, result });
      byCriterion.set(criterion, list);
    }
  }
  const findings: Finding[] = [];
  const controls: CheckedControl[] = [];
  for (const row of CRITERIA) {
    const tallies = byCriterion.get(row.num);
    if (tallies === undefined || tallies.length === 0) continue;
    const failedTallies = tallies.filter((t) => t.result.outcome === 'failed');
    const unsure = tallies.filter((t) => t.result.outcome === 'cantTell');
    const status = failedTallies.length > 0 ? 'fail' : unsure.length > 0 ? 'inconclusive' : 'pass';
    const chosen = status === 'fail' ? failedTallies : status === 'inconclusive' ? unsure : tallies;
    const evidence = evidenceOf(status, chosen, ai);
    const first = chosen.find((t) => t.result.location !== undefined)?.result.location;
    const control: CheckedControl = {
      control: row.num,
      framework: `WCAG ${version(standard)} Level ${row.level}`,
      requirement: `${row.num} ${row.title}`,
      outcome: status,
      severity: 'error',
      evidence: evidence.evidence,
    };
    if (first) control.location = first;
    controls.push(control);
    if (status === 'pass') continue;
    const finding: Finding = {
      control: row.num,
      status,
      severity: status === 'fail' ? 'error' : 'warning',
      evidence: evidence.evidence,
    };
    if (first) finding.location = first;
    finding.occurrences = occurrencesOf(chosen);
    finding.rules = [...new Set(chosen.map((t) => t.rule.id))];
    finding.actRules = [...new Set(chosen.flatMap((t) => t.rule.actRules))];
    if (includeWarnings || finding.severity === 'error') findings.push(finding);
  }
  return { controls, findings, totals: totalsOf(findings), ai };
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
function evidenceOf(status: 'pass' | 'fail' | 'inconclusive', tallies: readonly Tally[], ai: AiUse) {
  const perRule = new Map<string, number>();
  for (const t of tallies) perRule.set(t.rule.id, (perRule.get(t.rule.id) ?? 0) + 1);
  const rules = [...perRule].map(([id, n]) => `${id} ${n}`).join(', ');
  const notes = [...new Set(tallies.map((t) => t.result.note).filter((n) => n !== ''))].slice(0, 3);
  const verb = status === 'fail' ? 'failed' : status === 'inconclusive' ? 'cannot be decided from static HTML' : 'passed';
  const judgement = status === 'inconclusive' && !ai.used && tallies.some((t) => t.rule.judgement === true) ? ' (no AI step configured)' : '';
  const head = `${tallies.length} ${verb}${judgement} (${rules})`;
  return outcome(status, notes.length === 0 ? head : `${head}: ${notes.join('; ')}`);
}
