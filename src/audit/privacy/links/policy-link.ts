// Finding the page's privacy-policy link and choosing the one to follow.
//
// A candidate is a visible `<a href>` / `<area href>`, or a `<link>` not inside `<template>` /
// `<noscript>`, whose URL is http(s) and which
//   - carries rel="privacy-policy" (the IANA relation, RFC 6903), or
//   - is named like a policy (see `Wording`), or
//   - has a policy path (its last segment, or the last before only neutral ones, is `privacy`,
//     `privacy-policy`, `datenschutz`, …) and a name that says nothing about cookies.
// Not candidates (without rel): links named as cookie policy or cookie/consent settings only
// ("Cookie Policy", "Cookies", "Consent preferences"), whatever their URL; and links into a news,
// blog, press or topic section (`/news/`, `/blog/`, `/press/`, a year segment, …) unless their
// name is exactly a full policy name or one element of a list of names: "Our new privacy
// features" → /news/2024/privacy-update is a story about privacy, not the policy.
//
// The choice is the best candidate under POLICY_PREFERENCE, a lexicographic order written as data.
import type { Element } from 'domhandler';
import { isVisible, normalizeText, type Page } from '../../page.ts';
import { parentElement } from '../../page/dom.ts';
import type { PolicyLinkChoice } from '../context.ts';
import { fold, foldedParts, wordCount } from './text.ts';
import {
  COOKIE_LINK_NAME,
  COOKIE_WORD,
  FULL_NAME_IN_TEXT,
  NEUTRAL_SEGMENT,
  isFullPolicyName,
  isShortPolicyName,
  POLICY_SLUG,
  PRIVACY_POLICY_REL,
  SECTION_SEGMENT,
  SHORT_POLICY_SLUG,
} from './vocabulary.ts';

/**
 * How a candidate's name says "privacy policy", strongest first:
 * - `full`: the whole name is a policy name ("Privacy Policy", "Datenschutzerklärung", "Privacy & Cookies").
 * - `short`: the whole name is a short one ("Privacy", "Datenschutz", "Confidentialité").
 * - `part`: one element of a list-like name is a policy name ("Terms of Use / Privacy Policy",
 *   "Privacy Policy (updated May 2013)").
 * - `phrase`: a policy name inside a name of at most PHRASE_MAX_WORDS words ("Read our privacy policy").
 * - `href`: the name says nothing, the URL path does (`/legal/privacy-notice`, "About our ads" → `/privacy/`).
 * - `rel-only`: only rel="privacy-policy" says so.
 */
export type Wording = 'full' | 'short' | 'part' | 'phrase' | 'href' | 'rel-only';

export const WORDING_RANK: Readonly<Record<Wording, number>> = { full: 0, short: 1, part: 2, phrase: 3, href: 4, 'rel-only': 5 };

const WORDING_LABEL: Readonly<Record<Wording, string>> = {
  full: 'exact policy name',
  short: 'short policy name',
  part: 'policy name in a list',
  phrase: 'policy name in its text',
  href: 'policy path in its URL',
  'rel-only': 'rel only',
};

/** A name longer than this many words is a sentence, not a link to a policy. */
export const PHRASE_MAX_WORDS = 12;

export interface PolicyCandidate {
  element: Element;
  /** Absolute http(s) URL. */
  href: string;
  url: URL;
  /** The link's name (accessible-ish name; a `<link>`'s title). */
  text: string;
  rel: boolean;
  wording: Wording;
  /** Same registrable domain as the page (see `siteOf`). */
  sameSite: boolean;
  /** Inside `<footer>`, role=contentinfo, or an element whose id or class says footer. */
  inFooter: boolean;
  /** Document order: head `<link>`s first, then `<a>`/`<area>` in order. */
  order: number;
}

/** One criterion of the preference order: lower rank is better. */
export interface Preference {
  name: string;
  rank(candidate: PolicyCandidate): number;
}

/**
 * The documented preference order (README): the first criterion that differs decides.
 * 1. rel="privacy-policy": the author says so explicitly.
 * 2. Named by its text (full, short, part, phrase) before a link only its URL or rel names: what
 *    a link says it is beats what its path suggests ("Ars Technica Addendum" → /…-privacy-policy/).
 * 3. Same site before third-party: a widget's "Privacy Policy" (reCAPTCHA, a comments or video
 *    embed) names someone else's policy, not the site's.
 * 4. Wording: full > short > part > phrase > href > rel-only.
 * 5. In the footer, where the site-wide policy link lives.
 * 6. Document order.
 */
