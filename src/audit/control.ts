// The shape every control of every branch shares: data (id, requirement, severity) plus one
// small evaluate function with three possible outcomes. Static HTML often cannot decide, and
// "inconclusive" is then the correct answer, never a guess.

export const BRANCHES = ['wcag', 'privacy', 'ai-governance'] as const;
export type Branch = (typeof BRANCHES)[number];

/** The WCAG conformance targets a `wcag` audit can be asked for (derived from the criteria table). */
export { WCAG_STANDARDS, type WcagStandard } from './wcag/criteria.ts';

export type Severity = 'error' | 'warning';
export type OutcomeStatus = 'pass' | 'fail' | 'inconclusive';

/** Where in the page an outcome was decided, when that is known. */
export interface Location {
  /** A CSS selector that finds the element, e.g. `footer > a:nth-of-type(2)`. */
  selector: string;
  /** The element's outer HTML, truncated to 200 characters. */
  snippet: string;
}

export interface Outcome {
  status: OutcomeStatus;
  /** Quotes what matched (≤ 200 characters) or says what was looked for and not found. */
  evidence: string;
  location?: Location;
}

export interface Control<Id extends string = string, P = unknown> {
  id: Id;
  branch: Branch;
  /** The framework function (AI governance: Govern, Map, Measure, Manage) or criterion. */
  framework: string;
  requirement: string;
  /** Severity of a `fail`. An `inconclusive` outcome is always a warning. */
  severity: Severity;
  evaluate(page: P): Outcome;
}
