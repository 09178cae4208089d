// privacy.privacy-policy-reachable: the selected policy link resolves to a reachable, non-empty
// 2xx response.
//
// Reads the follow result the branch obtained before the controls ran (policy-follow.ts; one
// request per redirect hop, through the safe outbound module). A page with no policy link fails
// too: there is nothing to reach (issue 3). A script-rendered shell with no link is inconclusive,
// as for privacy.privacy-policy-link; a link that was not followed is inconclusive.
//
// A follow that failed is told as a visitor would see it (FAILURES below): an answer (an HTTP
// error, an empty page, a link or redirect somewhere the service cannot reach or does not fetch)
// fails; network trouble once the name resolved (timeout, connection or TLS failure) may pass and
// is inconclusive. Evidence never carries what the network said (issue 7): that is in the
// operator's log. Nor does it tell a refused address from a name that does not resolve (issue 17):
// the link's host is the page author's choice, and the difference would map the operator's network.
import type { Control, Outcome, OutcomeStatus } from '../../control.ts';
import { locate, type Page } from '../../page.ts';
import type { FollowFailure, PolicyFollow, PolicyLinkChoice, PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { outcome, shortUrl } from './evidence.ts';
import { selectPolicyLink } from './policy-link.ts';
import { describePolicyLink } from './privacy-policy-link.ts';

/** A plain-http link is judged by its https form's answer; the evidence says so. */
const overHttps = (follow: { plainHttpLink?: true }): string => (follow.plainHttpLink ? ' over https' : '');

/** ` (redirected to …)` when the answer came from elsewhere than the URL requested (an http link's https form). */
function redirected(link: PolicyLinkChoice, follow: { finalUrl: string; plainHttpLink?: true }): string {
  const requested = URL.parse(link.href);
  if (requested && follow.plainHttpLink) requested.protocol = 'https:';
  return follow.finalUrl === (requested?.href ?? link.href) ? '' : ` (redirected to ${shortUrl(follow.finalUrl, 60)})`;
}

const COULD_NOT_FETCH = 'could not be fetched; a timeout or connection failure can be passing trouble';

/** Each failure's outcome and how a visitor would tell it; `http-status` adds the status. */
const FAILURES: Readonly<Record<FollowFailure, readonly [Exclude<OutcomeStatus, 'pass'>, string]>> = {
  'http-status': ['fail', 'answered'],
  'too-many-redirects': ['fail', 'redirects too many times'],
  'redirect-to-blocked': ['fail', 'redirected to an address the service cannot reach or does not fetch'],
  'blocked-destination': ['fail', 'points to an address the service cannot reach or does not fetch'],
  timeout: ['inconclusive', COULD_NOT_FETCH],
  'connection-failed': ['inconclusive', COULD_NOT_FETCH],
  // Inconclusive, worded like a connection failure: see README.md, "What counts as reachable".
  tls: ['inconclusive', COULD_NOT_FETCH],
  unreadable: ['inconclusive', 'answered with a page too large, too deeply nested or too damaged to read'],
};

/** The failures that say nothing about the server's answer: for a plain-http link, only its https form failed. */
const NETWORK_FAILURES: ReadonlySet<FollowFailure> = new Set(['timeout', 'connection-failed', 'tls']);

/** The outcomes of this control. */
export const outcomes = {
  /** 2xx with text. */
  reachable: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'reachable' }>): Outcome =>
    outcome(
      'pass',
      `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status}${overHttps(follow)} with ${follow.textLength} characters of content${redirected(link, follow)}`,
      locate(page, link.element),
    ),
  /** 2xx without text. */
  empty: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'empty' }>): Outcome =>
    outcome(
      'fail',
      `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status}${overHttps(follow)} with an empty page${redirected(link, follow)}`,
      locate(page, link.element),
    ),
  /** 2xx whose HTML is a script-rendered shell: its text would come from script, which is not run. */
  emptyShell: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'empty' }>): Outcome =>
    outcome(
      'inconclusive',
      `Privacy policy ${describePolicyLink(link, 40, 70)} answered ${follow.status}${overHttps(follow)} with a script-rendered shell: its text is not in the static HTML${redirected(link, follow)}`,
      locate(page, link.element),
    ),
  /** The link points back at this page: the policy, if any, is shown by script. */
  samePage: (page: Page, link: PolicyLinkChoice): Outcome =>
    outcome(
      'inconclusive',
      `Privacy policy link ${describePolicyLink(link, 40, 70)} points back to this page: the policy is shown by script, which is not run`,
      locate(page, link.element),
    ),
  /** No policy obtained: worded and judged by the failure's kind (FAILURES). */
  unreachable: (page: Page, link: PolicyLinkChoice, follow: Extract<PolicyFollow, { outcome: 'unreachable' }>): Outcome => {
    const where = locate(page, link.element);
    if (follow.plainHttpLink && NETWORK_FAILURES.has(follow.failure)) {
      return outcome('inconclusive', `Privacy policy ${describePolicyLink(link, 40, 70)} is a plain-HTTP link, which the service does not fetch, and its https form could not be fetched`, where);
    }
    const [status, says] = FAILURES[follow.failure];
    const answered = follow.failure === 'http-status' ? `${says} ${follow.status ?? 'with an error'}${overHttps(follow)}` : says;
    return outcome(status, `Privacy policy ${describePolicyLink(link, 40, 70)} ${answered}`, where);
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
