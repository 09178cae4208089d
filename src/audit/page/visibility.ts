// What counts as "visible" in static HTML. Without a style sheet or a script engine the only
// signals are the markup itself: elements that are never rendered, the `hidden` attribute,
// `aria-hidden="true"`, and inline `display` / `visibility` declarations. Class-based hiding
// (`.sr-only`, `.d-none`) and script-driven visibility cannot be known here.
import type { Element } from 'domhandler';
import { parentElement } from './dom.ts';

/** Why an element hides itself and everything inside it. */
export type HiddenReason =
  /** `<script>`, `<style>`, `<template>`, `<noscript>`, `<title>` and the like: never rendered as text. */
  | 'not-rendered'
  /** The `hidden` attribute (any value, including `until-found`). */
  | 'hidden-attribute'
  /** `aria-hidden="true"`: removed from the accessibility tree, so not counted as page text. */
  | 'aria-hidden'
  /** An inline `display: none`. */
  | 'display-none'
  /** An inline `visibility: hidden | collapse`. A descendant may show itself again with `visibility: visible`. */
  | 'visibility-hidden'
  /** A `<dialog>` without `open`: hidden by the user-agent style sheet until a script opens it. */
  | 'closed-dialog';

/** What an element does to the visibility of its subtree: a hiding reason, or an inline `visibility: visible`. */
export type VisibilityMark = HiddenReason | 'visibility-visible';

/**
 * Elements whose content is never rendered as page text. `<noscript>` counts because the service
 * audits the page a script-enabled browser shows (whose parser keeps its content as one raw text
 * node); `<template>` has no children in the tree at all (its contents are a separate fragment); `<iframe>` content is fallback text for
 * browsers without frames; `<title>` is the tab title (see `Page.title`) or an SVG tooltip.
 */
export const NOT_RENDERED: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'title',
  'iframe',
  'datalist',
  'noembed',
  'noframes',
]);

/**
 * The mark an element sets for its subtree, or null. Absorbing reasons come first: a descendant
 * cannot undo `display: none`, `hidden` or `aria-hidden`, but it can undo `visibility: hidden`.
 */
export function visibilityMark(el: Element): VisibilityMark | null {
  if (NOT_RENDERED.has(el.name)) return 'not-rendered';
  const attribs = el.attribs;
  if (attribs.hidden !== undefined) return 'hidden-attribute';
  const ariaHidden = attribs['aria-hidden'];
  if (ariaHidden !== undefined && ariaHidden.trim().toLowerCase() === 'true') return 'aria-hidden';
  if (el.name === 'dialog' && attribs.open === undefined) return 'closed-dialog';
  const style = attribs.style;
  if (style === undefined || style === '') return null;
  const inline = parseInlineVisibility(style);
  if (inline.display === 'none') return 'display-none';
  if (inline.visibility === 'hidden' || inline.visibility === 'collapse') return 'visibility-hidden';
  if (inline.visibility === 'visible') return 'visibility-visible';
  return null;
}

export interface InlineVisibility {
  display: string | null;
  visibility: string | null;
}

/**
 * Reads `display` and `visibility` from an inline style declaration, tolerantly: any case, any
 * spacing, comments, `!important` (which beats a later declaration without it), and garbage
 * declarations are skipped. The last applicable declaration wins, as in CSS.
 */
export function parseInlineVisibility(style: string): InlineVisibility {
  const result: InlineVisibility = { display: null, visibility: null };
  // Cheap exit: neither property is mentioned.
  const lower = style.toLowerCase();
  if (!lower.includes('display') && !lower.includes('visibility')) return result;
  let importantDisplay = false;
  let importantVisibility = false;
  for (const declaration of stripComments(lower).split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim();
    if (property !== 'display' && property !== 'visibility') continue;
    let value = declaration.slice(colon + 1).trim();
    const bang = value.indexOf('!');
    const important = bang >= 0 && value.slice(bang + 1).trim() === 'important';
    if (bang >= 0) value = value.slice(0, bang).trim();
    if (value === '') continue;
    if (property === 'display') {
      if (importantDisplay && !important) continue;
      result.display = value;
      importantDisplay = important;
    } else {
      if (importantVisibility && !important) continue;
      result.visibility = value;
      importantVisibility = important;
    }
  }
  return result;
}

/** CSS without its comments (an unclosed one runs to the end, as in browsers). */
export function stripComments(css: string): string {
  let start = css.indexOf('/*');
  if (start < 0) return css;
  let out = '';
  let from = 0;
  while (start >= 0) {
    out += css.slice(from, start);
    const end = css.indexOf('*/', start + 2);
    if (end < 0) return out;
    from = end + 2;
    start = css.indexOf('/*', from);
  }
  return out + css.slice(from);
}

/**
 * Whether an element would be visible, from the marks recorded while the page was built.
 * Walks the ancestors (iteratively); the nearest `visibility` declaration decides that
 * property, any absorbing reason on the way makes the element hidden.
 */
export function isVisibleIn(marks: ReadonlyMap<Element, VisibilityMark>, el: Element): boolean {
  let visibility: boolean | null = null;
  for (let node: Element | null = el; node !== null; node = parentElement(node)) {
    const mark = marks.get(node);
    if (mark === undefined) continue;
    if (mark === 'visibility-visible') visibility ??= true;
    else if (mark === 'visibility-hidden') visibility ??= false;
    else return false;
  }
  return visibility !== false;
}
