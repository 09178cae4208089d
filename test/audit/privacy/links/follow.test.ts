// followPolicyLink against a real HTTPS server on 127.0.0.1 (test CA, site.test → 127.0.0.1 by
// static resolve, loopback allow-listed). Nothing leaves the machine: the resolver fails the test
// if real DNS is ever asked. Each test counts the requests the server saw, and the calls made to
// the fetcher, so "one request per hop, nothing else" is asserted, not assumed.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { crawl } from '../../../../src/audit/crawl.ts';
import { buildPage } from '../../../../src/audit/page.ts';
import type { PolicyFollow, PrivacyPage } from '../../../../src/audit/privacy/context.ts';
import type { FollowFailure } from '../../../../src/audit/privacy/context.ts';
import { followPolicyLink, linkControls, selectPolicyLink, type OperatorLog, type PolicyFollowLimits } from '../../../../src/audit/privacy/links/index.ts';
import { createAddressPolicy, parseCidrList, parseStaticResolve } from '../../../../src/net/address-policy.ts';
import { createSafeFetcher, OutboundError, type OutboundReason, type SafeFetcher } from '../../../../src/net/safe-fetch.ts';
import { startConnectionCounter, startHttpsFixture, type Fixture } from '../../../support/https-fixture.ts';
import { makeTestPki, type TestPki } from '../../../support/tls.ts';
import { assertEvidenceShape } from './support.ts';

const LIMITS: PolicyFollowLimits = { timeoutMs: 5000, maxBytes: 64 * 1024, maxRedirects: 5 };
const POLICY_HTML = '<!doctype html><html lang="en"><head><title>Privacy Policy</title></head><body><h1>Privacy Policy</h1><p>We collect your email address to send you orders.</p></body></html>';

let pki: TestPki;
let fx: Fixture;
let fetcher: SafeFetcher;
/** The fetcher as the follow sees it, counting calls. */
let calls = 0;
const counted: Pick<SafeFetcher, 'request'> = {
  request: (url, req) => {
    calls++;
    return fetcher.request(url, req);
  },
};

/** What the follow logged for the operator, every call. */
const logged: Record<string, unknown>[] = [];
const log: OperatorLog = { info: (detail: object) => void logged.push(detail as Record<string, unknown>) };

function send(res: ServerResponse, type: string | undefined, body: string | Buffer, status = 200, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...(type === undefined ? {} : { 'content-type': type }), ...extra }).end(body);
}

const routes: Record<string, (req: unknown, res: ServerResponse) => void> = {
  '/privacy-policy': (_req, res) => send(res, 'text/html; charset=utf-8', POLICY_HTML),
  '/gzip-policy': (_req, res) => send(res, 'text/html; charset=utf-8', zlib.gzipSync(POLICY_HTML), 200, { 'content-encoding': 'gzip' }),
  '/latin1-policy': (_req, res) => send(res, 'text/html; charset=iso-8859-1', Buffer.from('<p>Données personnelles</p>', 'latin1')),
  '/moved': (_req, res) => res.writeHead(301, { location: '/privacy-policy' }).end(),
  '/404': (_req, res) => send(res, 'text/html', '<p>Not found</p>', 404),
  '/500': (_req, res) => send(res, 'text/html', '<p>Oops</p>', 500),
  '/empty': (_req, res) => send(res, 'text/html', ''),
  '/spa-shell': (_req, res) => send(res, 'text/html', '<!doctype html><html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>'),
  '/whitespace': (_req, res) => send(res, 'text/html; charset=utf-8', ' \n\t \r\n  '),
  '/empty-body-html': (_req, res) =>
    send(res, 'text/html', '<!doctype html><html><head><title>Privacy</title></head><body>  <div hidden>Privacy text</div> <template><p>Privacy</p></template> </body></html>'),
  '/no-content': (_req, res) => res.writeHead(204).end(),
  '/plain': (_req, res) => send(res, 'text/plain; charset=utf-8', 'Privacy notice: we keep server logs for 30 days.'),
  '/plain-blank': (_req, res) => send(res, 'text/plain', '   \n'),
  '/untyped-html': (_req, res) => send(res, undefined, '<!doctype html><p>Privacy notice</p>'),
  '/pdf': (_req, res) => send(res, 'application/pdf', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1')),
  '/pdf-empty': (_req, res) => send(res, 'application/pdf', ''),
  '/redirect-metadata': (_req, res) => res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end(),
  '/redirect-localhost': (_req, res) => res.writeHead(302, { location: 'https://localhost/privacy' }).end(),
  '/redirect-http': (_req, res) => res.writeHead(302, { location: `http://site.test:${fx.port}/privacy-policy` }).end(),
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
  '/too-big': (_req, res) => send(res, 'text/html', `<p>${'a'.repeat(LIMITS.maxBytes + 10)}</p>`),
  '/hang': () => undefined, // never answers
};

before(async () => {
  pki = await makeTestPki(['site.test']);
  fx = await startHttpsFixture(routes, pki);
  fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.0/8')),
    staticResolve: parseStaticResolve('site.test=127.0.0.1,closed.test=127.0.0.3'),
    ca: [pki.caPem],
    resolver: async (host) => assert.fail(`unexpected DNS lookup for ${host}`),
  });
});

