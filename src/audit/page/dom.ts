// Small DOM helpers shared by the page model. All walks here are iterative: pages may nest
// elements thousands deep.
import { isTag, type Element } from 'domhandler';

/** The parent element, or null at the top (document root or a non-element parent). */
export function parentElement(el: Element): Element | null {
  const parent = el.parent;
  return parent !== null && isTag(parent) ? parent : null;
}
