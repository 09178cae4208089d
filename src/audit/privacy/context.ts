// What the privacy controls read: the page model, the cookies the server set on the way to it, and
// the result of following the one selected privacy-policy link. Everything asynchronous (the
// follow) happens before the controls run, so each control stays a small synchronous function.
import type { Page } from '../page.ts';

/** One Set-Cookie header as received, with the URL of the response that carried it. */
export interface ResponseCookie {
  /** The response's URL: a redirect hop or the final page. */
  url: string;
  /** The raw Set-Cookie header value. */
  header: string;
}

/** Why a link was chosen as the privacy policy, in the documented preference order. */
export interface PolicyLinkChoice {
  href: string;
  text: string;
  /** e.g. `rel="privacy-policy"`, `exact wording, same site, in footer`. */
  reason: string;
  /** The anchor element, for the finding's location. */
  element: import('domhandler').Element;
}

export type PolicyFollow =
  | { outcome: 'reachable'; finalUrl: string; status: number; textLength: number }
  /** `scriptRendered`: an HTML shell whose text only script would render, so emptiness is unproven. */
  | { outcome: 'empty'; finalUrl: string; status: number; scriptRendered: boolean }
  | { outcome: 'unreachable'; reason: string; status?: number }
  /** The link points back at the audited page (`href="#"`): not followed. */
  | { outcome: 'same-page' };

export interface PrivacyPage {
  page: Page;
  /** Every Set-Cookie header of the crawl, redirect hops first, in the order received. */
  responseCookies: readonly ResponseCookie[];
  /** The selected policy link and what following it found; undefined when the page links none. */
  policy: { link: PolicyLinkChoice; follow: PolicyFollow } | undefined;
}
