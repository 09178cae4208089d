// Issue 7, section 1: hostile privacy-policy links end to end through POST /api/v1/audit. The
// follow must not turn the service into a DNS resolver or port scanner: for each target (private
// names, a refused port, reset connections, bad certificates, redirects to blocked addresses, a
// timeout, a host that does not exist, http:// links) the test checks the outcome, and that neither
// the response body nor the stored audit carries an address, a range, an error code or TLS text,
// while the operator's log does.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { generate } from 'selfsigned';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startConnectionCounter, startHttpsFixture, type ConnectionCounter, type Fixture } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';

const CONTROL = 'privacy.privacy-policy-reachable';
const LOG_MESSAGE = 'privacy-policy link could not be followed';

const PAGE = (policyHref: string) =>
  `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><p>Chairs and tables, made to order.</p></main>
<footer><a href="${policyHref}">Privacy Policy</a></footer></body></html>`;
const POLICY = '<!doctype html><h1>Privacy Policy</h1><p>We process order data to deliver your goods.</p>';

const html = (res: ServerResponse, body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
const redirect = (location: () => string) => (_req: unknown, res: ServerResponse) => res.writeHead(302, { location: location() }).end();

let database: TestDatabase;
let service: TestService;
/**
 * A port nothing listens on: a listener opened and closed again on 127.0.0.3 (reached as
 * closed.test), where no other test listens, so a concurrent suite reusing the port number on
 * 127.0.0.1 cannot open it again.
 */
let closedPort: number;
/** Accepts TCP connections and drops them at once: a reset during the handshake. */
let resetter: ConnectionCounter;
/** An HTTPS server whose certificate no CA vouches for. */
let selfSigned: Fixture;

const origin = () => service.fixture.url('site.test', '').replace(/\/$/, '');

before(async () => {
  const probe = await startConnectionCounter('127.0.0.3');
  closedPort = probe.port;
  await probe.close();
  resetter = await startConnectionCounter();
  const own = await generate([{ name: 'commonName', value: 'self.test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'self.test' }] }],
  });
  selfSigned = await startHttpsFixture({ '/privacy': (_req, res) => html(res, POLICY) }, { caPem: '', certPem: own.cert, keyPem: own.private });

  database = await openTestDatabase();
  service = await startTestService({
    database,
    env: {
      AUDIT_RATE_LIMIT: '1000',
      AUDIT_RESOLVE: [
        'site.test=127.0.0.1',
        'other.test=127.0.0.1',
        'wrongname.test=127.0.0.1',
        'self.test=127.0.0.1',
        'closed.test=127.0.0.3',
        'intranet.test=10.20.30.40',
        'router.test=192.168.1.1',
        'ula.test=fd00::1',
      ].join(','),
    },
    // Nothing leaves the machine: any name not mapped above does not exist.
    resolver: async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    },
    routes: {
      '/page': (req, res) => html(res, PAGE(new URL(req.url ?? '', 'https://x').searchParams.get('policy') ?? '')),
      '/privacy': (_req, res) => html(res, POLICY),
      '/missing': (_req, res) => html(res, 'gone', 404),
      '/broken': (_req, res) => html(res, 'oops', 500),
      '/empty': (_req, res) => html(res, ''),
      '/shell': (_req, res) => html(res, '<!doctype html><html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>'),
      '/to-metadata': redirect(() => 'https://169.254.169.254/latest/meta-data/'),
      '/to-intranet': redirect(() => 'https://intranet.test/privacy'),
      '/to-localhost': redirect(() => 'https://localhost/privacy'),
      '/to-http': redirect(() => `http://site.test:${service.fixture.port}/privacy`),
      '/hang': () => undefined,
      '/reset': (req) => req.socket.destroy(),
    },
  });
});
after(async () => {
  await service.close();
  await selfSigned.close();
  await resetter.close();
  await database.close();
});

function audit(url: string) {
  return service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    payload: JSON.stringify({ branch: 'privacy', url }),
  });
}

/** What must never reach a client: each a name and a test over the whole text. */
const LEAKS: readonly [string, (text: string) => boolean][] = [
  ['an IPv4/IPv6 literal or CIDR', (text) => (text.match(/[0-9A-Fa-f:.]+(?:\/\d{1,3})?/g) ?? []).some((token) => isIP(token.split('/')[0]!.replace(/^\.+|\.+$/g, '')) !== 0)],
  ['an RFC or a range name', (text) => /\bRFC\b|private-use|loopback|link-local|unique-local|resolves to/i.test(text)],
  // EDPB (the European Data Protection Board) is named in a control's framework, and is no error code.
  ['a socket error code', (text) => /\bE(?!DPB\b)[A-Z]{3,}\b|\bEAI_|UND_ERR|ERR_/.test(text)],
  ['TLS text', (text) => /\b(TLS|SSL)\b|certificate|self[- ]signed|handshake/i.test(text)],
  ['a port', (text) => /\bports?\b/i.test(text)],
];

