// Where an element is: a CSS selector path and a short outer-HTML snippet, so a finding can
// point at the element that decided it. Both are bounded in size whatever the page looks like.
import { render } from 'dom-serializer';
import { Element, Text, isTag, isText, type ChildNode } from 'domhandler';
import type { Location } from '../control.ts';
import { parentElement } from './dom.ts';
import { templateContent } from './parse.ts';

/** Longest snippet a location carries. */
export const SNIPPET_MAX = 200;
/** Deepest selector path emitted; deeper elements get the last levels only (still a valid selector). */
export const SELECTOR_MAX_DEPTH = 24;

/** An id that is safe to use as `#id` without escaping (no leading digit, no `:` or `.`). */
const PLAIN_ID = /^[A-Za-z_][\w-]*$/;
const PLAIN_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * The location of an element. `ids` counts the page's ids, so `#id` is used only for an id that
 * occurs once (a "unique-looking" id).
 */
export function locate(ids: ReadonlyMap<string, readonly Element[]>, el: Element): Location {
  return { selector: selectorOf(ids, el), snippet: snippetOf(el) };
}

/**
 * `html > body > footer > a:nth-of-type(2)`, or `#main > p:nth-of-type(3)` when an ancestor
 * (or the element) has a unique plain id. Paths deeper than SELECTOR_MAX_DEPTH keep their last
 * levels without the root anchor.
 */
function selectorOf(ids: ReadonlyMap<string, readonly Element[]>, el: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = el; node !== null; node = parentElement(node)) {
    const id = node.attribs.id;
    if (id !== undefined && PLAIN_ID.test(id) && ids.get(id)?.length === 1) {
      parts.push(`#${id}`);
      break;
    }
    if (parts.length === SELECTOR_MAX_DEPTH) break;
    parts.push(step(node));
  }
  return parts.reverse().join(' > ');
}

/** One step of the path: `tag`, `tag:nth-of-type(k)` among same-named siblings, or `*:nth-child(k)` for odd tag names. */
function step(el: Element): string {
  if (!PLAIN_NAME.test(el.name)) {
    let index = 1;
    for (let sibling = el.prev; sibling !== null; sibling = sibling.prev) if (isTag(sibling)) index++;
    return `*:nth-child(${index})`;
  }
  let before = 0;
  for (let sibling = el.prev; sibling !== null; sibling = sibling.prev) {
    if (isTag(sibling) && sibling.name === el.name) before++;
  }
  let after = false;
  for (let sibling = el.next; sibling !== null && !after; sibling = sibling.next) {
    if (isTag(sibling) && sibling.name === el.name) after = true;
  }
  return before === 0 && !after ? el.name : `${el.name}:nth-of-type(${before + 1})`;
}

/**
 * The element's outer HTML, truncated to SNIPPET_MAX characters. dom-serializer renders a copy
 * of only the first ~SNIPPET_MAX characters' worth of the subtree, so a huge or deeply nested
 * element costs no more than a small one (and cannot overflow the serializer's recursion).
 */
function snippetOf(el: Element): string {
  const html = render(boundedCopy(el, SNIPPET_MAX), { encodeEntities: 'utf8' });
  return truncate(html, SNIPPET_MAX);
}

/** Cuts to at most `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** A detached copy of `el` holding, in document order, only the nodes that fit in `budget` characters. */
function boundedCopy(el: Element, budget: number): Element {
  const root = shallowCopy(el);
  let remaining = budget - openTagCost(el);
  // Depth-first, iterative: each entry is an original parent, its copy and the next child index.
  const stack: Array<{ original: Element; copy: Element; index: number }> = [{ original: el, copy: root, index: 0 }];
  while (stack.length > 0 && remaining > 0) {
    const top = stack[stack.length - 1]!;
    // A template's contents are outside the tree; its outer HTML shows them, as in browsers.
    const children = templateContent(top.original)?.children ?? top.original.children;
    const child: ChildNode | undefined = children[top.index++];
    if (child === undefined) {
      stack.pop();
      continue;
    }
    if (isText(child)) {
      const data = child.data.length > remaining ? child.data.slice(0, remaining + 1) : child.data;
      append(top.copy, new Text(data));
      remaining -= data.length;
    } else if (isTag(child)) {
      const copy = shallowCopy(child);
      append(top.copy, copy);
      remaining -= openTagCost(child);
      stack.push({ original: child, copy, index: 0 });
    }
  }
  return root;
}

function shallowCopy(el: Element): Element {
  const copy = new Element(el.name, el.attribs, [], el.type);
  if (el.namespace !== undefined) copy.namespace = el.namespace;
  return copy;
}

function append(parent: Element, child: Element | Text): void {
  const last = parent.children[parent.children.length - 1];
  if (last !== undefined) {
    last.next = child;
    child.prev = last;
  }
  child.parent = parent;
  parent.children.push(child);
}

function openTagCost(el: Element): number {
  let cost = el.name.length * 2 + 5;
  for (const name in el.attribs) cost += name.length + (el.attribs[name]?.length ?? 0) + 4;
  return cost;
}
