// Following the one selected privacy-policy link (service interface, section 1, privacy crawl
// rule): one GET through the safe outbound module, with the same HTTPS, DNS, address, redirect,
// timeout and size protections as the page crawl. Nothing else on the policy page is fetched.
//
// What counts as reachable: a final 2xx answer (after at most `maxRedirects` redirects) whose
// body has text.
//   - HTML (declared, or sniffed from a generic type as the crawl does): decoded like the crawl
//     (BOM, Content-Type charset, <meta> prescan), parsed with buildPage; at least
//     MIN_TEXT_LENGTH characters of *visible* text (whitespace collapsed). A document with only
//     a title, scripts, or hidden text is `empty`.
//   - Other text (`text/*`, JSON, XML, no type): decoded, at least MIN_TEXT_LENGTH
//     non-whitespace characters.
//   - Anything else (a PDF, a Word document): a body with at least one non-whitespace byte;
//     `textLength` is then the body's size in bytes.
// An http:// policy URL is never requested as such (https only, like the crawl): its https form is
// requested instead, and the result is marked `plainHttpLink`.
// Outbound failures never throw: they come back as `unreachable` with a FollowFailure kind, which
// says what a visitor would see and nothing of the network. What the fetcher saw (addresses,
// ranges, error codes, TLS text) goes to the operator's log only.
import type { BaseLogger } from 'pino';
import { chooseEncoding, CRAWL_USER_AGENT, decode, looksLikeHtml, parseContentType } from '../../crawl.ts';
import { buildPage, normalizeText, PageTooComplexError } from '../../page.ts';
import { OutboundError, type OutboundReason, type SafeFetcher } from '../../../net/safe-fetch.ts';
import type { FollowFailure, PolicyFollow, PolicyLinkChoice } from '../context.ts';

/** The bounds of the follow; the caller passes the page crawl's own. */
export interface PolicyFollowLimits {
  /** Total deadline: DNS, every redirect hop and the whole body. */
  timeoutMs: number;
  /** Body cap, counted after decompression. */
  maxBytes: number;
  maxRedirects: number;
}

/** Where the follow reports what it saw of the network: the request's pino logger. */
export type OperatorLog = Pick<BaseLogger, 'info'>;

/** Fewest characters of (visible) text that make a policy response non-empty. */
export const MIN_TEXT_LENGTH = 1;

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,application/pdf;q=0.8,*/*;q=0.1';

/** Types servers send when they do not know better; the body is sniffed for HTML, as the crawl does. */
const GENERIC_TYPES = new Set(['', 'text/plain', 'application/octet-stream', 'unknown/unknown', 'application/unknown', '*/*']);

/**
 * Each fetcher reason as what a visitor would see. A URL the service refuses or cannot resolve is
 * the link's own (`blocked-destination`) or, after a redirect, the redirect's (`redirect-to-blocked`):
 * see failureOf. A name that does not exist, one whose resolver fails or does not answer in time,
 * and one that resolves to a refused address are one kind (context.ts says why); the log tells them apart.
 */
const FAILURE_OF: Readonly<Record<OutboundReason, FollowFailure>> = {
  'http-status': 'http-status',
  redirect: 'http-status', // a 3xx without a usable Location: the answer is the redirect itself
  'too-many-redirects': 'too-many-redirects',
  'bad-url': 'blocked-destination',
  'blocked-address': 'blocked-destination',
  downgrade: 'redirect-to-blocked',
  'no-such-host': 'blocked-destination',
  dns: 'blocked-destination',
  connect: 'connection-failed',
  network: 'connection-failed',
  aborted: 'connection-failed',
  'invalid-request': 'connection-failed',
  timeout: 'timeout',
  tls: 'tls',
  'too-large': 'unreadable',
  'bad-encoding': 'unreadable',
  'not-html': 'unreadable',
};

function failureOf(err: OutboundError): FollowFailure {
  const failure = FAILURE_OF[err.reason];
  return failure === 'blocked-destination' && err.redirects > 0 ? 'redirect-to-blocked' : failure;
}

/**
 * Follows the selected policy link once. Resolves to `reachable`, `empty`, `unreachable`, or
 * `same-page` without a request when the link only points back at `pageUrl` (`href="#"`: a policy
 * shown by script, which fetching the page again would not prove); rejects only for programming
 * errors, never for anything the network or the server did. An outbound failure is logged on `log`
 * with the fetcher's reason and detail.
 */
