// The check client's targets: urls files, URL checks, sitemap XML, and sitemaps fetched from a
// loopback server (indexes followed, gzip, bounds on size, time, files and depth), deduplication
// and --max-pages.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { UsageError } from '../../packages/check/src/args.ts';
import { main } from '../../packages/check/src/cli.ts';
import type { RunIO, RunOptions, RunResult } from '../../packages/check/src/model.ts';
import { pageUrl, parseSitemap, parseUrlsFile, resolveTargets, SitemapUnreachable, sitemapPages, xmlText } from '../../packages/check/src/targets.ts';
import { startHttpFixture } from '../support/https-fixture.ts';
import type { Fixture, FixtureHandler } from '../support/https-fixture.ts';
import { auditedPage, runOf } from './support-hand-made.ts';

const urlsFiles: [name: string, text: string, expected: string[] | RegExp][] = [
  ['one per line, trimmed, normalised', '  https://a.test  \nhttps://b.test/x?y=1\n', ['https://a.test/', 'https://b.test/x?y=1']],
  ['comments and blank lines skipped, CRLF and a BOM', '\uFEFF# pages\r\n\r\n   # indented comment\r\nhttps://a.test/\r\n\t\r\n', ['https://a.test/']],
  ['a fragment is kept (only full-line # is a comment)', 'https://a.test/#main\n', ['https://a.test/#main']],
  ['empty file', '', []],
  ['the bad line is named by number', '# x\nhttps://a.test/\n\nhttp://b.test/\n', /^urls\.txt line 4: "http:\/\/b\.test\/" is not https/],
  ['not a URL', 'a.test/page\n', /^urls\.txt line 1: "a\.test\/page" is not an absolute URL/],
];
for (const [name, text, expected] of urlsFiles) {
  test(`parseUrlsFile: ${name}`, () => {
    if (expected instanceof RegExp) assert.throws(() => parseUrlsFile(text, 'urls.txt'), (e: unknown) => e instanceof UsageError && expected.test(e.message));
    else assert.deepEqual(parseUrlsFile(text, 'urls.txt'), expected);
  });
}

test('pageUrl: https only, no user-info, at most 2048 characters, normalised', () => {
  assert.equal(pageUrl('https://A.test', 'x'), 'https://a.test/');
  assert.equal(pageUrl('https://a.test/ä b', 'x'), 'https://a.test/%C3%A4%20b');
  for (const bad of ['ftp://a.test/', 'https://user@a.test/', 'file:///etc/passwd', 'https://', `https://a.test/${'y'.repeat(2040)}`]) {
    assert.throws(() => pageUrl(bad, 'x'), UsageError, bad);
  }
});

const texts: [name: string, content: string, text: string][] = [
  ['plain, trimmed', '\n  https://a.test/  \n', 'https://a.test/'],
  ['the five XML entities', 'https://a.test/?a=1&amp;b=&lt;&gt;&quot;&apos;', 'https://a.test/?a=1&b=<>"\''],
  ['character references, decimal and hex', '&#104;ttps://a.test/&#x2F;x', 'https://a.test//x'],
  ['CDATA as it is, no entity decoding inside', '<![CDATA[https://a.test/?a=1&amp;b]]>', 'https://a.test/?a=1&amp;b'],
  ['CDATA and text mixed', ' <![CDATA[https://a.test/]]>x&amp;y ', 'https://a.test/x&y'],
  ['an unknown or invalid reference stays as written', '&nbsp;&#0;&#x110000;', '&nbsp;&#0;&#x110000;'],
];
for (const [name, content, text] of texts) {
  test(`xmlText: ${name}`, () => assert.equal(xmlText(content), text));
}

const sitemaps: [name: string, xml: string, expected: { kind: string; locs: string[] } | RegExp][] = [
  [
    'a urlset, with prolog, comments, attributes and image extensions',
    `<?xml version="1.0" encoding="UTF-8"?>
<!-- <url><loc>https://commented.test/</loc></url> -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://a.test/</loc><lastmod>2024-01-01</lastmod></url>
  <url>
    <image:image><image:loc>https://a.test/logo.png</image:loc></image:image>
    <loc> https://a.test/?x=1&amp;y=2 </loc>
  </url>
  <url id="3"><loc><![CDATA[https://a.test/cdata]]></loc></url>
</urlset>`,
    { kind: 'urlset', locs: ['https://a.test/', 'https://a.test/?x=1&y=2', 'https://a.test/cdata'] },
  ],
  [
    'a sitemap index',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/s1.xml</loc></sitemap><sitemap><loc>https://a.test/s2.xml</loc><lastmod>x</lastmod></sitemap></sitemapindex>',
    { kind: 'sitemapindex', locs: ['https://a.test/s1.xml', 'https://a.test/s2.xml'] },
  ],
  [
    'a namespace prefix',
    '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.test/</sm:loc></sm:url></sm:urlset>',
    { kind: 'urlset', locs: ['https://a.test/'] },
  ],
  ['an empty urlset', '<urlset/>', { kind: 'urlset', locs: [] }],
  ['HTML is not a sitemap', '<!doctype html><html><body>404</body></html>', /is not a sitemap: expected <urlset> or <sitemapindex>, found <html>/],
  ['nothing at all', 'garbage', /is not a sitemap/],
  ['an entry without <loc>', '<urlset><url><loc>https://a.test/</loc></url><url><lastmod>x</lastmod></url></urlset>', /entry 2: no <loc>/],
];
for (const [name, xml, expected] of sitemaps) {
  test(`parseSitemap: ${name}`, () => {
    if (expected instanceof RegExp) assert.throws(() => parseSitemap(xml, 'sitemap S'), (e: unknown) => e instanceof UsageError && expected.test(e.message));
    else assert.deepEqual(parseSitemap(xml, 'sitemap S'), expected);
  });
}

