// Fetch-level tests against real HTTPS servers on loopback. Host names are mapped with
// static-resolve (AUDIT_RESOLVE) or an injected resolver; nothing leaves 127.0.0.1/::1.

import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { createAddressPolicy, parseCidrList, parseStaticResolve } from '../../src/net/address-policy.ts';
import { createSafeFetcher, OutboundError } from '../../src/net/safe-fetch.ts';
import type { OutboundReason, Resolver, SafeFetcher, SafeRequest } from '../../src/net/safe-fetch.ts';
import { startConnectionCounter, startHttpFixture, startHttpsFixture } from '../support/https-fixture.ts';
import type { ConnectionCounter, Fixture } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';
import type { TestPki } from '../support/tls.ts';

const MiB = 1024 * 1024;
const HTML = '<!doctype html><title>ok</title><p>hello</p>';
const BOMB = Buffer.alloc(10 * MiB); // 10 MiB of zeros: ~10 KB gzipped, a few bytes as brotli
const GZIP_BOMB = zlib.gzipSync(BOMB);
const BR_BOMB = zlib.brotliCompressSync(BOMB, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });

const base: SafeRequest = { maxRedirects: 5, timeoutMs: 5000, maxBytes: 2 * MiB };

let pki: TestPki;
let fx: Fixture;
let plain: Fixture;
const fetchers: SafeFetcher[] = [];
const trickles = new Set<NodeJS.Timeout>();

function html(res: ServerResponse, body: string | Buffer = HTML, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
}

function redirect(res: ServerResponse, status: number, location: string, cookie?: string): void {
  res.writeHead(status, { location, ...(cookie ? { 'set-cookie': cookie } : {}) }).end();
}

interface FetcherOptions {
  allow?: string;
  resolve?: string;
  resolver?: Resolver;
  trustCa?: boolean;
}

/** Default: fixture.test → 127.0.0.1, loopback allowed, test CA trusted. */
function fetcher(options: FetcherOptions = {}): SafeFetcher {
  const f = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList(options.allow ?? '127.0.0.0/8')),
    staticResolve: parseStaticResolve(options.resolve ?? 'fixture.test=127.0.0.1'),
    ...(options.trustCa === false ? {} : { ca: [pki.caPem] }),
    // A resolver that is never expected to run: real DNS must not be touched by these tests.
    resolver: options.resolver ?? (async (host) => assert.fail(`unexpected DNS lookup for ${host}`)),
  });
  fetchers.push(f);
  return f;
}

async function rejectsWith(promise: Promise<unknown>, reason: OutboundReason, status?: number): Promise<OutboundError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof OutboundError, `expected OutboundError, got ${String(err)}`);
    assert.equal(err.reason, reason, err.message);
    if (status !== undefined) assert.equal(err.status, status);
    return err;
  }
  assert.fail(`expected rejection with ${reason}`);
}

before(async () => {
  pki = await makeTestPki(['fixture.test', 'rebind.test', 'dual.test', 'v6.test', 'mixed.test', '127.0.0.1', '::1']);
  plain = await startHttpFixture(() => undefined);
  fx = await startHttpsFixture(
    {
      '/ok': (_req, res) => html(res, HTML, { 'set-cookie': ['a=1; Secure', 'b=2'], 'x-multi': ['1', '2'] }),
      '/redirect': (req, res) => {
        const n = Number(new URL(req.url ?? '', 'https://x').searchParams.get('n'));
        if (n <= 0) return html(res);
        redirect(res, 302, `/redirect?n=${n - 1}`, `hop${n}=1`);
      },
      '/to': (req, res) => redirect(res, 302, new URL(req.url ?? '', 'https://x').searchParams.get('loc') ?? '/ok'),
      '/utf8-location': (_req, res) => redirect(res, 302, Buffer.from('/ok?q=café').toString('latin1')),
      '/no-location': (_req, res) => res.writeHead(302).end(),
      '/post': (req, res, rec) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body: rec.body, type: req.headers['content-type'] }));
      },
      '/303': (_req, res) => redirect(res, 303, '/post'),
      '/307': (_req, res) => redirect(res, 307, '/post'),
      '/404': (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('missing'),
      '/500': (_req, res) => res.writeHead(500).end('boom'),
      '/exact': (_req, res) => html(res, Buffer.alloc(2 * MiB, 'a')),
      '/big': (_req, res) => html(res, Buffer.alloc(2 * MiB + 1, 'a')),
      '/big-chunked': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(256 * 1024, 'a');
        for (let i = 0; i < 9; i++) res.write(chunk); // 2.25 MiB, no Content-Length
        res.end();
      },
      '/gzip-bomb': (_req, res) => html(res, GZIP_BOMB, { 'content-encoding': 'gzip' }),
      '/br-bomb': (_req, res) => html(res, BR_BOMB, { 'content-encoding': 'br' }),
      '/gzip': (_req, res) => html(res, zlib.gzipSync(HTML), { 'content-encoding': 'gzip' }),
      '/deflate': (_req, res) => html(res, zlib.deflateSync(HTML), { 'content-encoding': 'deflate' }),
      '/deflate-raw': (_req, res) => html(res, zlib.deflateRawSync(HTML), { 'content-encoding': 'deflate' }),
      '/br': (_req, res) => html(res, zlib.brotliCompressSync(HTML), { 'content-encoding': 'br' }),
      '/gzip-empty': (_req, res) => html(res, Buffer.alloc(0), { 'content-encoding': 'gzip' }),
      '/gzip-corrupt': (_req, res) => html(res, Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' }),
      '/zstd': (_req, res) => html(res, 'whatever', { 'content-encoding': 'zstd' }),
      '/hang': () => undefined, // never answers
      '/trickle': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const t = setInterval(() => res.write('a'), 20);
        trickles.add(t);
        res.on('close', () => clearInterval(t));
      },
    },
    pki,
  );
});

