// The consent evidence of one privacy page, built in one pass and shared by the three consent
// controls (memoised per PrivacyPage).
//
// What is read:
// - every Set-Cookie header of the crawl (redirect hops and the final response): they arrive
//   before any HTML, so a known marketing or analytics cookie there is set before any consent;
// - one walk over the DOM, in document order: scripts (external and inline), images, iframes,
//   comments, labels and candidate banner containers. The page model is the tree a browser that
//   runs scripts builds (the one whose visitors the audit is about): a `<template>`'s contents are
//   not in it (inert), and a `<noscript>`'s content is raw text, never loaded. Tracker images and
//   iframes a noscript names are read from its markup as a script-less browser would parse it
//   (`noscriptContent`) and only counted (`noscriptTrackers`);
// - the knowledge data (../knowledge): the cookie catalogue, tracker hosts, CMP signals, gating
//   conventions and consent frameworks.
//
// Tracking evidence is *confirmed* when it certainly happens before consent: a catalogued
// cookie in a header, or a tracker script / pixel / iframe / inline snippet / `document.cookie`
// write that runs without gating. Markup that holds tracking back is *gated* and not evidence: a
// script type that does not run (with a CMP's category attribute), a deferred iframe/image URL,
// or a Google tag after a Consent Mode default denying the storage it needs. Evidence is
// *unconfirmed* when something visible in the markup may hold it back in the browser: a CMP
// that blocks trackers automatically loading before it, a consent check in the same inline
// script, or an IAB TCF stub before Google's publisher ad tags (which wait for the TCF CMP). A tag manager that loads ungated is neither: the tags it fires are
// configured in its container, which static analysis does not see.
import type { Element } from 'domhandler';
import { isComment, isTag, type AnyNode } from 'domhandler';
import { noscriptContent, truncate, type Page, type Script } from '../../page.ts';
import type { Outcome } from '../../control.ts';
import type { PrivacyPage } from '../context.ts';
import { EVIDENCE_MAX, outcome } from '../../evidence.ts';
import {
  classifyCookie,
  classifyTrackerUrl,
  CMPS,
  cmpForScriptUrl,
  hostMatches,
  isExecutableScriptType,
  normalizeHost,
  onDomain,
  type CmpSignature,
} from '../knowledge/index.ts';
import { analyseBanner, isConsentDialog, namesConsentContainer, type BannerFinding, type Candidate } from './banner.ts';
import { parseSetCookie, scriptCookieWrites } from './set-cookie.ts';
import {
  BANNER_FRAMEWORKS,
  COMMENT_SIGNALS,
  elementHits,
  FRAMEWORKS,
  INLINE_SIGNALS,
  SCRIPT_SRC_SIGNALS,
  cmpOfInlineLoader,
  deferredGate,
  httpUrl,
  scriptGate,
  type Gate,
  type StaticBannerTests,
} from './signals.ts';
import { CONSENT_CHECK, LOADER, SNIPPETS, consentModeDefault, scriptUrls } from './snippets.ts';
import { CONTAINER_NAME } from './wording.ts';

export type TrackingKind = 'set-cookie' | 'script-cookie' | 'script' | 'snippet' | 'pixel' | 'iframe';

/** One piece of marketing or analytics evidence. */
export interface TrackingItem {
  kind: TrackingKind;
  /** The cookie name, the tracker URL, or the snippet's label. */
  subject: string;
  vendor: string;
  category: 'analytics' | 'marketing';
  /** Position: negative for headers (before any HTML), else document order (see `position`). */
  order: number;
  element?: Element;
  /** For `set-cookie`: the URL of the response that carried it, and whether it was a redirect hop. */
  responseUrl?: string;
  hop?: boolean;
  /** For `script-cookie`: the cookie name written. */
  cookie?: string;
  /** Set when something in the markup may hold this back in the browser: why. */
  caveat?: string;
}

/** A tag manager that loads without gating. */
export interface TagManagerItem {
  vendor: string;
  url: string;
  order: number;
  element: Element;
}

/** Tracking markup that is held back until consent (not evidence). */
export interface GatedItem {
  vendor: string;
  subject: string;
  /** How: `Cookiebot (Usercentrics) type="text/plain" data-cookieconsent="statistics"` or `type="text/plain"`. */
  gate: string;
  element: Element;
}

