// Focusable content where assistive technology cannot reach it (ACT 6cfa84, 307n5z): nothing in
// sequential focus navigation inside aria-hidden="true", nor inside an element whose role makes
// its children presentational (a button, an image, a checkbox, …).
import type { Element } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import { nearest } from '../ancestry.ts';
import { CHILDREN_PRESENTATIONAL_ROLES } from '../aria.ts';
import type { Tri, WcagContext } from '../context.ts';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

/** For each ancestor chosen by `isTarget`, the worst sequential-focus answer among its strict (or inclusive) descendants. */
function focusInside(ctx: WcagContext, isTarget: (el: Element) => boolean, inclusive: boolean): Map<Element, Tri> {
  const worst = new Map<Element, Tri>();
  // The nearest target at or above an element, memoised: the focusable elements share their ancestors.
  const above = ctx.memo<Element | null>();
  const targetFrom = (node: Element | null) => (node === null ? null : nearest(above, node, (a) => (isTarget(a) ? a : undefined), null));
  for (const candidate of ctx.focusCandidates) {
    const focus = ctx.inSequentialFocus(candidate);
    if (focus === false) continue;
    for (let a = targetFrom(inclusive ? candidate : parentElement(candidate)); a !== null; a = targetFrom(parentElement(a))) {
      if (worst.get(a) !== true) worst.set(a, focus);
    }
  }
  return worst;
}

export const ariaHiddenFocus: WcagRule = {
  id: 'aria-hidden-focus',
  actRules: ['6cfa84'],
  criteria: ['4.1.2'],
  applicability: 'An element with aria-hidden="true".',
  expectation: 'Neither it nor any descendant is focusable and in sequential focus navigation.',
  *evaluate(ctx) {
    const isHidden = (el: Element) => (el.attribs['aria-hidden'] ?? '').trim().toLowerCase() === 'true';
    const targets = ctx.ariaElements.filter(isHidden);
    if (targets.length === 0) return;
    const inside = focusInside(ctx, isHidden, true);
    for (const el of targets) {
      const focus = inside.get(el);
      if (focus === true) yield failed(el, 'aria-hidden content can take keyboard focus');
      else if (focus === undefined && inside.has(el)) yield cantTell(el, ctx.undecidedCss('whether the content inside can take focus depends on undecidable CSS'));
      else yield passed(el);
    }
  },
};

export const presentationalChildrenFocus: WcagRule = {
  id: 'presentational-children-focus',
  actRules: ['307n5z'],
  criteria: ['4.1.2'],
  applicability: 'An element whose role makes its children presentational (button, img, checkbox, tab, …).',
  expectation: 'None of its descendants is in sequential focus navigation.',
  *evaluate(ctx) {
    const targets = ctx.withAnyRole(CHILDREN_PRESENTATIONAL_ROLES);
    if (targets.length === 0) return;
    const isTarget = new Set(targets);
    const inside = focusInside(ctx, (el) => isTarget.has(el), false);
    for (const el of targets) {
      const focus = inside.get(el);
      if (focus === true) yield failed(el, `a focusable element sits inside a ${ctx.role(el)}, whose children are presentational`);
      else if (focus === undefined && inside.has(el)) yield cantTell(el, ctx.undecidedCss('whether the content inside can take focus depends on undecidable CSS'));
      else yield passed(el);
    }
  },
};
