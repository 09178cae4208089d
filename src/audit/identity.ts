// The stable identity of a failed occurrence, and what changed between two audits of one page.
// Pure: no database, no Fastify, only node:crypto, so the CI client can reuse it as it is.
//
// An identity is control + rule + where: a SHA-256 (first 128 bits, hex) over the identity
// version, the control, the engine rule (null outside WCAG) and the normalised selector and
// snippet. The same problem on an unchanged page is the same identity next week; a like-for-like
// swap (fix one image, break another) is one identity gone and one new. What an occurrence is:
// - a WCAG finding's `occurrences` (rule, selector, snippet), each one;
// - any other failed finding (privacy, AI governance, a WCAG finding stored before occurrences
//   existed): the finding itself, with its control and its location if it has one.
//
// Normalisation is conservative: two different elements must never share an identity, so only
// what changes without the element changing is removed. The selector is part of the identity, so
// any collapse below can only ever join two snippets found at the same place by the same rule.
// - Selectors: whitespace runs become one space, and a `>` combinator is written ` > `. The
//   engine writes them one way already; this only absorbs hand-written or re-spaced input.
// - Snippets, whitespace: runs of spaces, tabs and line breaks become one space, and none is kept
//   next to a tag's `<` or `>`, so re-indented markup (a template or formatter change) keeps its
//   identity. Text and attribute values keep their words: `Buy` and `Buy now` stay apart.
// - Snippets, cache-busting query parameters: the value of a parameter named `v`, `ver`,
//   `version`, `rev`, `cb`, `cachebust`, `cache_bust`, `cachebuster`, `bust`, `_`, `t`, `ts`,
//   `timestamp` or `build` is dropped when it looks like a build stamp (digits, a dotted version
//   such as 1.2.3, or 6+ hex digits in one case): `logo.png?v=171` and `logo.png?v=172` are one
//   image. Any other parameter keeps its value (`?id=1` and `?id=2` are two links), and so does a
//   value that looks like content (`?v=dQw4w9WgXcQ`, a video id).
// - Snippets, the element's own markup only: its start tag and the text before its first child
//   element. A snippet is the element's outer HTML cut at 200 characters, so an `<html>`, a
//   `<form>` or a `<table>` failing a rule carried its first children's markup, and an edit inside
//   them (an image fixed further down the page) gave the container a new identity: the same
//   failure read as one fixed and one new. The selector says where the element is; the start tag
//   and its leading text say which element it is (`<a href="/buy">Buy` and `…>Buy now` stay apart).
// - Snippets, content-hashed file names: a dot-separated segment of 8 to 64 hex digits, with both
//   a digit and a letter, between a name and an extension (`app.3f9a2c1b.png`), becomes `#`: the
//   same asset rebuilt. A name that is only a hash (`3f9a2c1b.png`), a hash joined with `-`, and a
//   date stamp (`report.20240101.pdf`, digits only: another month's document) keep theirs.
// What is not normalised: a snippet is cut at 200 characters of outer HTML (src/audit/page/
// location.ts), so a change after the cut is invisible, and a whitespace change before it moves the
// cut and so changes the identity; a selector follows the element's position, so an element added
// before it (`p:nth-of-type(3)` becoming 4) changes the identity of everything after it.
//
// A WCAG finding lists at most 50 occurrences: past 50 failing elements a criterion's comparison
// sees only the listed ones, and fixing one of them brings the 51st into view as new.
//
// Changing any of this changes identities, and those stored with earlier audits (audit_identities,
// identity_appearances) keep the old ones: bump IDENTITY_VERSION, so that an old and a new identity
// never meet as equal by chance, and expect the first comparison per page to show all as fixed and new.
// A namespace import: `hash` is missing before Node 20.12, where a named import would not link.
// It imports nothing else of the service, not even types: the CI client (packages/check) compiles
// this file alone, so the findings it reads are described here by the fields the comparison uses.
import * as nodeCrypto from 'node:crypto';

type Severity = 'error' | 'warning';

