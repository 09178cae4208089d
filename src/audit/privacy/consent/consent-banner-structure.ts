// privacy.consent-banner-structure: a visible static banner with category controls plus separate
// accept and reject/decline controls.
//
// A visible banner in the markup (custom or server-rendered, e.g. Complianz or the CookieYes
// legacy plugin) is judged on its markup (banner.ts): it passes with all three parts, and fails
// naming what is missing: a reject only inside "settings", accept and reject that are one
// control (or do the same thing), categories that are not in the static markup. With no visible
// banner: inconclusive when a CMP is detected (its banner is injected by script, or rendered
// where static HTML does not show it), when a smaller consent tool is known by its gating
// convention (iubenda, Klaro, Borlabs), when an IAB TCF/GPP stub says a CMP is expected, or when
// the page is a script-rendered shell; otherwise fail: a hidden banner (`hidden`, `display:none`,
// `aria-hidden`, `<template>`, a closed `<dialog>`) does not count, and a page with no banner at
// all fails (issue 3: the check asks for the banner, even on a page that would need none).
import type { Control, Outcome } from '../../control.ts';
import { locate } from '../../page.ts';
import type { PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import type { BannerControl, BannerStructure, CategoryControl } from './banner.ts';
import { analyseConsentEvidence, outcome, type CmpDetection, type ConsentEvidence, type ToolDetection } from './evidence.ts';
import { injectsBanner, BANNER_FRAMEWORKS } from './signals.ts';
import { EXAMPLES } from './wording.ts';

const HIDDEN_WORDS: Readonly<Record<string, string>> = {
  'not-rendered': 'inside <template> or <noscript>',
  'hidden-attribute': 'with the hidden attribute',
  'aria-hidden': 'with aria-hidden="true"',
  'display-none': 'with display:none',
  'visibility-hidden': 'with visibility:hidden',
  'closed-dialog': 'in a closed <dialog>',
};

const quote = (c: BannerControl): string => `"${c.name}"`;

function categoryList(categories: readonly CategoryControl[]): string {
  const labels = [...new Set(categories.map((c) => c.label))];
  const shown = labels.slice(0, 3).map((l) => `"${l}"`).join(', ');
  return labels.length > 3 ? `${shown}, …` : shown;
}

function found(s: BannerStructure): string {
  const parts: string[] = [];
  if (s.accept !== undefined) parts.push(`accept ${quote(s.accept)}`);
  if (s.reject !== undefined) parts.push(`reject ${quote(s.reject)}`);
  if (s.settings !== undefined) parts.push(`settings ${quote(s.settings)}`);
  if (s.categories.length > 0) parts.push(`categories ${categoryList(s.categories)}`);
  return parts.length === 0 ? '' : `; found ${parts.join(', ')}`;
}

function cmpNames(cmps: readonly CmpDetection[]): string {
  return cmps.map((c) => c.cmp.name).join(', ');
}

/** The outcomes of this control. */
export const outcomes = {
  /** A visible banner with category controls and separate accept and reject controls. */
  complete: (ev: ConsentEvidence, s: BannerStructure): Outcome => {
    const where = s.categoriesIn === 'settings panel' ? ` in its settings panel (opened by ${quote(s.settings!)})` : '';
    return outcome(
      'pass',
      `Visible consent banner with accept ${quote(s.accept!)}, separate reject ${quote(s.reject!)} and category controls ${categoryList(s.categories)}${where}`,
      locate(ev.page, s.panel.element),
    );
  },
  /** Accept and reject are one control ("Accept / Reject"), or two that do the same thing. */
  sameControl: (ev: ConsentEvidence, s: BannerStructure): Outcome => {
    const text =
      s.sameAction !== undefined
        ? `Consent banner's accept ${quote(s.sameAction.accept)} and reject ${quote(s.sameAction.reject)} do the same thing (same href or onclick): no separate reject control`
        : `Consent banner's accept and reject are the same control ${quote(s.both!)}: no separate reject control`;
    return outcome('fail', text, locate(ev.page, s.panel.element));
  },
  /** The only reject control is inside the (hidden) settings panel, not beside accept. */
  rejectOnlyInSettings: (ev: ConsentEvidence, s: BannerStructure): Outcome =>
    outcome(
      'fail',
      `Consent banner's reject ${quote(s.hiddenReject!)} is only inside its settings panel, not beside accept${s.accept === undefined ? '' : ` ${quote(s.accept)}`}; rejecting must be as direct as accepting`,
      locate(ev.page, s.panel.element),
    ),
  /** A visible banner missing one or more parts. */
  incomplete: (ev: ConsentEvidence, s: BannerStructure): Outcome => {
    const missing: string[] = [];
    if (s.categories.length === 0) {
      missing.push(
        s.unreachableCategories !== undefined
          ? 'reachable category controls (they sit in a hidden panel that no visible control opens)'
          : 'category controls (none in the static markup)',
      );
    }
    if (s.accept === undefined) missing.push(`an accept control (looked for ${EXAMPLES.accept.map((e) => `"${e}"`).join(', ')})`);
    if (s.reject === undefined) missing.push(`a reject/decline control (looked for ${EXAMPLES.reject.slice(0, 3).map((e) => `"${e}"`).join(', ')})`);
    return outcome('fail', `Consent banner lacks ${missing.join(' and ')}${found(s)}`, locate(ev.page, s.panel.element));
  },
  /** No static banner, but a CMP is detected: its banner is injected by script. */
  injectedByCmp: (ev: ConsentEvidence): Outcome => {
    const first = ev.cmps[0]!;
    const server = ev.cmps.every((c) => !injectsBanner(c.cmp));
    const signal = first.signal.length > 50 ? `${first.signal.slice(0, 49)}…` : first.signal;
    const how = server
      ? `No visible consent banner in the markup, though ${cmpNames(ev.cmps)} is detected (${signal}); its banner may be rendered by script, which static analysis does not run`
      : `No static consent banner; ${cmpNames(ev.cmps)} (${signal}) injects its banner by script, which static analysis does not run`;
    return outcome('inconclusive', how, first.element === undefined ? undefined : locate(ev.page, first.element));
  },
  /** No static banner, but a consent tool outside the ten CMPs is known by its gating convention. */
  injectedByTool: (ev: ConsentEvidence, tool: ToolDetection): Outcome =>
    outcome(
      'inconclusive',
      `No static consent banner; ${tool.name} (${tool.signal.length > 70 ? `${tool.signal.slice(0, 69)}…` : tool.signal}) injects its banner by script, which static analysis does not run`,
      locate(ev.page, tool.element),
    ),
  /** No static banner and no named CMP, but an IAB TCF/GPP stub expects one. */
  cmpExpected: (signal: string): Outcome =>
    outcome('inconclusive', `No static consent banner; ${signal} is present, so a CMP is expected to inject its banner by script, which static analysis does not run`),
  /** No banner, and the page is a script-rendered shell (Page.likelyClientRendered): what visitors see is rendered by script. */
  scriptRendered: (ev: ConsentEvidence): Outcome =>
    outcome(
      'inconclusive',
      `No static consent banner, but the page is a script-rendered shell (${ev.page.text.length} characters of visible text): its banner may be rendered by script, which static analysis does not run`,
    ),
  /** A banner is in the markup but hidden, and none is visible. */
  hidden: (ev: ConsentEvidence): Outcome => {
    const hidden = ev.banner.hidden!;
    return outcome(
      'fail',
      `A consent banner is in the markup but hidden (${HIDDEN_WORDS[hidden.reason] ?? hidden.reason}) and no visible banner was found; a hidden banner does not count`,
      locate(ev.page, hidden.panel.element),
    );
  },
  /** No banner at all. */
  noBanner: (): Outcome =>
    outcome(
      'fail',
      `No visible consent banner found (looked for a container named cookie/consent/GDPR, or a cookie dialog, with accept ("Accept all", "Alle akzeptieren") or reject ("Reject all", "Tout refuser") controls)`,
    ),
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.consent-banner-structure',
  branch: 'privacy',
  framework: 'GDPR art. 4(11), 7(3); EDPB cookie banner taskforce report (2023)',
  requirement: 'A visible static banner must expose category controls plus separate accept and reject/decline controls.',
  // Warning, not error: the consequential failures (tracking before consent) are already errors
  // in the two cookie controls, and this control also fails pages that set no non-essential
  // cookie at all and need no banner (issue 3). A structure gap is a finding to review.
  severity: 'warning',
  evaluate(privacyPage) {
    const ev = analyseConsentEvidence(privacyPage);
    const s = ev.banner.banner;
    if (s !== undefined) {
      if (s.complete) return outcomes.complete(ev, s);
      if (s.reject === undefined && (s.both !== undefined || s.sameAction !== undefined)) return outcomes.sameControl(ev, s);
      if (s.reject === undefined && s.hiddenReject !== undefined) return outcomes.rejectOnlyInSettings(ev, s);
      return outcomes.incomplete(ev, s);
    }
    if (ev.cmps.length > 0) return outcomes.injectedByCmp(ev);
    const tool = ev.otherTools[0];
    if (tool !== undefined) return outcomes.injectedByTool(ev, tool);
    const framework = ev.frameworks.find((f) => BANNER_FRAMEWORKS.has(f.id));
    if (framework !== undefined) return outcomes.cmpExpected(`an ${framework.name}`);
    if (ev.page.likelyClientRendered) return outcomes.scriptRendered(ev);
    if (ev.banner.hidden !== undefined) return outcomes.hidden(ev);
    return outcomes.noBanner();
  },
};