/** A port nothing listens on, reached as closed.test: on 127.0.0.3, where no test listens, so no concurrent suite can reopen it. */
async function closedPort(): Promise<number> {
  const counter = await startConnectionCounter('127.0.0.3');
  await counter.close();
  return counter.port;
}

after(async () => {
  await fetcher.close();
  await fx.close();
});

/** Follows `path` on the fixture and returns the result plus the requests, fetcher calls and log lines it caused. */
async function follow(
  path: string,
  limits: PolicyFollowLimits = LIMITS,
): Promise<{ result: PolicyFollow; requests: string[]; calls: number; lines: Record<string, unknown>[] }> {
  const seen = fx.requests.length;
  const before = calls;
  const lines = logged.length;
  const result = await followPolicyLink(counted, { href: fx.url('site.test', path) }, limits, { log });
  return { result, requests: fx.requests.slice(seen).map((r) => r.path), calls: calls - before, lines: logged.slice(lines) };
}

function assertUnreachable(result: PolicyFollow, failure: FollowFailure, status?: number): void {
  assert.equal(result.outcome, 'unreachable', JSON.stringify(result));
  if (result.outcome !== 'unreachable') return;
  assert.equal(result.failure, failure);
  assert.equal(result.status, status);
}

describe('followPolicyLink: reachable', () => {
  test('a 2xx HTML page with visible text is reachable, with its visible-text length', async () => {
    const { result, requests, calls } = await follow('/privacy-policy');
    const expected = buildPage(POLICY_HTML, 'https://site.test/').text.length;
    assert.deepEqual(result, { outcome: 'reachable', finalUrl: fx.url('site.test', '/privacy-policy'), status: 200, textLength: expected });
    assert.deepEqual(requests, ['/privacy-policy']);
    assert.equal(calls, 1);
  });

  test('a redirect is followed (one request per hop) and the final URL is reported', async () => {
    const { result, requests, calls } = await follow('/moved');
    assert.equal(result.outcome, 'reachable');
    assert.equal(result.outcome === 'reachable' && result.finalUrl, fx.url('site.test', '/privacy-policy'));
    assert.deepEqual(requests, ['/moved', '/privacy-policy']);
    assert.equal(calls, 1);
  });

  test('compressed and non-UTF-8 bodies are decoded like the crawl', async () => {
    assert.equal((await follow('/gzip-policy')).result.outcome, 'reachable');
    const latin1 = (await follow('/latin1-policy')).result;
    assert.equal(latin1.outcome === 'reachable' && latin1.textLength, 'Données personnelles'.length);
  });

  test('text/plain with text, untyped HTML and a non-empty PDF are reachable', async () => {
    const plain = (await follow('/plain')).result;
    assert.equal(plain.outcome === 'reachable' && plain.textLength, 'Privacy notice: we keep server logs for 30 days.'.length);
    assert.equal((await follow('/untyped-html')).result.outcome, 'reachable');
    const pdf = (await follow('/pdf')).result;
    assert.equal(pdf.outcome, 'reachable');
    assert.ok(pdf.outcome === 'reachable' && pdf.textLength > 0);
  });
});

describe('followPolicyLink: empty', () => {
  for (const path of ['/empty', '/whitespace', '/empty-body-html', '/no-content', '/plain-blank', '/pdf-empty']) {
    test(`${path} is a 2xx without text: empty`, async () => {
      const { result, requests } = await follow(path);
      assert.equal(result.outcome, 'empty', JSON.stringify(result));
      assert.equal(result.outcome === 'empty' && result.finalUrl, fx.url('site.test', path));
      assert.equal(result.outcome === 'empty' && result.scriptRendered, false);
      assert.deepEqual(requests, [path]);
    });
  }

  test('an HTML shell that only script would fill is empty but marked script-rendered', async () => {
    const { result } = await follow('/spa-shell');
    assert.equal(result.outcome, 'empty', JSON.stringify(result));
    assert.equal(result.outcome === 'empty' && result.scriptRendered, true);
  });
});

