// Fetches one public page as static HTML: safe fetch (SSRF policy, redirects, bounds), then the
// HTML-or-not decision and the character decoding a browser would apply.

import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { OutboundError } from '../net/safe-fetch.ts';
import type { SafeFetcher } from '../net/safe-fetch.ts';

// html-encoding-sniffer ships no types; a typed require keeps the declaration next to its only use.
type SniffHtmlEncoding = (
  bytes: Uint8Array,
  options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string },
) => string;
const sniffHtmlEncoding = createRequire(import.meta.url)('html-encoding-sniffer') as SniffHtmlEncoding;

export interface CrawlLimits {
  /** Total deadline: DNS, every redirect hop and the whole body. */
  timeoutMs: number;
  /** Body cap, counted after decompression. */
  maxBytes: number;
  maxRedirects: number;
  /** Deadline for each hop's response headers; defaults to timeoutMs. */
  headersTimeoutMs?: number;
}

export const DEFAULT_CRAWL_LIMITS: Readonly<CrawlLimits> = {
  timeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
};

export const CRAWL_USER_AGENT = 'audit-service/0.1 (+static HTML audit)';
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export interface RedirectHop {
  url: string;
  status: number;
  /** Raw Set-Cookie header values of this hop, in order. */
  setCookies: string[];
}

export interface CrawledPage {
  requestedUrl: string;
  finalUrl: string;
  /** Status of the final response (always 2xx; anything else throws). */
  status: number;
  /** The redirect responses before the final one, in order; empty when there was no redirect. */
  redirectChain: RedirectHop[];
  /** Raw Set-Cookie values of the final response. */
  finalSetCookies: string[];
  /** Final response headers, lower-cased; repeated headers joined with ", "; set-cookie is in finalSetCookies. */
  headers: Record<string, string>;
  fetchedAt: Date;
  /** Decompressed body size in bytes. */
  byteCount: number;
  /** Hex SHA-256 of the decompressed body. */
  bodySha256: string;
  /** MIME essence of Content-Type, lower-cased ('' when absent). */
  contentType: string;
  /** WHATWG encoding name used to decode the body, e.g. "UTF-8", "windows-1252", "Shift_JIS". */
  charset: string;
  html: string;
}

export async function crawl(
  fetcher: Pick<SafeFetcher, 'request'>,
  url: URL,
  limits: Partial<CrawlLimits> = {},
): Promise<CrawledPage> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_CRAWL_LIMITS.timeoutMs;
  const res = await fetcher.request(url, {
    method: 'GET',
    headers: { 'user-agent': CRAWL_USER_AGENT, accept: ACCEPT },
    maxRedirects: limits.maxRedirects ?? DEFAULT_CRAWL_LIMITS.maxRedirects,
    timeoutMs,
    headersTimeoutMs: limits.headersTimeoutMs ?? timeoutMs,
    maxBytes: limits.maxBytes ?? DEFAULT_CRAWL_LIMITS.maxBytes,
    failOnHttpError: true,
  });
  const fetchedAt = new Date();
  const origin = res.finalUrl.origin;
  if (res.status < 200 || res.status > 299) {
    // 4xx/5xx already threw; what is left (300, 304, …) has no page to audit either.
    throw new OutboundError('http-status', `${origin} answered ${res.status}`, { status: res.status });
  }

  const rawType = headerValue(res.headers['content-type']) ?? '';
  const { essence, charsetLabel } = parseContentType(rawType);
  const declaredHtml = essence === 'text/html' || essence === 'application/xhtml+xml';
  if (!declaredHtml && !(SNIFFABLE_TYPES.has(essence) && looksLikeHtml(res.body))) {
    throw new OutboundError('not-html', `${origin} served ${essence === '' ? 'no Content-Type' : essence.slice(0, 100)}, not HTML`);
  }

  const charset = chooseEncoding(res.body, charsetLabel, essence === 'application/xhtml+xml');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (name !== 'set-cookie') headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const setCookies = res.headers['set-cookie'];

  return {
    requestedUrl: url.href,
    finalUrl: res.finalUrl.href,
    status: res.status,
    redirectChain: res.hops.map((h) => ({ url: h.url, status: h.status, setCookies: [...h.setCookies] })),
    finalSetCookies: setCookies === undefined ? [] : Array.isArray(setCookies) ? [...setCookies] : [setCookies],
    headers,
    fetchedAt,
    byteCount: res.body.length,
    bodySha256: createHash('sha256').update(res.body).digest('hex'),
    contentType: essence,
    charset,
    html: decode(res.body, charset),
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function parseContentType(value: string): { essence: string; charsetLabel: string | undefined } {
  const [type = '', ...params] = value.split(';');
  let charsetLabel: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charsetLabel = param.slice(eq + 1).trim().replace(/^"(.*)"$/s, '$1');
    break;
  }
  return { essence: type.trim().toLowerCase(), charsetLabel: charsetLabel || undefined };
}