export interface Mechanism {
  kind: 'cmp' | 'framework' | 'consent-mode' | 'banner';
  /** Names it in evidence: `OneTrust (loader cdn.cookielaw.org/…)`. */
  label: string;
  order: number;
  element?: Element;
}

export interface CmpDetection {
  cmp: CmpSignature;
  /** The first static signal seen, as the knowledge labels it (or the loader URL). */
  signal: string;
  order: number;
  element?: Element;
}

/** A consent tool outside the knowledge's ten CMPs, known by its gating convention (iubenda, Klaro, Borlabs). */
export interface ToolDetection {
  name: string;
  signal: string;
  order: number;
  element: Element;
}

export interface ConsentModeFinding {
  order: number;
  element: Element;
  analyticsDenied: boolean;
  adDenied: boolean;
}

export interface ConsentEvidence {
  page: Page;
  /** Evidence that certainly precedes consent, headers first, then in document order. */
  confirmed: readonly TrackingItem[];
  /** Evidence that something in the markup may hold back (each has a caveat). */
  unconfirmed: readonly TrackingItem[];
  tagManagers: readonly TagManagerItem[];
  gated: readonly GatedItem[];
  /** Detected CMPs, by first signal. */
  cmps: readonly CmpDetection[];
  /** Consent tools outside the ten CMPs, seen through their gating conventions (their banner is injected by script). */
  otherTools: readonly ToolDetection[];
  /** IAB frameworks seen (TCF, GPP, USP), by first signal. */
  frameworks: ReadonlyArray<{ id: string; name: string; order: number }>;
  consentMode: ConsentModeFinding | undefined;
  /** Auto-blocking CMP signals, by order. */
  autoBlockers: ReadonlyArray<{ cmp: string; label: string; order: number }>;
  /** Consent mechanisms (CMPs, frameworks, consent mode, the visible banner), in order. */
  mechanisms: readonly Mechanism[];
  banner: BannerFinding;
  /** Tracker images / iframes seen only inside `<noscript>` (not evidence). */
  noscriptTrackers: number;
  stats: { headers: number; cookies: number; scripts: number };
}

export { EVIDENCE_MAX, outcome };

/** A URL shortened for evidence: no scheme, at most `max` characters. */
export function shortUrl(url: string, max = 70): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.length <= max ? bare : `${truncate(bare, max - 1)}…`;
}

/** Document position: element order, then the offset inside an inline script. */
const OFFSET_SPAN = 1 << 20;
function position(order: number, offset = 0): number {
  return order * OFFSET_SPAN + Math.min(offset, OFFSET_SPAN - 1);
}

const memo = new WeakMap<PrivacyPage, ConsentEvidence>();

/** The consent evidence of a privacy page, computed once and shared by the three controls. */
export function analyseConsentEvidence(privacyPage: PrivacyPage): ConsentEvidence {
  let evidence = memo.get(privacyPage);
  if (evidence === undefined) {
    evidence = analyse(privacyPage);
    memo.set(privacyPage, evidence);
  }
  return evidence;
}

/** Tags that hold a banner: never scripts, links, buttons or the page itself. */
const CONTAINER_TAGS: ReadonlySet<string> = new Set([
  'div', 'section', 'aside', 'dialog', 'form', 'footer', 'header', 'article', 'span', 'p', 'nav', 'details', 'fieldset', 'ul', 'table', 'center',
]);
const DIALOG_ROLES: ReadonlySet<string> = new Set(['dialog', 'alertdialog', 'region']);
/** Bound on candidates per page (a page marking every teaser `gdpr-…` stays linear). */
const MAX_CANDIDATES = 200;
/** Bound on evidence items kept per kind of list. */
const MAX_ITEMS = 500;

/** Google tags that honour Consent Mode: gtag.js (and GTM, a tag manager either way), served from googletagmanager.com. */
function honoursConsentMode(url: string | undefined): boolean {
  if (url === undefined) return false;
  const parsed = URL.parse(url);
  return parsed !== null && hostMatches(parsed.hostname, 'googletagmanager.com');
}