/** The fields of a finding (src/audit/findings.ts, or an audit as the API returns it) read here. */
export interface ComparedFinding {
  control: string;
  status: 'fail' | 'inconclusive';
  severity: Severity;
  location?: { selector: string; snippet: string };
  occurrences?: readonly { rule: string; selector: string; snippet: string }[];
}

/** Part of every identity's hash input: a new normalisation must not meet old identities as equal. */
export const IDENTITY_VERSION = 1;

/** One failed occurrence as a comparison sees it. */
export interface FailedOccurrence {
  identity: string;
  control: string;
  /** The severity of the finding it belongs to. */
  severity: Severity;
  /** The engine rule (WCAG); null for a finding that is its own occurrence outside WCAG. */
  rule: string | null;
  selector: string | null;
  snippet: string | null;
  /** Index of its finding in the findings list it came from. */
  finding: number;
}

const WHITESPACE = /[ \t\n\r\f]+/g;
const SPACE_AT_TAG = /[ \t\n\r\f]+(?=[<>])|(?<=[<>])[ \t\n\r\f]+/g;
/** What a snippet with single spaces only, none at a tag's `<` or `>` nor at either end, never has. */
const SNIPPET_TO_NORMALISE = /[\t\n\r\f]| {2}|> | <|^ | $/;
const SELECTOR_CHILD = / ?> ?/g;
/** What a selector written as the engine writes it (`a > b`, single spaces) never has. */
const SELECTOR_TO_NORMALISE = /[\t\n\r\f]| {2}|^ | $|[^ ]>|>[^ ]/;
const CACHE_BUSTER = /(&amp;|[?&])(v|ver|version|rev|cb|cachebust|cache_bust|cachebuster|bust|_|t|ts|timestamp|build)=([^&"'#\s<>]*)/gi;
const BUILD_STAMP = /^(?:\d+(?:\.\d+)*|[0-9a-f]{6,64}|[0-9A-F]{6,64})$/;
const HASHED_NAME = /([\w-]\.)([0-9a-f]{8,64})(?=\.[a-z0-9]{1,8}\b)/gi;
const DIGIT = /\d/;
const HEX_LETTER = /[a-f]/i;

// Both run for every occurrence of every audit stored: what cannot match is not scanned for.
export function normaliseSelector(selector: string): string {
  if (!SELECTOR_TO_NORMALISE.test(selector)) return selector;
  return selector.replace(WHITESPACE, ' ').replace(SELECTOR_CHILD, ' > ').trim();
}

export function normaliseSnippet(snippet: string): string {
  let text = snippet;
  if (text.includes('?')) {
    text = text.replace(CACHE_BUSTER, (whole, separator: string, name: string, value: string) =>
      BUILD_STAMP.test(value) ? `${separator}${name}=` : whole,
    );
  }
  if (text.includes('.')) {
    text = text.replace(HASHED_NAME, (whole, before: string, hash: string) => (DIGIT.test(hash) && HEX_LETTER.test(hash) ? `${before}#` : whole));
  }
  if (SNIPPET_TO_NORMALISE.test(text)) text = text.replace(SPACE_AT_TAG, '').replace(WHITESPACE, ' ').trim();
  return ownMarkup(text);
}

/**
 * The start tag and the text before the first child element (see the header). A snippet whose
 * start tag the 200-character cut ended before it closed is kept whole. Attribute values are
 * serialised in double quotes with `"` escaped, so a `>` inside quotes never ends the tag.
 */
function ownMarkup(snippet: string): string {
  if (!snippet.startsWith('<') || snippet.startsWith('<!')) return snippet;
  let quote = '';
  for (let i = 1; i < snippet.length; i++) {
    const ch = snippet[i]!;
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') {
      const child = snippet.indexOf('<', i + 1);
      return child === -1 ? snippet : snippet.slice(0, child).trimEnd();
    }
  }
  return snippet;
}

/** SHA-256 as hex: the one-shot `crypto.hash` (Node 20.12 and later, about twice as fast on short input) where there is one. */
const sha256Hex: (text: string) => string =
  typeof nodeCrypto.hash === 'function'
    ? (text) => nodeCrypto.hash('sha256', text, 'hex')
    : (text) => nodeCrypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** The identity of one failed occurrence: 32 hex characters. */
export function identityOf(control: string, rule: string | null, selector: string | null, snippet: string | null): string {
  const where = [selector === null ? null : normaliseSelector(selector), snippet === null ? null : normaliseSnippet(snippet)];
  return sha256Hex(JSON.stringify([IDENTITY_VERSION, control, rule, ...where])).slice(0, 32);
}

/**
 * Every failed occurrence of a findings list, in list order: each occurrence of a finding that
 * lists them, and any other failed finding as one. Inconclusive findings are not failures.
 * `stored`: the identities of exactly this list as saved with its audit, in this order (one per
 * occurrence, else they are ignored), which spares hashing them again.
 */
export function failedOccurrences(
  findings: readonly ComparedFinding[],
  stored?: readonly string[],
): FailedOccurrence[] {
  const found: Omit<FailedOccurrence, 'identity'>[] = [];
  findings.forEach((finding, index) => {
    if (finding.status !== 'fail') return;
    const { control, severity } = finding;
    if (finding.occurrences !== undefined && finding.occurrences.length > 0) {
      for (const { rule, selector, snippet } of finding.occurrences) found.push({ control, severity, rule, selector, snippet, finding: index });
    } else {
      found.push({ control, severity, rule: null, selector: finding.location?.selector ?? null, snippet: finding.location?.snippet ?? null, finding: index });
    }
  });
  const known = stored !== undefined && stored.length === found.length ? stored : undefined;
  return found.map((o, i) => ({ identity: known?.[i] ?? identityOf(o.control, o.rule, o.selector, o.snippet), ...o }));
}

/** A failed control on one side of a comparison, with the highest severity it failed with there. */
export interface FailedControl {
  control: string;
  severity: Severity;
}

/** What a comparison reads of an occurrence. */
export type Comparable = Pick<FailedOccurrence, 'identity' | 'control' | 'severity'>;

export interface OccurrenceChanges<C extends Comparable = FailedOccurrence, E extends Comparable = C> {
  controls: { new: FailedControl[]; fixed: FailedControl[]; persisting: FailedControl[] };
  /** `new` and `persisting` as the current audit has them, `fixed` as the earlier one had them. */
  occurrences: { new: C[]; fixed: E[]; persisting: C[] };
}

/**
 * What changed from `earlier` to `current`: occurrences and controls that fail only now (new),
 * only before (fixed), or in both (persisting), each identity once. With no earlier audit
 * everything is new.
 */
export function compareOccurrences<C extends Comparable, E extends Comparable = C>(
  currentList: readonly C[],
  earlierList: readonly E[],
): OccurrenceChanges<C, E> {
  const current = distinct(currentList);
  const earlier = distinct(earlierList);
  const before = new Set(earlier.map((o) => o.identity));
  const now = new Set(current.map((o) => o.identity));
  const currentControls = failedControls(current);
  const earlierControls = failedControls(earlier);
  return {
    controls: {
      new: [...currentControls.values()].filter((c) => !earlierControls.has(c.control)),
      fixed: [...earlierControls.values()].filter((c) => !currentControls.has(c.control)),
      persisting: [...currentControls.values()].filter((c) => earlierControls.has(c.control)),
    },
    occurrences: {
      new: current.filter((o) => !before.has(o.identity)),
      fixed: earlier.filter((o) => !now.has(o.identity)),
      persisting: current.filter((o) => before.has(o.identity)),
    },
  };
}

/** Each identity once (the first): an engine lists an element once per rule, but nothing else promises it. */
function distinct<O extends Comparable>(list: readonly O[]): O[] {
  const seen = new Set<string>();
  return list.filter((o) => !seen.has(o.identity) && seen.add(o.identity));
}

/** Each control once, in first-seen order, with an error winning over a warning. */
function failedControls(occurrences: readonly { control: string; severity: Severity }[]): Map<string, FailedControl> {
  const controls = new Map<string, FailedControl>();
  for (const { control, severity } of occurrences) {
    const seen = controls.get(control);
    if (seen === undefined) controls.set(control, { control, severity });
    else if (severity === 'error') seen.severity = 'error';
  }
  return controls;
}
