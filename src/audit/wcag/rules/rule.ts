// The shape of a WCAG rule (STYLE.md: a rule is data plus one small function): a stable id, the
// ACT rules it implements, the criteria it maps to, what it applies to and expects, and one
// evaluate function that yields an outcome per applicable target. A rule yields nothing on a
// page it does not apply to (inapplicable).
import type { Element } from 'domhandler';
import type { WcagContext } from '../context.ts';
import type { WcagCriterion } from '../criteria.ts';

export const OUTCOMES = ['passed', 'failed', 'cantTell'] as const;
export type RuleOutcome = (typeof OUTCOMES)[number];

export interface RuleResult {
  outcome: RuleOutcome;
  /** The target; null for a page-level target without an element of its own. */
  element: Element | null;
  /** Why, in a few words: what failed, or what static HTML cannot decide. */
  note: string;
}

export interface WcagRule {
  /** Stable public id: never renamed, never reused. */
  readonly id: string;
  /** The W3C ACT rule ids this rule implements (empty when none exists). */
  readonly actRules: readonly string[];
  /**
   * The criteria a failed outcome fails (severity error): the WCAG requirements the ACT rule maps
   * to for conformance (README, "Criteria and ACT mappings"). Empty when it maps to none.
   */
  readonly criteria: readonly WcagCriterion[];
  /**
   * Criteria the rule bears on where its ACT rule maps to none for conformance (ACT's secondary
   * requirements, or one named here): a page may fail the rule and still satisfy the criterion,
   * so a failed outcome is a `fail` of severity warning, never an error. Passed and cantTell
   * outcomes count for them as for `criteria`.
   */
  readonly secondary?: readonly WcagCriterion[];
  /** What the rule applies to. */
  readonly applicability: string;
  /** What a target must satisfy. */
  readonly expectation: string;
  /**
   * A judgement rule asks a question only a reader (or the AI step) can answer, e.g. whether alt
   * text is meaningful; without that step its outcome is cantTell wherever it applies.
   */
  readonly judgement?: boolean;
  evaluate(ctx: WcagContext): Iterable<RuleResult>;
}

export function passed(element: Element | null, note = ''): RuleResult {
  return { outcome: 'passed', element, note };
}

export function failed(element: Element | null, note: string): RuleResult {
  return { outcome: 'failed', element, note };
}

export function cantTell(element: Element | null, note: string): RuleResult {
  return { outcome: 'cantTell', element, note };
}