describe('followPolicyLink: unreachable (never throws)', () => {
  test('404 and 500 are unreachable with their status', async () => {
    const notFound = await follow('/404');
    assertUnreachable(notFound.result, 'http-status', 404);
    assert.deepEqual(notFound.requests, ['/404']);
    assertUnreachable((await follow('/500')).result, 'http-status', 500);
  });

  test('a redirect to the link-local metadata address is refused before any connection; the log has the detail', async () => {
    const { result, requests, calls, lines } = await follow('/redirect-metadata');
    assertUnreachable(result, 'redirect-to-blocked');
    assert.deepEqual(requests, ['/redirect-metadata']);
    assert.equal(calls, 1);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.reason, 'blocked-address');
    assert.equal(lines[0]?.redirects, 1);
    assert.match(String(lines[0]?.detail), /169\.254\.169\.254/);
    assert.doesNotMatch(String(lines[0]?.detail), /latest\/meta-data/, 'the log names no path');
  });

  test('a redirect to localhost is refused', async () => {
    const { result, requests } = await follow('/redirect-localhost');
    assertUnreachable(result, 'redirect-to-blocked');
    assert.deepEqual(requests, ['/redirect-localhost']);
  });

  test('a redirect to plain http is refused', async () => {
    const { result, requests } = await follow('/redirect-http');
    assertUnreachable(result, 'redirect-to-blocked');
    assert.deepEqual(requests, ['/redirect-http']);
  });

  test('redirects beyond maxRedirects are refused', async () => {
    const { result, requests } = await follow('/loop', { ...LIMITS, maxRedirects: 2 });
    assertUnreachable(result, 'too-many-redirects');
    assert.equal(requests.length, 3);
  });

  test('a server that never answers times out', async () => {
    const { result, requests } = await follow('/hang', { ...LIMITS, timeoutMs: 300 });
    assertUnreachable(result, 'timeout');
    assert.deepEqual(requests, ['/hang']);
  });

  test('a body over maxBytes is unreachable (too-large)', async () => {
    assertUnreachable((await follow('/too-big')).result, 'unreadable');
  });

  test('a closed port is a connection failure, logged with its error code', async () => {
    const port = await closedPort();
    const lines = logged.length;
    assertUnreachable(await followPolicyLink(counted, { href: `https://closed.test:${port}/privacy-policy` }, LIMITS, { log }), 'connection-failed');
    assert.match(String(logged[lines]?.detail), /ECONNREFUSED/);
  });

  test('an http:// policy link is requested as https only, and judged by that answer', async () => {
    const seen = fx.requests.length;
    const result = await followPolicyLink(counted, { href: `http://site.test:${fx.port}/privacy-policy` }, LIMITS, { log });
    assert.equal(result.outcome, 'reachable', JSON.stringify(result));
    assert.equal(result.outcome === 'reachable' && result.plainHttpLink, true);
    assert.equal(result.outcome === 'reachable' && result.finalUrl, fx.url('site.test', '/privacy-policy'));
    assert.deepEqual(fx.requests.slice(seen).map((r) => r.path), ['/privacy-policy'], 'one request, to the https server');
    assertUnreachable(await followPolicyLink(counted, { href: `http://site.test:${fx.port}/404` }, LIMITS, { log }), 'http-status', 404);
  });

  test('an http:// policy link whose https form cannot be connected to: connection-failed, marked plain http', async () => {
    const port = await closedPort();
    const result = await followPolicyLink(counted, { href: `http://closed.test:${port}/privacy` }, LIMITS, { log });
    assert.deepEqual(result, { outcome: 'unreachable', failure: 'connection-failed', plainHttpLink: true });
  });

  // Issue 17: the page author chooses the name, so a name that does not exist, one whose resolver
  // fails or does not answer in time, and one that resolves to a refused address are one kind, on
  // the link as after a redirect; passing network trouble once the name resolved is not (near misses).
  const reasons: [OutboundReason, FollowFailure, FollowFailure][] = [
    ['blocked-address', 'blocked-destination', 'redirect-to-blocked'],
    ['bad-url', 'blocked-destination', 'redirect-to-blocked'],
    ['no-such-host', 'blocked-destination', 'redirect-to-blocked'],
    ['dns', 'blocked-destination', 'redirect-to-blocked'],
    ['timeout', 'timeout', 'timeout'],
    ['connect', 'connection-failed', 'connection-failed'],
    ['tls', 'tls', 'tls'],
  ];
  for (const [reason, onLink, afterRedirect] of reasons) {
    test(`fetcher reason ${reason}: ${onLink} on the link, ${afterRedirect} after a redirect; the log keeps the reason`, async () => {
      for (const [redirects, failure] of [[0, onLink], [2, afterRedirect]] as const) {
        const failing: Pick<SafeFetcher, 'request'> = {
          request: async () => {
            throw Object.assign(new OutboundError(reason, `detail of ${reason}`), { redirects });
          },
        };
        const lines = logged.length;
        assertUnreachable(await followPolicyLink(failing, { href: 'https://chosen.test/privacy' }, LIMITS, { log }), failure);
        assert.equal(logged[lines]?.reason, reason);
      }
    });
  }

  test('a host that is not allow-listed is refused by the address policy', async () => {
    const strict = createSafeFetcher({
      policy: createAddressPolicy([]),
      staticResolve: parseStaticResolve('site.test=127.0.0.1'),
      ca: [pki.caPem],
      resolver: async (host) => assert.fail(`unexpected DNS lookup for ${host}`),
    });
    try {
      const seen = fx.requests.length;
      assertUnreachable(await followPolicyLink(strict, { href: fx.url('site.test', '/privacy-policy') }, LIMITS, { log }), 'blocked-destination');
      assert.equal(fx.requests.length, seen);
    } finally {
      await strict.close();
    }
  });
});

