// The privacy branch's knowledge, as data: known analytics and marketing cookies
// (cookies.json), tracker hosts and paths (trackers.json), and consent-management platforms with
// their static signals and gating conventions (cmps.json). This module loads and checks the data
// once, at import, and offers small lookups. Walking a page is the controls' job, not this one's.
//
// See README.md beside this file for the field meanings and how to add an entry.
import cookiesData from './cookies.json' with { type: 'json' };
import trackersData from './trackers.json' with { type: 'json' };
import cmpsData from './cmps.json' with { type: 'json' };

// ---------------------------------------------------------------------------------------------
// Shared: host and path rules
// ---------------------------------------------------------------------------------------------

/**
 * A URL rule: `host` matches that host and its subdomains (a whole-label suffix, never a
 * substring); `paths` are globs over the URL's pathname (`*` = within one segment, `/**\/` = any
 * number of segments; a glob ending in `/` matches everything below it, any other glob matches
 * the path exactly or followed by `/`). A rule without `host` matches any host and needs `paths`.
 * `query` requires query parameters with these exact values.
 */
export interface UrlRule {
  host?: string;
  paths?: readonly string[];
  query?: Readonly<Record<string, string>>;
}

interface CompiledUrlRule {
  host: string | undefined;
  paths: ReadonlyArray<{ glob: string; re: RegExp }> | undefined;
  query: ReadonlyArray<readonly [string, string]> | undefined;
}

const HOST_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Lower-case, without leading or trailing dots: `.Google.com.` → `google.com`. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\.+/, '').replace(/\.+$/, '');
}

/** True when `host` is `domain` or one of its subdomains (whole labels only). */
export function hostMatches(host: string, domain: string): boolean {
  const h = normalizeHost(host);
  const d = normalizeHost(domain);
  return d !== '' && (h === d || h.endsWith(`.${d}`));
}

/**
 * `hostMatches` for a host already normalised and a domain from the data (already lower-case):
 * whole labels only, without normalising both sides on every call of a hot loop.
 */
export function onDomain(host: string, domain: string): boolean {
  return host === domain || (host.length > domain.length && host.endsWith(domain) && host.charCodeAt(host.length - domain.length - 1) === 46);
}

/** `host` and each of its parent domains, longest first: `a.b.c` → `a.b.c`, `b.c`, `c`. */
function hostSuffixes(host: string): string[] {
  const out: string[] = [];
  let rest = host;
  for (;;) {
    out.push(rest);
    const dot = rest.indexOf('.');
    if (dot === -1) return out;
    rest = rest.slice(dot + 1);
  }
}

/** Compiles a path glob (see UrlRule) to an anchored RegExp. */
export function compilePathGlob(glob: string): RegExp {
  if (!glob.startsWith('/')) throw new Error(`path glob must start with "/": ${glob}`);
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('/**/', i)) {
      source += '/(?:.*/)?';
      i += 3;
    } else if (glob[i] === '*') {
      source += '[^/]*';
    } else {
      source += RegExp.escape(glob[i] as string);
    }
  }
  return new RegExp(glob.endsWith('/') ? `^${source}` : `^${source}(?:/|$)`);
}

function compileUrlRule(rule: UrlRule, where: string): CompiledUrlRule {
  if (rule.host === undefined && (rule.paths === undefined || rule.paths.length === 0)) {
    throw new Error(`${where}: a rule without host needs paths`);
  }
  if (rule.host !== undefined && !HOST_RE.test(rule.host)) throw new Error(`${where}: bad host ${JSON.stringify(rule.host)}`);
  const paths = rule.paths?.map((glob) => ({ glob, re: compilePathGlob(glob) }));
  const query = rule.query === undefined ? undefined : Object.entries(rule.query);
  return { host: rule.host, paths, query };
}

/**
 * The rule as text when the URL matches it: its host (`*` for any), the path glob that matched,
 * the query; e.g. `googletagmanager.com/gtag/js`. Undefined when it does not match.
 */
/** `host` is `url`'s host, already normalised. */
function urlRuleMatch(rule: CompiledUrlRule, url: URL, host: string): string | undefined {
  if (rule.host !== undefined && !onDomain(host, rule.host)) return undefined;
  let pathText = '';
  if (rule.paths !== undefined) {
    const hit = rule.paths.find(({ re }) => re.test(url.pathname));
    if (hit === undefined) return undefined;
    pathText = hit.glob;
  }
  let queryText = '';
  if (rule.query !== undefined) {
    if (!rule.query.every(([k, v]) => url.searchParams.get(k) === v)) return undefined;
    queryText = `?${rule.query.map(([k, v]) => `${k}=${v}`).join('&')}`;
  }
  return `${rule.host ?? '*'}${pathText}${queryText}`;
}

/**
 * An absolute http(s) URL from a URL or a string (protocol-relative `//host/x` is read as
 * https). Relative strings are not resolved here: resolve them against the page first.
 */
