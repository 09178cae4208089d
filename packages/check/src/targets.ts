// The pages to audit: URL arguments, then each --urls-file, then each --sitemap, deduplicated in
// that order. Every page must be an absolute https URL (what the service audits); a bad one is a
// usage error naming where it came from (the argument, the file and line, the sitemap and entry).
//
// Sitemaps are fetched by the client itself, with global fetch, over http or https (the user's own
// site, maybe on the CI's own network: the service's https-only rule is for pages, not for where
// their list comes from). Bounded: 30 s and 10 MB per file (after gzip, which is decoded when the
// body is gzip), index files followed to a depth of 3 with a visited set, at most 50 sitemap files
// in all. The XML is read without a parser: the `<loc>` of each `<url>` (a urlset) or `<sitemap>`
// (a sitemap index), entities and CDATA decoded. More pages than --max-pages refuses the run
// (exit 2): a gate that quietly audits a subset would pass pages it never saw.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { CliOptions } from './args.ts';
import { UsageError } from './args.ts';

/** A sitemap that could not be fetched (network, timeout, an HTTP error status): exit 3, not a usage mistake. */
export class SitemapUnreachable extends Error {
  override name = 'SitemapUnreachable';
}

export interface SitemapLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Sitemap files fetched in all, the one named included. */
  maxFiles: number;
  /** Index levels followed below the file named (1: an index's sitemaps, not theirs). */
  maxDepth: number;
}

export const SITEMAP_LIMITS: SitemapLimits = { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024, maxFiles: 50, maxDepth: 3 };

export interface TargetIO {
  fetch?: typeof fetch;
  stderr?: { write(text: string): unknown };
  limits?: Partial<SitemapLimits>;
}

const MAX_URL_LENGTH = 2048;

/** A text quoted in a message, cut so one huge line does not flood the terminal (the message is escaped where it is printed). */
function quoted(text: string): string {
  return `"${text.length > 200 ? `${text.slice(0, 199)}…` : text}"`;
}

/** A page URL as the service takes it (absolute https, no user-info, ≤ 2048 characters), normalised; else a UsageError naming `where`. */
export function pageUrl(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${where}: ${quoted(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`${where}: ${quoted(text)} is not https (the service audits https pages only)`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${where}: ${quoted(text)} carries a user name or password`);
  if (url.href.length > MAX_URL_LENGTH) throw new UsageError(`${where}: the URL is longer than ${MAX_URL_LENGTH} characters`);
  return url.href;
}

/** The URLs of a urls file's text: one per line, trimmed; blank lines and lines starting with `#` skipped. */
export function parseUrlsFile(text: string, file: string): string[] {
  const urls: string[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      urls.push(pageUrl(line, `${file} line ${index + 1}`));
    });
  return urls;
}

export async function readUrlsFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --urls-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseUrlsFile(text, file);
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (!name.startsWith('#')) return NAMED_ENTITIES[name]!;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** An element's text content as XML reads it: CDATA sections as they are, entities decoded elsewhere, trimmed. */
export function xmlText(content: string): string {
  let out = '';
  let last = 0;
  for (const match of content.matchAll(CDATA)) {
    out += decodeEntities(content.slice(last, match.index)) + match[1]!;
    last = match.index! + match[0].length;
  }
  out += decodeEntities(content.slice(last));
  return out.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}

export interface SitemapDocument {
  kind: 'urlset' | 'sitemapindex';
  /** Each entry's `<loc>`, decoded, in document order. */
  locs: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.\\^$*+?()[\]{}|-]/g, '\\$&');

/** The kind and `<loc>` values of a sitemap's XML; a UsageError when it is not one (`where` names it). */
export function parseSitemap(xml: string, where: string): SitemapDocument {
  // Comments, processing instructions and the doctype hold no entries (CDATA is kept: a <loc> may be one).
  const body = xml.replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '');
  const root = /<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)[\s/>]/.exec(body);
  if (root === null || (root[2] !== 'urlset' && root[2] !== 'sitemapindex')) {
    throw new UsageError(`${where} is not a sitemap: expected <urlset> or <sitemapindex>${root === null ? '' : `, found <${quoted(root[0].slice(1, -1)).slice(1, -1)}>`}`);
  }
  const kind = root[2];
  const prefix = root[1] === undefined ? '' : `${escapeRegExp(root[1])}:`;
  const entryName = `${prefix}${kind === 'urlset' ? 'url' : 'sitemap'}`;
  const entry = new RegExp(`<${entryName}(?:[\\s][^>]*)?>([\\s\\S]*?)</${entryName}\\s*>`, 'g');
  const loc = new RegExp(`<${prefix}loc(?:[\\s][^>]*)?>([\\s\\S]*?)</${prefix}loc\\s*>`);
  const locs: string[] = [];
  let n = 0;
  for (const match of body.matchAll(entry)) {
    n++;
    const found = loc.exec(match[1]!);
    const text = found === null ? '' : xmlText(found[1]!);
    if (text === '') throw new UsageError(`${where} entry ${n}: no <loc>`);
    locs.push(text);
  }
  return { kind, locs };
}

