// Runs the registered rules over one page: the page is parsed once (page.ts), the WCAG context
// builds its indexes once, and every rule reads them. Returns each rule's outcomes, located.
import type { Location } from '../control.ts';
import { buildPage, type Page } from '../page.ts';
import { WcagContext } from './context.ts';
import { WCAG_RULES } from './rules/index.ts';
import type { RuleOutcome, WcagRule } from './rules/rule.ts';

export interface LocatedResult {
  outcome: RuleOutcome;
  note: string;
  /** Absent for a page-level target without an element. */
  location?: Location;
}

export interface RuleRun {
  rule: WcagRule;
  /** Empty when the rule is inapplicable to the page. */
  results: LocatedResult[];
}

export interface EngineRun {
  context: WcagContext;
  runs: RuleRun[];
}

/** Builds the context from an already-built page (the audit flow) and runs every rule. */
export function runEngine(page: Page, options: { html: boolean } = { html: true }, rules: readonly WcagRule[] = WCAG_RULES): EngineRun {
  const context = new WcagContext(page, options);
  const runs: RuleRun[] = [];
  for (const rule of rules) {
    const results: LocatedResult[] = [];
    for (const result of rule.evaluate(context)) {
      const located: LocatedResult = { outcome: result.outcome, note: result.note };
      if (result.element !== null) located.location = context.locate(result.element);
      results.push(located);
    }
    runs.push({ rule, results });
  }
  return { context, runs };
}

/** Parses `html` and runs the engine: for benches and the conformance harness. */
export function runEngineOnHtml(html: string, url: string, options: { html: boolean } = { html: true }): EngineRun {
  return runEngine(buildPage(html, url), options);
}
