// privacy.privacy-policy-reachable: the selected policy link resolves to a reachable, non-empty
// 2xx response.
//
// Reads the follow result the branch obtained before the controls ran (policy-follow.ts; one
// request per redirect hop, through the safe outbound module). A page with no policy link fails
// too: there is nothing to reach (issue 3). A script-rendered shell with no link is inconclusive,
// as for privacy.privacy-policy-link; a link that was not followed is inconclusive.
import type { Control, Outcome } from '../../control.ts';
import { locate, type Page } from '../../page.ts';
import type { PolicyFollow, PolicyLinkChoice, PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { outcome, shortUrl } from './evidence.ts';
import { selectPolicyLink } from './policy-link.ts';
import { describePolicyLink } from './privacy-policy-link.ts';

const redirected = (link: PolicyLinkChoice, finalUrl: string): string => (finalUrl === link.href ? '' : ` (redirected to ${shortUrl(finalUrl, 60)})`);

/** The outcomes of this control. */
export const outcomes = {
  /** 2xx with text. */
  reachable: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'reachable' }>): Outcome =>
    outcome(
      'pass',
      `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status} with ${follow.textLength} characters of content${redirected(link, follow.finalUrl)}`,
      locate(page, link.element),
    ),
  /** 2xx without text. */
  empty: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'empty' }>): Outcome =>
    outcome('fail', `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status} with no text${redirected(link, follow.finalUrl)}`, locate(page, link.element)),
  /** 2xx whose HTML is a script-rendered shell: its text would come from script, which is not run. */
  emptyShell: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'empty' }>): Outcome =>
    outcome(
      'inconclusive',
      `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status} with a script-rendered shell: its text is not in the static HTML${redirected(link, follow.finalUrl)}`,
      locate(page, link.element),
    ),
  /** The link points back at this page: the policy, if any, is shown by script. */
  samePage: (page: Page, link: PolicyLinkChoice): Outcome =>
    outcome(
      'inconclusive',
      `Privacy policy link ${describePolicyLink(link, 40, 70)} points back to this page: the policy is shown by script, which is not run`,
      locate(page, link.element),
    ),
  /** Not reached: HTTP error, blocked address, timeout, plain http, … */
  unreachable: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'unreachable' }>): Outcome => {
    const status = follow.status === undefined || follow.reason.includes(String(follow.status)) ? '' : ` (HTTP ${follow.status})`;
    return outcome('fail', `Privacy policy ${describePolicyLink(link, 40, 70)} is unreachable: ${follow.reason}${status}`, locate(page, link.element));
  },
  /** The page links no policy. */
  noLink: (): Outcome => outcome('fail', 'No privacy-policy link on the page, so there is no policy to reach'),
  /** No link found on a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome =>
    outcome(
      'inconclusive',
      `No privacy-policy link to follow, but the page is a script-rendered shell (${page.text.length} characters of visible text): its links are rendered by script`,
    ),
  /** A link was selected but the branch did not follow it. */
  notFollowed: (page: Page, link: PolicyLinkChoice): Outcome =>
    outcome('inconclusive', `Privacy policy link ${describePolicyLink(link, 40, 70)} was not followed, so its response is unknown`, locate(page, link.element)),
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.privacy-policy-reachable',
  branch: 'privacy',
  framework: 'GDPR Art. 13 / CCPA / CalOPPA',
  requirement: 'The selected policy link must resolve to a reachable, non-empty 2xx response.',
  // Error: a policy link that leads to an error, an empty page or nowhere gives visitors no notice
  // at all; for them it is the same as having no policy.
  severity: 'error',
  evaluate({ page, policy }) {
    if (policy === undefined) {
      const link = selectPolicyLink(page);
      if (link !== undefined) return outcomes.notFollowed(page, link);
      return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.noLink();
    }
    const { link, follow } = policy;
    switch (follow.outcome) {
      case 'reachable':
        return outcomes.reachable(page, link, follow);
      case 'empty':
        return follow.scriptRendered ? outcomes.emptyShell(page, link, follow) : outcomes.empty(page, link, follow);
      case 'unreachable':
        return outcomes.unreachable(page, link, follow);
      case 'same-page':
        return outcomes.samePage(page, link);
    }
  },
};