describe('page + policy: crawl, select, follow', () => {
  const PAGE = (policyHref: string) =>
    `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><p>Chairs and tables.</p></main><footer><a href="/terms">Terms</a> <a href="${policyHref}">Privacy Policy</a> <a href="/ccpa">Do Not Sell or Share My Personal Information</a></footer></body></html>`;

  async function scenario(policyHref: string, policyRoute: (req: unknown, res: ServerResponse) => void): Promise<{ fixture: Fixture; context: PrivacyPage }> {
    const fixture = await startHttpsFixture({ '/': (_req, res) => send(res, 'text/html; charset=utf-8', PAGE(policyHref)), '/privacy': policyRoute }, pki);
    const crawled = await crawl(fetcher, new URL(fixture.url('site.test', '/')));
    const page = buildPage(crawled.html, crawled.finalUrl);
    const link = selectPolicyLink(page);
    assert.ok(link !== undefined, 'the page links its policy');
    assert.equal(link.href, fixture.url('site.test', '/privacy'));
    const followed = await followPolicyLink(fetcher, link, LIMITS, { log });
    return { fixture, context: { page, responseCookies: [], policy: { link, follow: followed } } };
  }

  test('the server sees exactly the page and the one policy request; all three controls pass', async () => {
    const { fixture, context } = await scenario('/privacy', (_req, res) => send(res, 'text/html', POLICY_HTML));
    try {
      assert.equal(fixture.requests.length, 2);
      assert.deepEqual(fixture.requests.map((r) => `${r.method} ${r.path}`), ['GET /', 'GET /privacy']);
      for (const control of linkControls) {
        const outcome = control.evaluate(context);
        assertEvidenceShape(outcome, control.id);
        assert.equal(outcome.status, 'pass', `${control.id}: ${outcome.evidence}`);
      }
    } finally {
      await fixture.close();
    }
  });

  test('a 404 policy: exactly one request beyond the page, and reachable fails with URL and status', async () => {
    const { fixture, context } = await scenario('/privacy', (_req, res) => send(res, 'text/html', 'gone', 404));
    try {
      assert.equal(fixture.requests.length, 2);
      const outcome = linkControls[2]!.evaluate(context);
      assert.equal(outcome.status, 'fail');
      assert.ok(outcome.evidence.includes(fixture.url('site.test', '/privacy')), outcome.evidence);
      assert.ok(outcome.evidence.includes('404'), outcome.evidence);
      assertEvidenceShape(outcome, 'reachable');
    } finally {
      await fixture.close();
    }
  });
});

describe('followPolicyLink: a link back to the audited page', () => {
  test('href="#" or the page itself with a fragment is not requested: same-page', async () => {
    const pageUrl = new URL(fx.url('site.test', '/shop?x=1'));
    for (const href of [`${pageUrl.href}#`, `${pageUrl.href}#privacy`]) {
      const seen = fx.requests.length;
      assert.deepEqual(await followPolicyLink(counted, { href }, LIMITS, { log, pageUrl }), { outcome: 'same-page' });
      assert.equal(fx.requests.length, seen);
    }
    // Another path of the same site is followed as usual.
    const other = await followPolicyLink(counted, { href: fx.url('site.test', '/privacy-policy') }, LIMITS, { log, pageUrl });
    assert.equal(other.outcome, 'reachable');
  });
});
