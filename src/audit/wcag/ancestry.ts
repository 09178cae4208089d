// Facts an element takes from its ancestors (inherited CSS values, a disabled or hidden context),
// memoised down the tree so that asking every element is linear in the page, and iterative so
// that pages nested thousands deep cannot overflow the stack.
import type { Element } from 'domhandler';
import { parentElement } from '../page/dom.ts';

/**
 * The answer of the nearest inclusive ancestor that has one of its own (`own` gives undefined to
 * defer to the parent), `top` above the root. Memoised for every element passed on the way, so
 * asking it of every element costs one visit per element, not one walk to the root each.
 */
/** What `nearest` keeps its answers in: a Map or an ElementMemo. */
export interface Memo<T> {
  get(el: Element): T | undefined;
  set(el: Element, value: T): unknown;
}

export function nearest<T>(memo: Memo<T>, el: Element, own: (node: Element) => T | undefined, top: T): T {
  // The elements passed without an answer of their own: the first in a variable, as most walks
  // stop at the element or its parent, and the rest in an array allocated only when needed.
  let first: Element | undefined;
  let more: Element[] | undefined;
  let answer = top;
  for (let node: Element | null = el; node !== null; node = parentElement(node)) {
    const known = memo.get(node);
    if (known !== undefined) {
      answer = known;
      break;
    }
    const mine = own(node);
    if (mine !== undefined) {
      memo.set(node, mine);
      answer = mine;
      break;
    }
    if (first === undefined) first = node;
    else (more ??= []).push(node);
  }
  if (first !== undefined) memo.set(first, answer);
  if (more !== undefined) for (const node of more) memo.set(node, answer);
  return answer;
}