/**
 * Google's publisher ad tags (GPT, AdSense) read the IAB TCF signal and hold ad requests and
 * cookies until a TCF CMP answers (Google's TCF v2 integration). Other vendors may too, but do not
 * document it for every tag, so only these are treated so.
 */
function waitsForTcf(url: string | undefined): boolean {
  if (url === undefined) return false;
  const host = URL.parse(url)?.hostname ?? '';
  return host === 'securepubads.g.doubleclick.net' || onDomain(host, 'googlesyndication.com') || onDomain(host, 'googletagservices.com');
}

function analyse({ page, responseCookies }: PrivacyPage): ConsentEvidence {
  const items: TrackingItem[] = [];
  const tagManagers: TagManagerItem[] = [];
  const gated: GatedItem[] = [];
  const cmps = new Map<string, CmpDetection>();
  const otherTools = new Map<string, ToolDetection>();
  const frameworks = new Map<string, { id: string; name: string; order: number }>();
  const autoBlockers: Array<{ cmp: string; label: string; order: number }> = [];
  const candidates: Array<Candidate & { dialog: boolean }> = [];
  const labelsFor = new Map<string, Element[]>();
  /** Category inputs of a CMP's server-rendered settings (wherever they are in the markup). */
  const cmpCategoryInputs: Array<{ element: Element; banner: StaticBannerTests }> = [];
  const scriptsByElement = new Map<Element, Script>();
  for (const script of page.scripts) scriptsByElement.set(script.element, script);
  let consentMode: ConsentModeFinding | undefined;
  let noscriptTrackers = 0;
  let scriptCount = 0;
  /** Items from an inline script that consults a consent API, to be caveated. */
  const consentChecked = new Set<TrackingItem>();

  const cmpSeen = (cmp: CmpSignature, signal: string, order: number, element?: Element): void => {
    if (cmps.has(cmp.id)) return;
    const detection: CmpDetection = { cmp, signal, order };
    if (element !== undefined) detection.element = element;
    cmps.set(cmp.id, detection);
  };
  const frameworkSeen = (id: string, name: string, order: number): void => {
    if (!frameworks.has(id)) frameworks.set(id, { id, name, order });
  };
  /** A named tool's gating convention on an element: that tool runs on the page (and shows its UI). */
  const toolSeen = (gate: Gate, order: number, element: Element): void => {
    if (!gate.distinctive) return;
    const signal = `markup held back by its convention ${gate.markup}`;
    const cmp = CMPS.find((c) => c.id === gate.tool);
    if (cmp !== undefined) cmpSeen(cmp, signal, position(order), element);
    else if (!otherTools.has(gate.tool)) otherTools.set(gate.tool, { name: gate.owner, signal, order: position(order), element });
  };
  /** How a non-executing script is held back: the convention it follows (noting its tool), else its type. */
  const gateOf = (el: Element, type: string, order: number): string => {
    const gate = scriptGate(el, type);
    if (gate === undefined) return `type="${type}" (not executed)`;
    toolSeen(gate, order, el);
    return `${gate.owner} ${gate.markup}`;
  };
  const push = (item: TrackingItem): void => {
    if (items.length < MAX_ITEMS) items.push(item);
  };
  const resolve = (raw: string | undefined): URL | undefined => {
    if (raw === undefined) return undefined;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('data:')) return undefined;
    const url = URL.parse(trimmed, page.baseUrl);
    return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') ? url : undefined;
  };

  /** Trackers an inline script loads: well-known snippets and tracker URLs in its strings. */
  const inlineTrackers = (
    content: string,
    urls: ReadonlyArray<{ url: string; offset: number }> | undefined,
  ): Array<{ subject: string; vendor: string; category: 'analytics' | 'marketing' | 'tag-manager'; offset: number; url?: string }> => {
    if (urls === undefined) return [];
    const found: Array<{ subject: string; vendor: string; category: 'analytics' | 'marketing' | 'tag-manager'; offset: number; url?: string }> = [];
    const vendors = new Set<string>();
    for (const snippet of SNIPPETS) {
      const match = snippet.pattern.exec(content);
      if (match === null) continue;
      vendors.add(snippet.vendor.toLowerCase());
      found.push({ subject: snippet.label, vendor: snippet.vendor, category: snippet.category, offset: match.index });
    }
    for (const { url, offset } of urls) {
      const tracker = classifyTrackerUrl(url);
      if (tracker === undefined || vendors.has(tracker.vendor.toLowerCase())) continue;
      vendors.add(tracker.vendor.toLowerCase());
      found.push({ subject: url, vendor: tracker.vendor, category: tracker.category, offset, url });
    }
    return found;
  };

  const visitScript = (el: Element, order: number): void => {
    const script = scriptsByElement.get(el);
    if (script === undefined) return;
    scriptCount++;
    const executable = isExecutableScriptType(script.type);
    if (!executable) {
      // Held back: not evidence, but recorded (and its convention may name the consent tool).
      if (script.type === 'application/ld+json') return;
      const gate = gateOf(el, script.type, order);
      const deferred = deferredGate(el)?.url;
      const url = httpUrl(script.src) ?? (deferred === undefined ? undefined : resolve(deferred));
      const tracker = url === undefined ? undefined : classifyTrackerUrl(url);
      if (url !== undefined && tracker !== undefined) gated.push({ vendor: tracker.vendor, subject: url.href, gate, element: el });
      else if (script.src === null) {
        const content = script.content;
        const urls = LOADER.test(content) ? scriptUrls(content) : undefined;
        for (const found of inlineTrackers(content, urls)) gated.push({ vendor: found.vendor, subject: found.subject, gate, element: el });
      }
      return;
    }
    if (script.src !== null) {
      const url = httpUrl(script.src);
      if (url === undefined) return;
      const tracker = classifyTrackerUrl(url);
      const cmp = cmpForScriptUrl(url);
      if (cmp !== undefined) cmpSeen(cmp, `loader ${shortUrl(url.href, 45)}`, position(order), el);
      const host = normalizeHost(url.hostname);
      for (const signal of SCRIPT_SRC_SIGNALS) {
        if (!signal.test(url, host)) continue;
        cmpSeen(signal.cmp, signal.label, position(order), el);
        if (signal.autoBlocking) autoBlockers.push({ cmp: signal.cmp.name, label: signal.label, order: position(order) });
      }
      if (tracker === undefined) return;
      if (tracker.category === 'tag-manager') tagManagers.push({ vendor: tracker.vendor, url: url.href, order: position(order), element: el });
      else push({ kind: 'script', subject: url.href, vendor: tracker.vendor, category: tracker.category, order: position(order), element: el });
      return;
    }
    const content = script.content;
    if (content.trim() === '') return;
    // Only a script that injects something can load a tracker; its URLs are read once.
    const urls = LOADER.test(content) ? scriptUrls(content) : undefined;
    for (const signal of INLINE_SIGNALS) if (content.includes(signal.includes)) cmpSeen(signal.cmp, signal.label, position(order), el);
    for (const { url } of urls ?? []) {
      const cmp = cmpOfInlineLoader(url, content);
      if (cmp !== undefined) cmpSeen(cmp, `loader snippet for ${shortUrl(url, 40)}`, position(order), el);
    }
    for (const framework of FRAMEWORKS) if (framework.stub?.test(content)) frameworkSeen(framework.id, `${framework.name} stub`, position(order));
    if (consentMode === undefined) {
      const found = consentModeDefault(content);
      if (found !== undefined && (found.analyticsDenied || found.adDenied)) {
        consentMode = { order: position(order, found.offset), element: el, analyticsDenied: found.analyticsDenied, adDenied: found.adDenied };
      }
    }
    const fromScript: TrackingItem[] = [];
    for (const write of scriptCookieWrites(content)) {
      const cookie = classifyCookie(write.name, { host: page.url.hostname });
      if (cookie === undefined) continue;
      fromScript.push({ kind: 'script-cookie', subject: write.name, cookie: write.name, vendor: cookie.vendor, category: cookie.category, order: position(order, write.offset), element: el });
    }
    for (const found of inlineTrackers(content, urls)) {
      if (found.category === 'tag-manager') tagManagers.push({ vendor: found.vendor, url: found.url ?? found.subject, order: position(order, found.offset), element: el });
      else fromScript.push({ kind: 'snippet', subject: found.subject, vendor: found.vendor, category: found.category, order: position(order, found.offset), element: el });
    }
    const checksConsent = fromScript.length > 0 && CONSENT_CHECK.test(content);
    for (const item of fromScript) {
      push(item);
      if (checksConsent) consentChecked.add(item);
    }
  };

  const visitMedia = (el: Element, order: number, inert: boolean): void => {
    const url = resolve(el.attribs.src);
    if (url === undefined) {
      if (inert) return;
      const deferred = deferredGate(el);
      const deferredUrl = deferred === undefined ? undefined : resolve(deferred.url);
      const tracker = deferredUrl === undefined ? undefined : classifyTrackerUrl(deferredUrl);
      if (deferred !== undefined) toolSeen(deferred.gate, order, el);
      if (deferred !== undefined && tracker !== undefined) {
        gated.push({ vendor: tracker.vendor, subject: deferredUrl!.href, gate: `${deferred.gate.owner} ${deferred.gate.markup}`, element: el });
      }
      return;
    }
    if (el.name === 'img' && isContentImage(el, url)) return;
    const tracker = classifyTrackerUrl(url);
    if (tracker === undefined) return;
    if (inert) {
      noscriptTrackers++;
      return;
    }
    if (tracker.category === 'tag-manager') {
      tagManagers.push({ vendor: tracker.vendor, url: url.href, order: position(order), element: el });
      return;
    }
    push({ kind: el.name === 'iframe' ? 'iframe' : 'pixel', subject: url.href, vendor: tracker.vendor, category: tracker.category, order: position(order), element: el });
  };

  /** The images and iframes a `<noscript>` names, counted as inert media. */
  const visitNoscript = (el: Element, order: number): void => {
    let node: AnyNode | null = noscriptContent(el).children[0] ?? null;
    while (node !== null) {
      if (isTag(node)) {
        if (node.name === 'img' || node.name === 'iframe') visitMedia(node, order, true);
        const first = node.children[0];
        if (first !== undefined) {
          node = first;
          continue;
        }
      }
      let current: AnyNode = node;
      node = null;
      while (current.next === null && current.parent !== null && isTag(current.parent)) current = current.parent;
      node = current.next;
    }
  };

  const visitElement = (el: Element, order: number, inert: boolean): void => {
    const name = el.name;
    if (name === 'img' || name === 'iframe') visitMedia(el, order, inert);
    if (name === 'noscript') visitNoscript(el, order);
    if (inert) return;
    if (name === 'script') visitScript(el, order);
    if (name === 'iframe' && el.attribs.name !== undefined) {
      for (const framework of FRAMEWORKS) if (framework.locatorFrames.includes(el.attribs.name)) frameworkSeen(framework.id, `${framework.name} locator frame`, position(order));
    }
    if (name === 'label' && el.attribs.for !== undefined) {
      const list = labelsFor.get(el.attribs.for);
      if (list === undefined) labelsFor.set(el.attribs.for, [el]);
      else list.push(el);
    }
    let staticBanner: StaticBannerTests | undefined;
    for (const hit of elementHits(el)) {
      if (hit.kind === 'signal') {
        cmpSeen(hit.signal.cmp, hit.signal.label, position(order), el);
        if (hit.signal.autoBlocking) autoBlockers.push({ cmp: hit.signal.cmp.name, label: hit.signal.label, order: position(order) });
      } else if (hit.kind === 'placeholder') {
        return; // an empty placeholder a CMP script fills: never a banner
      } else if (hit.kind === 'category-input') {
        if (cmpCategoryInputs.length < MAX_CANDIDATES) cmpCategoryInputs.push({ element: el, banner: hit.banner });
      } else {
        staticBanner ??= hit.banner;
      }
    }
    if (candidates.length >= MAX_CANDIDATES) return;
    if (staticBanner !== undefined) {
      candidates.push({ element: el, order: position(order), staticBanner, dialog: false });
      return;
    }
    if (!CONTAINER_TAGS.has(name)) return;
    if (namesConsentContainer(el, CONTAINER_NAME)) {
      candidates.push({ element: el, order: position(order), dialog: false });
      return;
    }
    const role = (el.attribs.role ?? '').trim().toLowerCase();
    if (DIALOG_ROLES.has(role) || name === 'dialog' || name === 'aside') candidates.push({ element: el, order: position(order), dialog: true });
  };

  // One iterative walk in document order; `inert` counts open <template> / <noscript> elements.
  let order = 0;
  let inert = 0;
  const leave = (el: Element): void => {
    if (el.name === 'template' || el.name === 'noscript') inert--;
  };
  let node: AnyNode | null = page.document.children[0] ?? null;
  while (node !== null) {
    if (isTag(node)) {
      visitElement(node, ++order, inert > 0);
      if (node.name === 'template' || node.name === 'noscript') inert++;
      const first = node.children[0];
      if (first !== undefined) {
        node = first;
        continue;
      }
      leave(node);
    } else if (isComment(node) && inert === 0) {
      for (const signal of COMMENT_SIGNALS) if (node.data.includes(signal.includes)) cmpSeen(signal.cmp, signal.label, position(order));
    }
    let current: AnyNode = node;
    node = null;
    for (;;) {
      if (current.next !== null) {
        node = current.next;
        break;
      }
      const parent: AnyNode | null = current.parent;
      if (parent === null || !isTag(parent)) break;
      leave(parent);
      current = parent;
    }
  }

  const banner = analyseBanner(
    page,
    candidates.filter((c) => !c.dialog || isConsentDialog(page, c.element)),
    labelsFor,
    cmpCategoryInputs,
  );

  // Set-Cookie headers: before any HTML, in the order received.
  const headerItems: TrackingItem[] = [];
  let cookieCount = 0;
  responseCookies.forEach((header, index) => {
    const responseUrl = URL.parse(header.url);
    const host = responseUrl?.hostname ?? page.url.hostname;
    for (const cookie of parseSetCookie(header.header)) {
      cookieCount++;
      if (cookie.deletes) continue;
      const context = cookie.domain === undefined ? { host } : { host, domain: cookie.domain };
      const known = classifyCookie(cookie.name, context);
      if (known === undefined) continue;
      headerItems.push({
        kind: 'set-cookie',
        subject: cookie.name,
        cookie: cookie.name,
        vendor: known.vendor,
        category: known.category,
        order: index - responseCookies.length - 1,
        responseUrl: header.url,
        hop: responseUrl === null || responseUrl.href !== page.url.href,
      });
    }
  });

  // What holds element evidence back in the browser (gated: not evidence), or may (unconfirmed).
  const tcf = frameworks.get('tcf');
  const elementItems: TrackingItem[] = [];
  for (const item of items.sort((a, b) => a.order - b.order)) {
    const tagUrl = item.kind === 'script' || item.kind === 'snippet' || item.kind === 'iframe' ? item.subject : undefined;
    if (consentMode !== undefined && consentMode.order < item.order && honoursConsentMode(tagUrl)) {
      const storage = item.category === 'analytics' ? 'analytics_storage' : 'ad_storage';
      if (item.category === 'analytics' ? consentMode.analyticsDenied : consentMode.adDenied) {
        gated.push({ vendor: item.vendor, subject: item.subject, gate: `Google Consent Mode (${storage} denied by default before it)`, element: item.element! });
        continue;
      }
    }
    if (consentChecked.has(item)) {
      item.caveat = 'its script checks consent first (a CMP callback or consent API)';
    } else {
      const blocker = autoBlockers.find((b) => b.order < item.order);
      if (blocker !== undefined) item.caveat = `${blocker.cmp} loads first and blocks known trackers by itself`;
      else if (tcf !== undefined && tcf.order < item.order && waitsForTcf(tagUrl)) item.caveat = 'Google ad tags wait for the TCF CMP stubbed before them';
    }
    elementItems.push(item);
  }
  const confirmed = [...headerItems, ...elementItems.filter((i) => i.caveat === undefined)];
  const unconfirmed = elementItems.filter((i) => i.caveat !== undefined);

  const mechanisms: Mechanism[] = [];
  for (const detection of cmps.values()) {
    const mechanism: Mechanism = { kind: 'cmp', label: detection.cmp.name, order: detection.order };
    if (detection.element !== undefined) mechanism.element = detection.element;
    mechanisms.push(mechanism);
  }
  for (const tool of otherTools.values()) mechanisms.push({ kind: 'cmp', label: tool.name, order: tool.order, element: tool.element });
  for (const framework of frameworks.values()) {
    if (BANNER_FRAMEWORKS.has(framework.id)) mechanisms.push({ kind: 'framework', label: framework.name, order: framework.order });
  }
  if (consentMode !== undefined) mechanisms.push({ kind: 'consent-mode', label: 'a Google Consent Mode default', order: consentMode.order, element: consentMode.element });
  if (banner.banner !== undefined) mechanisms.push({ kind: 'banner', label: 'a consent banner', order: banner.banner.panel.order, element: banner.banner.panel.element });
  mechanisms.sort((a, b) => a.order - b.order);

  return {
    page,
    confirmed,
    unconfirmed,
    tagManagers: tagManagers.sort((a, b) => a.order - b.order),
    gated,
    cmps: [...cmps.values()].sort((a, b) => a.order - b.order),
    otherTools: [...otherTools.values()].sort((a, b) => a.order - b.order),
    frameworks: [...frameworks.values()].sort((a, b) => a.order - b.order),
    consentMode,
    autoBlockers,
    mechanisms,
    banner,
    noscriptTrackers,
    stats: { headers: responseCookies.length, cookies: cookieCount, scripts: scriptCount },
  };
}

