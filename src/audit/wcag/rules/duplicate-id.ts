// ACT 3ea0c8, mapped to WCAG 2.0/2.1 4.1.1 Parsing: ids are unique. W3C's 2023 erratum makes
// 4.1.1 always satisfied for HTML and XML, and WCAG 2.2 removed it, so 4.1.1 is never reported
// (criteria.ts): the rule runs for its ACT rule and no audit shows its outcomes. A duplicate id
// that breaks a relationship fails the rule of that relationship (label, aria-labelledby,
// headers) under 1.3.1 or 4.1.2. Read from the page's id index: one pass, whatever the number
// of duplicates.
import { failed, passed, type WcagRule } from './rule.ts';

export const duplicateId: WcagRule = {
  id: 'duplicate-id',
  actRules: ['3ea0c8'],
  criteria: ['4.1.1'],
  applicability: 'An element with a non-empty id.',
  expectation: 'No other element has the same id.',
  *evaluate(ctx) {
    for (const [id, elements] of ctx.ids) {
      if (id === '') continue;
      if (elements.length === 1) yield passed(elements[0]!);
      else for (const el of elements.slice(1)) yield failed(el, `id "${id.slice(0, 40)}" is used ${elements.length} times`);
    }
  },
};
