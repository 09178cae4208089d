// The HTML parse: the tree the HTML Living Standard's tree construction builds (parse5), as
// domhandler nodes (parse5-htmlparser2-tree-adapter), so css-select, domutils and dom-serializer
// work on it unchanged. Implied end tags, foster parenting, implied `<tbody>`, the adoption agency
// and `<noscript>` as a scripting browser parses it (its content is one raw text node) all come out
// as in a browser.
//
// Two differences from the stock adapter:
// - A `<template>`'s contents are kept out of the tree, in a separate fragment (`templateContent`),
//   as browsers keep them: the template element has no children, so no walk, selector match,
//   visibility rule or link extraction can see its content as part of the document.
// - Elements are built as htmlparser2's DomHandler built them (see createElement), with foreign
//   attributes under their qualified names.
// - The parse is bounded (MAX_ELEMENT_DEPTH, ELEMENTS_PER_CHAR).
import { html as spec, parse, parseFragment, type ParserOptions } from 'parse5';
import { adapter, type Htmlparser2TreeAdapterMap } from 'parse5-htmlparser2-tree-adapter';
import { Element, isText, type Document } from 'domhandler';

/**
 * Elements may nest at most this deep below `<html>` and `<body>` (or `<head>`). Every walk of the
 * page model is iterative, but consumers outside it (css-select's matching, dom-serializer) are not
 * all, and parse5 scans its open-element stack for some tokens, so deep nesting costs time. The cap
 * is checked on parse5's open-element stack (onItemPush), which is at least as deep as the tree at
 * the insertion point, so a crafted page is refused as soon as it is too deep: 2 MiB of nested
 * `<span>x` is refused within the first few kilobytes. Browsers cap tree depth too (Blink at 512);
 * no page of either corpus comes near this limit.
 */
export const MAX_ELEMENT_DEPTH = 2048;
/** `<html>` and `<body>` (or `<head>`), which the parser always opens first, are not counted. */
const ROOT_ELEMENTS = 2;

/**
 * At most this many elements per character of input (plus ELEMENT_BUDGET_FLOOR). Markup needs at
 * least three characters (`<b>`) per element it writes, and the elements tree construction implies
 * (`<tbody>`, `<tr>`, `<colgroup>`, `<html>`/`<head>`/`<body>`) never reach one per two characters;
 * only the reconstruction of active formatting elements multiplies them (n different unclosed
 * `<b id=…>` inside a `<p>`, then `<p>x` repeated, builds n elements per four characters). The
 * budget keeps that linear in the input.
 */
export const ELEMENTS_PER_CHAR = 0.5;
const ELEMENT_BUDGET_FLOOR = 10_000;

/** The page cannot be analysed within the service's bounds; answered like any other exceeded bound. */
export class PageTooComplexError extends Error {
  readonly reason = 'too-deep';
  constructor(message = `elements nested more than ${MAX_ELEMENT_DEPTH} deep`) {
    super(message);
    this.name = 'PageTooComplexError';
  }
}

/** The namespace of the elements the parser builds for HTML markup (not SVG's or MathML's). */
export const HTML_NAMESPACE: string = spec.NS.HTML;

/** Template contents, by template element: a fragment outside the document, as in browsers. */
const templateContents = new WeakMap<Element, Document>();

/** The contents of a `<template>` (a document fragment outside the page's tree); undefined for other elements. */
export function templateContent(el: Element): Document | undefined {
  return templateContents.get(el);
}

type Adapter = NonNullable<ParserOptions<Htmlparser2TreeAdapterMap>['treeAdapter']>;
type Attribute = Parameters<Adapter['createElement']>[2][number];

/**
 * An attribute's name as getAttribute knows it. In SVG and MathML the parser splits `xlink:href`,
 * `xml:lang`, `xmlns:xlink` into a prefix and a local name; the stock adapter keys them by the
 * local name alone (so an SVG's `xml:lang` would become, and overwrite, `lang`).
 */
function qualifiedName(attr: Attribute): string {
  return attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
}

