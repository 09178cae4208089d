// Scores the WCAG engine on the W3C ACT test cases the way the W3C implementation reports do:
// per ACT rule, by the engine's own rule→ACT mapping (DESIGN.md). For each case, the outcomes
// of the engine rules mapped to the case's ACT rule decide:
// - consistent: every failed example gets a fail, and no passed or inapplicable example does;
// - partial: nothing is wrong, but some failed examples are missed or answered cantTell;
// - inconsistent: a false fail, or a failed example answered passed only.
// Criterion level, beside it: does the audit fail one of the case's criteria with an error (a
// rule's `criteria`), or only with a warning (a rule's `secondary` criteria: issue 18)?
import fs from 'node:fs';
import path from 'node:path';
import { runEngineOnHtml } from '../src/audit/wcag/engine.ts';
import { WCAG_RULES } from '../src/audit/wcag/rules/index.ts';

export interface ManifestCase {
  ruleId: string;
  ruleName: string;
  scEffective: string[];
  outcome: 'passed' | 'failed' | 'inapplicable';
  file: string;
  testcaseId: string;
  title: string;
  staticOk: boolean;
  url: string;
}

export type CaseVerdict = 'ok' | 'missed' | 'cantTell' | 'falseFail' | 'reportedPassing';
export type RuleScore = 'consistent' | 'partial' | 'inconsistent';

export interface CaseResult {
  ruleId: string;
  testcaseId: string;
  title: string;
  expected: ManifestCase['outcome'];
  /** The outcomes the mapped engine rules gave (empty: inapplicable). */
  got: string[];
  verdict: CaseVerdict;
  /** Criterion level: criteria of the case that the engine failed (an error). */
  failedCriteria: string[];
  /** Criteria of the case the engine failed with a warning only (a secondary rule's fail). */
  warnedCriteria: string[];
}

export interface ConformanceReport {
  cases: number;
  rules: Record<string, { name: string; score: RuleScore; cases: number; verdicts: Record<CaseVerdict, number>; engineRules: string[] }>;
  counts: Record<RuleScore, number>;
  notImplemented: { ruleId: string; name: string; cases: number }[];
  criteria: Record<string, { failedCases: number; detected: number; warned: number; passedCases: number; flagged: number; flaggedWarning: number }>;
  problems: CaseResult[];
}

/** Engine rules by the ACT rule they implement. */
export function engineRulesByAct(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const rule of WCAG_RULES) for (const act of rule.actRules) map.set(act, [...(map.get(act) ?? []), rule.id]);
  return map;
}

export function scoreConformance(actDir: string): ConformanceReport {
  const manifest = JSON.parse(fs.readFileSync(path.join(actDir, 'manifest.json'), 'utf8')) as ManifestCase[];
  const byAct = engineRulesByAct();
  const cases = manifest.filter((c) => c.staticOk);
  const results: CaseResult[] = [];
  const criteria: ConformanceReport['criteria'] = {};
  for (const c of cases) {
    const html = fs.readFileSync(path.join(actDir, c.file), 'utf8');
    const run = runEngineOnHtml(html, c.url, { html: c.file.endsWith('.html') });
    const mapped = new Set(byAct.get(c.ruleId) ?? []);
    const got: string[] = [];
    const failedCriteria = new Set<string>();
    const warnedCriteria = new Set<string>();
    for (const { rule, results: ruleResults } of run.runs) {
      for (const r of ruleResults) {
        if (mapped.has(rule.id)) got.push(r.outcome);
        if (r.outcome === 'failed') for (const sc of rule.criteria) failedCriteria.add(sc);
        if (r.outcome === 'failed') for (const sc of rule.secondary ?? []) warnedCriteria.add(sc);
      }
    }
    results.push({
      ruleId: c.ruleId,
      testcaseId: c.testcaseId,
      title: c.title,
      expected: c.outcome,
      got,
      verdict: verdictOf(c.outcome, got),
      failedCriteria: c.scEffective.filter((sc) => failedCriteria.has(sc)),
      warnedCriteria: c.scEffective.filter((sc) => !failedCriteria.has(sc) && warnedCriteria.has(sc)),
    });
    for (const sc of c.scEffective) {
      const entry = (criteria[sc] ??= { failedCases: 0, detected: 0, warned: 0, passedCases: 0, flagged: 0, flaggedWarning: 0 });
      const warned = !failedCriteria.has(sc) && warnedCriteria.has(sc);
      if (c.outcome === 'failed') {
        entry.failedCases++;
        if (failedCriteria.has(sc)) entry.detected++;
        else if (warned) entry.warned++;
      } else {
        entry.passedCases++;
        if (failedCriteria.has(sc)) entry.flagged++;
        else if (warned) entry.flaggedWarning++;
      }
    }
  }
  const rules: ConformanceReport['rules'] = {};
  const counts: Record<RuleScore, number> = { consistent: 0, partial: 0, inconsistent: 0 };
  const notImplemented: ConformanceReport['notImplemented'] = [];
  const names = new Map(cases.map((c) => [c.ruleId, c.ruleName]));
  for (const [ruleId, name] of names) {
    const ruleCases = results.filter((r) => r.ruleId === ruleId);
    const engineRules = byAct.get(ruleId);
    if (engineRules === undefined) {
      notImplemented.push({ ruleId, name, cases: ruleCases.length });
      continue;
    }
    const verdicts: Record<CaseVerdict, number> = { ok: 0, missed: 0, cantTell: 0, falseFail: 0, reportedPassing: 0 };
    for (const r of ruleCases) verdicts[r.verdict]++;
    const score: RuleScore =
      verdicts.falseFail + verdicts.reportedPassing > 0 ? 'inconsistent' : verdicts.missed + verdicts.cantTell > 0 ? 'partial' : 'consistent';
    counts[score]++;
    rules[ruleId] = { name, score, cases: ruleCases.length, verdicts, engineRules };
  }
  notImplemented.sort((a, b) => b.cases - a.cases);
  const problems = results.filter((r) => r.verdict !== 'ok' && byAct.has(r.ruleId));
  return { cases: cases.length, rules, counts, notImplemented, criteria, problems };
}

function verdictOf(expected: ManifestCase['outcome'], got: readonly string[]): CaseVerdict {
  const anyFail = got.includes('failed');
  if (expected !== 'failed') return anyFail ? 'falseFail' : 'ok';
  if (anyFail) return 'ok';
  if (got.includes('cantTell')) return 'cantTell';
  return got.length === 0 ? 'missed' : 'reportedPassing';
}
