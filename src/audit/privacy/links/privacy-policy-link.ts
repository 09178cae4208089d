// privacy.privacy-policy-link: the page links to a privacy policy or privacy notice.
//
// Passes on the link selectPolicyLink chooses (policy-link.ts: rel="privacy-policy", policy names
// in at least en, de, fr, es, it, nl, pt, policy paths; the preference order). When there is none,
// the failure names the most telling near-miss: a policy link that is hidden, a "privacy" link
// into a news/blog/press section, a cookie-only link, or a policy link that is not http(s). A
// script-rendered shell with no link is inconclusive.
import type { Control, Outcome } from '../../control.ts';
import { locate, type Page } from '../../page.ts';
import type { PolicyLinkChoice, PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { lookedFor, outcome, quoteName, shortUrl } from './evidence.ts';
import { scanPolicyLinks, selectPolicyLink, type PolicyNearMiss } from './policy-link.ts';
import { POLICY_EXAMPLES } from './vocabulary.ts';

/** `"Privacy Policy" → https://…`, or `<link rel="privacy-policy"> → https://…` for a head link. */
export function describePolicyLink(link: Pick<PolicyLinkChoice, 'text' | 'href' | 'element'>, nameMax = 60, urlMax = 90): string {
  const name = link.element.name === 'link' ? '<link rel="privacy-policy">' : quoteName(link.text, nameMax);
  return `${name} → ${shortUrl(link.href, urlMax)}`;
}

const NEAR_MISS: Readonly<Record<PolicyNearMiss['kind'], string>> = {
  hidden: 'the only policy link is hidden (template, hidden or display:none)',
  section: 'the only "privacy" link leads to a news, blog or press page, not a policy',
  cookie: 'only a cookie link, and a cookie policy is not a privacy policy',
  scheme: 'the only policy link is not an http(s) URL',
};

/** The outcomes of this control. */
export const outcomes = {
  /** The selected link, with why it was chosen. */
  linked: (page: Page, link: PolicyLinkChoice): Outcome =>
    outcome('pass', `Privacy policy link (${link.reason}): ${describePolicyLink(link)}`, locate(page, link.element)),
  /** No candidate, but a near-miss explains what was there. */
  nearMiss: (page: Page, miss: PolicyNearMiss): Outcome =>
    outcome('fail', `No privacy-policy link: ${NEAR_MISS[miss.kind]}: ${quoteName(miss.text, 50)} → ${shortUrl(miss.href, 60)}`, locate(page, miss.element)),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome =>
    outcome(
      'inconclusive',
      `No privacy-policy link found, but the page is a script-rendered shell (${page.text.length} characters of visible text): its links are rendered by script, which static analysis does not run`,
    ),
  /** Nothing found. */
  notFound: (): Outcome => lookedFor('No privacy-policy link found in visible links or <link rel>', POLICY_EXAMPLES),
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.privacy-policy-link',
  branch: 'privacy',
  framework: 'GDPR Art. 13 / CCPA / CalOPPA',
  requirement: 'The scanned page must link to a privacy policy or privacy notice.',
  // Error: a site collecting any personal data (every site with analytics or cookies) owes its
  // visitors a notice, and the link is how they reach it (GDPR Art. 12–13, CalOPPA "conspicuously posts").
  severity: 'error',
  evaluate({ page }) {
    const link = selectPolicyLink(page);
    if (link !== undefined) return outcomes.linked(page, link);
    if (page.likelyClientRendered) return outcomes.scriptRendered(page);
    const miss = scanPolicyLinks(page).nearMiss;
    return miss === undefined ? outcomes.notFound() : outcomes.nearMiss(page, miss);
  },
};