const urlset = (...urls: string[]) => `<urlset>${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const index = (...urls: string[]) => `<sitemapindex>${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;
const xml = (body: string | Buffer): FixtureHandler => (_req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body);

async function server(t: { after(fn: () => unknown): void }, routes: (base: string) => Record<string, FixtureHandler>): Promise<Fixture> {
  const handlers: Record<string, FixtureHandler> = {};
  const fx = await startHttpFixture(handlers);
  Object.assign(handlers, routes(fx.url('127.0.0.1', '')));
  t.after(() => fx.close());
  return fx;
}

test('sitemapPages: an index followed (plain and gzip sitemaps), each sitemap file once, pages in order', async (t) => {
  const fx = await server(t, (base) => ({
    '/sitemap.xml': xml(index(`${base}/a.xml`, `${base}/b.xml.gz`, `${base}/a.xml`, `${base}/nested.xml`)),
    '/a.xml': xml(urlset('https://site.test/1', 'https://site.test/2')),
    '/b.xml.gz': xml(gzipSync(urlset('https://site.test/3'))),
    '/nested.xml': xml(index(`${base}/sitemap.xml`, `${base}/c.xml`)),
    '/c.xml': xml(urlset('https://site.test/2', 'https://site.test/4')),
  }));
  const progress: string[] = [];
  const pages = await sitemapPages(fx.url('127.0.0.1', '/sitemap.xml'), { stderr: { write: (s: string) => progress.push(s) } });
  assert.deepEqual(pages, ['https://site.test/1', 'https://site.test/2', 'https://site.test/3', 'https://site.test/2', 'https://site.test/4']);
  assert.deepEqual(fx.requests.map((r) => r.path), ['/sitemap.xml', '/a.xml', '/b.xml.gz', '/nested.xml', '/c.xml']);
  assert.equal(progress.length, 5);
});

const bounds: [name: string, routes: (base: string) => Record<string, FixtureHandler>, limits: Record<string, number>, error: typeof UsageError | typeof SitemapUnreachable, message: RegExp][] = [
  ['an HTTP error status is unreachable (exit 3)', () => ({}), {}, SitemapUnreachable, /sitemap http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml answered HTTP 404/],
  [
    'no answer within the timeout is unreachable',
    () => ({ '/sitemap.xml': () => new Promise(() => {}) }),
    { timeoutMs: 300 },
    SitemapUnreachable,
    /could not be fetched: no complete answer within 0\.3 s/,
  ],
  [
    'a body that never ends within the timeout',
    () => ({ '/sitemap.xml': (_req, res) => void res.writeHead(200).write('<urlset>') }),
    { timeoutMs: 300 },
    SitemapUnreachable,
    /no complete answer within 0\.3 s/,
  ],
  ['over the size bound, declared', () => ({ '/sitemap.xml': xml(urlset('https://site.test/'.repeat(10))) }), { maxBytes: 100 }, UsageError, /is larger than 100 bytes/],
  [
    'over the size bound, streamed without a length',
    () => ({ '/sitemap.xml': (_req, res) => res.writeHead(200).end(Buffer.alloc(5000, 'a')) }),
    { maxBytes: 1000 },
    UsageError,
    /is larger than 1000 bytes/,
  ],
  ['over the size bound after gzip', () => ({ '/sitemap.xml': xml(gzipSync(Buffer.alloc(50_000, ' '))) }), { maxBytes: 10_000 }, UsageError, /is larger than 10000 bytes/],
  [
    'more sitemap files than the bound',
    (base) => ({ '/sitemap.xml': xml(index(...[1, 2, 3].map((n) => `${base}/s${n}.xml`))), '/s1.xml': xml(urlset()), '/s2.xml': xml(urlset()), '/s3.xml': xml(urlset()) }),
    { maxFiles: 3 },
    UsageError,
    /leads to more than 3 sitemap files/,
  ],
  [
    'indexes nested deeper than the bound',
    (base) => ({ '/sitemap.xml': xml(index(`${base}/i1.xml`)), '/i1.xml': xml(index(`${base}/i2.xml`)), '/i2.xml': xml(urlset()) }),
    { maxDepth: 1 },
    UsageError,
    /i1\.xml: sitemap index files nested more than 1 deep/,
  ],
  ['a page that is not https names the sitemap and entry', () => ({ '/sitemap.xml': xml(urlset('https://site.test/', 'http://site.test/x')) }), {}, UsageError, /sitemap http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml entry 2: "http:\/\/site\.test\/x" is not https/],
  ['an index entry that is not http(s)', () => ({ '/sitemap.xml': xml(index('file:///etc/passwd')) }), {}, UsageError, /entry 1: "file:\/\/\/etc\/passwd" is not an http or https URL/],
];
for (const [name, routes, limits, error, message] of bounds) {
  test(`sitemapPages: ${name}`, async (t) => {
    const fx = await server(t, routes);
    await assert.rejects(sitemapPages(fx.url('127.0.0.1', '/sitemap.xml'), { limits }), (e: unknown) => e instanceof error && message.test((e as Error).message));
  });
}

test('sitemapPages: a server that is not there is unreachable, with the error code only', async (t) => {
  const fx = await server(t, () => ({}));
  const url = fx.url('127.0.0.1', '/sitemap.xml');
  await fx.close();
  await assert.rejects(sitemapPages(url), (e: unknown) => e instanceof SitemapUnreachable && /could not be fetched: ECONNREFUSED$/.test(e.message));
});

test('resolveTargets: arguments, then files, then sitemaps, each page once in first-seen order', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-targets-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'urls.txt'), 'https://site.test/2\nhttps://site.test/1\n');
  const fx = await server(t, () => ({ '/sitemap.xml': xml(urlset('https://site.test/3', 'https://site.test/2')) }));
  const pages = await resolveTargets({ urls: ['https://site.test/1'], urlsFiles: [join(dir, 'urls.txt')], sitemaps: [fx.url('127.0.0.1', '/sitemap.xml')], maxPages: 10 });
  assert.deepEqual(pages, ['https://site.test/1', 'https://site.test/2', 'https://site.test/3']);
});

