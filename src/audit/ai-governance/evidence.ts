// The evidence the AI-governance controls search, and how a match becomes an outcome.
//
// Evidence is: visible text (headings included), the title, every `<meta>`, the strings of
// every JSON-LD block, and visible links whose name the reader does not see as text
// (aria-label, title, area alt). These are laid end to end in one string (`Corpus.text`, with a
// same-length lower-cased twin) built once per page and shared by all eight controls, so each
// vocabulary is one regular-expression pass over one string. Link hrefs are matched per link.
// Linked documents are never followed.
import type { Element } from 'domhandler';
import type { Location, Outcome } from '../control.ts';
import { blockIndexAt, locate, lowerSameLength, normalizeText, truncate, type Link, type Page } from '../page.ts';
import { EVIDENCE_MAX, examples, lookedFor, outcome } from '../evidence.ts';

export { EVIDENCE_MAX, examples, lookedFor, outcome };

/** Every outcome's evidence is at most this long. */

/** A piece of the corpus that is not visible text: title, a meta, a JSON-LD block, a link name. */
interface Segment {
  start: number;
  end: number;
  where: string;
  element: Element;
}

export interface Corpus {
  page: Page;
  /** Visible text, then '\n', then each extra segment separated by '\n'. */
  text: string;
  /** `text` lower-cased, same length. */
  lower: string;
  /** Extra segments, by ascending `start`; all start after `page.text`. */
  segments: readonly Segment[];
  /** The page's visible links, in document order. */
  links: readonly Link[];
  /** Where the page points: its visible links, then URLs given in JSON-LD and meta content. */
  targets: readonly Target[];
  /** First unfiltered hit of a vocabulary over the whole corpus, shared by the controls (null: none). */
  firstHits: Map<Terms, Hit | null>;
}

/** A URL the page points to, with what names it. Never followed. */
export interface Target {
  /** Absolute URL (or the raw value when it does not parse). */
  href: string;
  /** `href` lower-cased, for matching. */
  lower: string;
  url: URL | null;
  /** The link's name ('' for URLs in JSON-LD or meta). */
  text: string;
  /** `link`, `JSON-LD` or `meta <key>`. */
  source: string;
  element: Element;
  /** For a link, the index of its text block (reading position); -1 otherwise. */
  blockIndex: number;
}

/** A match: offsets in `Corpus.text`. */
export interface Hit {
  start: number;
  end: number;
}

const corpora = new WeakMap<Page, Corpus>();

/** Upper bounds on what the JSON-LD of one page contributes. */
const JSON_LD_MAX_STRINGS = 2000;
const JSON_LD_MAX_CHARS = 50_000;

/** The page's evidence corpus, built on first use and cached for the other controls. */
export function corpusOf(page: Page): Corpus {
  let corpus = corpora.get(page);
  if (corpus === undefined) {
    corpus = buildCorpus(page);
    corpora.set(page, corpus);
  }
  return corpus;
}

function buildCorpus(page: Page): Corpus {
  const pieces: string[] = [page.text];
  const segments: Segment[] = [];
  let offset = page.text.length + 1;
  const add = (text: string, where: string, element: Element): void => {
    if (text === '') return;
    pieces.push(text);
    segments.push({ start: offset, end: offset + text.length, where, element });
    offset += text.length + 1;
  };
  const links = page.links.filter((link) => link.visible);
  const targets: Target[] = links.map((link) => ({
    href: link.href,
    lower: link.href.toLowerCase(),
    url: link.url,
    text: link.text,
    source: 'link',
    element: link.element,
    blockIndex: link.blockIndex,
  }));
  const target = (value: string, source: string, element: Element): void => {
    if (!URL_LIKE.test(value)) return;
    const url = URL.parse(value, page.baseUrl);
    if (url !== null) targets.push({ href: url.href, lower: url.href.toLowerCase(), url, text: '', source, element, blockIndex: -1 });
  };

  if (page.titleElement !== null) add(page.title, 'the title', page.titleElement);
  for (const meta of page.metas) {
    add(normalizeText(`${meta.key}: ${meta.content}`), `meta ${meta.key}`.slice(0, 40), meta.element);
    target(meta.content.trim(), `meta ${meta.key}`.slice(0, 40), meta.element);
  }
  for (const block of page.jsonLd) {
    const strings = jsonLdStrings(block.data);
    add(strings.join('\n'), 'JSON-LD', block.element);
    for (const value of strings) target(value, 'JSON-LD', block.element);
  }
  for (const link of links) {
    if (link.nameFrom !== 'content' && link.nameFrom !== 'none') add(link.text, 'link text', link.element);
  }
  const text = pieces.join('\n');
  return { page, text, lower: lowerSameLength(text), segments, links, targets, firstHits: new Map() };
}

/** An absolute http(s) URL or a root-relative path, as written in meta content or JSON-LD. */
const URL_LIKE = /^(?:https?:\/\/|\/(?!\/))\S+$/i;