// Types servers use when they do not know better; for these we look at the bytes, as browsers do.
const SNIFFABLE_TYPES = new Set(['', 'text/plain', 'application/octet-stream', 'unknown/unknown', 'application/unknown', '*/*']);

// WHATWG MIME Sniffing §7.1 "identifying a resource with an unknown MIME type", HTML patterns.
const HTML_SIGNATURES = ['<!doctype html', '<html', '<head', '<script', '<iframe', '<h1', '<div', '<font', '<table', '<a', '<style', '<title', '<b', '<body', '<br', '<p', '<!--'];

export function looksLikeHtml(bytes: Uint8Array): boolean {
  const headBytes = bytes.subarray(0, 512);
  let text: string;
  if (headBytes[0] === 0xfe && headBytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(headBytes);
  else if (headBytes[0] === 0xff && headBytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(headBytes);
  else text = new TextDecoder('utf-8').decode(headBytes); // strips a UTF-8 BOM; ASCII is all we compare
  const start = text.replace(/^[\uFEFF\t\n\f\r ]+/, '').slice(0, 20).toLowerCase();
  return HTML_SIGNATURES.some((sig) => {
    if (!start.startsWith(sig)) return false;
    const after = start.charAt(sig.length);
    // The spec accepts only space or ">" after the tag; any whitespace is a harmless widening.
    return after === '>' || /^[\t\n\f\r ]$/.test(after) || (sig === '<!--' && after !== '');
  });
}

/**
 * BOM, then the Content-Type charset, then the `<meta>` prescan (html-encoding-sniffer implements the
 * HTML spec algorithm for all three). With no declaration at all we deviate from the spec's
 * windows-1252 default in one case: a body that is valid UTF-8 and not plain ASCII is decoded as
 * UTF-8. Modern undeclared pages are overwhelmingly UTF-8, Chrome's detector reaches the same
 * answer, and windows-1252 text with accents is practically never valid UTF-8, so this only fixes
 * mojibake. Pure ASCII reports the spec default (both decode it identically).
 */
export function chooseEncoding(bytes: Uint8Array, transportLabel: string | undefined, xml: boolean): string {
  const sniffed = sniffHtmlEncoding(bytes, {
    xml,
    ...(transportLabel ? { transportLayerEncodingLabel: transportLabel } : {}),
    defaultEncoding: '', // sentinel: "nothing declared"
  });
  if (sniffed !== '') return sniffed;
  if (xml) return 'UTF-8';
  return !isAscii(bytes) && isUtf8(bytes) ? 'UTF-8' : 'windows-1252';
}

export function decode(bytes: Uint8Array, encoding: string): string {
  // The Encoding Standard's "replacement" decoder (ISO-2022-KR and friends) yields one U+FFFD;
  // TextDecoder refuses to construct it.
  if (encoding === 'replacement') return bytes.length === 0 ? '' : '\uFFFD';
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    // Only reachable on a Node built without full ICU; windows-1252 is the spec's last resort.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