export function toHttpUrl(input: URL | string): URL | undefined {
  let url: URL | null;
  if (typeof input === 'string') {
    const text = input.trim();
    url = URL.parse(text.startsWith('//') ? `https:${text}` : text);
  } else {
    url = input;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v !== '');
}

function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) throw new Error(`${where}: unknown field "${key}"`);
  }
}

function readUrlRule(raw: unknown, where: string): UrlRule {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['host', 'paths', 'query'], where);
  const rule: { host?: string; paths?: string[]; query?: Record<string, string> } = {};
  if (raw.host !== undefined) {
    if (typeof raw.host !== 'string') throw new Error(`${where}: host must be a string`);
    rule.host = raw.host;
  }
  if (raw.paths !== undefined) {
    if (!isStringArray(raw.paths) || raw.paths.length === 0) throw new Error(`${where}: paths must be non-empty strings`);
    rule.paths = raw.paths;
  }
  if (raw.query !== undefined) {
    if (!isRecord(raw.query) || !Object.values(raw.query).every((v) => typeof v === 'string')) {
      throw new Error(`${where}: query must map names to strings`);
    }
    rule.query = raw.query as Record<string, string>;
  }
  compileUrlRule(rule, where);
  return rule;
}

/** Whether a regex source has a `|` outside any group or character class (`^a$|b`). */
function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) return true;
  }
  return false;
}

/**
 * Checks a regex source from the data: it starts with `^`, ends with an unescaped `$`, has no
 * top-level `|` (so it can only match a whole value), and compiles.
 */
export function compileAnchoredPattern(source: string, where: string): RegExp {
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$') || hasTopLevelAlternation(source)) {
    throw new Error(`${where}: pattern must be anchored with ^…$: ${source}`);
  }
  try {
    return new RegExp(source);
  } catch (error) {
    throw new Error(`${where}: pattern does not compile: ${source} (${(error as Error).message})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Cookies
// ---------------------------------------------------------------------------------------------

export const COOKIE_CATEGORIES = ['analytics', 'marketing'] as const;
export type CookieCategory = (typeof COOKIE_CATEGORIES)[number];

export const COOKIE_MATCH_KINDS = ['exact', 'prefix', 'pattern'] as const;
export type CookieMatchKind = (typeof COOKIE_MATCH_KINDS)[number];

export interface CookieEntry {
  /** `exact`: the whole name; `prefix`: the name starts with it; `pattern`: an anchored regex. */
  match: CookieMatchKind;
  /** The name, the prefix, or the regex source (`^_ga_[A-Z0-9]+$`). Case-sensitive. */
  name: string;
  vendor: string;
  category: CookieCategory;
  /**
   * When present, the entry counts only for a cookie whose Domain attribute or setting host is
   * one of these domains or a subdomain of one. Required for short or generic names (`i`, `B`,
   * `uid`, `id`): on their own they prove nothing.
   */
  domains?: readonly string[];
}

export interface CookieContext {
  /** The cookie's Domain attribute (a leading dot is ignored). */
  domain?: string;
  /** The host that set the cookie: the response's host, or the page's for `document.cookie`. */
  host?: string;
}

export interface CookieClassification {
  vendor: string;
  category: CookieCategory;
  /** The catalogue entry that matched: `_ga`, `_hj*` (a prefix) or `^_ga_[A-Z0-9]+$`. */
  matched: string;
}

/**
 * Names that are too short or too common to mean anything without their vendor's domain. An
 * exact entry with one of these names, or any exact entry of three characters or fewer that does
 * not start with `_`, must carry `domains`. Checked at load.
 */
export const GENERIC_COOKIE_NAMES: ReadonlySet<string> = new Set([
  'id', 'uid', 'uuid', 'uuidc', 'sid', 'sess', 'session', 'token', 'user', 'userid', 'visitor', 'audit', 'test',
  'usersync', 'optout', 'lang', 'loc', 'pid', 'pd', 'ad', 'ads', 'data', 'consent', 'cmp', 'ab', 'gdpr', 'tracking',
]);

export function cookieNameNeedsDomain(name: string): boolean {
  return GENERIC_COOKIE_NAMES.has(name.toLowerCase()) || (!name.startsWith('_') && name.length <= 3);
}

const COOKIE_NAME_RE = /^[\x21-\x7e]+$/;

/**
 * Names that record a refusal or a consent state (`optimizelyOptOut`, `__hs_opt_out`,
 * `TTDOptOut`, `cookieconsent_status`, `mtm_consent`) are never tracking cookies, whatever
 * prefix or pattern they would otherwise match.
 */
export const REFUSAL_OR_CONSENT_NAME = /opt[-_]?out|consent|do[-_]?not[-_]?track/i;

function readCookieEntry(raw: unknown, index: number): CookieEntry {
  const where = `cookies.json[${index}]`;
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['match', 'name', 'vendor', 'category', 'domains'], where);
  const { match, name, vendor, category, domains } = raw;
  if (typeof match !== 'string' || !(COOKIE_MATCH_KINDS as readonly string[]).includes(match)) {
    throw new Error(`${where}: match must be one of ${COOKIE_MATCH_KINDS.join(', ')}`);
  }
  if (typeof name !== 'string' || name === '') throw new Error(`${where}: name must be a non-empty string`);
  if (typeof vendor !== 'string' || vendor.trim() === '') throw new Error(`${where}: vendor must be a non-empty string`);
  if (typeof category !== 'string' || !(COOKIE_CATEGORIES as readonly string[]).includes(category)) {
    throw new Error(`${where}: category must be one of ${COOKIE_CATEGORIES.join(', ')}`);
  }
  if (match === 'pattern') compileAnchoredPattern(name, `${where} (${vendor})`);
  else if (!COOKIE_NAME_RE.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not a cookie name`);
  if (match === 'prefix' && name.replace(/^_+/, '').length < 2) throw new Error(`${where}: prefix ${name} is too short`);
  if (match !== 'pattern' && REFUSAL_OR_CONSENT_NAME.test(name)) throw new Error(`${where}: ${name} names a refusal or consent state`);
  if (domains !== undefined) {
    if (!isStringArray(domains) || domains.length === 0 || !domains.every((d) => HOST_RE.test(d))) {
      throw new Error(`${where}: domains must be a non-empty list of lower-case host names`);
    }
  } else if (match === 'exact' && cookieNameNeedsDomain(name)) {
    throw new Error(`${where}: the short or generic name ${JSON.stringify(name)} needs "domains"`);
  }
  const entry: CookieEntry = { match: match as CookieMatchKind, name, vendor, category: category as CookieCategory };
  return domains === undefined ? entry : { ...entry, domains };
}