export const POLICY_PREFERENCE: readonly Preference[] = [
  { name: 'rel="privacy-policy"', rank: (c) => (c.rel ? 0 : 1) },
  { name: 'named by its text', rank: (c) => (isNamed(c.wording) ? 0 : 1) },
  { name: 'same site', rank: (c) => (c.sameSite ? 0 : 1) },
  { name: 'wording', rank: (c) => WORDING_RANK[c.wording] },
  { name: 'in footer', rank: (c) => (c.inFooter ? 0 : 1) },
  { name: 'document order', rank: (c) => c.order },
];

/** Whether the link's own name says privacy policy (not only its URL or rel). */
export function isNamed(wording: Wording): boolean {
  return wording !== 'href' && wording !== 'rel-only';
}

/** Compares two candidates under POLICY_PREFERENCE (negative: `a` is preferred). */
export function comparePolicyCandidates(a: PolicyCandidate, b: PolicyCandidate): number {
  for (const preference of POLICY_PREFERENCE) {
    const difference = preference.rank(a) - preference.rank(b);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Why a link that looked like a policy link was not a candidate: for the failure evidence. */
export interface PolicyNearMiss {
  kind: 'hidden' | 'section' | 'cookie' | 'scheme';
  text: string;
  href: string;
  element: Element;
}

export interface PolicyScan {
  /** Every candidate, best first. */
  candidates: readonly PolicyCandidate[];
  /** The first near-miss of the most telling kind (hidden, then section, cookie, scheme), when there is no candidate. */
  nearMiss: PolicyNearMiss | undefined;
}

const scans = new WeakMap<Page, PolicyScan>();

/** The page's policy candidates (best first) and near-misses; computed once per page. */
export function scanPolicyLinks(page: Page): PolicyScan {
  let scan = scans.get(page);
  if (scan === undefined) {
    scan = scan_(page);
    scans.set(page, scan);
  }
  return scan;
}

/** The one privacy-policy link to follow, under the preference order; undefined when the page links none. */
export function selectPolicyLink(page: Page): PolicyLinkChoice | undefined {
  const best = scanPolicyLinks(page).candidates[0];
  if (best === undefined) return undefined;
  return { href: best.href, text: best.text, reason: reasonOf(best), element: best.element };
}

/** `rel="privacy-policy", exact policy name, same site, in footer`. */
export function reasonOf(candidate: PolicyCandidate): string {
  const parts: string[] = [];
  if (candidate.rel) parts.push('rel="privacy-policy"');
  if (candidate.wording !== 'rel-only') parts.push(WORDING_LABEL[candidate.wording]);
  parts.push(candidate.sameSite ? 'same site' : 'third-party');
  if (candidate.inFooter) parts.push('in footer');
  return parts.join(', ');
}

const NEAR_MISS_ORDER: readonly PolicyNearMiss['kind'][] = ['hidden', 'section', 'cookie', 'scheme'];

function scan_(page: Page): PolicyScan {
  const candidates: PolicyCandidate[] = [];
  const misses: PolicyNearMiss[] = [];
  const pageSite = siteOf(page.url.hostname);
  let order = 0;
  const consider = (element: Element, text: string, href: string, url: URL | null, rel: boolean, visible: boolean): void => {
    const current = order++;
    const judged = judge(text, url, rel);
    if (judged.kind === 'none') return;
    if (judged.kind === 'miss') {
      misses.push({ kind: judged.why, text, href, element });
      return;
    }
    if (!visible) {
      misses.push({ kind: 'hidden', text, href, element });
      return;
    }
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      misses.push({ kind: 'scheme', text, href, element });
      return;
    }
    candidates.push({
      element,
      href: url.href,
      url,
      text,
      rel,
      wording: judged.wording,
      sameSite: siteOf(url.hostname) === pageSite,
      inFooter: inFooter(element),
      order: current,
    });
  };
  for (const link of page.headLinks) {
    if (!link.rel.includes(PRIVACY_POLICY_REL)) continue;
    consider(link.element, normalizeText(link.element.attribs.title ?? ''), link.url?.href ?? link.href, link.url, true, isVisible(page, link.element));
  }
  for (const link of page.links) {
    consider(link.element, link.text, link.href, link.url, link.rel.includes(PRIVACY_POLICY_REL), link.visible);
  }
  candidates.sort(comparePolicyCandidates);
  let nearMiss: PolicyNearMiss | undefined;
  if (candidates.length === 0) {
    for (const kind of NEAR_MISS_ORDER) {
      nearMiss = misses.find((miss) => miss.kind === kind);
      if (nearMiss !== undefined) break;
    }
  }
  return { candidates, nearMiss };
}

type Judgement = { kind: 'candidate'; wording: Wording } | { kind: 'miss'; why: 'section' | 'cookie' } | { kind: 'none' };

/** Whether a link (name, URL, rel) is a policy candidate, a telling near-miss, or unrelated. Visibility and scheme are checked by the caller. */
export function judge(text: string, url: URL | null, rel: boolean): Judgement {
  const folded = fold(text);
  let wording: Wording | null = wordingOf(text, folded);
  // Path segments are folded only when a rule below needs them (most links are decided by name).
  let segments: string[] | undefined;
  const path = (): string[] => (segments ??= url === null || (url.protocol !== 'https:' && url.protocol !== 'http:') ? [] : pathSegments(url));
  const cookieName = COOKIE_LINK_NAME.test(folded);
  if (wording === null && !cookieName && !COOKIE_WORD.test(folded) && isPolicyPath(path())) wording = 'href';
  if (rel) return { kind: 'candidate', wording: wording ?? 'rel-only' };
  if (wording === null) return cookieName ? { kind: 'miss', why: 'cookie' } : { kind: 'none' };
  if (wording !== 'full' && wording !== 'part' && path().some((segment) => SECTION_SEGMENT.test(segment))) return { kind: 'miss', why: 'section' };
  return { kind: 'candidate', wording };
}

/** How a link's name says "privacy policy"; null when it does not. */
function wordingOf(text: string, folded: string): Exclude<Wording, 'href' | 'rel-only'> | null {
  if (folded === '') return null;
  if (isFullPolicyName(folded)) return 'full';
  if (isShortPolicyName(folded)) return 'short';
  // A part that is a full name is also a run of words of the whole name, so one regex gates both.
  if (!FULL_NAME_IN_TEXT.test(folded)) return null;
  const parts = foldedParts(text);
  if (parts.length > 1 && parts.some(isFullPolicyName)) return 'part';
  return wordCount(folded) <= PHRASE_MAX_WORDS ? 'phrase' : null;
}

const EXTENSION = /\.(?:s?html?|php\d?|aspx?|jsp|cfm|pdf|dtl|do|cgi|txt)$/i;

/** The URL's path segments, percent-decoded, without file extensions, folded ("Privacy_Policy.aspx" → "privacy policy"). */
function pathSegments(url: URL): string[] {
  return url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => fold(safeDecode(segment).replace(EXTENSION, '')));
}

