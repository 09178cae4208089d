// ARIA attributes (ACT 5f99a7, 6a7281, 5c01ea, kb1m8s): every aria-* attribute is defined, has a
// value of its type, and is allowed (and not prohibited) on the element's role. The tables come
// from aria-query.
import type { Element } from 'domhandler';
import { ariaProperty, GLOBAL_PROPERTIES, inputType, isAriaProperty, nativeOnlyRole, roleDefinition } from '../aria.ts';
import type { WcagContext } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

function* ariaAttributes(ctx: WcagContext): Generator<[Element, string, string]> {
  for (const el of ctx.ariaElements) for (const name in el.attribs) if (name.startsWith('aria-')) yield [el, name, el.attribs[name]!];
}

export const ariaAttrDefined: WcagRule = {
  id: 'aria-attr-defined',
  actRules: ['5f99a7'],
  // ACT maps it to 1.3.1 and 4.1.2 only as secondary requirements (a page may fail it and satisfy
  // them): a fail is a warning there, never an error (README, "Criteria and ACT mappings").
  criteria: [],
  secondary: ['1.3.1', '4.1.2'],
  applicability: 'Any attribute whose name starts with `aria-`.',
  expectation: 'It is defined in WAI-ARIA.',
  *evaluate(ctx) {
    for (const [el, name] of ariaAttributes(ctx)) {
      yield isAriaProperty(name) ? passed(el) : failed(el, `${name} is not a WAI-ARIA attribute`);
    }
  },
};

const INTEGER = /^\s*-?\d+\s*$/;
const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** Whether a value fits the WAI-ARIA value type of the property. */
export function validAriaValue(name: string, raw: string): boolean {
  const def = ariaProperty(name);
  if (def === undefined) return true;
  const value = raw.trim().toLowerCase();
  const values = (def.values ?? []).map(String);
  switch (def.type) {
    case 'boolean':
      return value === 'true' || value === 'false' || (def.allowundefined === true && value === 'undefined');
    case 'tristate':
      return value === 'true' || value === 'false' || value === 'mixed';
    case 'integer':
      return INTEGER.test(value);
    case 'number':
      return NUMBER.test(value);
    case 'token':
      return values.includes(value) || (value === 'undefined' && def.allowundefined === true);
    case 'tokenlist':
      return value.split(/\s+/).every((token) => values.includes(token));
    case 'id':
      return !/\s/.test(raw.trim());
    default:
      return true;
  }
}

export const ariaValidValue: WcagRule = {
  id: 'aria-valid-value',
  actRules: ['6a7281'],
  // ACT maps it to 1.3.1 and 4.1.2 only as secondary requirements (a page may fail it and satisfy
  // them): a fail is a warning there, never an error (README, "Criteria and ACT mappings").
  criteria: [],
  secondary: ['1.3.1', '4.1.2'],
  applicability: 'Any WAI-ARIA state or property with a non-empty value.',
  expectation: 'The value is valid for the property’s value type (ID references need not resolve).',
  *evaluate(ctx) {
    for (const [el, name, value] of ariaAttributes(ctx)) {
      if (value.trim() === '' || !isAriaProperty(name)) continue;
      yield validAriaValue(name, value) ? passed(el) : failed(el, `${name}="${value}" is not a valid value`);
    }
  },
};

/** Properties HTML itself allows on an element whatever its role (ARIA in HTML). */
function allowedByLanguage(el: Element, name: string): boolean {
  if (name === 'aria-checked' && el.name === 'input' && inputType(el) === 'checkbox') return true;
  if ((name === 'aria-required' || name === 'aria-readonly' || name === 'aria-invalid') && ['input', 'select', 'textarea'].includes(el.name)) return true;
  if (name === 'aria-expanded' && el.name === 'summary') return true;
  return false;
}

function supported(role: string | null, name: string): boolean {
  if (GLOBAL_PROPERTIES.has(name)) return true;
  if (role === null) return false;
  const def = roleDefinition(role);
  if (def === undefined) return false;
  return name in def.props || name in def.requiredProps;
}

/**
 * Prohibited on the role per aria-query; the braille counterparts (WAI-ARIA 1.3) follow their
 * originals, and a role description is prohibited where the role has no semantics to describe.
 */
function prohibited(role: string | null, name: string): boolean {
  if (role === null) return false;
  const def = roleDefinition(role);
  const list = (def?.prohibitedProps ?? []) as readonly string[];
  if (list.includes(name)) return true;
  if (name === 'aria-braillelabel') return list.includes('aria-label') || role === 'none';
  if (name === 'aria-roledescription' || name === 'aria-brailleroledescription') return role === 'generic' || role === 'none' || role === 'presentation';
  return false;
}

/**
 * The role whose property rules apply: the semantic role; for an element with none, generic (ARIA
 * in HTML), unless HTML-AAM gives it native semantics of its own (audio, iframe, a colour or file
 * input, …): then no ARIA role's prohibitions apply (null).
 */
function effectiveRole(ctx: WcagContext, el: Element): string | null {
  const role = ctx.role(el);
  if (role !== null) return role;
  return nativeOnlyRole(el) === null ? 'generic' : null;
}

function roleText(role: string | null, el: Element): string {
  return role === null ? `<${el.name}${el.name === 'input' ? ` type=${inputType(el)}` : ''}> (no ARIA role)` : `role ${role}`;
}

export const ariaAllowedAttr: WcagRule = {
  id: 'aria-allowed-attr',
  actRules: ['5c01ea'],
  // ACT maps it to 1.3.1 and 4.1.2 only as secondary requirements (a page may fail it and satisfy
  // them): a fail is a warning there, never an error (README, "Criteria and ACT mappings").
  criteria: [],
  secondary: ['1.3.1', '4.1.2'],
  applicability: 'Any WAI-ARIA state or property on an element included in the accessibility tree.',
  expectation: 'It is global, supported or required by the element’s role, or allowed on the element by HTML, and it is not prohibited on the role.',
  *evaluate(ctx) {
    for (const [el, name] of ariaAttributes(ctx)) {
      if (!isAriaProperty(name) || ctx.isIncluded(el) === false) continue;
      const role = effectiveRole(ctx, el);
      if (prohibited(role, name)) yield failed(el, `${name} is prohibited on ${roleText(role, el)}`);
      else if (supported(role, name) || allowedByLanguage(el, name)) yield passed(el);
      else yield failed(el, `${name} is not supported on ${roleText(role, el)}`);
    }
  },
};

export const ariaProhibitedAttr: WcagRule = {
  id: 'aria-prohibited-attr',
  actRules: ['kb1m8s'],
  // ACT maps it to 1.3.1 only as a secondary requirement: a fail is a warning there.
  criteria: [],
  secondary: ['1.3.1'],
  applicability: 'Any global WAI-ARIA property on an element included in the accessibility tree.',
  expectation: 'It is not prohibited on the element’s role (e.g. aria-label on a generic element).',
  *evaluate(ctx) {
    for (const [el, name] of ariaAttributes(ctx)) {
      if (!(GLOBAL_PROPERTIES.has(name) || name.startsWith('aria-braille')) || ctx.isIncluded(el) === false) continue;
      const role = effectiveRole(ctx, el);
      yield prohibited(role, name) ? failed(el, `${name} is prohibited on ${roleText(role, el)}`) : passed(el);
    }
  },
};
