// The page model every branch's controls read. The HTML is parsed once and walked once,
// iteratively, to pre-extract what controls need: visible text in blocks, links, headings,
// title, meta, JSON-LD, scripts, forms and ids. Controls then match against these extracts
// instead of walking the DOM again; the DOM stays available as `document` for anything else.
// The walk runs when a control first reads one of the extracts, not at the parse: the WCAG branch
// reads the tree itself (its context indexes every element in a walk of its own) and needs none
// of them, and the extraction was a sixth of its time on the median corpus page.
//
// The tree is the one a browser builds (page/parse.ts): parse5, the HTML Living Standard's tree
// construction (implied end tags, foster parenting, implied `<tbody>`, the adoption agency,
// `<noscript>` as raw text as in a browser running scripts, `<template>` contents in a fragment
// outside the document: `templateContent`), producing domhandler nodes through parse5's
// htmlparser2 tree adapter, so css-select, domutils and dom-serializer read it as before.
// parse5 was chosen because it is the maintained, spec-complete implementation for Node (it passes
// html5lib's tree-construction tests; jsdom uses it) and has a domhandler adapter: no consumer
// changes. htmlparser2, used before, is a tokenizer with a few nesting heuristics, so its tree
// differed from the browser's wherever markup relies on tree construction (a link written in a
// table, `<ul><li>a<div>b</div><li>`, rows without `<tbody>`, noscript parsed as markup).
// The price is parse time: on the 388 corpus pages parse5 takes about 2.3 ms at the median where
// htmlparser2 took about 0.8 ms (interleaved, best of 6; bench/axe-compare.ts has the full figures
// in the WCAG README's Speed section). A differential test (test/audit/page-tree.test.ts) checks
// that the tree equals parse5's own on every corpus page and ACT case.
//
// Visibility is decided from markup alone (see page/visibility.ts): text inside never-rendered
// elements (`script`, `style`, `template`, `noscript`, ...), inside `hidden` or
// `aria-hidden="true"` elements, inside closed `<dialog>`s, or under an inline `display: none` /
// `visibility: hidden` is not visible text.
//
// buildPage never throws: any string (empty, binary, deeply nested) gives a Page.
import * as DomUtils from 'domutils';
import { isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';
import type { Location } from './control.ts';
import { locate as locateWith } from './page/location.ts';
import { MAX_ELEMENT_DEPTH, noscriptContent, parseDocument, PageTooComplexError } from './page/parse.ts';
import { isVisibleIn, visibilityMark, type VisibilityMark } from './page/visibility.ts';

export type { HiddenReason, VisibilityMark } from './page/visibility.ts';
export { parseInlineVisibility } from './page/visibility.ts';
export { truncate } from './page/location.ts';

/** A run of visible text owned by one block-level element (a paragraph, list item, cell, heading...). */
export interface TextBlock {
  /** Whitespace collapsed to single spaces, trimmed; never empty. */
  text: string;
  /** The nearest block-level element containing the text; null for text outside any element. */
  element: Element | null;
  /** Offset of `text` in `Page.text`. */
  start: number;
}

/** An `<a href>` or `<area href>`. */
export interface Link {
  element: Element;
  /** The attribute as written (trimmed). */
  rawHref: string;
  /** Absolute URL resolved against `<base href>` (or the page URL); the raw value when it does not parse. */
  href: string;
  /** The parsed absolute URL; null when the href does not parse. */
  url: URL | null;
  /**
   * Accessible-ish name: `aria-label` when set, else the visible text content plus `<img alt>`
   * inside the link (for `<area>`: `alt`), else `title`. Whitespace collapsed. `aria-labelledby`
   * is not resolved.
   */
  text: string;
  /** Where `text` came from; anything but `content` is text a reader does not see as the link's words. */
  nameFrom: 'aria-label' | 'content' | 'title' | 'alt' | 'none';
  /** `rel` tokens, lower-cased. */
  rel: readonly string[];
  /** False when the link or an ancestor is hidden (same rules as visible text). */
  visible: boolean;
  /** Index in `Page.textBlocks` of the block the link's text falls in (or would fall in): its position in reading order. */
  blockIndex: number;
}

/** A `<link href>` (in `<head>` or, loosely, anywhere). */
export interface HeadLink {
  element: Element;
  rel: readonly string[];
  href: string;
  url: URL | null;
}

export interface Heading {
  level: 1 | 2 | 3 | 4 | 5 | 6;
  /** Visible text plus `<img alt>`, whitespace collapsed. */
  text: string;
  element: Element;
}

/** A `<meta>` with a key (`name`, `property`, `itemprop` or `http-equiv`) and a `content`. */
export interface Meta {
  /** The key, lower-cased and trimmed, e.g. `description`, `og:title`. */
  key: string;
  content: string;
  element: Element;
}

/** A `<script type="application/ld+json">` whose content parsed as JSON. */
export interface JsonLd {
  data: unknown;
  element: Element;
}

export interface Script {
  element: Element;
  /** Absolute `src`, or null for an inline script. */
  src: string | null;
  /** The `type` attribute, lower-cased, without parameters; '' when absent. */
  type: string;
  /** Inline content ('' for external scripts). */
  content: string;
}

export interface FormField {
  /** `input`, `textarea`, `select` or `button`. */
  tag: string;
  /** Lower-cased `type` attribute ('' when absent). */
  type: string;
  name: string;
}

export interface Form {
  element: Element;
  /** Absolute `action`, or null when absent. */
  action: string | null;
  /** Lower-cased method, `get` by default. */
  method: string;
  visible: boolean;
  /** The form's blocks in `Page.textBlocks`: `[blockStart, blockEnd)`. */
  blockStart: number;
  blockEnd: number;
  fields: readonly FormField[];
}

export interface Page {
  /** The page's own URL (after redirects). */
  url: URL;
  /** The base for relative URLs: the first `<base href>` (http/https only), else `url`. */
  baseUrl: URL;
  /**
   * The parsed DOM (the browser's tree, as domhandler nodes), for anything the extracts below do
   * not cover. `<template>` elements have no children here: see `templateContent`.
   */
  document: Document;
  /** `<html lang>`, trimmed; null when absent. */
  lang: string | null;
  /** Text of the first `<title>` outside SVG, whitespace collapsed ('' when none). */
  title: string;
  titleElement: Element | null;
  /** Visible text, in document order, one entry per block. */
  textBlocks: readonly TextBlock[];
  /** All visible text: the blocks joined with '\n' (within a block, whitespace is single spaces). */
  text: string;
  /** `text` lower-cased, with exactly the same length, so offsets are shared between the two. */
  textLower: string;
  headings: readonly Heading[];
  /** `<a href>` and `<area href>` in document order, visible or not (see `Link.visible`). */
  links: readonly Link[];
  headLinks: readonly HeadLink[];
  metas: readonly Meta[];
  jsonLd: readonly JsonLd[];
  /** All `<script>` elements, JSON-LD included. */
  scripts: readonly Script[];
  forms: readonly Form[];
  /** Elements by id (every element carrying that id, in document order). */
  ids: ReadonlyMap<string, readonly Element[]>;
  /** Elements that hide (or, with `visibility: visible`, re-show) their subtree; see `isVisible`. */
  visibilityMarks: ReadonlyMap<Element, VisibilityMark>;
  elementCount: number;
  /**
   * True when the page looks like a script-rendered shell: fewer than CLIENT_RENDERED_MAX_TEXT
   * characters of visible text, at least one (non-JSON-LD) script, and a sign that script renders
   * the content: an empty app mount point (`#root`, `#__next`, `<app-root>`, …), a `<noscript>`
   * asking for JavaScript, or almost no text at all (< SHELL_MAX_TEXT). A short page that is
   * complete as served (a terse landing page with an analytics tag) is not a shell. Its content
   * is rendered by script, so text-based controls cannot decide from the static HTML.
   */
  likelyClientRendered: boolean;
}

/** Below this many characters of visible text, a page with scripts may be a script-rendered shell. */
export const CLIENT_RENDERED_MAX_TEXT = 200;
/** Below this many, a page with scripts is a shell even without a recognisable mount point. */
export const SHELL_MAX_TEXT = 40;

// Ids and tags that single-page-app frameworks render into (React, Next, Nuxt, Gatsby, Vue, Svelte, Angular, Ember).
const MOUNT_POINT_IDS = ['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'application', 'main-app', 'react-root', 'ember-app'];
const MOUNT_POINT_TAGS = new Set(['app-root', 'my-app']);

function looksScriptRendered(document: Document, text: string, scripts: readonly Script[], ids: ReadonlyMap<string, readonly Element[]>): boolean {
  if (text.length >= CLIENT_RENDERED_MAX_TEXT) return false;
  if (!scripts.some((s) => s.type !== 'application/ld+json' && (s.src !== null || s.content.trim() !== ''))) return false;
  if (text.length < SHELL_MAX_TEXT) return true;
  const empty = (el: Element) => DomUtils.textContent(el).trim() === '';
  if (MOUNT_POINT_IDS.some((id) => ids.get(id)?.some(empty))) return true;
  // Only small pages reach these walks, so they stay cheap.
  if (DomUtils.findOne((el) => MOUNT_POINT_TAGS.has(el.name) && empty(el), document.children, true)) return true;
  // A scripting browser keeps a noscript's content as raw markup: read the words of its markup.
  return DomUtils.getElementsByTagName('noscript', document, true).some((el) => /javascript/i.test(DomUtils.textContent(noscriptContent(el))));
}

/** Collected name text per link or heading is capped here, so a never-closed `<a>` cannot grow without bound. */
const NAME_MAX = 1000;

/** Block-level elements: each starts and ends a text block. */
const BLOCK: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'button', 'caption', 'center', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'listing', 'main',
  'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'pre', 'search', 'section', 'select', 'summary', 'table',
  'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

const HEADING_LEVEL: Readonly<Record<string, Heading['level']>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const FIELD: ReadonlySet<string> = new Set(['input', 'textarea', 'select', 'button']);

const WHITESPACE = /\s+/g;
/** Whitespace that needs rewriting: any run that is not already a single space (single spaces are left alone, which is faster). */
const COLLAPSIBLE = /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]\s*| \s+/g;
/** Invisible formatting characters that split words for matching (soft hyphen, zero-width space/joiners, BOM). */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/;
const INVISIBLE_ALL = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Collapses whitespace to single spaces, drops invisible formatting characters, trims. */
export function normalizeText(raw: string): string {
  let text = raw.replace(COLLAPSIBLE, ' ');
  if (INVISIBLE.test(text)) text = text.replace(INVISIBLE_ALL, '');
  return text.trim();
}

/** Lower-cases without changing the length (characters whose lower case is longer stay as they are). */
export function lowerSameLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/** Whether an element is visible under the page's markup rules (walks its ancestors). */
export function isVisible(page: Page, el: Element): boolean {
  return isVisibleIn(page.visibilityMarks, el);
}

/** A finding location for an element: CSS selector path plus outer-HTML snippet (≤ 200 characters). */
export function locate(page: Page, el: Element): Location {
  return locateWith(page.ids, el);
}

/** Index in `page.textBlocks` of the block containing offset `offset` of `page.text` (binary search), or -1. */
export function blockIndexAt(page: Page, offset: number): number {
  const blocks = page.textBlocks;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const block = blocks[mid]!;
    if (offset < block.start) hi = mid - 1;
    else if (offset > block.start + block.text.length) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The text block containing offset `offset` of `page.text`. */
export function blockAt(page: Page, offset: number): TextBlock | undefined {
  return page.textBlocks[blockIndexAt(page, offset)];
}

export { MAX_ELEMENT_DEPTH, PageTooComplexError, noscriptContent, templateContent } from './page/parse.ts';

/** Parses `html` once; the page model is extracted on first use. Throws only PageTooComplexError. */
export function buildPage(html: string, url: URL | string): Page {
  const pageUrl = toUrl(url);
  const document = parseDocument(typeof html === 'string' ? html : String(html));
  return new ParsedPage(document, pageUrl);
}

type Extracts = Omit<Page, 'url' | 'document'>;

/** A parsed page whose extracts come from one walk, run when the first of them is read. */
class ParsedPage implements Page {
  readonly url: URL;
  readonly document: Document;
  #extracts: Extracts | undefined;

  constructor(document: Document, url: URL) {
    this.document = document;
    this.url = url;
  }

  private get extracts(): Extracts {
    return (this.#extracts ??= extract(this.document, this.url));
  }

  get baseUrl() { return this.extracts.baseUrl; }
  get lang() { return this.extracts.lang; }
  get title() { return this.extracts.title; }
  get titleElement() { return this.extracts.titleElement; }
  get textBlocks() { return this.extracts.textBlocks; }
  get text() { return this.extracts.text; }
  get textLower() { return this.extracts.textLower; }
  get headings() { return this.extracts.headings; }
  get links() { return this.extracts.links; }
  get headLinks() { return this.extracts.headLinks; }
  get metas() { return this.extracts.metas; }
  get jsonLd() { return this.extracts.jsonLd; }
  get scripts() { return this.extracts.scripts; }
  get forms() { return this.extracts.forms; }
  get ids() { return this.extracts.ids; }
  get visibilityMarks() { return this.extracts.visibilityMarks; }
  get elementCount() { return this.extracts.elementCount; }
  get likelyClientRendered() { return this.extracts.likelyClientRendered; }
}

/**
 * Whether the page has any visible text (`page.text` is not empty), found without the extraction
 * walk: the walk stops at the first visible text node that holds more than whitespace and
 * invisible formatting characters, under the same visibility marks as `page.text`.
 */
export function hasVisibleText(document: Document): boolean {
  // Each entry: a node, and whether `visibility: hidden` is in effect where it sits.
  const stack: Array<{ node: AnyNode; visibilityHidden: boolean }> = [];
  for (let i = document.children.length - 1; i >= 0; i--) stack.push({ node: document.children[i]!, visibilityHidden: false });
  while (stack.length > 0) {
    const { node, visibilityHidden } = stack.pop()!;
    if (isText(node)) {
      if (!visibilityHidden && VISIBLE_CHARACTER.test(node.data.replace(INVISIBLE_ALL, ''))) return true;
      continue;
    }
    if (!isTag(node)) continue;
    const mark = visibilityMark(node);
    let hidden = visibilityHidden;
    if (mark === 'visibility-hidden') hidden = true;
    else if (mark === 'visibility-visible') hidden = false;
    else if (mark !== null) continue; // an absorbing reason: nothing below it is visible
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, visibilityHidden: hidden });
  }
  return false;
}

/** Anything `String.prototype.trim` would keep. */
const VISIBLE_CHARACTER = /\S/;

function toUrl(url: URL | string): URL {
  if (url instanceof URL) return url;
  return URL.parse(String(url)) ?? new URL('about:blank');
}

/** What is open while the walk is inside an element, popped when it is left. */
interface Frame {
  el: Element;
  mark: VisibilityMark | null;
  /** `visibilityHidden` before this element changed it. */
  previousVisibilityHidden: boolean;
  block: boolean;
  collector: Collector | null;
  form: OpenForm | null;
}

/** Gathers the name text of a link or heading: text that is visible relative to the collector's own element. */
interface Collector {
  /** The walk's `hiddenDepth` / `visibilityHidden` at the element, to accept only text not hidden below it. */
  hiddenDepth: number;
  visibilityHidden: boolean;
  /** Whether the element itself is visible. */
  visible: boolean;
  parts: string[];
  length: number;
  link: Link | null;
  level: Heading['level'] | 0;
}

/** A form while it is open: its fields are still being added. */
type OpenForm = Form & { fields: FormField[] };

function extract(document: Document, pageUrl: URL): Extracts {
  const textBlocks: TextBlock[] = [];
  const blockTexts: string[] = [];
  let offset = 0;
  const parts: string[] = [];
  const blockOwners: Element[] = [];

  // Links, head links, scripts and forms hold their raw URLs until the walk has seen <base href>.
  const links: Link[] = [];
  const headLinks: HeadLink[] = [];
  const headings: Heading[] = [];
  const metas: Meta[] = [];
  const jsonLd: JsonLd[] = [];
  const scripts: Script[] = [];
  const forms: OpenForm[] = [];
  const ids = new Map<string, Element[]>();
  const visibilityMarks = new Map<Element, VisibilityMark>();
  let baseHref: string | null = null;
  let lang: string | null = null;
  let title = '';
  let titleElement: Element | null = null;
  let elementCount = 0;

  // Walk state.
  let hiddenDepth = 0; // number of open elements with an absorbing hidden reason
  let visibilityHidden = false;
  let svgDepth = 0;
  const collectors: Collector[] = [];
  const openForms: OpenForm[] = [];
  const frames: Frame[] = [];
  let depth = 0;

  const flush = (): void => {
    if (parts.length === 0) return;
    const raw = parts.length === 1 ? parts[0]! : parts.join('');
    parts.length = 0;
    const text = normalizeText(raw);
    if (text === '') return;
    textBlocks.push({ text, element: blockOwners[blockOwners.length - 1] ?? null, start: offset });
    blockTexts.push(text);
    offset += text.length + 1;
  };

  const collect = (data: string): void => {
    for (const c of collectors) {
      if (c.length >= NAME_MAX || c.hiddenDepth !== hiddenDepth || (visibilityHidden && !c.visibilityHidden)) continue;
      c.parts.push(data);
      c.length += data.length;
    }
  };

  const enter = (el: Element): void => {
    elementCount++;
    const name = el.name;
    const attribs = el.attribs;
    const id = attribs.id;
    if (id !== undefined && id !== '') {
      const same = ids.get(id);
      if (same === undefined) ids.set(id, [el]);
      else same.push(el);
    }
    const block = BLOCK.has(name);
    if (block) flush();
    const mark = visibilityMark(el);
    const previousVisibilityHidden = visibilityHidden;
    if (mark !== null) {
      visibilityMarks.set(el, mark);
      if (mark === 'visibility-hidden') visibilityHidden = true;
      else if (mark === 'visibility-visible') visibilityHidden = false;
      else hiddenDepth++;
    }
    if (block) blockOwners.push(el);
    const visible = hiddenDepth === 0 && !visibilityHidden;
    let collector: Collector | null = null;
    let form: OpenForm | null = null;

    switch (name) {
      case 'a':
      case 'area': {
        const rawHref = attribs.href;
        if (rawHref === undefined) break;
        const link: Link = {
          element: el,
          rawHref: rawHref.trim(),
          href: '',
          url: null,
          text: '',
          nameFrom: 'none',
          rel: tokens(attribs.rel),
          visible,
          blockIndex: textBlocks.length,
        };
        links.push(link);
        collector = { hiddenDepth, visibilityHidden, visible, parts: [], length: 0, link, level: 0 };
        break;
      }
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        collector = { hiddenDepth, visibilityHidden, visible, parts: [], length: 0, link: null, level: HEADING_LEVEL[name] ?? 1 };
        break;
      case 'img':
      case 'input':
        if ((name === 'img' || (attribs.type ?? '').toLowerCase() === 'image') && attribs.alt) collect(` ${attribs.alt} `);
        break;
      case 'br':
        if (visible) parts.push(' ');
        break;
      case 'html':
        if (lang === null && attribs.lang !== undefined) lang = attribs.lang.trim();
        break;
      case 'base':
        if (baseHref === null && attribs.href !== undefined) baseHref = attribs.href.trim();
        break;
      case 'svg':
        svgDepth++;
        break;
      case 'title':
        if (titleElement === null && svgDepth === 0) {
          titleElement = el;
          title = normalizeText(childText(el));
        }
        break;
      case 'meta': {
        const key = attribs.name ?? attribs.property ?? attribs.itemprop ?? attribs['http-equiv'];
        const content = attribs.content;
        if (key !== undefined && content !== undefined && key.trim() !== '') {
          metas.push({ key: key.trim().toLowerCase(), content, element: el });
        }
        break;
      }
      case 'link':
        if (attribs.href !== undefined) headLinks.push({ element: el, rel: tokens(attribs.rel), href: attribs.href.trim(), url: null });
        break;
      case 'script': {
        const type = (attribs.type ?? '').split(';')[0]!.trim().toLowerCase();
        const content = childText(el);
        scripts.push({ element: el, src: attribs.src?.trim() ?? null, type, content });
        if (type === 'application/ld+json') {
          const data = parseJsonLd(content);
          if (data !== undefined) jsonLd.push({ data, element: el });
        }
        break;
      }
      case 'form':
        form = {
          element: el,
          action: attribs.action?.trim() ?? null,
          method: (attribs.method ?? 'get').trim().toLowerCase(),
          visible,
          blockStart: textBlocks.length,
          blockEnd: textBlocks.length,
          fields: [],
        };
        forms.push(form);
        break;
    }
    if (FIELD.has(name)) {
      const owner = openForms[openForms.length - 1];
      owner?.fields.push({ tag: name, type: (attribs.type ?? '').trim().toLowerCase(), name: attribs.name ?? '' });
    }
    if (collector !== null) collectors.push(collector);
    if (form !== null) openForms.push(form);

    // Frames are reused by depth, so the walk allocates none per element.
    const frame = frames[depth];
    if (frame === undefined) {
      frames[depth] = { el, mark, previousVisibilityHidden, block, collector, form };
    } else {
      frame.el = el;
      frame.mark = mark;
      frame.previousVisibilityHidden = previousVisibilityHidden;
      frame.block = block;
      frame.collector = collector;
      frame.form = form;
    }
  };

  const exit = (frame: Frame): void => {
    if (frame.block) {
      flush();
      blockOwners.pop();
    }
    const mark = frame.mark;
    if (mark !== null) {
      if (mark === 'visibility-hidden' || mark === 'visibility-visible') visibilityHidden = frame.previousVisibilityHidden;
      else hiddenDepth--;
    }
    if (frame.el.name === 'svg') svgDepth--;
    const collector = frame.collector;
    if (collector !== null) {
      collectors.pop();
      const text = normalizeText(collector.parts.join(''));
      if (collector.link !== null) nameLink(collector.link, text);
      else if (collector.level !== 0 && collector.visible) headings.push({ level: collector.level, text, element: frame.el });
    }
    if (frame.form !== null) {
      frame.form.blockEnd = textBlocks.length;
      openForms.pop();
    }
  };

  // Iterative depth-first walk over the DOM using the sibling/parent pointers: no recursion, so
  // any nesting depth is safe.
  let node: AnyNode | null = document.children[0] ?? null;
  while (node !== null) {
    let descend: AnyNode | null = null;
    if (isTag(node)) {
      // The parse already refuses deeper nesting on its open-element stack; this keeps the walk's
      // own bound explicit whatever the tree construction did.
      if (depth > MAX_ELEMENT_DEPTH + 2) throw new PageTooComplexError();
      enter(node);
      depth++;
      descend = node.children[0] ?? null;
      if (descend === null) {
        depth--;
        exit(frames[depth]!);
      }
    } else if (isText(node)) {
      const data = node.data;
      if (hiddenDepth === 0 && !visibilityHidden) parts.push(data);
      if (collectors.length > 0) collect(data);
    }
    if (descend !== null) {
      node = descend;
      continue;
    }
    // Next sibling, or climb (leaving each element on the way) until one has a next sibling.
    let current: AnyNode = node;
    node = null;
    for (;;) {
      if (current.next !== null) {
        node = current.next;
        break;
      }
      const parent: AnyNode | null = current.parent;
      if (parent === null || !isTag(parent)) break;
      depth--;
      exit(frames[depth]!);
      current = parent;
    }
  }
  flush();

  const baseUrl = resolveBase(baseHref, pageUrl);
  for (const link of links) {
    const { href, url } = resolve(link.rawHref, baseUrl);
    link.href = href;
    link.url = url;
  }
  for (const link of headLinks) Object.assign(link, resolve(link.href, baseUrl));
  for (const script of scripts) if (script.src !== null) script.src = resolve(script.src, baseUrl).href;
  for (const form of forms) if (form.action !== null) form.action = resolve(form.action, baseUrl).href;
  const text = blockTexts.join('\n');
  return {
    baseUrl,
    lang,
    title,
    titleElement,
    textBlocks,
    text,
    textLower: lowerSameLength(text),
    headings,
    links,
    headLinks,
    metas,
    jsonLd,
    scripts,
    forms,
    ids,
    visibilityMarks,
    elementCount,
    likelyClientRendered: looksScriptRendered(document, text, scripts, ids),
  };
}

/** Names a link: aria-label, else its collected text (already normalised), else (area) alt, else title. */
function nameLink(link: Link, content: string): void {
  const attribs = link.element.attribs;
  const isArea = link.element.name === 'area';
  let text = normalizeText(attribs['aria-label'] ?? '');
  let from: Link['nameFrom'] = 'aria-label';
  if (text === '' && !isArea && content !== '') [text, from] = [content, 'content'];
  if (text === '' && isArea) [text, from] = [normalizeText(attribs.alt ?? ''), 'alt'];
  if (text === '') [text, from] = [normalizeText(attribs.title ?? ''), 'title'];
  link.text = text;
  link.nameFrom = text === '' ? 'none' : from;
}

function childText(el: Element): string {
  let text = '';
  for (const child of el.children) if (isText(child)) text += child.data;
  return text;
}

function tokens(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  const trimmed = value.trim().toLowerCase();
  return trimmed === '' ? [] : trimmed.split(WHITESPACE);
}

function resolve(raw: string, base: URL): { href: string; url: URL | null } {
  const url = URL.parse(raw, base);
  return url === null ? { href: raw, url: null } : { href: url.href, url };
}

/** The document base URL: the first `<base href>` when it resolves to http(s), else the page URL. */
function resolveBase(baseHref: string | null, pageUrl: URL): URL {
  if (baseHref === null || baseHref === '') return pageUrl;
  const base = URL.parse(baseHref, pageUrl.protocol === 'about:' ? undefined : pageUrl);
  return base !== null && (base.protocol === 'https:' || base.protocol === 'http:') ? base : pageUrl;
}

/**
 * Parses a JSON-LD block; undefined when it is not valid JSON. Tolerates the common wrappers
 * (`<!-- -->`, `<![CDATA[ ]]>`) around the JSON.
 */
function parseJsonLd(content: string): unknown {
  const trimmed = content.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    const unwrapped = trimmed
      .replace(/^(?:<!--|<!\[CDATA\[)/, '')
      .replace(/(?:-->|\]\]>)$/, '')
      .trim();
    if (unwrapped === trimmed) return undefined;
    try {
      return JSON.parse(unwrapped) as unknown;
    } catch {
      return undefined;
    }
  }
}