/** Checks a cookie catalogue (the shape of cookies.json); throws naming the first bad entry. */
export function parseCookieCatalogue(raw: unknown): CookieEntry[] {
  if (!Array.isArray(raw)) throw new Error('cookies.json: must be a list');
  return raw.map(readCookieEntry);
}

export const COOKIES: readonly CookieEntry[] = Object.freeze(parseCookieCatalogue(cookiesData));

interface CompiledCookie {
  entry: CookieEntry;
  test: (name: string) => boolean;
  result: CookieClassification;
}

function compileCookie(entry: CookieEntry): CompiledCookie {
  const { name } = entry;
  const matched = entry.match === 'prefix' ? `${name}*` : name;
  const result: CookieClassification = Object.freeze({ vendor: entry.vendor, category: entry.category, matched });
  if (entry.match === 'exact') return { entry, test: (n) => n === name, result };
  if (entry.match === 'prefix') return { entry, test: (n) => n.startsWith(name), result };
  const re = new RegExp(name);
  return { entry, test: (n) => re.test(n), result };
}

/** Exact names → their entries (entries with `domains` first: a vendor's own domain wins). */
const exactCookies = new Map<string, CompiledCookie[]>();
/** Patterns (file order), then prefixes (longest first). */
const fuzzyCookies: CompiledCookie[] = [];
{
  const patterns: CompiledCookie[] = [];
  const prefixes: CompiledCookie[] = [];
  for (const entry of COOKIES) {
    const compiled = compileCookie(entry);
    if (entry.match === 'exact') {
      const list = exactCookies.get(entry.name) ?? [];
      list.push(compiled);
      exactCookies.set(entry.name, list);
    } else if (entry.match === 'pattern') patterns.push(compiled);
    else prefixes.push(compiled);
  }
  for (const list of exactCookies.values()) list.sort((a, b) => Number(b.entry.domains !== undefined) - Number(a.entry.domains !== undefined));
  prefixes.sort((a, b) => b.entry.name.length - a.entry.name.length);
  fuzzyCookies.push(...patterns, ...prefixes);
}

/** One combined test for every prefix and pattern: most cookie names fail it and stop there. */
const fuzzyCookieGate = new RegExp(
  fuzzyCookies
    .map(({ entry }) => (entry.match === 'prefix' ? `^${RegExp.escape(entry.name)}` : `(?:${entry.name})`))
    .join('|') || '(?!)',
);

function domainAllows(entry: CookieEntry, context: CookieContext | undefined): boolean {
  if (entry.domains === undefined) return true;
  if (context === undefined) return false;
  return entry.domains.some(
    (d) => (context.domain !== undefined && hostMatches(context.domain, d)) || (context.host !== undefined && hostMatches(context.host, d)),
  );
}

/**
 * The vendor and category of a known analytics or marketing cookie, or undefined. Names are
 * case-sensitive, as cookies are. Exact names are tried first, then patterns, then prefixes
 * (longest first). Entries with `domains` count only when `context` names one of them. Names
 * that record a refusal or consent (REFUSAL_OR_CONSENT_NAME) are never classified.
 */
