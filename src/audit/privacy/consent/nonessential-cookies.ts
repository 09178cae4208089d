// privacy.nonessential-cookies: no known marketing or analytics cookie in the initial response
// or set before consent.
//
// Fails on the first confirmed evidence (see evidence.ts): a catalogued marketing/analytics
// cookie in a Set-Cookie header of any hop, a catalogued cookie written by `document.cookie` in
// an ungated inline script, or a tracker script, pixel, iframe or inline snippet that loads
// without consent gating (it sets its cookies before any consent can be given; issue 3).
// Held-back trackers (a non-running script type with a CMP category, a Google tag after a Consent
// Mode default denying its storage) are not evidence. Inconclusive when the only evidence may be
// held back in the browser (an auto-blocking CMP before it, a consent check in its script, a TCF
// stub before Google's ad tags) or a tag manager loads ungated (its tags are configured in its
// container). Passes otherwise: no evidence in the static response.
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
  type TagManagerItem,
  type TrackingItem,
} from './evidence.ts';

/** The outcomes of this control. */
export const outcomes = {
  /** A catalogued cookie in a Set-Cookie header (any hop): set before any HTML, so before consent. */
  cookieInHeader: (item: TrackingItem, count: number): Outcome =>
    outcome('fail', withSuffix(`${itemText(item)} is set with the initial response, before any consent (${headerSource(item)})`, more(count))),
  /** A catalogued cookie written by an ungated inline script. */
  cookieByScript: (ev: ConsentEvidence, item: TrackingItem, count: number): Outcome =>
    outcome('fail', withSuffix(`${itemText(item)} that runs without consent gating`, more(count)), locate(ev.page, item.element!)),
  /** A tracker script, pixel, iframe or snippet that loads without consent gating. */
  trackerLoads: (ev: ConsentEvidence, item: TrackingItem, count: number): Outcome =>
    outcome('fail', withSuffix(`${itemText(item)} loads without consent gating, so its cookies are set before consent`, more(count)), locate(ev.page, item.element!)),
  /** Only evidence that something in the markup may hold back in the browser. */
  mayBeHeldBack: (ev: ConsentEvidence, item: TrackingItem): Outcome =>
    outcome('inconclusive', `${itemText(item)} may be held back (not visible statically): ${item.caveat ?? ''}`, locate(ev.page, item.element!)),
  /** A tag manager loads ungated: what it fires is not in the static HTML. */
  tagManager: (ev: ConsentEvidence, tm: TagManagerItem): Outcome =>
    outcome(
      'inconclusive',
      `${tm.vendor} (${shortUrl(tm.url, 60)}) loads without consent gating; the tags it fires are configured in its container, which static analysis does not see`,
      locate(ev.page, tm.element),
    ),
  /** Nothing found: a pass for the static response only. */
  noneFound: (ev: ConsentEvidence): Outcome => {
    const gated = ev.gated.length > 0 ? `; ${ev.gated.length} tracker(s) held back by consent gating` : '';
    return outcome(
      'pass',
      `No known marketing or analytics cookie or ungated tracker in the static response (${ev.stats.headers} Set-Cookie header(s), ${ev.stats.scripts} script(s) checked${gated})`,
    );
  },
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.nonessential-cookies',
  branch: 'privacy',
  framework: 'ePrivacy Directive art. 5(3)',
  requirement: 'Known non-essential cookies must not appear in the initial response or before consent.',
  // Error (issue 3): a marketing or analytics cookie set before consent is the violation itself.
  severity: 'error',
  evaluate(privacyPage) {
    const ev = analyseConsentEvidence(privacyPage);
    const first = ev.confirmed[0];
    if (first !== undefined) {
      const count = ev.confirmed.length;
      if (first.kind === 'set-cookie') return outcomes.cookieInHeader(first, count);
      if (first.kind === 'script-cookie') return outcomes.cookieByScript(ev, first, count);
      return outcomes.trackerLoads(ev, first, count);
    }
    const held = ev.unconfirmed[0];
    if (held !== undefined) return outcomes.mayBeHeldBack(ev, held);
    const tm = ev.tagManagers[0];
    if (tm !== undefined) return outcomes.tagManager(ev, tm);
    return outcomes.noneFound(ev);
  },
};