const PHOTOGRAPHIC = /\.(?:jpe?g|webp|avif|svg|heic)$/i;
const STYLE_SIZE = { width: /(?:^|;)\s*width\s*:\s*(\d+)px/i, height: /(?:^|;)\s*height\s*:\s*(\d+)px/i } as const;

/** A declared size: the attribute, else the inline style's pixels; undefined when neither gives one. */
function declaredSize(el: Element, dimension: 'width' | 'height'): number | undefined {
  const attribute = el.attribs[dimension];
  if (attribute !== undefined && /^\s*\d+/.test(attribute)) return Number.parseInt(attribute, 10);
  const style = el.attribs.style;
  const match = style === undefined ? null : STYLE_SIZE[dimension].exec(style);
  return match === null ? undefined : Number(match[1]);
}

/**
 * An image from a tracker host that is content, not a pixel: declared bigger than 2×2, or a
 * photographic file (`.jpg`, `.webp`, …) not declared tiny. Ad networks serve thumbnails from
 * their own hosts (images.outbrain.com, images.taboola.com); those are not tracking pixels.
 */
function isContentImage(el: Element, url: URL): boolean {
  const width = declaredSize(el, 'width');
  const height = declaredSize(el, 'height');
  if ((width !== undefined && width <= 2) || (height !== undefined && height <= 2)) return false;
  if (width !== undefined && height !== undefined) return true;
  return PHOTOGRAPHIC.test(url.pathname);
}