export function classifyCookie(name: string, context?: CookieContext): CookieClassification | undefined {
  if (REFUSAL_OR_CONSENT_NAME.test(name)) return undefined;
  const exact = exactCookies.get(name);
  if (exact !== undefined) {
    for (const c of exact) if (domainAllows(c.entry, context)) return c.result;
  }
  if (!fuzzyCookieGate.test(name)) return undefined;
  for (const c of fuzzyCookies) {
    if (c.test(name) && domainAllows(c.entry, context)) return c.result;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Trackers
// ---------------------------------------------------------------------------------------------

/**
 * `tag-manager`: a container that loads whatever tags its owner configured (GTM, Adobe Tags,
 * Tealium). On its own it sets no cookie and proves no tracking; see README.md.
 */
export const TRACKER_CATEGORIES = ['analytics', 'marketing', 'tag-manager'] as const;
export type TrackerCategory = (typeof TRACKER_CATEGORIES)[number];

export interface TrackerVariant {
  vendor: string;
  category: TrackerCategory;
}

export interface TrackerEntry extends UrlRule {
  vendor: string;
  category: TrackerCategory;
  /**
   * Refines vendor and category by the start of one query parameter's value, e.g. gtag.js
   * `?id=AW-…` is Google Ads, `?id=G-…` Google Analytics.
   */
  byQueryPrefix?: { param: string; prefixes: Readonly<Record<string, TrackerVariant>> };
}

export interface TrackerClassification {
  vendor: string;
  category: TrackerCategory;
  /** The URL's host, as seen. */
  host: string;
  /** The catalogue rule that matched: `googletagmanager.com/gtag/js`, `*` + `/**` + `/matomo.js`. */
  matched: string;
}

function readVariant(raw: unknown, where: string): TrackerVariant {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['vendor', 'category'], where);
  if (typeof raw.vendor !== 'string' || raw.vendor.trim() === '') throw new Error(`${where}: vendor must be a non-empty string`);
  if (typeof raw.category !== 'string' || !(TRACKER_CATEGORIES as readonly string[]).includes(raw.category)) {
    throw new Error(`${where}: category must be one of ${TRACKER_CATEGORIES.join(', ')}`);
  }
  return { vendor: raw.vendor, category: raw.category as TrackerCategory };
}

function readTrackerEntry(raw: unknown, index: number): TrackerEntry {
  const where = `trackers.json[${index}]`;
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['host', 'paths', 'query', 'vendor', 'category', 'byQueryPrefix'], where);
  const { vendor, category } = readVariant({ vendor: raw.vendor, category: raw.category }, where);
  const rule = readUrlRule({ host: raw.host, paths: raw.paths, query: raw.query }, where);
  const entry: TrackerEntry = { ...rule, vendor, category };
  if (raw.byQueryPrefix !== undefined) {
    const by = raw.byQueryPrefix;
    if (!isRecord(by) || typeof by.param !== 'string' || by.param === '' || !isRecord(by.prefixes)) {
      throw new Error(`${where}: byQueryPrefix needs param and prefixes`);
    }
    checkKeys(by, ['param', 'prefixes'], `${where}.byQueryPrefix`);
    const prefixes: Record<string, TrackerVariant> = {};
    for (const [prefix, variant] of Object.entries(by.prefixes)) prefixes[prefix] = readVariant(variant, `${where}.byQueryPrefix.${prefix}`);
    entry.byQueryPrefix = { param: by.param, prefixes };
  }
  return entry;
}

/** Checks a tracker catalogue (the shape of trackers.json); throws naming the first bad entry. */
export function parseTrackerCatalogue(raw: unknown): TrackerEntry[] {
  if (!Array.isArray(raw)) throw new Error('trackers.json: must be a list');
  return raw.map(readTrackerEntry);
}

export const TRACKERS: readonly TrackerEntry[] = Object.freeze(parseTrackerCatalogue(trackersData));

interface CompiledTracker {
  entry: TrackerEntry;
  rule: CompiledUrlRule;
}

/** Host → its rules, those with paths first. Host-less rules (any host, by path) apart. */
const trackersByHost = new Map<string, CompiledTracker[]>();
const anyHostTrackers: CompiledTracker[] = [];
TRACKERS.forEach((entry, i) => {
  const compiled = { entry, rule: compileUrlRule(entry, `trackers.json[${i}]`) };
  if (entry.host === undefined) {
    anyHostTrackers.push(compiled);
    return;
  }
  const list = trackersByHost.get(entry.host) ?? [];
  list.push(compiled);
  trackersByHost.set(entry.host, list);
});
for (const list of trackersByHost.values()) {
  list.sort((a, b) => Number(b.entry.paths !== undefined || b.entry.query !== undefined) - Number(a.entry.paths !== undefined || a.entry.query !== undefined));
}

