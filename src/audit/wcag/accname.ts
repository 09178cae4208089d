// The accessible name (Accessible Name and Description Computation 1.2, with HTML-AAM's native
// sources), as far as static markup decides it: aria-labelledby, aria-label, the host language's
// own labels (label, alt, value of buttons, legend, caption, figcaption, SVG title), name from
// content, then the tooltip (title, placeholder). Hidden content is left out, except inside an
// aria-labelledby traversal, which includes hidden referenced content as the spec says.
//
// Iterative budget: a traversal visits each element at most once (cycles in aria-labelledby or
// nested labels end there), and a name is cut at NAME_MAX characters.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { inputType, roleDefinition } from './aria.ts';
import type { WcagContext } from './context.ts';
import { ATTRIBUTE } from './element-memo.ts';
import { UNKNOWN } from './styles.ts';

const NAME_MAX = 2000;

/** Elements whose boxes are inline by default: their text runs on without a separating space. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small',
  'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'label', 'img', 'svg', 'input', 'button', 'select', 'textarea', 'output',
  'del', 'ins', 'wbr', 'big', 'tt', 'strike', 'nobr', 'meter', 'progress',
]);

interface Traversal {
  visited: Set<Element>;
  /** Inside an aria-labelledby traversal: hidden content counts. */
  labelledBy: boolean;
  /** Computing a descendant as part of another element's name (name from content or a label's content). */
  recursing: boolean;
  /** The element whose name is being computed (its own value never names it through an embedded label). */
  root: Element;
}

export function accessibleName(ctx: WcagContext, el: Element): string {
  return flatten(compute(ctx, el, { visited: new Set(), labelledBy: false, recursing: false, root: el }));
}

/** Whitespace that collapsing would change: any but a single plain space. */
const UNCOLLAPSED = /[^\S ]| \s/;

function flatten(text: string): string {
  const collapsed = (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  return collapsed.length > NAME_MAX ? collapsed.slice(0, NAME_MAX) : collapsed;
}

function compute(ctx: WcagContext, el: Element, t: Traversal): string {
  if (t.visited.has(el)) return '';
  t.visited.add(el);
  // 2A: hidden, and not reached through aria-labelledby.
  if (!t.labelledBy && t.recursing && ctx.isProgrammaticallyHidden(el) === true) return '';
  const role = ctx.role(el);
  const attributes = ctx.attributes(el);
  // 2B: aria-labelledby, not followed a second time within a traversal.
  if (!t.labelledBy && attributes & ATTRIBUTE.aria) {
    const ids = (el.attribs['aria-labelledby'] ?? '').trim();
    if (ids !== '') {
      const parts: string[] = [];
      for (const id of ids.split(/\s+/)) {
        const target = ctx.byId(id);
        if (target === undefined) continue;
        parts.push(flatten(compute(ctx, target, { visited: t.visited, labelledBy: true, recursing: true, root: t.root })));
      }
      const joined = parts.filter((p) => p !== '').join(' ');
      if (joined.trim() !== '') return joined;
    }
  }
  // 2C: an embedded control inside a label or content being named contributes its value.
  if (t.recursing && el !== t.root) {
    const value = embeddedValue(ctx, el, role, t);
    if (value !== undefined) return value;
  }
  // 2D: aria-label.
  const ariaLabel = attributes & ATTRIBUTE.aria ? (el.attribs['aria-label'] ?? '').trim() : '';
  if (ariaLabel !== '' && !(t.recursing && (role === 'none' || role === 'presentation'))) return ariaLabel;
  // 2E: the host language's own label.
  if (role !== 'none' && role !== 'presentation') {
    const native = nativeName(ctx, el, t);
    if (native !== undefined && native.trim() !== '') return native;
  } else if (el.name === 'img' && !t.recursing) return '';
  // 2F: name from content, for roles that allow it and for any descendant during recursion.
  if (t.recursing || allowsNameFromContent(role) || el.name === 'label' || el.name === 'legend' || el.name === 'caption' || el.name === 'figcaption') {
    const content = fromContent(ctx, el, t);
    if (content.trim() !== '') return content;
  }
  // 2I: the tooltip.
  const title = attributes & ATTRIBUTE.title ? el.attribs.title!.trim() : '';
  if (title !== '') return title;
  if ((el.name === 'input' || el.name === 'textarea') && !t.recursing) {
    const placeholder = (el.attribs.placeholder ?? el.attribs['aria-placeholder'] ?? '').trim();
    if (placeholder !== '') return placeholder;
  }
  if (el.name === 'svg' || role === 'img' || role === 'graphics-document') {
    const svgTitle = firstChild(el, 'title');
    if (svgTitle !== undefined) return textContent(svgTitle);
  }
  return '';
}

function allowsNameFromContent(role: string | null): boolean {
  if (role === null) return false;
  const def = roleDefinition(role);
  return def?.nameFrom?.includes('contents') === true;
}

function embeddedValue(ctx: WcagContext, el: Element, role: string | null, t: Traversal): string | undefined {
  if (role === 'textbox' || role === 'searchbox') {
    if (el.name === 'textarea') return textContent(el);
    // A password field's value is never spoken (Chromium exposes it masked): it names nothing.
    if (el.name === 'input' && inputType(el) === 'password') return undefined;
    if (el.name === 'input') return el.attribs.value ?? '';
    return fromContent(ctx, el, t);
  }
  if (role === 'combobox' || role === 'listbox') {
    if (el.name === 'select') {
      const options = descendants(el, 'option');
      const selected = options.find((o) => o.attribs.selected !== undefined) ?? (el.attribs.multiple === undefined ? options[0] : undefined);
      return selected === undefined ? '' : textContent(selected);
    }
    const selected = descendantsWhere(el, (d) => ctx.role(d) === 'option' && (d.attribs['aria-selected'] ?? '') === 'true')[0];
    if (selected !== undefined) return fromContent(ctx, selected, t);
    if (el.name === 'input') return el.attribs.value ?? '';
    return '';
  }
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar' || role === 'meter') {
    const text = el.attribs['aria-valuetext'];
    if (text !== undefined) return text;
    const now = el.attribs['aria-valuenow'];
    if (now !== undefined) return now;
    if (el.name === 'input') return el.attribs.value ?? '';
  }
  return undefined;
}

