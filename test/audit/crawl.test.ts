import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { chooseEncoding, crawl, CRAWL_USER_AGENT, looksLikeHtml, parseContentType } from '../../src/audit/crawl.ts';
import { createAddressPolicy, parseCidrList, parseStaticResolve } from '../../src/net/address-policy.ts';
import { createSafeFetcher, OutboundError } from '../../src/net/safe-fetch.ts';
import type { OutboundReason, SafeFetcher } from '../../src/net/safe-fetch.ts';
import { startHttpsFixture } from '../support/https-fixture.ts';
import type { Fixture } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const SHIFT_JIS_KONNICHIWA = Buffer.from('82b182f182c982bf82cd', 'hex'); // こんにちは
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// [path, content-type (undefined = header absent), body]
type Page = [string | undefined, Buffer];
const PAGES: Record<string, Page> = {
  '/utf8': ['text/html; charset=utf-8', utf8('<!doctype html><title>café</title>')],
  '/latin1-header': ['text/html; charset=iso-8859-1', latin1('<!doctype html><p>café</p>')],
  '/quoted-header': ['text/html; charset="windows-1252"', latin1('<!doctype html><p>café</p>')],
  '/bom-beats-header': ['text/html; charset=windows-1252', Buffer.concat([BOM, utf8('<!doctype html><p>café</p>')])],
  '/utf16le-bom': ['text/html', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<!doctype html><p>café</p>', 'utf16le')])],
  '/meta-sjis': ['text/html', Buffer.concat([latin1('<!doctype html><meta charset="shift_jis"><p>'), SHIFT_JIS_KONNICHIWA, latin1('</p>')])],
  '/meta-http-equiv': ['text/html', latin1('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><p>café</p>')],
  '/bogus-header-label': ['text/html; charset=bogus', utf8('<!doctype html><meta charset=utf-8><p>café</p>')],
  '/undeclared-utf8': ['text/html', utf8('<!doctype html><p>café</p>')],
  '/undeclared-latin1': ['text/html', latin1('<!doctype html><p>café</p>')],
  '/undeclared-ascii': ['text/html', latin1('<!doctype html><p>cafe</p>')],
  '/xhtml': ['application/xhtml+xml', utf8('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><p>café</p></html>')],
  '/upper-type': ['TEXT/HTML; Charset=UTF-8', utf8('<p>café</p>')],
  '/no-type-html': [undefined, utf8('\n  <!DOCTYPE html><p>café</p>')],
  '/plain-html': ['text/plain', utf8('<html><p>café</p></html>')],
  '/octet-html': ['application/octet-stream', Buffer.concat([BOM, utf8('<HEAD><title>x</title>')])],
  '/plain-text': ['text/plain', utf8('just some text')],
  '/png': ['image/png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
  '/json': ['application/json', utf8('{"html":"<html>"}')],
  '/no-type-binary': [undefined, Buffer.from([0, 1, 2, 3, 0xff])],
};

let fx: Fixture;
let fetcher: SafeFetcher;
const at = (path: string): URL => new URL(fx.url('fixture.test', path));

function serve(res: ServerResponse, [type, body]: Page, extra: Record<string, string | string[]> = {}): void {
  res.writeHead(200, { ...(type === undefined ? {} : { 'content-type': type }), ...extra }).end(body);
}

before(async () => {
  const pki = await makeTestPki(['fixture.test']);
  const routes: Record<string, (req: unknown, res: ServerResponse) => void> = {};
  for (const [path, page] of Object.entries(PAGES)) routes[path] = (_req, res) => serve(res, page);
  routes['/r1'] = (_req, res) => res.writeHead(301, { location: '/r2', 'set-cookie': 'first=1; Secure' }).end();
  routes['/r2'] = (_req, res) => res.writeHead(302, { location: '/final', 'set-cookie': ['second=2', 'third=3'] }).end();
  routes['/final'] = (_req, res) =>
    serve(res, ['text/html', utf8('<!doctype html><p>done</p>')], { 'set-cookie': 'final=4; HttpOnly', 'x-Frame-Options': 'DENY', vary: ['accept', 'accept-encoding'] });
  routes['/gzip'] = (_req, res) => serve(res, ['text/html; charset=utf-8', zlib.gzipSync(utf8('<!doctype html><p>café</p>'))], { 'content-encoding': 'gzip' });
  routes['/404'] = (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
  routes['/503'] = (_req, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<p>later</p>');
  routes['/300'] = (_req, res) => res.writeHead(300, { 'content-type': 'text/html' }).end('<p>choose</p>');
  routes['/big'] = (_req, res) => serve(res, ['text/html', Buffer.alloc(5000, 'a')]);
  fx = await startHttpsFixture(routes, pki);
  fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.1/32')),
    staticResolve: parseStaticResolve('fixture.test=127.0.0.1'),
    ca: [pki.caPem],
  });
});

after(async () => {
  await fetcher.close();
  await fx.close();
});

describe('crawl', () => {
  test('returns the page with metadata, hashes and decoded HTML', async () => {
    const page = await crawl(fetcher, at('/utf8'));
    const body = PAGES['/utf8']![1];
    assert.equal(page.requestedUrl, at('/utf8').href);
    assert.equal(page.finalUrl, at('/utf8').href);
    assert.equal(page.status, 200);
    assert.deepEqual(page.redirectChain, []);
    assert.deepEqual(page.finalSetCookies, []);
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.charset, 'UTF-8');
    assert.equal(page.html, '<!doctype html><title>café</title>');
    assert.equal(page.byteCount, body.length);
    assert.equal(page.bodySha256, createHash('sha256').update(body).digest('hex'));
    assert.ok(page.fetchedAt instanceof Date && Math.abs(page.fetchedAt.getTime() - Date.now()) < 5000);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  });

  test('sends the crawler User-Agent and Accept', async () => {
    await crawl(fetcher, at('/utf8'));
    const sent = fx.requests.at(-1);
    assert.equal(sent?.headers['user-agent'], CRAWL_USER_AGENT);
    assert.equal(sent?.headers.accept, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1');
  });

  test('records the redirect chain with every hop’s cookies', async () => {
    const page = await crawl(fetcher, at('/r1'));
    assert.equal(page.requestedUrl, at('/r1').href);
    assert.equal(page.finalUrl, at('/final').href);
    assert.deepEqual(page.redirectChain, [
      { url: at('/r1').href, status: 301, setCookies: ['first=1; Secure'] },
      { url: at('/r2').href, status: 302, setCookies: ['second=2', 'third=3'] },
    ]);
    assert.deepEqual(page.finalSetCookies, ['final=4; HttpOnly']);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers.vary, 'accept, accept-encoding');
    assert.equal(page.headers['set-cookie'], undefined);
  });

  test('byteCount and hash are of the decompressed body', async () => {
    const page = await crawl(fetcher, at('/gzip'));
    const body = utf8('<!doctype html><p>café</p>');
    assert.equal(page.byteCount, body.length);
    assert.equal(page.bodySha256, createHash('sha256').update(body).digest('hex'));
    assert.equal(page.html, body.toString());
  });

  // [path, expected charset, substring expected in html]
  const CHARSETS: [string, string, string][] = [
    ['/latin1-header', 'windows-1252', 'café'],
    ['/quoted-header', 'windows-1252', 'café'],
    ['/bom-beats-header', 'UTF-8', '<!doctype html><p>café'],
    ['/utf16le-bom', 'UTF-16LE', '<!doctype html><p>café'],
    ['/meta-sjis', 'Shift_JIS', 'こんにちは'],
    ['/meta-http-equiv', 'windows-1252', 'café'],
    ['/bogus-header-label', 'UTF-8', 'café'],
    ['/undeclared-utf8', 'UTF-8', 'café'],
    ['/undeclared-latin1', 'windows-1252', 'café'],
    ['/undeclared-ascii', 'windows-1252', 'cafe'],
    ['/xhtml', 'UTF-8', 'café'],
  ];
  for (const [path, charset, expected] of CHARSETS) {
    test(`charset ${path.slice(1)} → ${charset}`, async () => {
      const page = await crawl(fetcher, at(path));
      assert.equal(page.charset, charset);
      assert.ok(page.html.includes(expected), page.html);
      assert.ok(!page.html.startsWith('\uFEFF'), 'BOM is not part of the text');
    });
  }

  // [path, accepted?, reported contentType]
  const TYPES: [string, boolean, string][] = [
    ['/upper-type', true, 'text/html'],
    ['/xhtml', true, 'application/xhtml+xml'],
    ['/no-type-html', true, ''],
    ['/plain-html', true, 'text/plain'],
    ['/octet-html', true, 'application/octet-stream'],
    ['/plain-text', false, 'text/plain'],
    ['/png', false, 'image/png'],
    ['/json', false, 'application/json'],
    ['/no-type-binary', false, ''],
  ];
  for (const [path, accepted, type] of TYPES) {
    test(`content type ${path.slice(1)} → ${accepted ? 'html' : 'not-html'}`, async () => {
      if (accepted) {
        assert.equal((await crawl(fetcher, at(path))).contentType, type);
      } else {
        await assert.rejects(crawl(fetcher, at(path)), (err: unknown) => err instanceof OutboundError && err.reason === 'not-html');
      }
    });
  }

  const FAILURES: [string, OutboundReason, number | undefined, Parameters<typeof crawl>[2]][] = [
    ['/404', 'http-status', 404, undefined],
    ['/503', 'http-status', 503, undefined],
    ['/300', 'http-status', 300, undefined],
    ['/big', 'too-large', undefined, { maxBytes: 4096 }],
    ['/r1', 'too-many-redirects', undefined, { maxRedirects: 1 }],
  ];
  for (const [path, reason, status, limits] of FAILURES) {
    test(`${path.slice(1)}${limits ? ` with ${JSON.stringify(limits)}` : ''} → ${reason}`, async () => {
      await assert.rejects(crawl(fetcher, at(path), limits), (err: unknown) => {
        assert.ok(err instanceof OutboundError);
        assert.equal(err.reason, reason);
        assert.equal(err.status, status);
        return true;
      });
    });
  }

  test('a blocked target never reaches the fetch', async () => {
    const before = fx.requests.length;
    await assert.rejects(crawl(fetcher, new URL(`https://localhost:${fx.port}/utf8`)), (err: unknown) => err instanceof OutboundError && err.reason === 'blocked-address');
    assert.equal(fx.requests.length, before);
  });
});

describe('crawl helpers', () => {
  const CONTENT_TYPES: [string, string, string | undefined][] = [
    ['text/html', 'text/html', undefined],
    ['Text/HTML ; Charset = "UTF-8"', 'text/html', 'UTF-8'],
    ['text/html; foo=bar; charset=iso-8859-1', 'text/html', 'iso-8859-1'],
    ['text/html; charset=', 'text/html', undefined],
    ['', '', undefined],
  ];
  for (const [input, essence, label] of CONTENT_TYPES) {
    test(`parseContentType(${JSON.stringify(input)})`, () => {
      assert.deepEqual(parseContentType(input), { essence, charsetLabel: label });
    });
  }

  const SNIFF: [string, boolean][] = [
    ['<!DOCTYPE html>', true],
    ['  \r\n\t<html lang="en">', true],
    ['<HEAD>', true],
    ['<body>', true],
    ['<p>', true],
    ['<!-- comment -->', true],
    ['\uFEFF<html>', true],
    ['<htmlx>', false],
    ['<?xml version="1.0"?>', false],
    ['hello <html>', false],
    ['', false],
  ];
  for (const [input, expected] of SNIFF) {
    test(`looksLikeHtml(${JSON.stringify(input)}) → ${expected}`, () => {
      assert.equal(looksLikeHtml(utf8(input)), expected);
    });
  }

  test('chooseEncoding: header label beats meta, BOM beats header', () => {
    const meta = latin1('<meta charset="windows-1252">');
    assert.equal(chooseEncoding(meta, 'utf-8', false), 'UTF-8');
    assert.equal(chooseEncoding(Buffer.concat([BOM, meta]), 'iso-8859-1', false), 'UTF-8');
    assert.equal(chooseEncoding(meta, undefined, false), 'windows-1252');
    assert.equal(chooseEncoding(latin1('<meta charset="iso-2022-kr">'), undefined, false), 'replacement');
  });
});