export async function followPolicyLink(
  fetcher: Pick<SafeFetcher, 'request'>,
  link: Pick<PolicyLinkChoice, 'href'>,
  limits: PolicyFollowLimits,
  context: { log: OperatorLog; pageUrl?: URL },
): Promise<PolicyFollow> {
  const url = URL.parse(link.href);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return { outcome: 'unreachable', failure: 'blocked-destination' };
  if (context.pageUrl && withoutHash(url) === withoutHash(context.pageUrl)) return { outcome: 'same-page' };
  // Plain http is never fetched, but most sites answer the same URL over https: judge that answer.
  if (url.protocol === 'http:') {
    url.protocol = 'https:';
    return { ...(await fetchPolicy(fetcher, url, limits, context.log)), plainHttpLink: true };
  }
  return fetchPolicy(fetcher, url, limits, context.log);
}

async function fetchPolicy(
  fetcher: Pick<SafeFetcher, 'request'>,
  url: URL,
  limits: PolicyFollowLimits,
  log: OperatorLog,
): Promise<Exclude<PolicyFollow, { outcome: 'same-page' }>> {
  let res;
  try {
    res = await fetcher.request(url, {
      method: 'GET',
      headers: { 'user-agent': CRAWL_USER_AGENT, accept: ACCEPT },
      maxRedirects: limits.maxRedirects,
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
      failOnHttpError: true,
    });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const failure = failureOf(err);
    log.info({ origin: url.origin, failure, reason: err.reason, detail: err.message, redirects: err.redirects }, 'privacy-policy link could not be followed');
    return err.status === undefined ? { outcome: 'unreachable', failure } : { outcome: 'unreachable', failure, status: err.status };
  }

  const finalUrl = res.finalUrl.href;
  const status = res.status;
  if (status < 200 || status > 299) {
    // 4xx/5xx threw already; what is left (1xx, 300, 304) has no policy to read either.
    return { outcome: 'unreachable', failure: 'http-status', status };
  }
  const contentType = res.headers['content-type'];
  const { essence, charsetLabel } = parseContentType((Array.isArray(contentType) ? contentType[0] : contentType) ?? '');
  const measured = measure(res.body, essence, charsetLabel, res.finalUrl);
  if (measured === 'too-deep') return { outcome: 'unreachable', failure: 'unreadable', status };
  const { textLength, scriptRendered } = measured;
  return textLength >= MIN_TEXT_LENGTH ? { outcome: 'reachable', finalUrl, status, textLength } : { outcome: 'empty', finalUrl, status, scriptRendered };
}

function withoutHash(url: URL): string {
  // `hash` is '' both for no fragment and for a bare '#', so cut at the first '#' instead.
  const at = url.href.indexOf('#');
  return at === -1 ? url.href : url.href.slice(0, at);
}

/** Characters of text in the body (bytes for binary types), by the rules in the file comment. */
function measure(
  body: Buffer,
  essence: string,
  charsetLabel: string | undefined,
  url: URL,
): { textLength: number; scriptRendered: boolean } | 'too-deep' {
  const plain = (textLength: number) => ({ textLength, scriptRendered: false });
  if (body.length === 0) return plain(0);
  const xhtml = essence === 'application/xhtml+xml';
  if (essence === 'text/html' || xhtml || (GENERIC_TYPES.has(essence) && looksLikeHtml(body))) {
    try {
      const page = buildPage(decode(body, chooseEncoding(body, charsetLabel, xhtml)), url);
      return { textLength: page.text.length, scriptRendered: page.likelyClientRendered };
    } catch (err) {
      if (err instanceof PageTooComplexError) return 'too-deep';
      throw err;
    }
  }
  if (isTextual(essence)) return plain(normalizeText(decode(body, chooseEncoding(body, charsetLabel, false))).length);
  return plain(body.some((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) ? body.length : 0);
}

function isTextual(essence: string): boolean {
  return GENERIC_TYPES.has(essence) || essence.startsWith('text/') || essence.endsWith('+xml') || essence.endsWith('+json') || essence === 'application/json' || essence === 'application/xml';
}
