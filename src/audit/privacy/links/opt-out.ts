// Finding a "Do Not Sell or Share" / "Your Privacy Choices" opt-out control.
//
// A control is an `<a href>` or `<area href>` (any href: a CMP often opens its dialog from
// `href="#"`), a `<button>`, an `<input type=button|submit|image>`, or any element with
// role=link or role=button. Its name is the accessible-ish name: aria-label, else its visible
// text plus `<img alt>` inside it, else title (inputs: value, alt). A control passes when its name
// carries an opt-out wording (vocabulary.ts) and it is visible. "Cookie settings", "Consent
// preferences" and "AdChoices" are not opt-out wordings. The same wording as plain text, or in a
// hidden control (`<template>`, `hidden`, `display:none`, …), does not pass; it is reported.
// An element that only script turns into a control (an `<a>` without href carrying an `onclick`
// attribute or OneTrust's `ot-sdk-show-settings` class) is neither: static HTML cannot show that
// it works, so it is reported for an inconclusive outcome.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { isVisible, normalizeText, type Page, type TextBlock } from '../../page.ts';
import { fold } from './text.ts';
import { isOptOutWholeName, OPT_OUT_IN_NAME } from './vocabulary.ts';

export interface OptOutControl {
  element: Element;
  /** `link`, `button`, `input` or `role=link` / `role=button`. */
  kind: string;
  name: string;
  /** Absolute href of a link; null for other controls. */
  href: string | null;
  visible: boolean;
}

export interface OptOutScan {
  /** The first visible control with an opt-out wording, in document order. */
  control: OptOutControl | undefined;
  /** The first visible element with the wording that script makes clickable (when no visible control was found). */
  scriptBound: OptOutControl | undefined;
  /** The first hidden control with an opt-out wording (when no visible one was found). */
  hidden: OptOutControl | undefined;
  /** The first visible text block carrying the wording (when no control at all was found). */
  plainText: TextBlock | undefined;
}

/** Whether a control name carries an opt-out wording. */
export function isOptOutName(name: string): boolean {
  const folded = fold(name);
  return folded !== '' && (isOptOutWholeName(folded) || OPT_OUT_IN_NAME.test(folded));
}

/**
 * A substring every OPT_OUT_PHRASES wording contains (lower case, before folding): a text block
 * without one cannot match. test/audit/privacy/links/opt-out.test.ts checks this against the variants.
 */
export const PLAIN_TEXT_ANCHOR = /sell|share|choices|sensitive|opt|vend|compartir|opciones/;

const INPUT_BUTTON_TYPES = new Set(['button', 'submit', 'image', 'reset']);
/** Collected name text is capped, so a control wrapping a whole page stays cheap. */
const NAME_MAX = 1000;

const scans = new WeakMap<Page, OptOutScan>();

/** The page's opt-out control (or near-misses); computed once per page. */
export function scanOptOut(page: Page): OptOutScan {
  let scan = scans.get(page);
  if (scan === undefined) {
    scan = scan_(page);
    scans.set(page, scan);
  }
  return scan;
}

function scan_(page: Page): OptOutScan {
  const linkByElement = new Map(page.links.map((link) => [link.element, link] as const));
  let hidden: OptOutControl | undefined;
  let scriptBound: OptOutControl | undefined;
  const none = { control: undefined, scriptBound: undefined, hidden: undefined, plainText: undefined };
  // Iterative walk: pages may nest thousands deep.
  const stack: AnyNode[] = [...page.document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const control = asControl(page, node, linkByElement);
    if (control !== undefined && isOptOutName(control.name)) {
      if (control.visible) return { ...none, control };
      hidden ??= control;
    } else if (control === undefined && scriptBound === undefined && isScriptBound(node)) {
      const name = nameOf(page, node);
      if (isOptOutName(name) && isVisible(page, node)) scriptBound = { element: node, kind: `script-bound <${node.name}>`, name, href: null, visible: true };
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  if (scriptBound !== undefined) return { ...none, scriptBound };
  if (hidden !== undefined) return { ...none, hidden };
  // Folding every block is the costly part; only blocks holding a word every wording contains are folded.
  const lower = page.textLower;
  const plainText = page.textBlocks.find(
    (block) => PLAIN_TEXT_ANCHOR.test(lower.slice(block.start, block.start + block.text.length)) && OPT_OUT_IN_NAME.test(fold(block.text)),
  );
  return { ...none, plainText };
}

/** CMP classes whose script binds a click handler (OneTrust's "settings" trigger, current and legacy). */
const SCRIPT_BOUND_CLASS = /(?:^|\s)(?:ot-sdk-show-settings|optanon-show-settings|optanon-toggle-display)(?:\s|$)/;

/** An element that script makes clickable: an inline `onclick`, or a CMP trigger class. */
function isScriptBound(el: Element): boolean {
  const cls = el.attribs.class;
  return el.attribs.onclick !== undefined || (cls !== undefined && (cls.includes('ot-sdk') || cls.includes('optanon')) && SCRIPT_BOUND_CLASS.test(cls));
}

function asControl(page: Page, el: Element, links: ReadonlyMap<Element, Page['links'][number]>): OptOutControl | undefined {
  const link = links.get(el);
  if (link !== undefined) {
    return { element: el, kind: 'link', name: link.text, href: link.url?.href ?? link.href, visible: link.visible };
  }
  const attribs = el.attribs;
  let kind: string | undefined;
  if (el.name === 'button') kind = 'button';
  else if (el.name === 'input' && INPUT_BUTTON_TYPES.has((attribs.type ?? '').trim().toLowerCase())) kind = 'input';
  else if (attribs.role !== undefined) {
    const role = attribs.role.trim().toLowerCase().split(/\s+/)[0];
    if (role === 'link' || role === 'button') kind = `role=${role}`;
  }
  if (kind === undefined) return undefined;
  return { element: el, kind, name: nameOf(page, el), href: null, visible: isVisible(page, el) };
}

/** aria-label, else visible content text plus `<img alt>`, else title; inputs: value, alt. */
function nameOf(page: Page, el: Element): string {
  const attribs = el.attribs;
  const label = normalizeText(attribs['aria-label'] ?? '');
  if (label !== '') return label;
  if (el.name === 'input') {
    const value = normalizeText(attribs.value ?? attribs.alt ?? '');
    if (value !== '') return value;
  } else {
    const content = contentText(page, el);
    if (content !== '') return content;
  }
  return normalizeText(attribs.title ?? '');
}

/** Text inside `el` that is not hidden below it (subtrees the page marks hidden are skipped), plus image alt text. */
function contentText(page: Page, el: Element): string {
  const parts: string[] = [];
  let length = 0;
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0 && length < NAME_MAX) {
    const node = stack.pop()!;
    if (isText(node)) {
      parts.push(node.data);
      length += node.data.length;
    } else if (isTag(node)) {
      const mark = page.visibilityMarks.get(node);
      if (mark !== undefined && mark !== 'visibility-visible') continue;
      if (node.name === 'img' && node.attribs.alt) parts.push(` ${node.attribs.alt} `);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return normalizeText(parts.join('').slice(0, NAME_MAX));
}
