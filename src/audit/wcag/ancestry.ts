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
  const chain: Element[] = [];
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
    chain.push(node);
  }
  for (const node of chain) memo.set(node, answer);
  return answer;
}
