// The knowledge data's CMP signals, gating conventions and consent frameworks, compiled once at
// import into predicates over elements, comments, inline scripts and script URLs. The data
// itself lives in ../knowledge (cmps.json); this module only makes it fast to apply in one walk.
import type { Element } from 'domhandler';
import {
  CMPS,
  CONSENT_FRAMEWORKS,
  GATING_ATTRIBUTES,
  normalizeHost,
  onDomain,
  toHttpUrl,
  urlRuleTest,
  type CmpSignature,
  type ElementMatcher,
  type GatingAttribute,
  type StaticSignal,
  type UrlRule,
} from '../knowledge/index.ts';

export type ElementTest = (el: Element) => boolean;

/** The class tokens of an element (empty when it has none). */
export function classTokens(el: Element): readonly string[] {
  const value = el.attribs.class;
  if (value === undefined || value === '') return [];
  return value.trim().split(/\s+/);
}

/** Compiles an ElementMatcher (every given field must hold). */
export function elementTest(m: ElementMatcher): ElementTest {
  const valuePattern = m.valuePattern === undefined ? undefined : new RegExp(m.valuePattern);
  return (el) => {
    const attribs = el.attribs;
    if (m.tag !== undefined && el.name !== m.tag) return false;
    if (m.id !== undefined && attribs.id !== m.id) return false;
    if (m.class !== undefined && !classTokens(el).includes(m.class)) return false;
    if (m.classPrefix !== undefined && !classTokens(el).some((t) => t.startsWith(m.classPrefix!))) return false;
    if (m.attribute !== undefined) {
      const value = attribs[m.attribute];
      if (value === undefined) return false;
      if (m.value !== undefined && value !== m.value) return false;
      if (valuePattern !== undefined && !valuePattern.test(value)) return false;
    }
    return true;
  };
}

export function anyTest(matchers: readonly ElementMatcher[] | undefined): ElementTest {
  const tests = (matchers ?? []).map(elementTest);
  return (el) => tests.some((t) => t(el));
}


/** A CMP signal compiled for one of the walk's node kinds. */
export interface CompiledSignal {
  cmp: CmpSignature;
  label: string;
  /** A signal that the CMP blocks known trackers by itself (CmpSignature.autoBlocking). */
  autoBlocking: boolean;
}

export interface ElementSignal extends CompiledSignal {
  test: ElementTest;
}
export interface TextSignal extends CompiledSignal {
  includes: string;
}
export interface UrlSignal extends CompiledSignal {
  test: (url: URL, host: string) => boolean;
}

export const ELEMENT_SIGNALS: ElementSignal[] = [];
export const COMMENT_SIGNALS: TextSignal[] = [];
export const INLINE_SIGNALS: TextSignal[] = [];
export const SCRIPT_SRC_SIGNALS: UrlSignal[] = [];

/** What the evidence walk looks for on each element: a CMP signal, or a static banner's container or placeholder. */
export type ElementHit =
  | { kind: 'signal'; signal: ElementSignal }
  | { kind: 'container'; banner: StaticBannerTests }
  | { kind: 'placeholder'; banner: StaticBannerTests }
  | { kind: 'category-input'; banner: StaticBannerTests };

/**
 * Matchers indexed by what they require (id, class token, class prefix, attribute name), so an
 * element is tested only against the few matchers that could apply to it.
 */
class MatcherIndex<T> {
  private readonly byId = new Map<string, Array<[ElementTest, T]>>();
  private readonly byClass = new Map<string, Array<[ElementTest, T]>>();
  private readonly byClassPrefix: Array<[string, ElementTest, T]> = [];
  private readonly byAttribute = new Map<string, Array<[ElementTest, T]>>();
  private readonly byTag = new Map<string, Array<[ElementTest, T]>>();

