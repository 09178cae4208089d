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

/**
 * Why a followed link gave no policy to read, as a visitor would tell it: a closed set, so that no
 * network detail (addresses, ranges, socket or TLS errors) can reach evidence. The detail goes to
 * the operator's log (policy-follow.ts); privacy-policy-reachable.ts maps each kind to an outcome.
 */
export type FollowFailure =
  /** A 4xx/5xx or other non-2xx final answer (`status` says which). */
  | 'http-status'
  /** More redirects than the crawl allows. */
  | 'too-many-redirects'
  /** A redirect led to a URL the service cannot reach or does not fetch (as `blocked-destination`, or plain http). */
  | 'redirect-to-blocked'
  /**
   * The link itself points to a URL the service does not fetch (non-public address, invalid) or
   * whose host name does not resolve (does not exist, resolver failure, no answer in time): one
   * kind, because the name is the page author's choice and telling the two apart would say which
   * names exist inside the operator's network.
   */
  | 'blocked-destination'
  /** No complete answer in time, once the name had resolved. */
  | 'timeout'
  /** Refused, reset, unreachable, a malformed answer. */
  | 'connection-failed'
  /** The secure connection could not be set up (certificate or handshake). */
  | 'tls'
  /** An answer the service cannot read: over the size or nesting bound, or corruptly compressed. */
  | 'unreadable';

/** `plainHttpLink`: the link is http://, and what follows is the answer of its https form. */
export type PolicyFollow =
  | { outcome: 'reachable'; finalUrl: string; status: number; textLength: number; plainHttpLink?: true }
  /** `scriptRendered`: an HTML shell whose text only script would render, so emptiness is unproven. */
  | { outcome: 'empty'; finalUrl: string; status: number; scriptRendered: boolean; plainHttpLink?: true }
  | { outcome: 'unreachable'; failure: FollowFailure; status?: number; plainHttpLink?: true }
  /** The link points back at the audited page (`href="#"`): not followed. */
  | { outcome: 'same-page' };

export interface PrivacyPage {
  page: Page;
  /** Every Set-Cookie header of the crawl, redirect hops first, in the order received. */
  responseCookies: readonly ResponseCookie[];
  /** The selected policy link and what following it found; undefined when the page links none. */
  policy: { link: PolicyLinkChoice; follow: PolicyFollow } | undefined;
}
