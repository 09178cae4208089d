// The WCAG branch: the static rule engine over the page, aggregated per criterion of the
// requested standard. The AI judgement step (a later addition) plugs in after the rules: it gets
// the page summary (summary.ts) and the rule runs, and its findings merge into these.
import type { AuditResult } from '../findings.ts';
import type { Page } from '../page.ts';
import type { WcagStandard } from './criteria.ts';
import { runEngine } from './engine.ts';
import { aggregate, NO_AI_NOTE } from './findings.ts';

export { WCAG_RULES } from './rules/index.ts';
export { CRITERIA, STANDARD_CRITERIA, WCAG_STANDARDS, type WcagCriterion, type WcagStandard } from './criteria.ts';

export { summarisePage, type PageSummary } from './summary.ts';

export function analyseWcag(page: Page, standard: WcagStandard, includeWarnings: boolean): AuditResult {
  const { runs } = runEngine(page);
  // The AI step, once configured, takes summarisePage(context) and `runs` here and merges its findings.
  return aggregate(runs, standard, includeWarnings, { used: false, note: NO_AI_NOTE });
}
