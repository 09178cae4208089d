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
// An http:// policy URL is not requested at all (https only, like the crawl): `unreachable`.
// Outbound failures never throw: they come back as `unreachable` with the safe-fetch reason,
// whose text names the origin only (never a path, query, header or body).
import { chooseEncoding, CRAWL_USER_AGENT, decode, looksLikeHtml, parseContentType } from '../../crawl.ts';
import { buildPage, normalizeText, PageTooComplexError } from '../../page.ts';
import { OutboundError, type SafeFetcher } from '../../../net/safe-fetch.ts';
import type { PolicyFollow, PolicyLinkChoice } from '../context.ts';

/** The bounds of the follow; the caller passes the page crawl's own. */
export interface PolicyFollowLimits {
  /** Total deadline: DNS, every redirect hop and the whole body. */
  timeoutMs: number;
  /** Body cap, counted after decompression. */
  maxBytes: number;
  maxRedirects: number;
}

/** Fewest characters of (visible) text that make a policy response non-empty. */
export const MIN_TEXT_LENGTH = 1;

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,application/pdf;q=0.8,*/*;q=0.1';

/** Types servers send when they do not know better; the body is sniffed for HTML, as the crawl does. */
const GENERIC_TYPES = new Set(['', 'text/plain', 'application/octet-stream', 'unknown/unknown', 'application/unknown', '*/*']);

/**
 * Follows the selected policy link once. Resolves to `reachable`, `empty`, `unreachable`, or
 * `same-page` without a request when the link only points back at `pageUrl` (`href="#"`: a policy
 * shown by script, which fetching the page again would not prove); rejects only for programming
 * errors, never for anything the network or the server did.
 */
export async function followPolicyLink(
  fetcher: Pick<SafeFetcher, 'request'>,
  link: Pick<PolicyLinkChoice, 'href'>,
  limits: PolicyFollowLimits,
  pageUrl?: URL,
): Promise<PolicyFollow> {
  const url = URL.parse(link.href);
  if (url === null) return { outcome: 'unreachable', reason: 'bad-url: the policy link is not a valid URL' };
  if (pageUrl && withoutHash(url) === withoutHash(pageUrl)) return { outcome: 'same-page' };
  if (url.protocol === 'http:') return { outcome: 'unreachable', reason: 'not-https: plain http policy URLs are not followed' };
  if (url.protocol !== 'https:') return { outcome: 'unreachable', reason: `bad-url: ${url.protocol} policy links are not followed` };

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
    if (err instanceof OutboundError) {
      return err.status === undefined ? { outcome: 'unreachable', reason: err.message } : { outcome: 'unreachable', reason: err.message, status: err.status };
    }
    throw err;
  }

  const finalUrl = res.finalUrl.href;
  const status = res.status;
  if (status < 200 || status > 299) {
    // 4xx/5xx threw already; what is left (1xx, 300, 304) has no policy to read either.
    return { outcome: 'unreachable', reason: `http-status: ${res.finalUrl.origin} answered ${status}`, status };
  }
  const contentType = res.headers['content-type'];
  const { essence, charsetLabel } = parseContentType((Array.isArray(contentType) ? contentType[0] : contentType) ?? '');
  const measured = measure(res.body, essence, charsetLabel, res.finalUrl);
  if (measured === 'too-deep') {
    return { outcome: 'unreachable', reason: 'too-deep: the policy page nests elements beyond the analysis bound, so its text cannot be read', status };
  }
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
