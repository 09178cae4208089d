// ACT ffd0e9: a heading has a non-empty accessible name. ACT maps the rule to ARIA's name
// computation only, no WCAG criterion, so a fail is never an error: it is a warning-severity
// fail of 2.4.6 (a heading that describes no topic), where the criterion's heading questions
// already are (README, "Criteria and ACT mappings").
import { failed, passed, cantTell, type WcagRule } from './rule.ts';

export const headingName: WcagRule = {
  id: 'heading-name',
  actRules: ['ffd0e9'],
  criteria: [],
  secondary: ['2.4.6'],
  applicability: 'An element with the semantic role heading, included in the accessibility tree.',
  expectation: 'It has a non-empty accessible name.',
  *evaluate(ctx) {
    for (const el of ctx.withRole('heading')) {
      const included = ctx.isIncluded(el);
      if (included === false) continue;
      if (ctx.name(el) !== '') yield passed(el);
      else if (included === undefined) yield cantTell(el, ctx.undecidedCss('empty heading whose visibility depends on CSS the page does not decide'));
      else yield failed(el, 'the heading has no accessible name');
    }
  },
};