function nativeName(ctx: WcagContext, el: Element, t: Traversal): string | undefined {
  const tag = el.name;
  if (tag === 'input') {
    const type = inputType(el);
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const value = el.attribs.value;
      if (value !== undefined && value.trim() !== '') return value;
      const label = labelText(ctx, el, t);
      if (label !== '') return label;
      // The default label stands in for an absent value only: value="" shows no text, and browsers name it "".
      if (value !== undefined) return undefined;
      if (type === 'submit') return 'Submit';
      if (type === 'reset') return 'Reset';
      return undefined;
    }
    if (type === 'image') {
      const alt = el.attribs.alt;
      if (alt !== undefined && alt.trim() !== '') return alt;
      const label = labelText(ctx, el, t);
      if (label !== '') return label;
      const value = el.attribs.value;
      if (value !== undefined && value.trim() !== '') return value;
      // No default name: an image button without a text alternative has none (its 'Submit' label is not one).
      return undefined;
    }
    if (type === 'hidden') return undefined;
    return labelText(ctx, el, t);
  }
  if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output') return labelText(ctx, el, t);
  if (tag === 'button') {
    const label = labelText(ctx, el, t);
    if (label !== '') return label;
    return undefined;
  }
  if (tag === 'img' || tag === 'area') return el.attribs.alt;
  if (tag === 'fieldset') return childText(ctx, el, 'legend', t);
  if (tag === 'figure') return childText(ctx, el, 'figcaption', t);
  if (tag === 'table') return childText(ctx, el, 'caption', t);
  if (tag === 'optgroup') return el.attribs.label;
  if (tag === 'svg' || el.namespace === 'http://www.w3.org/2000/svg') {
    const title = firstChild(el, 'title');
    return title === undefined ? undefined : textContent(title);
  }
  if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') return undefined;
  return undefined;
}

/** The text of the element's labels: `<label for>` pointing at its id, then the `<label>` wrapping it. */
function labelText(ctx: WcagContext, el: Element, t: Traversal): string {
  const parts: string[] = [];
  const id = el.attribs.id;
  if (id !== undefined && ctx.byId(id) === el) {
    for (const label of ctx.labelsFor.get(id) ?? []) parts.push(flatten(labelContent(ctx, label, t)));
  }
  for (let a = el.parent; a !== null && isTag(a); a = a.parent) {
    if (a.name === 'label') {
      // A wrapping label with a for= naming another element does not label this one.
      const forId = a.attribs.for;
      if (forId === undefined || forId === id) parts.push(flatten(labelContent(ctx, a, t)));
      break;
    }
  }
  return [...new Set(parts)].filter((p) => p !== '').join(' ');
}

function labelContent(ctx: WcagContext, label: Element, t: Traversal): string {
  if (t.visited.has(label)) return '';
  if (!t.labelledBy && ctx.isProgrammaticallyHidden(label) === true) return '';
  return fromContent(ctx, label, { ...t, recursing: true });
}

function childText(ctx: WcagContext, el: Element, tag: string, t: Traversal): string | undefined {
  const child = firstChild(el, tag);
  return child === undefined ? undefined : fromContent(ctx, child, { ...t, recursing: true });
}

/** Name from content: every child's text alternative, concatenated, blocks separated by spaces. */
function fromContent(ctx: WcagContext, el: Element, t: Traversal): string {
  let out = '';
  const rt = { ...t, recursing: true };
  for (const child of el.children) {
    if (out.length > NAME_MAX) break;
    if (isText(child)) {
      out += child.data;
    } else if (isTag(child)) {
      if (child.name === 'script' || child.name === 'style' || child.name === 'template' || child.name === 'noscript' || child.name === 'title') continue;
      const part = compute(ctx, child, rt);
      if (isBlock(ctx, child) || child.name === 'br') out += ` ${part} `;
      else out += part;
    }
  }
  return out;
}

function isBlock(ctx: WcagContext, el: Element): boolean {
  const display = ctx.styles.cascaded(el, 'display');
  if (display !== undefined && display !== UNKNOWN) return !display.value.startsWith('inline') && display.value !== 'contents';
  return !INLINE.has(el.name);
}

function firstChild(el: Element, tag: string): Element | undefined {
  for (const child of el.children) if (isTag(child) && child.name === tag) return child;
  return undefined;
}

export function textContent(el: Element): string {
  let text = '';
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0 && text.length <= NAME_MAX) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return flatten(text);
}

function descendants(el: Element, tag: string): Element[] {
  return descendantsWhere(el, (d) => d.name === tag);
}

function descendantsWhere(el: Element, test: (d: Element) => boolean): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (test(node)) out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}