function trackerResult(c: CompiledTracker, url: URL, host: string, matched: string): TrackerClassification {
  const { entry } = c;
  let variant: TrackerVariant = entry;
  if (entry.byQueryPrefix !== undefined) {
    const value = url.searchParams.get(entry.byQueryPrefix.param) ?? '';
    for (const [prefix, v] of Object.entries(entry.byQueryPrefix.prefixes)) {
      if (value.startsWith(prefix)) {
        variant = v;
        break;
      }
    }
  }
  return { vendor: variant.vendor, category: variant.category, host, matched };
}

/**
 * The vendor and category of a known tracker script, pixel or tag-manager URL, or undefined.
 * Hosts match by whole-label suffix (`www.google-analytics.com` matches `google-analytics.com`;
 * `google-analytics.com.example.org` does not); the most specific host wins, and within a host a
 * rule with paths wins over one without. Host-less rules (self-hosted Matomo's `matomo.js`) are
 * tried last. Only absolute http(s) URLs (or `//host/…`) are classified.
 */
export function classifyTrackerUrl(input: URL | string): TrackerClassification | undefined {
  const url = toHttpUrl(input);
  if (url === undefined) return undefined;
  const host = normalizeHost(url.hostname);
  if (host === '') return undefined;
  for (const suffix of hostSuffixes(host)) {
    const rules = trackersByHost.get(suffix);
    if (rules === undefined) continue;
    for (const c of rules) {
      const matched = urlRuleMatch(c.rule, url, host);
      if (matched !== undefined) return trackerResult(c, url, host, matched);
    }
  }
  for (const c of anyHostTrackers) {
    const matched = urlRuleMatch(c.rule, url, host);
    if (matched !== undefined) return trackerResult(c, url, host, matched);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Consent-management platforms, consent frameworks and gating conventions
// ---------------------------------------------------------------------------------------------

export const CMP_IDS = [
  // The ten the privacy issue requires…
  'onetrust', 'cookiebot', 'didomi', 'quantcast-choice', 'trustarc', 'usercentrics', 'osano', 'termly', 'cookieyes', 'complianz',
  // …and two common script-injected banners whose absence from the list made a page fail banner structure.
  'tarteaucitron', 'cookieconsent',
] as const;
export type CmpId = (typeof CMP_IDS)[number];

/**
 * Matches one element. Every given field must hold: `tag` (lower-case name), `id` (exact),
 * `class` (one class token, exact), `classPrefix` (a class token starting with it), `attribute`
 * (present), with `value` (exact) or `valuePattern` (anchored regex) on that attribute.
 */
export interface ElementMatcher {
  tag?: string;
  id?: string;
  class?: string;
  classPrefix?: string;
  attribute?: string;
  value?: string;
  valuePattern?: string;
}

/** A signal that appears in the initial HTML. `label` names it in evidence. */
export type StaticSignal =
  | { kind: 'script-src'; label: string; url: UrlRule }
  | { kind: 'element'; label: string; element: ElementMatcher }
  | { kind: 'inline-script'; label: string; includes: string }
  | { kind: 'comment'; label: string; includes: string };

/** Banner markup that is in the initial HTML (server-rendered). */
export interface StaticBanner {
  container: readonly ElementMatcher[];
  accept: readonly ElementMatcher[];
  reject: readonly ElementMatcher[];
  preferences: readonly ElementMatcher[];
  categoryInputs: readonly ElementMatcher[];
  /** Classes the CMP's script removes to show the banner: not a sign that it stays hidden. */
  displayStateClasses?: readonly string[];
}

export interface CmpBanner {
  /**
   * `script`: the banner is injected at run time, so static HTML cannot judge it (inconclusive);
   * `server`: the banner is in the markup and is judged on it; `either`: depends on the setup
   * (look for `static` markup first, else treat as `script`).
   */
  rendering: 'script' | 'server' | 'either';
  /** Elements the CMP's script injects (absent from static HTML, listed for evidence). */
  injected: readonly ElementMatcher[];
  /** Empty static placeholders the script fills (TrustArc's `#consent_blackbar`). */
  placeholders?: readonly ElementMatcher[];
  static?: StaticBanner;
}

/**
 * Marks a script, iframe or image as held back until consent. A script is gated when its `type`
 * is one of `scriptTypes` (none of which the browser executes) and it carries `attribute` (for
 * `class`: a class token) whose value matches `valuePattern` (anchored; omitted = any non-empty
 * value). An iframe or image is gated when it carries the attribute and keeps its URL in one of
 * `deferredSrc` instead of a live `src`. `cmp` names whose convention it is; `generic` covers
 * the hand-written conventions of smaller tools.
 */
export interface GatingAttribute {
  cmp: CmpId | 'iubenda' | 'klaro' | 'generic';
  attribute: string;
  valuePattern?: string;
  scriptTypes: readonly string[];
  deferredSrc: readonly string[];
  /** What a non-essential value looks like, for documentation and evidence. */
  example: string;
}

export interface CmpSignature {
  id: CmpId;
  name: string;
  /** Script URLs of the CMP's loader (a static `<script src>`). */
  scriptSources: readonly UrlRule[];
  /** Other static signals: ids, attributes, inline stubs, comments. */
  staticSignals: readonly StaticSignal[];
  /**
   * Signals that the CMP blocks known trackers by itself, without per-script attributes
   * (OneTrust OtAutoBlock, Cookiebot `data-blockingmode="auto"`). A tracker after such a loader
   * may be blocked in the browser, which static HTML cannot see.
   */
  autoBlocking: readonly StaticSignal[];
  banner: CmpBanner;
  /** First-party cookies that store the consent decision: functional, never tracking. */
  consentCookies: readonly string[];
  gating: readonly GatingAttribute[];
}

export interface ConsentFramework {
  id: 'tcf' | 'gpp' | 'usp' | 'google-consent-mode';
  name: string;
  /** Global functions the framework's stub defines (`__tcfapi`), looked for in inline scripts. */
  globals: readonly string[];
  /** `<iframe name>` the stub adds for cross-frame calls (`__tcfapiLocator`). */
  locatorFrames: readonly string[];
  /** Cookies that hold the framework's consent string: functional, never tracking. */
  cookies: readonly string[];
  /**
   * Regex sources (flags `i`) over inline script text. For Google Consent Mode: `default` is
   * the default-consent call, `denied` one storage type set to denied, `granted` one set to
   * granted; see README.md for how to read them together.
   */
  inlinePatterns: Readonly<Record<string, string>>;
}

/**
 * The JavaScript MIME type essences of the HTML standard: a `<script>` whose `type` is empty,
 * absent, `module` or one of these runs; any other type (`text/plain`, `text/template`) does not.
 */
const EXECUTABLE_SCRIPT_TYPES: ReadonlySet<string> = new Set([
  'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript',
  'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2',
  'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript',
  'text/x-ecmascript', 'text/x-javascript', 'module',
]);

/** Whether a `<script type>` value (undefined when absent) makes the browser run the script. */
export function isExecutableScriptType(type: string | undefined): boolean {
  if (type === undefined) return true;
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === '' || EXECUTABLE_SCRIPT_TYPES.has(essence);
}

function readElementMatcher(raw: unknown, where: string): ElementMatcher {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  const keys = ['tag', 'id', 'class', 'classPrefix', 'attribute', 'value', 'valuePattern'] as const;
  checkKeys(raw, keys, where);
  const out: Record<string, string> = {};
  for (const key of keys) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') throw new Error(`${where}: ${key} must be a non-empty string`);
    out[key] = v;
  }
  if (Object.keys(out).length === 0) throw new Error(`${where}: empty matcher`);
  if (out.tag !== undefined && out.tag !== out.tag.toLowerCase()) throw new Error(`${where}: tag must be lower-case`);
  if ((out.value !== undefined || out.valuePattern !== undefined) && out.attribute === undefined) {
    throw new Error(`${where}: value needs attribute`);
  }
  if (out.valuePattern !== undefined) compileAnchoredPattern(out.valuePattern, where);
  return out as ElementMatcher;
}

function readMatchers(raw: unknown, where: string): ElementMatcher[] {
  if (!Array.isArray(raw)) throw new Error(`${where}: must be a list`);
  return raw.map((m, i) => readElementMatcher(m, `${where}[${i}]`));
}

function readSignal(raw: unknown, where: string): StaticSignal {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  const { kind, label } = raw;
  if (typeof label !== 'string' || label === '') throw new Error(`${where}: label must be a non-empty string`);
  switch (kind) {
    case 'script-src':
      checkKeys(raw, ['kind', 'label', 'url'], where);
      return { kind, label, url: readUrlRule(raw.url, `${where}.url`) };
    case 'element':
      checkKeys(raw, ['kind', 'label', 'element'], where);
      return { kind, label, element: readElementMatcher(raw.element, `${where}.element`) };
    case 'inline-script':
    case 'comment':
      checkKeys(raw, ['kind', 'label', 'includes'], where);
      if (typeof raw.includes !== 'string' || raw.includes === '') throw new Error(`${where}: includes must be a non-empty string`);
      return { kind, label, includes: raw.includes };
    default:
      throw new Error(`${where}: unknown signal kind ${JSON.stringify(kind)}`);
  }
}

function readSignals(raw: unknown, where: string): StaticSignal[] {
  if (!Array.isArray(raw)) throw new Error(`${where}: must be a list`);
  return raw.map((s, i) => readSignal(s, `${where}[${i}]`));
}

const GATING_OWNERS = [...CMP_IDS, 'iubenda', 'klaro', 'generic'] as const;

function readGating(raw: unknown, where: string): GatingAttribute {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['cmp', 'attribute', 'valuePattern', 'scriptTypes', 'deferredSrc', 'example'], where);
  const { cmp, attribute, valuePattern, scriptTypes, deferredSrc, example } = raw;
  if (typeof cmp !== 'string' || !(GATING_OWNERS as readonly string[]).includes(cmp)) throw new Error(`${where}: unknown cmp ${String(cmp)}`);
  if (typeof attribute !== 'string' || attribute === '' || attribute !== attribute.toLowerCase()) {
    throw new Error(`${where}: attribute must be a lower-case name`);
  }
  if (!isStringArray(scriptTypes)) throw new Error(`${where}: scriptTypes must be strings`);
  if (scriptTypes.some((t) => isExecutableScriptType(t))) throw new Error(`${where}: a gating script type must not be executable`);
  if (!isStringArray(deferredSrc)) throw new Error(`${where}: deferredSrc must be strings`);
  if (typeof example !== 'string' || example === '') throw new Error(`${where}: example must be a non-empty string`);
  const out: GatingAttribute = { cmp: cmp as GatingAttribute['cmp'], attribute, scriptTypes, deferredSrc, example };
  if (valuePattern !== undefined) {
    if (typeof valuePattern !== 'string') throw new Error(`${where}: valuePattern must be a string`);
    compileAnchoredPattern(valuePattern, where);
    out.valuePattern = valuePattern;
  }
  return out;
}

