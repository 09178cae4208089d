// Reading inline scripts: the well-known tracker bootstrap snippets, the tracker URLs a loader
// snippet injects, consent checks that make a snippet wait, and Google Consent Mode defaults.
// Script text is never run; these are patterns over its source.
import { CONSENT_FRAMEWORKS } from '../knowledge/index.ts';

export interface SnippetSignature {
  /** Names the snippet in evidence. */
  label: string;
  vendor: string;
  category: 'analytics' | 'marketing';
  pattern: RegExp;
}

/**
 * Bootstrap snippets of widely used trackers, recognised by the call that starts tracking. Each
 * is evidence only when its script also injects something (see LOADER): the queue call alone
 * (`gtag('config')`, `fbq('track')` after a loader elsewhere) loads nothing, and the loader, when
 * present elsewhere, is evidence of its own. `gtag('config', …)` is deliberately absent: the
 * gtag.js `<script src>` it needs is the evidence.
 */
export const SNIPPETS: readonly SnippetSignature[] = [
  { label: "ga.js snippet _gaq.push(['_setAccount'])", vendor: 'Google Analytics', category: 'analytics', pattern: /_gaq\.push\(\s*\[\s*['"]_(?:setAccount|trackPageview)['"]/ },
  { label: "analytics.js snippet ga('create')", vendor: 'Google Analytics', category: 'analytics', pattern: /\bga\(\s*['"]create['"]/ },
  { label: "Meta Pixel base code fbq('init')", vendor: 'Meta Pixel (Facebook)', category: 'marketing', pattern: /\bfbq\(\s*['"]init['"]/ },
  { label: "Matomo snippet _paq.push(['trackPageView'])", vendor: 'Matomo', category: 'analytics', pattern: /_paq\.push\(\s*\[\s*['"]trackPageView['"]/ },
  { label: 'Hotjar snippet (_hjSettings)', vendor: 'Hotjar', category: 'analytics', pattern: /\b_hjSettings\s*=/ },
  { label: 'LinkedIn Insight Tag (_linkedin_partner_id)', vendor: 'LinkedIn Insight Tag', category: 'marketing', pattern: /\b_linkedin_partner_id\s*=/ },
  { label: 'TikTok Pixel ttq.load()', vendor: 'TikTok Pixel', category: 'marketing', pattern: /\bttq\.load\(/ },
  { label: "X (Twitter) Pixel twq('config')", vendor: 'X (Twitter) Pixel', category: 'marketing', pattern: /\btwq\(\s*['"](?:init|config)['"]/ },
  { label: "Pinterest Tag pintrk('load')", vendor: 'Pinterest Tag', category: 'marketing', pattern: /\bpintrk\(\s*['"]load['"]/ },
  { label: "Snap Pixel snaptr('init')", vendor: 'Snap Pixel', category: 'marketing', pattern: /\bsnaptr\(\s*['"]init['"]/ },
  { label: "Yandex Metrica ym(…, 'init')", vendor: 'Yandex Metrica', category: 'analytics', pattern: /\bym\(\s*\d+\s*,\s*['"]init['"]/ },
  { label: 'Quantcast _qevents.push()', vendor: 'Quantcast', category: 'marketing', pattern: /\b_qevents\.push\(/ },
  { label: 'Comscore _comscore.push()', vendor: 'Comscore', category: 'analytics', pattern: /\b_comscore\.push\(|\bCOMSCORE\.beacon\(/ },
];

/** A script that injects a script, pixel or frame: the snippets above all do one of these. */
export const LOADER = /createElement\s*\(|\.src\s*=|document\s*\.\s*write|appendChild\s*\(|insertBefore\s*\(|\bnew\s+Image\b|getScript\s*\(|sendBeacon\s*\(/;

/**
 * Host names inside script strings: `//www.googletagmanager.com/gtm.js`, `'https://x.y/z'`,
 * `'.google-analytics.com/ga.js'` (the ga.js protocol switch) and `'b.scorecardresearch.com/…'`.
 * Group 1 is the host, group 2 the path (possibly empty).
 */
const SCRIPT_URL = /(?:\/\/|["'`]\.?)((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9])(\/[^\s"'`<>\\)]*)?/gi;

/** Bound on URLs read from one script. */
const MAX_URLS_PER_SCRIPT = 200;

/** Absolute https URLs built from the host names in a script's strings, with their offsets. */
export function scriptUrls(content: string): Array<{ url: string; offset: number }> {
  const out: Array<{ url: string; offset: number }> = [];
  SCRIPT_URL.lastIndex = 0;
  for (let match = SCRIPT_URL.exec(content); match !== null && out.length < MAX_URLS_PER_SCRIPT; match = SCRIPT_URL.exec(content)) {
    out.push({ url: `https://${match[1]!.toLowerCase()}${match[2] ?? '/'}`, offset: match.index });
  }
  return out;
}

/**
 * Code that runs only once consent is known: CMP callbacks and consent APIs. A tracker snippet
 * or cookie write in a script that consults one of these may well wait for consent, which static
 * analysis cannot follow, so it is not confirmed evidence.
 */
export const CONSENT_CHECK = new RegExp(
  [
    String.raw`\bCookiebot\s*\.\s*consent\b`, String.raw`\bCookiebotOn(?:Accept|ConsentReady|Load)\b`, String.raw`\bCookieConsent\s*\.\s*consent\b`,
    String.raw`\bOptanonWrapper\b`, String.raw`\bOnetrustActiveGroups\b`, String.raw`\bOptanonActiveGroups\b`, String.raw`\bOneTrust\s*\.\s*OnConsentChanged\b`,
    String.raw`\b__tcfapi\s*\(`, String.raw`\b__gpp\s*\(`, String.raw`\bdidomiOnReady\b`, String.raw`\bDidomi\s*\.\s*(?:getUserConsentStatus|isConsentRequired|getUserStatus)\b`,
    String.raw`\bUC_UI\b`, String.raw`\bucEvent\b`, String.raw`\bcmplz_(?:has_consent|fire_categories|event)\b`, String.raw`\bcmplz_status_change\b`,
    String.raw`\bOsano\s*\.\s*cm\b`, String.raw`\bgetCkyConsent\b`, String.raw`\bcookieyes_consent_update\b`, String.raw`\bTermly\s*\.\s*getConsentState\b`,
    String.raw`\btruste\s*\.\s*cma\b`, String.raw`\bhas_?[Cc]onsent\s*\(`, String.raw`\bconsent(?:Given|Granted)\b`,
  ].join('|'),
);

// Google Consent Mode: the knowledge data gives the `default` call; which storage types it
// denies is read from the object literal that follows it.
const consentMode = CONSENT_FRAMEWORKS.find((f) => f.id === 'google-consent-mode');
const CONSENT_DEFAULT = new RegExp(consentMode?.inlinePatterns.default ?? String.raw`\bgtag\s*\(\s*['"]consent['"]\s*,\s*['"]default['"]`, 'gi');
const ANALYTICS_DENIED = /['"]?\banalytics_storage['"]?\s*:\s*['"]denied['"]/i;
const AD_DENIED = /['"]?\bad_storage['"]?\s*:\s*['"]denied['"]/i;
const OBJECT_START = /^\s*,\s*\{/;

export interface ConsentModeDefault {
  /** Offset of the call in the script. */
  offset: number;
  analyticsDenied: boolean;
  adDenied: boolean;
  /** False when the defaults are passed in a variable: then both are assumed denied (its purpose). */
  literal: boolean;
}

/**
 * The first Google Consent Mode default call of a script (`gtag('consent', 'default', {…})`,
 * `dataLayer.push(['consent', 'default', {…}])`) and which storage it denies, or undefined.
 */
export function consentModeDefault(content: string): ConsentModeDefault | undefined {
  if (!content.includes('consent')) return undefined;
  CONSENT_DEFAULT.lastIndex = 0;
  const match = CONSENT_DEFAULT.exec(content);
  if (match === null) return undefined;
  const after = content.slice(match.index + match[0].length, match.index + match[0].length + 2000);
  if (!OBJECT_START.test(after)) return { offset: match.index, analyticsDenied: true, adDenied: true, literal: false };
  const close = after.indexOf('}');
  const object = close === -1 ? after : after.slice(0, close);
  return { offset: match.index, analyticsDenied: ANALYTICS_DENIED.test(object), adDenied: AD_DENIED.test(object), literal: true };
}