test('resolveTargets: more pages than --max-pages is refused, counted after deduplication', async () => {
  const options = { urls: ['https://a.test/1', 'https://a.test/2', 'https://a.test/1'], urlsFiles: [], sitemaps: [] };
  assert.deepEqual(await resolveTargets({ ...options, maxPages: 2 }), ['https://a.test/1', 'https://a.test/2']);
  await assert.rejects(resolveTargets({ ...options, urls: [...options.urls, 'https://a.test/3'], maxPages: 2 }), /3 pages, more than --max-pages 2: raise --max-pages, or split/);
});

test('resolveTargets: a sitemap with no pages and nothing else is "no targets"', async (t) => {
  const fx = await server(t, () => ({ '/sitemap.xml': xml(urlset()) }));
  await assert.rejects(resolveTargets({ urls: [], urlsFiles: [], sitemaps: [fx.url('127.0.0.1', '/sitemap.xml')], maxPages: 10 }), /no targets/);
});

async function runMain(argv: string[], run: (o: RunOptions) => Promise<RunResult>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { AUDIT_SERVER_URL: 'https://s.test', AUDIT_API_KEY: 'k' }, {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) > 0 } as unknown as RunIO['stderr'],
    run,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

test('main --sitemap: pages reach the run; an unreachable sitemap is exit 3; one over --max-pages exit 2', async (t) => {
  const fx = await server(t, () => ({ '/sitemap.xml': xml(urlset('https://site.test/a', 'https://site.test/b', 'https://site.test/c')) }));
  let urls: string[] = [];
  const ok = await runMain(['--sitemap', fx.url('127.0.0.1', '/sitemap.xml')], async (o) => {
    urls = o.urls;
    return runOf(o.urls.map((u) => auditedPage(u, 'wcag', [])));
  });
  assert.equal(ok.code, 0);
  assert.deepEqual(urls, ['https://site.test/a', 'https://site.test/b', 'https://site.test/c']);
  assert.match(ok.stderr, /check: reading sitemap http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml\n/);

  const over = await runMain(['--max-pages', '2', '--sitemap', fx.url('127.0.0.1', '/sitemap.xml')], async () => assert.fail('not run'));
  assert.equal(over.code, 2);
  assert.match(over.stderr, /more than --max-pages 2/);

  const gone = await runMain(['--sitemap', fx.url('127.0.0.1', '/missing.xml')], async () => assert.fail('not run'));
  assert.equal(gone.code, 3);
  assert.match(gone.stderr, /missing\.xml answered HTTP 404/);
});

test('main --sitemap: what a sitemap says is escaped on the terminal', async (t) => {
  const fx = await server(t, () => ({ '/sitemap.xml': xml(urlset('\u001b]0;pwned\u0007https://site.test/\u202e')) }));
  const out = await runMain(['--sitemap', fx.url('127.0.0.1', '/sitemap.xml')], async () => assert.fail('not run'));
  assert.equal(out.code, 2);
  assert.match(out.stderr, /entry 1: "\\x1b\]0;pwned\\x07https:\/\/site\.test\/\\u202e" is not an absolute URL/);
  assert.doesNotMatch(out.stderr, /[\u001b\u0007\u202e]/);
});