function readCmp(raw: unknown, index: number): CmpSignature {
  const where = `cmps.json cmps[${index}]`;
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['id', 'name', 'scriptSources', 'staticSignals', 'autoBlocking', 'banner', 'consentCookies', 'gating'], where);
  const { id, name } = raw;
  if (typeof id !== 'string' || !(CMP_IDS as readonly string[]).includes(id)) throw new Error(`${where}: unknown id ${String(id)}`);
  if (typeof name !== 'string' || name === '') throw new Error(`${where}: name must be a non-empty string`);
  if (!Array.isArray(raw.scriptSources)) throw new Error(`${where}: scriptSources must be a list`);
  const scriptSources = raw.scriptSources.map((r, i) => readUrlRule(r, `${where}.scriptSources[${i}]`));
  const staticSignals = readSignals(raw.staticSignals, `${where}.staticSignals`);
  const autoBlocking = readSignals(raw.autoBlocking, `${where}.autoBlocking`);
  const b = raw.banner;
  if (!isRecord(b)) throw new Error(`${where}.banner: not an object`);
  checkKeys(b, ['rendering', 'injected', 'placeholders', 'static'], `${where}.banner`);
  if (b.rendering !== 'script' && b.rendering !== 'server' && b.rendering !== 'either') throw new Error(`${where}.banner: bad rendering`);
  const banner: CmpBanner = { rendering: b.rendering, injected: readMatchers(b.injected, `${where}.banner.injected`) };
  if (b.placeholders !== undefined) banner.placeholders = readMatchers(b.placeholders, `${where}.banner.placeholders`);
  if (b.static !== undefined) {
    const s = b.static;
    const w = `${where}.banner.static`;
    if (!isRecord(s)) throw new Error(`${w}: not an object`);
    checkKeys(s, ['container', 'accept', 'reject', 'preferences', 'categoryInputs', 'displayStateClasses'], w);
    banner.static = {
      container: readMatchers(s.container, `${w}.container`),
      accept: readMatchers(s.accept, `${w}.accept`),
      reject: readMatchers(s.reject, `${w}.reject`),
      preferences: readMatchers(s.preferences, `${w}.preferences`),
      categoryInputs: readMatchers(s.categoryInputs, `${w}.categoryInputs`),
    };
    if (s.displayStateClasses !== undefined) {
      if (!isStringArray(s.displayStateClasses)) throw new Error(`${w}: displayStateClasses must be strings`);
      banner.static.displayStateClasses = s.displayStateClasses;
    }
  }
  if (banner.rendering !== 'script' && banner.static === undefined) throw new Error(`${where}.banner: ${banner.rendering} rendering needs static markup`);
  if (!Array.isArray(raw.consentCookies) || !raw.consentCookies.every((c) => typeof c === 'string' && COOKIE_NAME_RE.test(c))) {
    throw new Error(`${where}: consentCookies must be cookie names`);
  }
  if (!Array.isArray(raw.gating)) throw new Error(`${where}: gating must be a list`);
  const gating = raw.gating.map((g, i) => readGating(g, `${where}.gating[${i}]`));
  if (gating.some((g) => g.cmp !== id)) throw new Error(`${where}: a gating convention names another CMP`);
  return { id: id as CmpId, name, scriptSources, staticSignals, autoBlocking, banner, consentCookies: raw.consentCookies, gating };
}