/** A sitemap's own URL (http or https). */
function sitemapUrl(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${where}: ${quoted(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${where}: ${quoted(text)} is not an http or https URL`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${where}: ${quoted(text)} carries a user name or password`);
  return url.href;
}

/** One sitemap file's text: within the time and size bounds, gzip decoded when the body is gzip. */
async function fetchSitemapText(url: string, doFetch: typeof fetch, limits: SitemapLimits): Promise<string> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new UsageError(`sitemap ${url} is larger than ${limits.maxBytes} bytes`);
  let bytes: Buffer;
  try {
    const response = await doFetch(url, { signal, headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new SitemapUnreachable(`sitemap ${url} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body !== null) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limits.maxBytes) {
          await reader.cancel().catch(() => {});
          throw tooLarge();
        }
        chunks.push(value);
      }
    }
    bytes = Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof UsageError || error instanceof SitemapUnreachable) throw error;
    const why = signal.aborted ? `no complete answer within ${limits.timeoutMs / 1000} s` : networkReason(error);
    throw new SitemapUnreachable(`sitemap ${url} could not be fetched: ${why}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: limits.maxBytes });
    } catch (error) {
      if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw new UsageError(`sitemap ${url} is not valid gzip`);
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** A network failure's code, without the detail (addresses, stack). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : 'network error';
}

/**
 * Every page a sitemap lists, following index files (depth and count bounded, each file once).
 * Stops reading further sitemap files once `enough` pages are known (the caller refuses past it).
 */
export async function sitemapPages(start: string, io: TargetIO = {}, enough = Number.POSITIVE_INFINITY): Promise<string[]> {
  const limits: SitemapLimits = { ...SITEMAP_LIMITS, ...io.limits };
  const doFetch = io.fetch ?? globalThis.fetch;
  const first = sitemapUrl(start, '--sitemap');
  const visited = new Set<string>([first]);
  const queue: { url: string; depth: number }[] = [{ url: first, depth: 0 }];
  const pages: string[] = [];
  let fetched = 0;
  while (queue.length > 0 && pages.length <= enough) {
    const { url, depth } = queue.shift()!;
    if (++fetched > limits.maxFiles) {
      throw new UsageError(`sitemap ${first} leads to more than ${limits.maxFiles} sitemap files; name the ones to check with --sitemap, or list the pages in --urls-file`);
    }
    io.stderr?.write(`check: reading sitemap ${url}\n`);
    const doc = parseSitemap(await fetchSitemapText(url, doFetch, limits), `sitemap ${url}`);
    if (doc.kind === 'urlset') {
      doc.locs.forEach((loc, i) => pages.push(pageUrl(loc, `sitemap ${url} entry ${i + 1}`)));
      continue;
    }
    if (depth >= limits.maxDepth) throw new UsageError(`sitemap ${url}: sitemap index files nested more than ${limits.maxDepth} deep`);
    doc.locs.forEach((loc, i) => {
      const child = sitemapUrl(loc, `sitemap ${url} entry ${i + 1}`);
      if (visited.has(child)) return;
      visited.add(child);
      queue.push({ url: child, depth: depth + 1 });
    });
  }
  return pages;
}

/** The pages of a run: arguments, files, sitemaps, in that order, each once; more than --max-pages is a UsageError. */
export async function resolveTargets(
  options: Pick<CliOptions, 'urls' | 'urlsFiles' | 'sitemaps' | 'maxPages'>,
  io: TargetIO = {},
): Promise<string[]> {
  const seen = new Set<string>();
  const add = (urls: string[]) => urls.forEach((url) => seen.add(url));
  options.urls.forEach((text, i) => seen.add(pageUrl(text, `argument ${i + 1}`)));
  for (const file of options.urlsFiles) add(await readUrlsFile(file));
  for (const sitemap of options.sitemaps) {
    if (seen.size > options.maxPages) break;
    add(await sitemapPages(sitemap, io, options.maxPages));
  }
  if (seen.size === 0) throw new UsageError('no targets: the URL arguments, --urls-file and --sitemap gave no pages');
  if (seen.size > options.maxPages) {
    const partial = options.sitemaps.length > 0 ? 'at least ' : '';
    throw new UsageError(`${partial}${seen.size} pages, more than --max-pages ${options.maxPages}: raise --max-pages, or split the pages over several runs`);
  }
  return [...seen];
}