function assertNoNetworkDetail(text: string, where: string): void {
  for (const [what, found] of LEAKS) assert.ok(!found(text), `${where} carries ${what}: ${text}`);
}

test('the leak detectors catch what evidence used to carry, and pass visitor wording', () => {
  const leaky = [
    'unreachable: blocked-address: intranet.example.org resolves to 10.20.30.40 is private-use (RFC 1918)',
    'could not connect (https://site.test:8443, ECONNREFUSED)',
    'connection failed (https://site.test, ECONNRESET)',
    'name did not resolve (EAI_AGAIN)',
    'TLS handshake failed (https://a.test, DEPTH_ZERO_SELF_SIGNED_CERT)',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'other side closed (UND_ERR_SOCKET)',
    'allowed: 10.0.0.0/8',
    'resolved to fd00::1',
    'resolved to ::ffff:10.1.2.3',
    'port 22 is open',
    'unable to verify the first certificate',
  ];
  for (const text of leaky) assert.ok(LEAKS.some(([, found]) => found(text)), `not caught: ${text}`);
  const clean = [
    'Privacy policy "Privacy Policy" → <href> could not be fetched; a timeout or connection failure can be passing trouble',
    'Privacy policy "Privacy Policy" → <href> redirected to an address the service cannot reach or does not fetch',
    'EDPB cookie banner taskforce report (2023), created 2026-11-23T08:08:54.390Z',
  ];
  for (const text of clean) assert.ok(!LEAKS.some(([, found]) => found(text)), `false alarm: ${text}`);
});

async function storedAuditText(id: string): Promise<string> {
  const { db } = database;
  const rows = await Promise.all([
    db.selectFrom('audits').selectAll().where('id', '=', id).execute(),
    db.selectFrom('audit_controls').selectAll().where('audit_id', '=', id).execute(),
    db.selectFrom('findings').selectAll().where('audit_id', '=', id).execute(),
  ]);
  assert.equal(rows[0].length, 1, 'the audit is stored');
  return JSON.stringify(rows);
}

interface Case {
  name: string;
  /** The policy link as written on the page. */
  href: () => string;
  outcome: 'pass' | 'fail' | 'inconclusive';
  evidence: RegExp;
  /** What the operator's log line must show; undefined when the fetch succeeded and nothing is logged. */
  logged?: RegExp;
}

const COULD_NOT_FETCH = /could not be fetched; a timeout or connection failure can be passing trouble/;