/** An evidence item in words: what, whose, which category, and where it came from. */
export function itemText(item: TrackingItem): string {
  const whose = `(${item.vendor}, ${item.category})`;
  switch (item.kind) {
    case 'set-cookie':
      return `Cookie "${item.subject}" ${whose}`;
    case 'script-cookie':
      return `Cookie "${item.subject}" ${whose} written by document.cookie in an inline script`;
    case 'script':
      return `Tracker script ${shortUrl(item.subject)} ${whose}`;
    case 'snippet':
      return item.subject.startsWith('https://') ? `Inline snippet loading ${shortUrl(item.subject, 60)} ${whose}` : `Inline ${item.subject} ${whose}`;
    case 'pixel':
      return `Tracking pixel ${shortUrl(item.subject, 60)} ${whose}`;
    case 'iframe':
      return `Tracker iframe ${shortUrl(item.subject, 60)} ${whose}`;
  }
}

/** For a Set-Cookie item: `Set-Cookie header of [redirect hop ]<url>`. */
export function headerSource(item: TrackingItem): string {
  return `Set-Cookie header of ${item.hop === true ? 'redirect hop ' : ''}${truncate(item.responseUrl ?? '', 80)}`;
}

/** `main` followed by `suffix`, with `main` cut so that the suffix always fits the evidence bound. */
export function withSuffix(main: string, suffix: string): string {
  if (suffix === '') return main;
  const room = EVIDENCE_MAX - suffix.length;
  return `${main.length <= room ? main : `${truncate(main, room - 1)}…`}${suffix}`;
}

/** ` (+N more)` when there is more than the first item, else ''. */
export function more(count: number): string {
  return count > 1 ? ` (+${count - 1} more)` : '';
}