/**
 * An element as htmlparser2's DomHandler built them: attributes in a plain object (the stock
 * adapter's `Object.create(null)` objects are dictionaries in V8, so every `attribs.x` read in the
 * page model and the rules was a hash lookup: the extraction walk took several times as long),
 * and no per-attribute namespace/prefix maps (`x-attribsNamespace`, `x-attribsPrefix`), which
 * nothing reads. `namespace` is set, as the stock adapter does.
 */
function createElement(tagName: string, namespaceURI: string, attrs: readonly Attribute[]): Element {
  const attribs: Record<string, string> = {};
  for (const attr of attrs) attribs[qualifiedName(attr)] = attr.value;
  const el = new Element(tagName, attribs, []);
  el.namespace = namespaceURI;
  return el;
}

/** The stock domhandler adapter with our elements, template contents kept aside and the parse bounded. */
function boundedAdapter(elementBudget: number): Adapter {
  let depth = 0;
  let created = 0;
  return {
    ...adapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++created > elementBudget) throw new PageTooComplexError(`more than ${elementBudget} elements`);
      return createElement(tagName, namespaceURI, attrs);
    },
    adoptAttributes(recipient, attrs) {
      // A second `<html>` or `<body>` tag: its attributes are added where the element has none.
      for (const attr of attrs) {
        const name = qualifiedName(attr);
        if (recipient.attribs[name] === undefined) recipient.attribs[name] = attr.value;
      }
    },
    setTemplateContent(template, content) {
      templateContents.set(template, content);
    },
    getTemplateContent(template) {
      let content = templateContents.get(template);
      if (content === undefined) {
        content = adapter.createDocumentFragment();
        templateContents.set(template, content);
      }
      return content;
    },
    onItemPush() {
      if (++depth > MAX_ELEMENT_DEPTH + ROOT_ELEMENTS) throw new PageTooComplexError();
    },
    onItemPop() {
      depth--;
    },
  };
}

/**
 * Parses a whole document as a browser with scripting enabled does.
 *
 * Source positions are off: nodes have null `startIndex` / `endIndex` (as with htmlparser2's
 * DomHandler before, whose `withStartIndices` was never set). Nothing reads them: a location's
 * snippet is the element's outer HTML rendered from the tree (page/location.ts), which is what a
 * browser's outerHTML shows, and is right for elements the parser implies (`<tbody>`, `<html>`,
 * `<head>`, `<body>`), which have no source text. parse5's sourceCodeLocationInfo would add about
 * 30% to the parse (corpus median 2.3 → 3.1 ms) and an object per node and attribute.
 * Throws PageTooComplexError when the page is nested too deep or builds too many elements.
 */
export function parseDocument(html: string): Document {
  const budget = Math.max(ELEMENT_BUDGET_FLOOR, Math.ceil(html.length * ELEMENTS_PER_CHAR));
  return parse(html, { treeAdapter: boundedAdapter(budget), scriptingEnabled: true });
}

const noscriptMarkup = new WeakMap<Element, Document>();

/**
 * The markup of a `<noscript>` as a browser without scripting would build it (a fragment outside
 * the page's tree, built once per element). A scripting browser, whose tree the
 * page model is, keeps a noscript's content as raw text and never loads what it names; branches
 * that still want to know what it names (a tracking pixel, a tag manager's iframe) read it here.
 * Parsed in a `<body>` context: where a script-less browser meets an `<img>` or `<iframe>` in a
 * `<head>`'s noscript, it ends the head and puts them in the body anyway. Empty for a noscript
 * without text, or one whose markup is beyond the page's bounds.
 */
export function noscriptContent(el: Element): Document {
  let fragment = noscriptMarkup.get(el);
  if (fragment !== undefined) return fragment;
  let text = '';
  for (const child of el.children) if (isText(child)) text += child.data;
  const context = createElement('body', HTML_NAMESPACE, []);
  try {
    const budget = Math.max(ELEMENT_BUDGET_FLOOR, Math.ceil(text.length * ELEMENTS_PER_CHAR));
    fragment = parseFragment(context, text, { treeAdapter: boundedAdapter(budget), scriptingEnabled: false });
  } catch (error) {
    if (!(error instanceof PageTooComplexError)) throw error;
    fragment = adapter.createDocumentFragment();
  }
  noscriptMarkup.set(el, fragment);
  return fragment;
}