function readFramework(raw: unknown, index: number): ConsentFramework {
  const where = `cmps.json frameworks[${index}]`;
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  checkKeys(raw, ['id', 'name', 'globals', 'locatorFrames', 'cookies', 'inlinePatterns'], where);
  const { id, name, globals, locatorFrames, cookies, inlinePatterns } = raw;
  if (id !== 'tcf' && id !== 'gpp' && id !== 'usp' && id !== 'google-consent-mode') throw new Error(`${where}: unknown id`);
  if (typeof name !== 'string' || name === '') throw new Error(`${where}: name must be a non-empty string`);
  if (!Array.isArray(globals) || !globals.every((g) => typeof g === 'string')) throw new Error(`${where}: globals must be strings`);
  if (!Array.isArray(locatorFrames) || !locatorFrames.every((g) => typeof g === 'string')) throw new Error(`${where}: locatorFrames must be strings`);
  if (!Array.isArray(cookies) || !cookies.every((c) => typeof c === 'string' && COOKIE_NAME_RE.test(c))) throw new Error(`${where}: cookies must be cookie names`);
  if (!isRecord(inlinePatterns)) throw new Error(`${where}: inlinePatterns must be an object`);
  const patterns: Record<string, string> = {};
  for (const [key, source] of Object.entries(inlinePatterns)) {
    if (typeof source !== 'string') throw new Error(`${where}: inlinePatterns.${key} must be a string`);
    try {
      new RegExp(source, 'i');
    } catch (error) {
      throw new Error(`${where}: inlinePatterns.${key} does not compile (${(error as Error).message})`);
    }
    patterns[key] = source;
  }
  return { id, name, globals, locatorFrames, cookies, inlinePatterns: patterns };
}

