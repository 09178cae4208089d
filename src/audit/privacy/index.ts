// The privacy branch: six controls over one PrivacyPage. The one network request the branch may
// make (following the selected policy link) happens here, before any control runs.
import type { SafeFetcher } from '../../net/safe-fetch.ts';
import type { Control } from '../control.ts';
import type { CrawledPage, CrawlLimits } from '../crawl.ts';
import { buildPage } from '../page.ts';
import { consentControls } from './consent/index.ts';
import type { PrivacyPage, ResponseCookie } from './context.ts';
import type { PrivacyControlId } from './ids.ts';
import { followPolicyLink, linkControls, selectPolicyLink, type OperatorLog } from './links/index.ts';

export type { OperatorLog };

/** In the order of the table (and of PRIVACY_CONTROL_IDS). */
export const privacyControls: readonly Control<PrivacyControlId, PrivacyPage>[] = [...consentControls, ...linkControls];

/** Every Set-Cookie of the crawl in the order received: redirect hops, then the final response. */
export function responseCookiesOf(crawled: CrawledPage): ResponseCookie[] {
  return [
    ...crawled.redirectChain.flatMap((hop) => hop.setCookies.map((header) => ({ url: hop.url, header }))),
    ...crawled.finalSetCookies.map((header) => ({ url: crawled.finalUrl, header })),
  ];
}

/** `log` gets what the policy follow saw of the network, which no finding may carry. */
export async function buildPrivacyPage(crawled: CrawledPage, fetcher: SafeFetcher, limits: CrawlLimits, log: OperatorLog): Promise<PrivacyPage> {
  const page = buildPage(crawled.html, crawled.finalUrl);
  const link = selectPolicyLink(page);
  const policy = link ? { link, follow: await followPolicyLink(fetcher, link, limits, { log, pageUrl: page.url }) } : undefined;
  return { page, responseCookies: responseCookiesOf(crawled), policy };
}
