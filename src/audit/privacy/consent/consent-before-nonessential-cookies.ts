// privacy.consent-before-nonessential-cookies: consent is visible before confirmed marketing or
// analytics evidence.
//
// Order is what this control reads. Set-Cookie headers arrive before any HTML, so a catalogued
// cookie there always precedes consent. Element evidence is placed in document order against the
// consent mechanisms of the page (a visible static banner, a CMP's first static signal, an IAB
// TCF/GPP stub, a Google Consent Mode default). A mechanism that comes first does not save an
// ungated tracker: the tracker runs regardless of the banner, so it still fails, and the evidence
// says which mechanism it failed to wait for. A tracker the markup holds back (a CMP category
// on a non-running script, a Consent Mode default denying a Google tag's storage) is not
// evidence. What may hold a tracker back (an auto-blocking CMP before it, a consent check in its
// script, a TCF stub before Google's ad tags) makes the outcome inconclusive, as does an ungated
// tag manager with no other evidence. With no evidence at all the control passes: nothing happens before consent in the
// static response.
import type { Control, Outcome } from '../../control.ts';
import { locate } from '../../page.ts';
import type { PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import {
  analyseConsentEvidence,
  headerSource,
  itemText,
  more,
  outcome,
  shortUrl,
  withSuffix,
  type ConsentEvidence,
  type Mechanism,
  type TagManagerItem,
  type TrackingItem,
} from './evidence.ts';

/** The first consent mechanism that comes before a position, if any. */
function mechanismBefore(ev: ConsentEvidence, order: number): Mechanism | undefined {
  return ev.mechanisms.find((m) => m.order < order);
}

/** The outcomes of this control. */
export const outcomes = {
  /** A catalogued cookie in a Set-Cookie header: set before any page, so before any consent can be shown. */
  headerBeforeConsent: (item: TrackingItem, count: number): Outcome =>
    outcome('fail', withSuffix(`${itemText(item)} is set before any consent can be shown: headers arrive before the page (${headerSource(item)})`, more(count))),
  /** Element evidence with no consent mechanism before it in the document (one may come after it). */
  noConsentBefore: (ev: ConsentEvidence, item: TrackingItem, count: number): Outcome => {
    const later = ev.mechanisms.find((m) => m.order > item.order);
    const why = later === undefined ? 'no consent banner, CMP or consent-mode default precedes it' : `${later.label} comes only after it`;
    return outcome('fail', withSuffix(`${itemText(item)} runs before consent: ${why}`, more(count)), locate(ev.page, item.element!));
  },
  /** Element evidence after a consent mechanism, but not gated by it: it does not wait for consent. */
  notWaiting: (ev: ConsentEvidence, item: TrackingItem, mechanism: Mechanism, count: number): Outcome =>
    outcome(
      'fail',
      withSuffix(`${itemText(item)} is not gated, so it runs before consent although ${mechanism.label} comes first`, more(count)),
      locate(ev.page, item.element!),
    ),
  /** Only evidence that the markup may hold back in the browser. */
  mayWait: (ev: ConsentEvidence, item: TrackingItem): Outcome =>
    outcome('inconclusive', `${itemText(item)} may wait for consent (not visible statically): ${item.caveat ?? ''}`, locate(ev.page, item.element!)),
  /** An ungated tag manager: whether its tags wait for consent is configured in its container. */
  tagManager: (ev: ConsentEvidence, tm: TagManagerItem): Outcome =>
    outcome(
      'inconclusive',
      `${tm.vendor} (${shortUrl(tm.url, 60)}) loads without consent gating; whether the tags it fires wait for consent is configured in its container, which static analysis does not see`,
      locate(ev.page, tm.element),
    ),
  /** No marketing or analytics evidence at all before consent. */
  nothingBeforeConsent: (ev: ConsentEvidence): Outcome => {
    const mechanism = ev.mechanisms[0];
    const consent = mechanism === undefined ? '' : `; consent mechanism: ${mechanism.label}`;
    return outcome('pass', `No marketing or analytics evidence before consent in the static response${consent}`);
  },
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.consent-before-nonessential-cookies',
  branch: 'privacy',
  framework: 'GDPR art. 6(1)(a), 7; ePrivacy Directive art. 5(3)',
  requirement: 'Consent must be visible before confirmed marketing or analytics evidence.',
  // Error (issue 3): tracking that starts before consent can be given is the violation itself.
  severity: 'error',
  evaluate(privacyPage) {
    const ev = analyseConsentEvidence(privacyPage);
    const first = ev.confirmed[0];
    if (first !== undefined) {
      const count = ev.confirmed.length;
      if (first.kind === 'set-cookie') return outcomes.headerBeforeConsent(first, count);
      const mechanism = mechanismBefore(ev, first.order);
      return mechanism === undefined ? outcomes.noConsentBefore(ev, first, count) : outcomes.notWaiting(ev, first, mechanism, count);
    }
    const held = ev.unconfirmed[0];
    if (held !== undefined) return outcomes.mayWait(ev, held);
    const tm = ev.tagManagers[0];
    if (tm !== undefined) return outcomes.tagManager(ev, tm);
    return outcomes.nothingBeforeConsent(ev);
  },
};