const cases: readonly Case[] = [
  { name: 'a private name (10.x, not allow-listed)', href: () => 'https://intranet.test/privacy', outcome: 'fail', evidence: /points to an address the service cannot reach or does not fetch/, logged: /10\.20\.30\.40/ },
  { name: 'a private name (192.168.x)', href: () => 'https://router.test/privacy', outcome: 'fail', evidence: /points to an address the service cannot reach or does not fetch/, logged: /192\.168\.1\.1/ },
  { name: 'a private name (unique-local IPv6)', href: () => 'https://ula.test/privacy', outcome: 'fail', evidence: /points to an address the service cannot reach or does not fetch/, logged: /fd00::1/ },
  { name: 'a refused port on allow-listed loopback', href: () => `https://closed.test:${closedPort}/privacy`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /ECONNREFUSED/ },
  { name: 'a connection reset during the handshake', href: () => `https://site.test:${resetter.port}/privacy`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /ECONNRESET|UND_ERR_SOCKET/ },
  { name: 'a connection reset after the request', href: () => `${origin()}/reset`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /ECONNRESET|UND_ERR_SOCKET/ },
  { name: 'a self-signed certificate', href: () => `https://self.test:${selfSigned.port}/privacy`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /SELF_SIGNED|self-signed/i },
  { name: 'a certificate for another name', href: () => `https://wrongname.test:${service.fixture.port}/privacy`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /ALTNAME|HOSTNAME/ },
  { name: 'a redirect to the metadata address', href: () => `${origin()}/to-metadata`, outcome: 'fail', evidence: /redirected to an address the service cannot reach or does not fetch/, logged: /169\.254\.169\.254/ },
  { name: 'a redirect to a private name', href: () => `${origin()}/to-intranet`, outcome: 'fail', evidence: /redirected to an address the service cannot reach or does not fetch/, logged: /10\.20\.30\.40/ },
  { name: 'a redirect to localhost', href: () => `${origin()}/to-localhost`, outcome: 'fail', evidence: /redirected to an address the service cannot reach or does not fetch/, logged: /localhost/ },
  { name: 'a redirect to plain http', href: () => `${origin()}/to-http`, outcome: 'fail', evidence: /redirected to an address the service cannot reach or does not fetch/, logged: /downgrade/ },
  { name: 'a server that never answers', href: () => `${origin()}/hang`, outcome: 'inconclusive', evidence: COULD_NOT_FETCH, logged: /timeout/ },
  { name: 'a host that does not exist', href: () => 'https://nowhere.test/privacy', outcome: 'fail', evidence: /points to an address the service cannot reach or does not fetch/, logged: /ENOTFOUND/ },
  { name: 'a 404', href: () => `${origin()}/missing`, outcome: 'fail', evidence: /answered 404$/, logged: /^http-status: .*answered 404/ },
  { name: 'a 500', href: () => `${origin()}/broken`, outcome: 'fail', evidence: /answered 500$/, logged: /^http-status: .*answered 500/ },
  { name: 'an empty page', href: () => `${origin()}/empty`, outcome: 'fail', evidence: /answered 200 with an empty page/ },
  { name: 'a script shell', href: () => `${origin()}/shell`, outcome: 'inconclusive', evidence: /script-rendered shell/ },
  { name: 'an http:// link whose https form answers', href: () => `http://site.test:${service.fixture.port}/privacy`, outcome: 'pass', evidence: /answered 200 over https with \d+ characters of content$/ },
  { name: 'an http:// link whose https form answers 404', href: () => `http://site.test:${service.fixture.port}/missing`, outcome: 'fail', evidence: /answered 404 over https/, logged: /^http-status: .*answered 404/ },
  { name: 'an http:// link whose https form cannot be reached', href: () => `http://closed.test:${closedPort}/privacy`, outcome: 'inconclusive', evidence: /is a plain-HTTP link, which the service does not fetch, and its https form could not be fetched/, logged: /ECONNREFUSED/ },
  { name: 'an http:// link to a host that does not exist', href: () => 'http://nowhere.test/privacy', outcome: 'fail', evidence: /points to an address the service cannot reach or does not fetch/, logged: /ENOTFOUND/ },
];

describe('hostile policy links: visitor-level outcomes, no network detail in responses or storage, detail in the log', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const href = c.href();
      const response = await audit(`${origin()}/page?policy=${encodeURIComponent(href)}`);
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      const control = body.controls.find((x: { control: string }) => x.control === CONTROL);
      assert.equal(control.outcome, c.outcome, control.evidence);
      assert.match(control.evidence, c.evidence);
      const finding = body.findings.find((f: { control: string }) => f.control === CONTROL);
      assert.equal(finding?.status, c.outcome === 'pass' ? undefined : c.outcome, 'a finding exactly when the control did not pass');

      // The page's own href is quoted as written; strip it so the scan judges only what the service added.
      const ours = response.body.replaceAll(href, '<href>').replaceAll(JSON.stringify(href).slice(1, -1), '<href>');
      assertNoNetworkDetail(ours, 'the response');
      assertNoNetworkDetail((await storedAuditText(body.id)).replaceAll(href, '<href>'), 'the stored audit');

      const lines = service.logs.filter((line) => line.requestId === response.headers['x-request-id'] && line.msg === LOG_MESSAGE);
      if (c.logged === undefined) {
        assert.deepEqual(lines, [], 'the fetch succeeded: nothing to log');
      } else {
        assert.equal(lines.length, 1, 'one log line for the failed follow');
        assert.match(`${lines[0]!.reason}: ${lines[0]!.detail}`, c.logged, 'the operator sees the detail');
      }
    });
  }
});

describe('the crawl itself against the same targets: the opaque 422', () => {
  const targets: [string, () => string][] = [
    ['a private name', () => 'https://intranet.test/'],
    ['a refused port', () => `https://closed.test:${closedPort}/`],
    ['a reset connection', () => `https://site.test:${resetter.port}/`],
    ['a self-signed certificate', () => `https://self.test:${selfSigned.port}/privacy`],
    ['a redirect to the metadata address', () => `${origin()}/to-metadata`],
    ['a host that does not exist', () => 'https://nowhere.test/'],
  ];
  for (const [name, target] of targets) {
    test(name, async () => {
      const response = await audit(target());
      assert.equal(response.statusCode, 422, response.body);
      assert.deepEqual(response.json(), { error: 'unreachable or blocked' });
      assertNoNetworkDetail(response.body, 'the 422 body');
    });
  }
});
