// WCAG 2.0/2.1 4.1.1 Parsing: ids are unique (obsolete and removed in 2.2, so a WCAG22AA audit
// never reports it). Read from the page's id index: one pass, whatever the number of duplicates.
import { failed, passed, type WcagRule } from './rule.ts';

export const duplicateId: WcagRule = {
  id: 'duplicate-id',
  actRules: ['3ea0c8'],
  criteria: ['4.1.1'],
  applicability: 'An element with a non-empty id.',
  expectation: 'No other element has the same id.',
  *evaluate(ctx) {
    for (const [id, elements] of ctx.page.ids) {
      if (id === '') continue;
      if (elements.length === 1) yield passed(elements[0]!);
      else for (const el of elements.slice(1)) yield failed(el, `id "${id.slice(0, 40)}" is used ${elements.length} times`);
    }
  },
};