function isPolicySegment(segment: string): boolean {
  return SHORT_POLICY_SLUG.test(segment) || POLICY_SLUG.test(segment);
}

/**
 * Whether the path leads to a policy page: its last segment is a policy segment, or only
 * neutral segments (a language code, `index`, `policy`, `notice`, …) follow one.
 * `/privacy/us/yahoo/relevantads.html` is a page under the privacy section, not the policy;
 * `/privacy/cookies` is the cookie page.
 */
function isPolicyPath(segments: readonly string[]): boolean {
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (isPolicySegment(segment)) return true;
    if (!NEUTRAL_SEGMENT.test(segment)) return false;
  }
  return false;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Second-level labels under which registrations happen (`bbc.co.uk`, `abc.net.au`): an
 * approximation of the Public Suffix List, which the service does not ship.
 */
const SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gob', 'gov', 'go', 'gv', 'ltd', 'mil', 'ne', 'net', 'nic', 'nom', 'or', 'org', 'plc', 'sch']);

/**
 * The registrable domain ("site") of a host name, approximately: the last two labels, or three
 * under a two-letter country code with a common second-level label (`example.co.uk`). IP
 * addresses are their own site.
 */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(host)) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const keep = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

const FOOTER_NAME = /footer/i;

/** Whether an ancestor is `<footer>`, role=contentinfo, or has an id or class containing "footer". */
export function inFooter(el: Element): boolean {
  for (let node = parentElement(el); node !== null; node = parentElement(node)) {
    if (node.name === 'footer') return true;
    const attribs = node.attribs;
    if (attribs.role !== undefined && attribs.role.toLowerCase().split(/\s+/).includes('contentinfo')) return true;
    if ((attribs.id !== undefined && FOOTER_NAME.test(attribs.id)) || (attribs.class !== undefined && FOOTER_NAME.test(attribs.class))) return true;
  }
  return false;
}
