// Elements that need a non-empty accessible name (ACT c487ae links, 97a4e1 buttons, e086e5 form
// fields, 23a2a8 images, 59796f image buttons, 7d6734 SVG images, m6b1q3 menu items, 2t702h
// summaries, cae760 iframes). One rule each; they share the check.
import type { Element } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import { explicitRole, inputType, rolesInheriting } from '../aria.ts';
import type { WcagContext } from '../context.ts';
import type { WcagCriterion } from '../criteria.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

function nameResult(ctx: WcagContext, el: Element, what: string): RuleResult | undefined {
  const included = ctx.isIncluded(el);
  if (included === false) return undefined;
  if (ctx.name(el) !== '') return passed(el);
  if (included === undefined) return cantTell(el, ctx.undecidedCss(`${what} without a name, whose visibility depends on undecidable CSS`));
  return failed(el, `${what} has no accessible name`);
}

function nameRule(spec: {
  id: string;
  act: string;
  criteria: readonly WcagCriterion[];
  applicability: string;
  what: string;
  targets: (ctx: WcagContext) => Iterable<Element>;
}): WcagRule {
  return {
    id: spec.id,
    actRules: [spec.act],
    criteria: spec.criteria,
    applicability: spec.applicability,
    expectation: 'It has a non-empty accessible name.',
    *evaluate(ctx) {
      for (const el of spec.targets(ctx)) {
        const result = nameResult(ctx, el, spec.what);
        if (result !== undefined) yield result;
      }
    },
  };
}

/** link and the roles inheriting from it (DPUB back links, bibliography, glossary and note references). */
const LINK_ROLES = rolesInheriting('link');

export const linkName = nameRule({
  id: 'link-name',
  act: 'c487ae',
  criteria: ['2.4.4', '4.1.2'],
  applicability: 'An element with the semantic role link, included in the accessibility tree.',
  what: 'link',
  targets: (ctx) => LINK_ROLES.flatMap((role) => ctx.withRole(role)).sort(byDocumentOrder(ctx)),
});

export const buttonName = nameRule({
  id: 'button-name',
  act: '97a4e1',
  criteria: ['4.1.2'],
  applicability: 'An element with the semantic role button (not an image button), included in the accessibility tree.',
  what: 'button',
  targets: (ctx) => ctx.withRole('button').filter((el) => !(el.name === 'input' && inputType(el) === 'image')),
});

const FIELD_ROLES = ['checkbox', 'combobox', 'listbox', 'menuitemcheckbox', 'menuitemradio', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'textbox'];

export const formFieldName = nameRule({
  id: 'form-field-name',
  act: 'e086e5',
  criteria: ['4.1.2'],
  applicability: 'An element with a form field role (checkbox, combobox, listbox, radio, searchbox, slider, spinbutton, switch, textbox, …), included in the accessibility tree.',
  what: 'form field',
  targets: (ctx) => {
    const out = FIELD_ROLES.flatMap((role) => ctx.withRole(role));
    // Inputs HTML-AAM gives no ARIA role (date, time, color, file, password, …) are form fields all the same.
    for (const el of ctx.tagged('input')) if (ctx.role(el) === null && inputType(el) !== 'hidden') out.push(el);
    return out.sort(byDocumentOrder(ctx));
  },
});

export const imageName = nameRule({
  id: 'image-name',
  act: '23a2a8',
  criteria: ['1.1.1'],
  applicability: 'An `<img>` not marked decorative, or an element with an explicit role img, included in the accessibility tree.',
  what: 'image',
  targets: (ctx) => {
    const out = ctx.tagged('img').filter((el) => ctx.role(el) === 'img' || (ctx.role(el) !== 'presentation' && ctx.role(el) !== 'none' && el.attribs.alt !== ''));
    for (const el of ctx.roleElements) if (el.name !== 'img' && explicitRole(el) === 'img' && el.name !== 'svg') out.push(el);
    return out.sort(byDocumentOrder(ctx));
  },
});

export const imageButtonName = nameRule({
  id: 'image-button-name',
  act: '59796f',
  criteria: ['1.1.1', '4.1.2'],
  applicability: 'An `<input type="image">` included in the accessibility tree.',
  what: 'image button',
  targets: (ctx) => ctx.tagged('input').filter((el) => inputType(el) === 'image'),
});

export const svgImageName = nameRule({
  id: 'svg-img-name',
  act: '7d6734',
  criteria: ['1.1.1'],
  applicability: 'An `<svg>` (or SVG shape) with an explicit role img, graphics-document or graphics-symbol, included in the accessibility tree.',
  what: 'SVG image',
  targets: (ctx) => ctx.roleElements.filter((el) => insideOrIsSvg(el) && ['img', 'graphics-document', 'graphics-symbol'].includes(explicitRole(el) ?? '')),
});

export const menuitemName = nameRule({
  id: 'menuitem-name',
  act: 'm6b1q3',
  criteria: ['4.1.2'],
  applicability: 'An element with the semantic role menuitem, included in the accessibility tree.',
  what: 'menu item',
  targets: (ctx) => ctx.withRole('menuitem'),
});

export const summaryName = nameRule({
  id: 'summary-name',
  act: '2t702h',
  criteria: ['4.1.2'],
  applicability: 'A `<summary>` that toggles its `<details>`, with no explicit role, included in the accessibility tree.',
  what: 'summary',
  targets: (ctx) => ctx.tagged('summary').filter((el) => ctx.role(el) === 'button' && explicitRole(el) !== 'button'),
});

export const iframeName = nameRule({
  id: 'iframe-name',
  act: 'cae760',
  criteria: ['4.1.2'],
  applicability: 'An `<iframe>` included in the accessibility tree that is not removed from sequential focus (tabindex ≥ 0 or none).',
  what: 'iframe',
  targets: (ctx) => ctx.tagged('iframe').filter((el) => (ctx.tabindex(el) ?? 0) >= 0 && explicitRole(el) !== 'presentation' && explicitRole(el) !== 'none'),
});

function insideOrIsSvg(el: Element): boolean {
  for (let a: Element | null = el; a !== null; a = parentElement(a)) if (a.name === 'svg') return true;
  return false;
}

function byDocumentOrder(ctx: WcagContext): (a: Element, b: Element) => number {
  return (a, b) => ctx.position(a) - ctx.position(b);
}