  add(m: ElementMatcher, payload: T): void {
    const entry: [ElementTest, T] = [elementTest(m), payload];
    const into = (map: Map<string, Array<[ElementTest, T]>>, key: string): void => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [entry]);
      else list.push(entry);
    };
    if (m.id !== undefined) into(this.byId, m.id);
    else if (m.class !== undefined) into(this.byClass, m.class);
    else if (m.classPrefix !== undefined) this.byClassPrefix.push([m.classPrefix, entry[0], payload]);
    else if (m.attribute !== undefined) into(this.byAttribute, m.attribute);
    else into(this.byTag, m.tag!);
  }

  /** Any class key or prefix, as one regex over the raw class attribute: most elements fail it and skip tokenising. */
  private classGate: RegExp | undefined;

  /** Payloads of every matcher the element satisfies (a shared empty array when none). */
  match(el: Element): readonly T[] {
    let out: T[] | undefined;
    const attribs = el.attribs;
    const id = attribs.id;
    if (id !== undefined) out = collect(el, this.byId.get(id), out);
    const klass = attribs.class;
    if (klass !== undefined && klass !== '') {
      this.classGate ??= new RegExp([...this.byClass.keys(), ...this.byClassPrefix.map(([p]) => p)].map((text) => RegExp.escape(text)).join('|') || '(?!)');
      if (this.classGate.test(klass)) {
        const tokens = classTokens(el);
        for (const token of tokens) out = collect(el, this.byClass.get(token), out);
        for (const [prefix, test, payload] of this.byClassPrefix) {
          if (tokens.some((t) => t.startsWith(prefix)) && test(el)) (out ??= []).push(payload);
        }
      }
    }
    for (const name in attribs) {
      const list = this.byAttribute.get(name);
      if (list !== undefined) out = collect(el, list, out);
    }
    const byTag = this.byTag.get(el.name);
    if (byTag !== undefined) out = collect(el, byTag, out);
    return out ?? NONE;
  }
}

const NONE: readonly never[] = [];

function collect<T>(el: Element, list: Array<[ElementTest, T]> | undefined, out: T[] | undefined): T[] | undefined {
  if (list === undefined) return out;
  for (const [test, payload] of list) if (test(el)) (out ??= []).push(payload);
  return out;
}

const ELEMENT_INDEX = new MatcherIndex<ElementHit>();

function addSignal(cmp: CmpSignature, signal: StaticSignal, autoBlocking: boolean): void {
  const base = { cmp, label: signal.label, autoBlocking };
  switch (signal.kind) {
    case 'element': {
      const compiled: ElementSignal = { ...base, test: elementTest(signal.element) };
      ELEMENT_SIGNALS.push(compiled);
      ELEMENT_INDEX.add(signal.element, { kind: 'signal', signal: compiled });
      break;
    }
    case 'comment':
      COMMENT_SIGNALS.push({ ...base, includes: signal.includes });
      break;
    case 'inline-script':
      INLINE_SIGNALS.push({ ...base, includes: signal.includes });
      break;
    case 'script-src':
      SCRIPT_SRC_SIGNALS.push({ ...base, test: urlRuleTest(signal.url) });
      break;
  }
}

for (const cmp of CMPS) {
  for (const signal of cmp.staticSignals) addSignal(cmp, signal, false);
  for (const signal of cmp.autoBlocking) addSignal(cmp, signal, true);
}

/**
 * The CMP whose loader an inline snippet injects: a URL in the script's strings on a CMP's
 * loader host, whose loader path (the glob's literal start, e.g. `/choice/`) is also written in
 * the script. Snippets build their URL in pieces (InMobi Choice: `'https://cmp.inmobi.com'
 * .concat('/choice/', …)`), so the path is looked for anywhere in the script, not in the URL.
 */
export function cmpOfInlineLoader(url: string, content: string): CmpSignature | undefined {
  const parsed = toHttpUrl(url);
  if (parsed === undefined) return undefined;
  const host = normalizeHost(parsed.hostname);
  for (const { cmp, rule, literalPaths } of INLINE_LOADER_RULES) {
    if (!onDomain(host, rule.host!)) continue;
    if (literalPaths.length === 0 || literalPaths.some((p) => content.includes(p))) return cmp;
  }
  return undefined;
}