/** The string values of a JSON-LD value (normalised, non-empty), collected iteratively within fixed bounds. */
function jsonLdStrings(data: unknown): string[] {
  const out: string[] = [];
  let chars = 0;
  const stack: unknown[] = [data];
  while (stack.length > 0 && out.length < JSON_LD_MAX_STRINGS && chars < JSON_LD_MAX_CHARS) {
    const value = stack.pop();
    if (typeof value === 'string') {
      const text = truncate(normalizeText(value), JSON_LD_MAX_CHARS - chars);
      if (text !== '') {
        out.push(text);
        chars += text.length;
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return out;
}

/**
 * A compiled vocabulary: one global regex over the lower-cased corpus (patterns written in
 * lower case) and optionally one over the original text (case-sensitive patterns, e.g.
 * acronyms). Both are wrapped in word boundaries, so `ai` never matches inside "Mail", "Thai"
 * or "Kaiser".
 */
export interface Terms {
  lower: RegExp | null;
  exact: RegExp | null;
  /** Human-readable examples, for "looked for" evidence. */
  examples: readonly string[];
}

/**
 * A match must not continue a word on either side. Word characters here are ASCII letters and
 * digits plus the Latin-1 and Latin Extended-A/B letters: every vocabulary is Latin-script, so
 * a Greek, Cyrillic or CJK letter next to a match counts as a boundary. (A `\p{L}` lookbehind
 * made every vocabulary pass ~2.5× slower.)
 */
const WORD_CHAR = '[a-zA-Z0-9\u00c0-\u024f]';
const WORD_START = `(?<!${WORD_CHAR})`;
const WORD_END = `(?!${WORD_CHAR})`;

export function terms(spec: { lower?: readonly string[]; exact?: readonly string[]; examples: readonly string[] }): Terms {
  return {
    lower: compile(spec.lower),
    exact: compile(spec.exact),
    examples: spec.examples,
  };
}

function compile(sources: readonly string[] | undefined): RegExp | null {
  if (sources === undefined || sources.length === 0) return null;
  return wordRegex(sources, 'gu');
}

/** One regex for a list of alternatives, wrapped in word boundaries. */
export function wordRegex(sources: readonly string[], flags = 'u'): RegExp {
  return new RegExp(`${WORD_START}(?:${sources.join('|')})${WORD_END}`, flags);
}

/** Bound on matches examined per vocabulary and page, so a pathological page stays linear. */
const MAX_HITS = 200;

/**
 * The first match of the vocabulary lying in `[from, to)` of the corpus that `accept` accepts
 * (lower-case and exact patterns alike: the earlier wins). Unfiltered whole-corpus searches are
 * memoised per corpus, so controls sharing a vocabulary scan once.
 */
export function findHit(corpus: Corpus, vocabulary: Terms, accept?: (hit: Hit) => boolean, from = 0, to = corpus.text.length): Hit | undefined {
  if (accept === undefined && from === 0 && to >= corpus.text.length) {
    let first = corpus.firstHits.get(vocabulary);
    if (first === undefined) {
      first = search(corpus, vocabulary, ACCEPT_ALL, 0, corpus.text.length) ?? null;
      corpus.firstHits.set(vocabulary, first);
    }
    return first ?? undefined;
  }
  return search(corpus, vocabulary, accept ?? ACCEPT_ALL, from, to);
}

const ACCEPT_ALL = (): boolean => true;

function search(corpus: Corpus, vocabulary: Terms, accept: (hit: Hit) => boolean, from: number, to: number): Hit | undefined {
  const lower = vocabulary.lower === null ? undefined : scan(vocabulary.lower, corpus.lower, from, to, accept);
  if (vocabulary.exact === null) return lower;
  const exact = scan(vocabulary.exact, corpus.text, from, lower?.start ?? to, accept);
  return exact !== undefined && (lower === undefined || exact.start < lower.start) ? exact : lower;
}

function scan(re: RegExp, text: string, from: number, to: number, accept: (hit: Hit) => boolean): Hit | undefined {
  // One character past `to` stays in view, so the word-end lookahead sees the real next character.
  const haystack = to >= text.length ? text : text.slice(0, to + 1);
  re.lastIndex = from;
  for (let count = 0; count < MAX_HITS; count++) {
    const match = re.exec(haystack);
    if (match === null) return undefined;
    const hit = { start: match.index, end: match.index + match[0].length };
    if (hit.end > to) return undefined;
    if (hit.end === hit.start) re.lastIndex++;
    if (accept(hit)) return hit;
  }
  return undefined;
}

/** Where a hit is: the visible-text block or extra segment holding it. */
export interface Place {
  /** Human-readable source: `visible text`, `a heading`, `the title`, `meta description`, `JSON-LD`, `link text`. */
  where: string;
  element: Element | null;
  /** The source's span in the corpus. */
  start: number;
  end: number;
  /** Index of the visible-text block, or -1 for extra segments. */
  blockIndex: number;
}

const HEADING = /^h[1-6]$/;

export function placeOf(corpus: Corpus, offset: number): Place {
  const page = corpus.page;
  if (offset <= page.text.length) {
    const blockIndex = blockIndexAt(page, offset);
    const block = page.textBlocks[blockIndex];
    if (block !== undefined) {
      const name = block.element?.name ?? '';
      return {
        where: HEADING.test(name) ? 'a heading' : 'visible text',
        element: block.element,
        start: block.start,
        end: block.start + block.text.length,
        blockIndex,
      };
    }
  }
  const segments = corpus.segments;
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const segment = segments[mid]!;
    if (offset < segment.start) hi = mid - 1;
    else if (offset > segment.end) lo = mid + 1;
    else return { where: segment.where, element: segment.element, start: segment.start, end: segment.end, blockIndex: -1 };
  }
  return { where: 'the page', element: null, start: 0, end: corpus.text.length, blockIndex: -1 };
}

/**
 * The words around a hit inside its source, at most `budget` characters, snapped to word
 * boundaries, with `…` where text was cut.
 */
export function quote(corpus: Corpus, hit: Hit, budget: number, place: Place = placeOf(corpus, hit.start)): string {
  const source = corpus.text;
  const start = Math.max(hit.start, place.start);
  const end = Math.min(hit.end, place.end);
  if (end - start >= budget - 1) return `${truncate(source.slice(start, end), budget - 1)}…`;
  const spare = budget - (end - start) - 2; // two characters for ellipses
  let from = Math.max(place.start, start - Math.floor(spare * 0.4));
  let to = Math.min(place.end, end + (spare - (start - from)));
  from = Math.max(place.start, Math.min(from, to - (budget - 2)));
  // Snap inwards to word boundaries, but never into the match itself.
  if (from > place.start) {
    const space = source.indexOf(' ', from);
    if (space >= 0 && space < start) from = space + 1;
  }
  if (to < place.end) {
    const space = source.lastIndexOf(' ', to);
    if (space > end) to = space;
  }
  return `${from > place.start ? '…' : ''}${source.slice(from, to).replace(/\n/g, ' ')}${to < place.end ? '…' : ''}`;
}

/** The finding location of the source element holding a hit (block, meta, JSON-LD script, title, link). */
export function locationAt(corpus: Corpus, hit: Hit): Location | undefined {
  const element = placeOf(corpus, hit.start).element;
  return element === null ? undefined : locate(corpus.page, element);
}


/** `<what> in <where>: "<quote>"`, sized to the evidence bound, with the source element's location. */
export function quoted(corpus: Corpus, status: Outcome['status'], what: string, hit: Hit): Outcome {
  return outcome(status, quotedText(corpus, what, hit, EVIDENCE_MAX), locationAt(corpus, hit));
}

/** `in <where>: "<quote>"`, within `budget` characters. */
function inContext(corpus: Corpus, hit: Hit, budget: number): string {
  const place = placeOf(corpus, hit.start);
  const head = `in ${place.where}: "`;
  return `${head}${quote(corpus, hit, Math.max(20, budget - head.length - 1), place)}"`;
}

/** `<what> in <where>: "<quote>"` as a string (no location), within `budget` characters. */
export function quotedText(corpus: Corpus, what: string, hit: Hit, budget: number): string {
  return `${what} ${inContext(corpus, hit, budget - what.length - 1)}`;
}

/** The first target (visible link, then JSON-LD or meta URL) whose lower-cased href matches `pattern`. */
export function targetWithHref(corpus: Corpus, pattern: RegExp): Target | undefined {
  return corpus.targets.find((target) => pattern.test(target.lower));
}

/** `<what>: link "<text>" → <href>` (or `JSON-LD URL → <href>`) for the target that decided an outcome. */
export function linked(corpus: Corpus, status: Outcome['status'], what: string, target: Target): Outcome {
  const name = target.text === '' ? '' : ` "${truncate(target.text, 60)}"`;
  const source = target.source === 'link' ? 'link' : `${target.source} URL`;
  return outcome(status, `${what}: ${source}${name} → ${truncate(target.href, 100)}`, locate(corpus.page, target.element));
}


/** Where the text-based controls look, for "not found" evidence. */
export const SEARCHED = 'visible text, headings, the title or links';


/** `No <what> found in <where> (looked for: …)`. */
export function notFound(what: string, vocabulary: { examples: readonly string[] }, where = SEARCHED): Outcome {
  return lookedFor(`No ${what} found in ${where}`, vocabulary.examples);
}

/**
 * Half the evidence was there, the other half was not: `<what> (looked for: …). Found in
 * <where>: "<quote of the half that was found>"`, located at that half.
 */
export function partlyFound(corpus: Corpus, what: string, list: readonly string[], found: Hit): Outcome {
  const head = `${what} (looked for: ${examples(list, 70)}). `;
  return outcome('fail', `${head}${quotedText(corpus, 'Found', found, EVIDENCE_MAX - head.length)}`, locationAt(corpus, found));
}

/**
 * The outcome when nothing was found on a script-rendered shell (see `Page.likelyClientRendered`):
 * the content a visitor sees is rendered by script, so static HTML cannot decide.
 */
export function scriptRendered(what: string, page: Page): Outcome {
  return outcome(
    'inconclusive',
    `No ${what} found, but the page is a script-rendered shell (${page.text.length} characters of visible text, ${page.scripts.length} scripts): what visitors see is rendered by script, which static analysis does not run`,
  );
}