after(async () => {
  for (const t of trickles) clearInterval(t);
  await Promise.all(fetchers.map((f) => f.close()));
  await fx.close();
  await plain.close();
});

describe('safe fetch: success paths', () => {
  test('GET through static-resolve with the test CA', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/ok')), base);
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), HTML);
    assert.equal(res.finalUrl.href, fx.url('fixture.test', '/ok'));
    assert.deepEqual(res.headers['set-cookie'], ['a=1; Secure', 'b=2']);
    assert.deepEqual(res.hops, []);
    const sent = fx.requests.at(-1);
    assert.equal(sent?.headers.host, `fixture.test:${fx.port}`);
    assert.equal(sent?.headers['accept-encoding'], 'gzip, deflate, br');
  });

  test('allow-listed IP literal is fetched directly (IP SAN)', async () => {
    const res = await fetcher().request(new URL(fx.url('127.0.0.1', '/ok')), base);
    assert.equal(res.status, 200);
  });

  test('IPv6 fixture through a static mapping to ::1', async () => {
    const v6 = await startHttpsFixture({ '/ok': (_req, res) => html(res) }, pki, { listen: '::1' });
    try {
      const res = await fetcher({ allow: '::1/128', resolve: 'v6.test=::1' }).request(new URL(v6.url('v6.test', '/ok')), base);
      assert.equal(res.status, 200);
      assert.equal(v6.requests.length, 1);
    } finally {
      await v6.close();
    }
  });

  test('several pinned addresses: falls back from a dead ::1 to 127.0.0.1', async () => {
    const res = await fetcher({ allow: '127.0.0.0/8,::1/128', resolve: 'dual.test=::1,dual.test=127.0.0.1' }).request(
      new URL(fx.url('dual.test', '/ok')),
      base,
    );
    assert.equal(res.status, 200);
  });

  test('redirect chain of 5 is followed; each hop recorded with its Set-Cookie', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/redirect?n=5')), base);
    assert.equal(res.status, 200);
    assert.equal(res.hops.length, 5);
    assert.deepEqual(
      res.hops.map((h) => [new URL(h.url).search, h.status, h.setCookies]),
      [5, 4, 3, 2, 1].map((n) => [`?n=${n}`, 302, [`hop${n}=1`]]),
    );
    assert.equal(res.finalUrl.search, '?n=0');
  });

  test('a UTF-8 Location header is decoded as UTF-8', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/utf8-location')), base);
    assert.equal(res.finalUrl.search, '?q=caf%C3%A9');
  });

  test('POST with a JSON body', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/post')), {
      ...base,
      method: 'POST',
      maxRedirects: 0,
      headers: { 'content-type': 'application/json' },
      body: '{"ping":true}',
    });
    assert.deepEqual(JSON.parse(res.body.toString()), { method: 'POST', body: '{"ping":true}', type: 'application/json' });
  });

  test('303 after POST continues as GET without body; 307 keeps POST and body', async () => {
    const f = fetcher();
    const post = { ...base, method: 'POST' as const, headers: { 'content-type': 'text/plain' }, body: 'payload' };
    const r303 = JSON.parse((await f.request(new URL(fx.url('fixture.test', '/303')), post)).body.toString());
    assert.deepEqual(r303, { method: 'GET', body: '' });
    const r307 = JSON.parse((await f.request(new URL(fx.url('fixture.test', '/307')), post)).body.toString());
    assert.deepEqual(r307, { method: 'POST', body: 'payload', type: 'text/plain' });
  });

  test('failOnHttpError: false returns the 500 instead of throwing', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/500')), { ...base, failOnHttpError: false });
    assert.equal(res.status, 500);
    assert.equal(res.body.toString(), 'boom');
  });

  const decoded: [string, string][] = [
    ['/gzip', HTML],
    ['/deflate', HTML],
    ['/deflate-raw', HTML],
    ['/br', HTML],
    ['/gzip-empty', ''],
  ];
  for (const [path, expected] of decoded) {
    test(`content-encoding ${path.slice(1)} is decoded`, async () => {
      const res = await fetcher().request(new URL(fx.url('fixture.test', path)), base);
      assert.equal(res.body.toString(), expected);
    });
  }
});

