// ACT 73f2c2: an autocomplete attribute is a valid autofill detail token list (HTML's grammar:
// section-*, shipping|billing, a contact type only before a contact field, one field name, then
// an optional webauthn).
import type { Element } from 'domhandler';
import { inputType, roleDefinition } from '../aria.ts';
import type { WcagContext } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

// The autofill field names of the HTML standard (4.10.18.7.1), by the controls they suit:
// text-like controls take every field; the others are listed by the input types they need.
const FIELDS = [
  'name', 'honorific-prefix', 'given-name', 'additional-name', 'family-name', 'honorific-suffix', 'nickname', 'username',
  'new-password', 'current-password', 'one-time-code', 'organization-title', 'organization', 'street-address',
  'address-line1', 'address-line2', 'address-line3', 'address-level4', 'address-level3', 'address-level2', 'address-level1',
  'country', 'country-name', 'postal-code', 'cc-name', 'cc-given-name', 'cc-additional-name', 'cc-family-name', 'cc-number',
  'cc-exp', 'cc-exp-month', 'cc-exp-year', 'cc-csc', 'cc-type', 'transaction-currency', 'transaction-amount', 'language',
  'bday', 'bday-day', 'bday-month', 'bday-year', 'sex', 'url', 'photo',
];
const CONTACT_FIELDS = ['tel', 'tel-country-code', 'tel-national', 'tel-area-code', 'tel-local', 'tel-local-prefix', 'tel-local-suffix', 'tel-extension', 'email', 'impp'];
const ALL_FIELDS = new Set([...FIELDS, ...CONTACT_FIELDS]);
const CONTACT = new Set(CONTACT_FIELDS);

export function validAutocomplete(value: string): boolean {
  const tokens = value.trim().toLowerCase().split(/\s+/);
  let i = 0;
  if (tokens[i]?.startsWith('section-')) i++;
  if (tokens[i] === 'shipping' || tokens[i] === 'billing') i++;
  let contactType = false;
  if (['home', 'work', 'mobile', 'fax', 'pager'].includes(tokens[i] ?? '')) {
    contactType = true;
    i++;
  }
  const field = tokens[i];
  if (field === undefined || !ALL_FIELDS.has(field)) return false;
  if (contactType && !CONTACT.has(field)) return false;
  i++;
  if (tokens[i] === 'webauthn') i++;
  return i === tokens.length;
}

const FIXED = new Set(['button', 'checkbox', 'file', 'image', 'radio', 'reset', 'submit']);

function isWidget(role: string | null): boolean {
  if (role === null) return false;
  return roleDefinition(role)?.superClass.some((chain) => chain.includes('widget')) === true;
}

function applies(ctx: WcagContext, el: Element): boolean {
  const value = el.attribs.autocomplete;
  if (value === undefined || value.trim() === '') return false;
  const lower = value.trim().toLowerCase();
  if (lower === 'on' || lower === 'off') return false;
  if (el.attribs.disabled !== undefined || (el.attribs['aria-disabled'] ?? '').trim().toLowerCase() === 'true') return false;
  if (el.name === 'input' && (FIXED.has(inputType(el)) || inputType(el) === 'hidden')) return false;
  if (ctx.isVisible(el) === false && ctx.isIncluded(el) === false) return false;
  if (ctx.inSequentialFocus(el) === false && !isWidget(ctx.role(el))) return false;
  return true;
}

export const autocompleteValid: WcagRule = {
  id: 'autocomplete-valid',
  actRules: ['73f2c2'],
  criteria: ['1.3.5'],
  applicability: 'An enabled, perceivable `input`, `select` or `textarea` with an autocomplete value other than on/off.',
  expectation: 'The value is a valid autofill detail token list.',
  *evaluate(ctx) {
    for (const tag of ['input', 'select', 'textarea']) {
      for (const el of ctx.tagged(tag)) {
        if (!applies(ctx, el)) continue;
        const value = el.attribs.autocomplete!;
        yield validAutocomplete(value) ? passed(el) : failed(el, `autocomplete="${value.trim()}" is not a valid autofill token list for this control`);
      }
    }
  },
};