const cmpsRoot: unknown = cmpsData;
if (!isRecord(cmpsRoot)) throw new Error('cmps.json: not an object');
checkKeys(cmpsRoot, ['cmps', 'frameworks', 'gating'], 'cmps.json');
if (!Array.isArray(cmpsRoot.cmps) || !Array.isArray(cmpsRoot.frameworks) || !Array.isArray(cmpsRoot.gating)) {
  throw new Error('cmps.json: cmps, frameworks and gating must be lists');
}

export const CMPS: readonly CmpSignature[] = Object.freeze(cmpsRoot.cmps.map(readCmp));
{
  const seen = new Set(CMPS.map((c) => c.id));
  const missing = CMP_IDS.filter((id) => !seen.has(id));
  if (missing.length > 0 || seen.size !== CMPS.length) throw new Error(`cmps.json: each CMP exactly once (missing: ${missing.join(', ')})`);
}

/** IAB TCF v2, IAB GPP, the legacy IAB USP API, and Google Consent Mode. */
export const CONSENT_FRAMEWORKS: readonly ConsentFramework[] = Object.freeze(cmpsRoot.frameworks.map(readFramework));

/**
 * Every gating convention: the ten CMPs' own, then those of smaller tools and generic ones.
 * See GatingAttribute for how to read an entry.
 */
export const GATING_ATTRIBUTES: readonly GatingAttribute[] = Object.freeze([
  ...CMPS.flatMap((c) => c.gating),
  ...cmpsRoot.gating.map((g, i) => readGating(g, `cmps.json gating[${i}]`)),
]);

const cmpScriptRules: ReadonlyArray<{ cmp: CmpSignature; rule: CompiledUrlRule }> = CMPS.flatMap((cmp) =>
  cmp.scriptSources.map((r, i) => ({ cmp, rule: compileUrlRule(r, `${cmp.id}.scriptSources[${i}]`) })),
);

/** The CMP whose loader a script URL is, or undefined. */
export function cmpForScriptUrl(input: URL | string): CmpSignature | undefined {
  const url = toHttpUrl(input);
  if (url === undefined) return undefined;
  const host = normalizeHost(url.hostname);
  return cmpScriptRules.find(({ rule }) => urlRuleMatch(rule, url, host) !== undefined)?.cmp;
}

/** A rule compiled once, for loops over many URLs: the test takes the URL and its normalised host. */
export function urlRuleTest(rule: UrlRule): (url: URL, host: string) => boolean {
  const compiled = compileUrlRule(rule, 'rule');
  return (url, host) => urlRuleMatch(compiled, url, host) !== undefined;
}

/** Whether a URL matches a rule from this data (a CMP script source, a `script-src` signal). */
export function urlMatchesRule(input: URL | string, rule: UrlRule): boolean {
  const url = toHttpUrl(input);
  return url !== undefined && urlRuleTest(rule)(url, normalizeHost(url.hostname));
}

const consentCookieOwners = new Map<string, string>();
for (const cmp of CMPS) for (const c of cmp.consentCookies) consentCookieOwners.set(c, cmp.name);
for (const f of CONSENT_FRAMEWORKS) for (const c of f.cookies) if (!consentCookieOwners.has(c)) consentCookieOwners.set(c, f.name);

/**
 * The CMP or framework whose consent-state cookie this is (`OptanonConsent` → OneTrust), or
 * undefined. Such cookies are functional: they record the visitor's choice.
 */
export function consentCookieOwner(name: string): string | undefined {
  return consentCookieOwners.get(name);
}

for (const name of consentCookieOwners.keys()) {
  const hit = classifyCookie(name);
  if (hit !== undefined) throw new Error(`cookies.json classifies the consent cookie ${name} as ${hit.category} (${hit.matched})`);
}