const INLINE_LOADER_RULES: ReadonlyArray<{ cmp: CmpSignature; rule: UrlRule; literalPaths: readonly string[] }> = CMPS.flatMap((cmp) =>
  cmp.scriptSources
    .filter((rule) => rule.host !== undefined)
    .map((rule) => ({ cmp, rule, literalPaths: (rule.paths ?? []).map((p) => p.split('*')[0]!).filter((p) => p.length > 1) })),
);

/** A CMP's server-rendered banner markup, compiled (CmpBanner.static). */
export interface StaticBannerTests {
  cmp: CmpSignature;
  container: ElementTest;
  accept: ElementTest;
  reject: ElementTest;
  preferences: ElementTest;
  categoryInput: ElementTest;
  /** Empty placeholders the CMP's script fills (TrustArc's `#consent_blackbar`): never a banner. */
  placeholder: ElementTest;
}

export const STATIC_BANNERS: readonly StaticBannerTests[] = CMPS.filter((cmp) => cmp.banner.static !== undefined || cmp.banner.placeholders !== undefined).map((cmp) => ({
  cmp,
  container: anyTest(cmp.banner.static?.container),
  accept: anyTest(cmp.banner.static?.accept),
  reject: anyTest(cmp.banner.static?.reject),
  preferences: anyTest(cmp.banner.static?.preferences),
  categoryInput: anyTest(cmp.banner.static?.categoryInputs),
  placeholder: anyTest(cmp.banner.placeholders),
}));

for (const banner of STATIC_BANNERS) {
  for (const m of banner.cmp.banner.static?.container ?? []) ELEMENT_INDEX.add(m, { kind: 'container', banner });
  for (const m of banner.cmp.banner.placeholders ?? []) ELEMENT_INDEX.add(m, { kind: 'placeholder', banner });
  for (const m of banner.cmp.banner.static?.categoryInputs ?? []) ELEMENT_INDEX.add(m, { kind: 'category-input', banner });
}

/** The CMP signals, static banner containers and placeholders an element matches. */
export function elementHits(el: Element): readonly ElementHit[] {
  return ELEMENT_INDEX.match(el);
}

/** Whether a CMP's banner is injected by script (`script`, or `either` without static markup found). */
export function injectsBanner(cmp: CmpSignature): boolean {
  return cmp.banner.rendering !== 'server';
}

// ---------------------------------------------------------------------------------------------
// Gating conventions
// ---------------------------------------------------------------------------------------------

interface CompiledGating {
  gating: GatingAttribute;
  valuePattern: RegExp | undefined;
  scriptTypes: ReadonlySet<string>;
  /**
   * Whether the convention names its tool: its attribute is used by no other owner (`class`
   * conventions differ by their token pattern). `data-category` (Complianz and generic) does not.
   */
  distinctive: boolean;
}

const attributeOwners = new Map<string, Set<string>>();
for (const g of GATING_ATTRIBUTES) {
  const owners = attributeOwners.get(g.attribute) ?? new Set<string>();
  owners.add(g.cmp);
  attributeOwners.set(g.attribute, owners);
}

const GATINGS: readonly CompiledGating[] = GATING_ATTRIBUTES.map((gating) => ({
  gating,
  valuePattern: gating.valuePattern === undefined ? undefined : new RegExp(gating.valuePattern),
  scriptTypes: new Set(gating.scriptTypes),
  distinctive: gating.cmp !== 'generic' && (gating.attribute === 'class' || attributeOwners.get(gating.attribute)?.size === 1),
}));

