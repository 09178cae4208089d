// ACT 674b10: a `role` attribute names at least one concrete WAI-ARIA role.
import { isConcreteRole } from '../aria.ts';
import { failed, passed, type WcagRule } from './rule.ts';

export const roleValid: WcagRule = {
  id: 'role-valid',
  actRules: ['674b10'],
  // ACT maps it to 1.3.1 and 4.1.2 only as secondary requirements (a page may fail it and satisfy
  // them): a fail is a warning there, never an error (README, "Criteria and ACT mappings").
  criteria: [],
  secondary: ['1.3.1', '4.1.2'],
  applicability: 'A non-blank `role` attribute on an element that is not programmatically hidden.',
  expectation: 'At least one of its tokens is a non-abstract WAI-ARIA role.',
  *evaluate(ctx) {
    for (const el of ctx.roleElements) {
      const value = el.attribs.role!.trim().toLowerCase();
      if (value === '' || ctx.isProgrammaticallyHidden(el) !== false) continue;
      yield value.split(/\s+/).some(isConcreteRole) ? passed(el) : failed(el, `role="${value}" names no WAI-ARIA role`);
    }
  },
};