describe('safe fetch: failures', () => {
  test('redirect chain of 6 is rejected after the 6th redirect response', async () => {
    const before = fx.requests.length;
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/redirect?n=6')), base), 'too-many-redirects');
    assert.equal(fx.requests.length - before, 6);
  });

  test('maxRedirects 0: a 3xx is a failure and is not followed', async () => {
    const before = fx.requests.length;
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/redirect?n=1')), { ...base, maxRedirects: 0 }), 'redirect', 302);
    assert.equal(fx.requests.length - before, 1);
  });

  test('redirect without Location', async () => {
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/no-location')), base), 'redirect', 302);
  });

  const httpErrors: [string, number][] = [
    ['/404', 404],
    ['/500', 500],
  ];
  for (const [path, status] of httpErrors) {
    test(`${status} → http-status`, async () => {
      await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', path)), base), 'http-status', status);
    });
  }

  test('error text carries neither request headers nor body nor path', async () => {
    const err = await rejectsWith(
      fetcher().request(new URL(fx.url('fixture.test', '/500?token=query-secret')), {
        ...base,
        method: 'POST',
        headers: { authorization: 'Bearer header-secret' },
        body: 'body-secret',
      }),
      'http-status',
    );
    for (const secret of ['header-secret', 'body-secret', 'query-secret']) {
      assert.ok(!err.message.includes(secret) && !err.detail.includes(secret), secret);
    }
  });

  const bodyCaps: [string, OutboundReason][] = [
    ['/big', 'too-large'],
    ['/big-chunked', 'too-large'],
    ['/gzip-bomb', 'too-large'],
    ['/br-bomb', 'too-large'],
    ['/gzip-corrupt', 'bad-encoding'],
    ['/zstd', 'bad-encoding'],
  ];
  for (const [path, reason] of bodyCaps) {
    test(`${path.slice(1)} → ${reason}`, async () => {
      await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', path)), base), reason);
    });
  }

  test('a body of exactly the cap is accepted', async () => {
    const res = await fetcher().request(new URL(fx.url('fixture.test', '/exact')), base);
    assert.equal(res.body.length, 2 * MiB);
  });

  test('the bomb cap counts decompressed bytes (small cap, small bomb)', async () => {
    assert.ok(GZIP_BOMB.length < 100_000 && BR_BOMB.length < 100_000, 'the wire bytes alone stay under the cap');
    const err = await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/gzip-bomb')), { ...base, maxBytes: 100_000 }), 'too-large');
    assert.match(err.detail, /100000 bytes/);
  });

  test('server that never sends headers → timeout (headers timeout)', async () => {
    const started = Date.now();
    const err = await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/hang')), { ...base, timeoutMs: 3000, headersTimeoutMs: 150 }), 'timeout');
    assert.match(err.detail, /headers/);
    assert.ok(Date.now() - started < 1000);
  });

  test('server that never sends headers → timeout (total deadline)', async () => {
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/hang')), { ...base, timeoutMs: 200 }), 'timeout');
  });

  test('server that trickles the body → timeout (total deadline)', async () => {
    const started = Date.now();
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/trickle')), { ...base, timeoutMs: 250 }), 'timeout');
    assert.ok(Date.now() - started < 1500);
  });

  // A resolution that outlasts the deadline is a resolution failure, as NXDOMAIN is: callers show both
  // alike (issue 17), while the detail still says which it was.
  test('DNS that never answers → dns, its detail saying the name did not resolve in time', async () => {
    const f = fetcher({ resolve: '', resolver: () => new Promise(() => undefined) });
    const err = await rejectsWith(f.request(new URL('https://slow.test/'), { ...base, timeoutMs: 150 }), 'dns');
    assert.match(err.detail, /^slow\.test did not resolve in time \(no complete response within 150 ms\)$/);
  });

  test('a caller abort while resolving stays aborted, not a DNS failure', async () => {
    const ac = new AbortController();
    const f = fetcher({ resolve: '', resolver: () => new Promise(() => undefined) });
    const p = f.request(new URL('https://slow.test/'), { ...base, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(p, 'aborted');
  });

  test('caller abort → aborted', async () => {
    const ac = new AbortController();
    const p = fetcher().request(new URL(fx.url('fixture.test', '/hang')), { ...base, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(p, 'aborted');
  });

  for (const [code, reason] of [
    ['ENOTFOUND', 'no-such-host'],
    ['ENODATA', 'no-such-host'],
    ['EAI_AGAIN', 'dns'],
    ['ESERVFAIL', 'dns'],
  ] as const) {
    test(`DNS failure ${code} → ${reason}`, async () => {
      const f = fetcher({
        resolve: '',
        resolver: async () => {
          throw Object.assign(new Error(`getaddrinfo ${code}`), { code });
        },
      });
      await rejectsWith(f.request(new URL('https://nowhere.test/'), base), reason);
    });
  }

  test('empty DNS answer → no-such-host', async () => {
    const err = await rejectsWith(fetcher({ resolve: '', resolver: async () => [] }).request(new URL('https://empty.test/'), base), 'no-such-host');
    assert.equal(err.redirects, 0);
  });

  test('closed port → connect', async () => {
    const counter = await startConnectionCounter();
    const port = counter.port;
    await counter.close();
    await rejectsWith(fetcher({ resolve: 'closed.test=127.0.0.1' }).request(new URL(`https://closed.test:${port}/`), base), 'connect');
  });

  test('certificate for another name → tls', async () => {
    await rejectsWith(fetcher({ resolve: 'other.test=127.0.0.1' }).request(new URL(fx.url('other.test', '/ok')), base), 'tls');
  });

  test('CA not trusted → tls', async () => {
    await rejectsWith(fetcher({ trustCa: false }).request(new URL(fx.url('fixture.test', '/ok')), base), 'tls');
  });

  test('invalid limits → invalid-request', async () => {
    await rejectsWith(fetcher().request(new URL(fx.url('fixture.test', '/ok')), { ...base, maxBytes: 0 }), 'invalid-request');
  });
});

describe('safe fetch: redirects are re-validated in full', () => {
  let tripwire: ConnectionCounter; // on 127.0.0.2, same port as the fixture

  before(async () => {
    tripwire = await startConnectionCounter('127.0.0.2', fx.port);
  });
  after(() => tripwire.close());

  // Loopback is allowed only as 127.0.0.1/32 here, so 127.0.0.2 plays "internal network".
  const targets: [string, () => string, OutboundReason][] = [
    ['blocked IP literal', () => `https://127.0.0.2:${fx.port}/ok`, 'blocked-address'],
    ['blocked IP literal, decimal', () => `https://2130706434:${fx.port}/ok`, 'blocked-address'],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data/', 'blocked-address'],
    ['IPv6 loopback', () => `https://[::1]:${fx.port}/ok`, 'blocked-address'],
    ['localhost', () => `https://localhost:${fx.port}/ok`, 'blocked-address'],
    ['*.internal', () => `https://db.internal:${fx.port}/ok`, 'blocked-address'],
    ['static-resolve name outside the allow-list', () => `https://inner.test:${fx.port}/ok`, 'blocked-address'],
    ['downgrade to http', () => plain.url('fixture.test', '/ok'), 'downgrade'],
    ['downgrade to http, IP literal', () => plain.url('127.0.0.1', '/ok'), 'downgrade'],
    ['ftp', () => 'ftp://fixture.test/ok', 'bad-url'],
    ['userinfo', () => `https://user:pw@fixture.test:${fx.port}/ok`, 'bad-url'],
  ];
  for (const [name, target, reason] of targets) {
    test(`redirect to ${name} → ${reason}, nothing reached`, async () => {
      const f = fetcher({ allow: '127.0.0.1/32', resolve: 'fixture.test=127.0.0.1,inner.test=127.0.0.2' });
      const plainBefore = plain.requests.length;
      const plainConnections = plain.connections;
      const location = encodeURIComponent(target());
      const err = await rejectsWith(f.request(new URL(fx.url('fixture.test', `/to?loc=${location}`)), base), reason);
      assert.equal(err.redirects, 1, 'the failure counts the redirect before it');
      assert.equal(tripwire.connections, 0);
      assert.equal(plain.requests.length, plainBefore);
      assert.equal(plain.connections, plainConnections);
    });
  }

  test('rebinding: the dial uses only the validated answer (no second lookup at connect time)', async () => {
    let calls = 0;
    const resolver: Resolver = async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    const f = fetcher({ allow: '127.0.0.0/8', resolve: '', resolver });
    const res = await f.request(new URL(fx.url('rebind.test', '/ok')), base);
    assert.equal(res.status, 200);
    assert.equal(calls, 1);
    assert.equal(tripwire.connections, 0);
  });

  test('rebinding across a redirect hop: the next answer is validated again and refused', async () => {
    let calls = 0;
    const resolver: Resolver = async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    const f = fetcher({ allow: '127.0.0.1/32', resolve: '', resolver });
    await rejectsWith(f.request(new URL(fx.url('rebind.test', '/redirect?n=1')), base), 'blocked-address');
    assert.equal(calls, 2);
    assert.equal(tripwire.connections, 0);
  });
});

describe('safe fetch: hostile targets never get a socket', () => {
  let v4: ConnectionCounter;
  let v6: ConnectionCounter;
  before(async () => {
    v4 = await startConnectionCounter('127.0.0.1');
    v6 = await startConnectionCounter('::1', v4.port);
  });
  after(async () => {
    await v4.close();
    await v6.close();
  });

  // [name, url (port filled in), fetcher options]
  const rows: [string, (port: number) => string, FetcherOptions][] = [
    ['loopback literal, no allow-list', (p) => `https://127.0.0.1:${p}/`, { allow: '' }],
    ['decimal loopback', (p) => `https://2130706433:${p}/`, { allow: '' }],
    ['octal loopback', (p) => `https://0177.0.0.1:${p}/`, { allow: '' }],
    ['IPv4-mapped loopback', (p) => `https://[::ffff:127.0.0.1]:${p}/`, { allow: '' }],
    ['IPv6 loopback', (p) => `https://[::1]:${p}/`, { allow: '127.0.0.0/8' }],
    ['localhost even with loopback allowed', (p) => `https://localhost:${p}/`, { allow: '127.0.0.0/8', resolve: 'localhost=127.0.0.1' }],
    ['single-label name even when mapped and allowed', (p) => `https://intranet:${p}/`, { allow: '127.0.0.0/8', resolve: 'intranet=127.0.0.1' }],
    ['static mapping outside the allow-list', (p) => `https://mapped.test:${p}/`, { allow: '', resolve: 'mapped.test=127.0.0.1' }],
    ['static mapping, allow-list covers another address', (p) => `https://mapped.test:${p}/`, { allow: '127.0.0.2/32', resolve: 'mapped.test=127.0.0.1' }],
    ['static mapping with one bad address among good ones', (p) => `https://mapped.test:${p}/`, { allow: '', resolve: 'mapped.test=93.184.215.14,mapped.test=127.0.0.1' }],
    ['DNS answer mixing public and private', (p) => `https://mixed.test:${p}/`, { allow: '', resolve: '', resolver: async () => ['93.184.215.14', '127.0.0.1'] }],
    ['DNS answer private first', (p) => `https://mixed.test:${p}/`, { allow: '', resolve: '', resolver: async () => ['::1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] }],
    ['DNS answer IPv4-mapped loopback', (p) => `https://mixed.test:${p}/`, { allow: '', resolve: '', resolver: async () => ['::ffff:127.0.0.1'] }],
    ['DNS answer that is not an address', (p) => `https://mixed.test:${p}/`, { allow: '', resolve: '', resolver: async () => ['0x7f.1'] }],
  ];
  for (const [name, url, options] of rows) {
    test(`${name} → blocked-address`, async () => {
      await rejectsWith(fetcher(options).request(new URL(url(v4.port)), base), 'blocked-address');
      assert.equal(v4.connections, 0);
      assert.equal(v6.connections, 0);
    });
  }
});
