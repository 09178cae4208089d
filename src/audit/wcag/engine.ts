// Runs the registered rules over one page: the page is parsed once (page.ts), the WCAG context
// builds its indexes once, and every rule reads them. Returns each rule's outcomes, located.
import type { Location } from '../control.ts';
import { buildPage, type Page } from '../page.ts';
import { WcagContext } from './context.ts';
import { WCAG_RULES } from './rules/index.ts';
import type { Element } from 'domhandler';
import type { RuleOutcome, RuleResult, WcagRule } from './rules/rule.ts';

export interface LocatedResult {
  outcome: RuleOutcome;
  note: string;
  element: Element | null;
  /** Where the target is (computed on first use: most outcomes are never shown). Undefined for a page-level target without an element. */
  readonly location: Location | undefined;
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
    for (const result of rule.evaluate(context)) results.push(located(context, result));
    runs.push({ rule, results });
  }
  return { context, runs };
}

/** A result whose location is computed on first use (most outcomes are never shown). */
class Located implements LocatedResult {
  readonly outcome: RuleOutcome;
  readonly note: string;
  readonly element: Element | null;
  private readonly context: WcagContext;
  private cached: Location | undefined | null = null;

  constructor(context: WcagContext, result: RuleResult) {
    this.context = context;
    this.outcome = result.outcome;
    this.note = result.note;
    this.element = result.element;
  }

  get location(): Location | undefined {
    if (this.cached === null) this.cached = this.element === null ? undefined : this.context.locate(this.element);
    return this.cached;
  }
}

function located(context: WcagContext, result: RuleResult): LocatedResult {
  return new Located(context, result);
}

/** Parses `html` and runs the engine: for benches and the conformance harness. */
export function runEngineOnHtml(html: string, url: string, options: { html: boolean } = { html: true }): EngineRun {
  return runEngine(buildPage(html, url), options);
}