function attributeMatches(el: Element, g: CompiledGating): string | undefined {
  const { attribute } = g.gating;
  if (attribute === 'class') {
    const token = classTokens(el).find((t) => g.valuePattern === undefined || g.valuePattern.test(t));
    return token === undefined ? undefined : `class="${token}"`;
  }
  const value = el.attribs[attribute];
  if (value === undefined || value.trim() === '') return undefined;
  if (g.valuePattern !== undefined && !g.valuePattern.test(value)) return undefined;
  return `${attribute}="${value.trim().slice(0, 40)}"`;
}

/** A gating convention an element follows, named for evidence: `Cookiebot (Usercentrics) data-cookieconsent="statistics"`. */
export interface Gate {
  /** The tool whose convention it is (a CMP id, `iubenda`, `klaro`, `borlabs`) or `generic`. */
  tool: GatingAttribute['cmp'];
  /** Whether the convention is that tool's alone, so the markup shows the tool is on the page. */
  distinctive: boolean;
  owner: string;
  /** `type="text/plain" data-cookieconsent="statistics"`. */
  markup: string;
}

const OWNER_NAMES = new Map<string, string>(CMPS.map((c) => [c.id, c.name]));

/** Display names of the smaller tools whose gating conventions the knowledge lists. */
const TOOL_NAMES: Readonly<Record<string, string>> = { iubenda: 'iubenda', klaro: 'Klaro', borlabs: 'Borlabs Cookie' };

function ownerName(g: GatingAttribute): string {
  return OWNER_NAMES.get(g.cmp) ?? TOOL_NAMES[g.cmp] ?? (g.cmp === 'generic' ? 'a consent category' : g.cmp);
}

/**
 * The gating convention a non-executing script follows (`type` is one of the convention's script
 * types and it carries the convention's category attribute), or undefined.
 */
export function scriptGate(el: Element, type: string): Gate | undefined {
  for (const g of GATINGS) {
    if (!g.scriptTypes.has(type)) continue;
    const attribute = attributeMatches(el, g);
    if (attribute !== undefined) return { tool: g.gating.cmp, distinctive: g.distinctive, owner: ownerName(g.gating), markup: `type="${type}" ${attribute}` };
  }
  return undefined;
}

/**
 * The gating convention an iframe or image follows: its URL waits in one of the convention's
 * deferred attributes and it carries the category attribute. Returns the gate and the deferred URL.
 */
export function deferredGate(el: Element): { gate: Gate; url: string } | undefined {
  for (const g of GATINGS) {
    const deferred = g.gating.deferredSrc.find((name) => el.attribs[name] !== undefined && el.attribs[name]!.trim() !== '');
    if (deferred === undefined) continue;
    const attribute = attributeMatches(el, g);
    if (attribute !== undefined) return { gate: { tool: g.gating.cmp, distinctive: g.distinctive, owner: ownerName(g.gating), markup: `${deferred}=… ${attribute}` }, url: el.attribs[deferred]!.trim() };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Consent frameworks (IAB TCF, GPP, USP)
// ---------------------------------------------------------------------------------------------

export interface FrameworkTest {
  id: string;
  name: string;
  /** Over inline script text: the framework's stub or API global. */
  stub: RegExp | undefined;
  locatorFrames: readonly string[];
}

export const FRAMEWORKS: readonly FrameworkTest[] = CONSENT_FRAMEWORKS.filter((f) => f.id !== 'google-consent-mode').map((f) => ({
  id: f.id,
  name: f.name,
  stub: f.inlinePatterns.stub === undefined ? undefined : new RegExp(f.inlinePatterns.stub),
  locatorFrames: f.locatorFrames,
}));

/** Frameworks whose presence means a CMP will show a consent dialog (USP is a US opt-out signal, not a banner). */
export const BANNER_FRAMEWORKS: ReadonlySet<string> = new Set(['tcf', 'gpp']);

/** An http(s) URL for a script/pixel `src` as the page resolved it. */
export function httpUrl(value: string | null | undefined): URL | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return toHttpUrl(value);
}
