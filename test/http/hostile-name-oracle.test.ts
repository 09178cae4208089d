// Issue 17, section 3: the service must not be an oracle for which host names exist inside the
// operator's network. A client picks a name (a privacy-policy link or a redirect on its page, a
// webhook URL, a webhook's name remapped after registration); whatever the name does — resolve to
// a private, loopback or metadata address, not exist, fail at the resolver, or not resolve in
// time — the client-visible text must be byte-identical, while the operator's log tells the cases
// apart. A near miss (a name that resolves to an allowed address whose port is closed) must read
// differently, or the comparison would prove nothing.
//
// Names are resolved three ways, all on loopback: AUDIT_RESOLVE (the service's static-resolve
// setting), a resolver that answers ENOTFOUND as getaddrinfo does for an unknown name, and real
// DNS queries (node:dns Resolver) to a UDP server on 127.0.0.1 that answers SERVFAIL or nothing.
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import dns from 'node:dns';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startConnectionCounter, startHttpsFixture, type Fixture } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { makeTestPki } from '../support/tls.ts';

const CONTROL = 'privacy.privacy-policy-reachable';
/**
 * The crawl's and the webhooks' deadline. Node drives the DNS resolver's timeouts from a timer of
 * about a second, so a resolver timeout of 500 ms ends within ~1.5 s: well inside this deadline.
 */
const TIMEOUT_MS = 3000;

/** How a row's name resolves: static addresses (AUDIT_RESOLVE), or an answer of the name service. */
type Resolution = { addresses: string[] } | { dns: 'not found' | 'servfail' | 'resolver gives up' | 'outlasts the deadline' };

interface Row {
  name: string;
  resolution: Resolution;
  /** What the operator's log line (`reason: detail`) shows for this row, and for no other. */
  logged: RegExp;
}

const ROWS: readonly Row[] = [
  { name: 'a private address (10.x)', resolution: { addresses: ['10.20.30.40'] }, logged: /^blocked-address: .* resolves to 10\.20\.30\.40/ },
  { name: 'loopback outside the allow-list', resolution: { addresses: ['127.0.0.2'] }, logged: /^blocked-address: .* resolves to 127\.0\.0\.2/ },
  { name: 'IPv6 loopback', resolution: { addresses: ['::1'] }, logged: /^blocked-address: .* resolves to ::1 / },
  { name: 'the metadata address', resolution: { addresses: ['169.254.169.254'] }, logged: /^blocked-address: .* resolves to 169\.254\.169\.254/ },
  { name: 'a name that does not exist', resolution: { dns: 'not found' }, logged: /^no-such-host: .*ENOTFOUND/ },
  { name: 'a name whose name server fails (SERVFAIL)', resolution: { dns: 'servfail' }, logged: /^dns: .*ESERVFAIL/ },
  { name: 'a name whose resolver gives up (no answer)', resolution: { dns: 'resolver gives up' }, logged: /^dns: .*ETIMEOUT/ },
  { name: 'a name whose resolution outlasts the deadline', resolution: { dns: 'outlasts the deadline' }, logged: /^dns: .* did not resolve in time/ },
];

/** Resolves to the allowed loopback address, where no one listens on the port used. */
const NEAR_MISS = 'a name that resolves, to a closed port';

let database: TestDatabase;
let service: TestService;
let admin: TestAdmin;
/** The webhook receiver: a certificate for every name of the table, from the suite's test CA. */
let receiver: Fixture;
let closedPort: number;
let nameServer: dgram.Socket;
/** Real DNS queries to `nameServer`: a short resolver timeout, and one longer than any request deadline. */
let quickResolver: dns.promises.Resolver;
let slowResolver: dns.promises.Resolver;

/** The name service's answer for each name outside AUDIT_RESOLVE; unlisted names do not exist. */
const nameService = new Map<string, Exclude<Resolution, { addresses: string[] }>['dns']>();
const servfailNames = new Set<string>();

/**
 * A name per channel and row, all of one length: evidence quotes a long link shortened, and the
 * quote (the page's own text, not the service's) is cut out before the comparison.
 */
const nameOf = (channel: string, row: string) => `${channel}-${[...ROWS.map((r) => r.name), NEAR_MISS].indexOf(row)}.test`;

/** Makes `host` resolve as `resolution` from now on. */
function resolveAs(host: string, resolution: Resolution): void {
  const table = service.config.staticResolve;
  if ('addresses' in resolution) {
    table.set(host, resolution.addresses);
  } else {
    table.delete(host);
    nameService.set(host, resolution.dns);
    if (resolution.dns === 'servfail') servfailNames.add(host);
  }
}

/** The DNS question's name, from a query packet (RFC 1035 4.1.2); undefined if malformed. */
function questionName(packet: Buffer): string | undefined {
  const labels: string[] = [];
  for (let at = 12; at < packet.length; ) {
    const length = packet[at]!;
    if (length === 0) return labels.join('.').toLowerCase();
    labels.push(packet.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  return undefined;
}

async function startNameServer(): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const name = questionName(query);
    if (name === undefined || !servfailNames.has(name)) return; // no answer at all
    const answer = Buffer.from(query);
    answer[2] = (answer[2]! | 0x80) & 0xfb; // QR: a response; not authoritative
    answer[3] = 0x80 | 2; // RA, RCODE 2: SERVFAIL
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

function dnsResolver(timeoutMs: number): dns.promises.Resolver {
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([`127.0.0.1:${nameServer.address().port}`]);
  return resolver;
}

const html = (res: ServerResponse, body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
const PAGE = (policyHref: string) =>
  `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><p>Chairs and tables, made to order.</p></main>
<footer><a href="${policyHref}">Privacy Policy</a></footer></body></html>`;
const query = (url: string | undefined, name: string) => new URL(url ?? '', 'https://x').searchParams.get(name) ?? '';

/** Where `/to?n=…` redirects: kept here so that the policy link stays short. */
const redirects = new Map<string, string>();

const origin = () => service.fixture.url('site.test', '').replace(/\/$/, '');

before(async () => {
  nameServer = await startNameServer();
  // Long enough that a SERVFAIL answer wins over the resolver's own timeout on a busy loop.
  quickResolver = dnsResolver(500);
  slowResolver = dnsResolver(TIMEOUT_MS * 10);
  const probe = await startConnectionCounter();
  closedPort = probe.port;
  await probe.close();

  database = await openTestDatabase();
  service = await startTestService({
    database,
    env: {
      // Only the fixtures' own address is allowed, so other loopback addresses are refused as any private one.
      AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.1/32',
      AUDIT_CRAWL_TIMEOUT_MS: String(TIMEOUT_MS),
      AUDIT_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      AUDIT_WEBHOOK_RETRY_SCHEDULE: 'none',
      AUDIT_RATE_LIMIT: '1000',
      AUDIT_WEBHOOK_RATE_LIMIT: '1000',
      AUDIT_MAX_WEBHOOKS_PER_KEY: '50',
    },
    resolver: async (host) => {
      const answer = nameService.get(host.toLowerCase());
      if (answer === 'servfail' || answer === 'resolver gives up') return quickResolver.resolve4(host);
      if (answer === 'outlasts the deadline') return slowResolver.resolve4(host);
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    },
    routes: {
      '/page': (req, res) => html(res, PAGE(query(req.url, 'policy'))),
      '/to': (req, res) => res.writeHead(302, { location: redirects.get(query(req.url, 'n')) ?? '/' }).end(),
      '/gone': (_req, res) => html(res, 'gone', 404),
    },
  });
  const hookNames = [...ROWS.map((row) => row.name), NEAR_MISS].map((row) => nameOf('hook', row));
  receiver = await startHttpsFixture({ '/receiver': (_req, res) => res.writeHead(200).end() }, await makeTestPki(hookNames));
  admin = await createAdminCookie(database.db);
});
after(async () => {
  quickResolver.cancel();
  slowResolver.cancel();
  await service.close();
  await receiver.close();
  await database.close();
  nameServer.close();
});

/** Each row's name under `channel`, set to resolve as the row says; the near miss last. */
function targets(channel: string): { row: string; host: string; port: number | undefined; logged: RegExp | undefined }[] {
  const rows = ROWS.map((row) => {
    const host = nameOf(channel, row.name);
    resolveAs(host, row.resolution);
    return { row: row.name, host, port: undefined, logged: row.logged };
  });
  const nearMiss = nameOf(channel, NEAR_MISS);
  resolveAs(nearMiss, { addresses: ['127.0.0.1'] });
  return [...rows, { row: NEAR_MISS, host: nearMiss, port: closedPort, logged: undefined }];
}

const hostPort = (t: { host: string; port: number | undefined }) => (t.port === undefined ? t.host : `${t.host}:${t.port}`);

/**
 * Every row but the near miss gave `seen` byte for byte; the near miss gave something else.
 * The message lists what each row gave, so a failure shows the split.
 */
function assertOneAnswer(seen: Map<string, string>, what: string): void {
  const table = [...seen].map(([row, text]) => `  ${row}: ${text}`).join('\n');
  const answers = new Set(ROWS.map((row) => seen.get(row.name)));
  assert.equal(answers.size, 1, `${what} differs between names:\n${table}`);
  assert.notEqual(seen.get(NEAR_MISS), [...answers][0], `${what}: the near miss reads the same, so the comparison proves nothing:\n${table}`);
}

/** Each row's log line (`reason: detail`) matches its own pattern and no other row's. */
function assertLogTellsApart(lines: Map<string, string>): void {
  for (const row of ROWS) {
    const line = lines.get(row.name);
    assert.ok(line !== undefined, `${row.name}: no operator log line`);
    for (const other of ROWS) {
      assert.equal(other.logged.test(line), other === row, `${row.name}: the log line ${JSON.stringify(line)} ${other === row ? 'lacks its detail' : `reads like ${other.name}`}`);
    }
  }
}

const logLine = (line: Record<string, unknown>) => `${String(line.reason)}: ${String(line.detail)}`;

async function auditOf(apiKey: string, pageUrl: string) {
  const response = await service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    payload: JSON.stringify({ branch: 'privacy', url: pageUrl }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response;
}

describe('a privacy-policy link reads the same whatever its name resolves to', () => {
  const channels: [string, string, (target: string) => string][] = [
    ['the link itself', 'link', (target) => target],
    [
      'a redirect from the linked page',
      'redirect',
      (target) => {
        redirects.set(String(redirects.size), target);
        return `${origin()}/to?n=${redirects.size - 1}`;
      },
    ],
  ];
  for (const [channel, prefix, linkTo] of channels) {
    test(channel, async () => {
      const evidence = new Map<string, string>();
      const logged = new Map<string, string>();
      await Promise.all(
        targets(prefix).map(async (target) => {
          const href = linkTo(`https://${hostPort(target)}/privacy`);
          const response = await auditOf(service.apiKey, `${origin()}/page?policy=${encodeURIComponent(href)}`);
          const body = response.json();
          const control = body.controls.find((c: { control: string }) => c.control === CONTROL);
          const finding = body.findings.find((f: { control: string }) => f.control === CONTROL);
          // The link is quoted as written on the page: the page's own text, not the service's.
          const visible = JSON.stringify({ outcome: control.outcome, evidence: control.evidence, finding: { status: finding?.status, severity: finding?.severity, evidence: finding?.evidence } });
          evidence.set(target.row, visible.replaceAll(JSON.stringify(href).slice(1, -1), '<link>'));
          const line = service.logs.find((l) => l.requestId === response.headers['x-request-id'] && l.msg === 'privacy-policy link could not be followed');
          if (line) logged.set(target.row, logLine(line));
        }),
      );
      assertOneAnswer(evidence, 'the control and its finding');
      assert.match(evidence.get(ROWS[0]!.name)!, /"outcome":"fail"/, 'an address the service cannot reach or does not fetch fails, as before');
      assertLogTellsApart(logged);
    });
  }
});

test('webhook registration: the 422 is byte-identical whatever the name resolves to', async () => {
  const bodies = new Map<string, string>();
  const logged = new Map<string, string>();
  await Promise.all(
    targets('register').map(async (target) => {
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/v1/alerts/webhook',
        headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
        payload: { url: `https://${hostPort(target)}/hook`, trigger: { severity: 'medium', branch: 'privacy' } },
      });
      assert.equal(response.statusCode, 422, `${target.row}: ${response.body}`);
      bodies.set(target.row, response.body);
      const line = service.logs.find((l) => l.requestId === response.headers['x-request-id'] && l.msg === 'webhook request failed');
      if (line) logged.set(target.row, logLine(line));
    }),
  );
  assertOneAnswer(bodies, 'the 422 body');
  assert.deepEqual(JSON.parse(bodies.get(ROWS[0]!.name)!), { error: 'webhook verification failed', reason: 'destination not reachable or not allowed' });
  assertLogTellsApart(logged);
});

describe('a delivery to a registration whose name is remapped after registration', () => {
  const key = { id: '', raw: '' };
  /** row → registration id */
  const registrations = new Map<string, string>();

  const get = (url: string, headers: Record<string, string>) => service.app.inject({ method: 'GET', url, headers });

  before(async () => {
    const created = await createApiKey(database.db, 'oracle');
    key.id = created.id;
    key.raw = created.rawKey;
    const rows = [...ROWS.map((row) => row.name), NEAR_MISS];
    // Registered while every name leads to the receiver …
    for (const row of rows) {
      service.config.staticResolve.set(nameOf('hook', row), ['127.0.0.1']);
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/v1/alerts/webhook',
        headers: { 'content-type': 'application/json', 'x-api-key': key.raw },
        payload: { url: `https://${nameOf('hook', row)}:${receiver.port}/receiver`, trigger: { severity: 'medium', branch: 'privacy' } },
      });
      assert.equal(response.statusCode, 201, `${row}: ${response.body}`);
      registrations.set(row, response.json().id);
    }
    // … then remapped (the near miss keeps its address; its receiver goes away instead) …
    for (const row of ROWS) resolveAs(nameOf('hook', row.name), row.resolution);
    await receiver.close();
    // … and an audit that fails sends the event to every one of them.
    await auditOf(key.raw, `${origin()}/page?policy=${encodeURIComponent(`${origin()}/gone`)}`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await database.db.selectFrom('webhook_attempts').select('webhook_id').where('webhook_id', 'in', [...registrations.values()]).execute();
      if (rows.length === registrations.size) break;
      assert.ok(Date.now() < deadline, `only ${rows.length} of ${registrations.size} attempts recorded`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  test('the attempts list, the registration list, the admin listing and the dashboard show one answer', async () => {
    const attempts = new Map<string, string>();
    const latest = new Map<string, string>();
    const adminListed = new Map<string, string>();
    const dashboard = new Map<string, string>();
    const listed = (await get('/api/v1/alerts/webhook', { 'x-api-key': key.raw })).json().items as { id: string; latestAttempt: Record<string, unknown> }[];
    const adminItems = (await get('/api/v1/alerts/webhooks?limit=100', { cookie: admin.cookie })).json().items as { id: string; latestAttempt: Record<string, unknown> }[];
    const visible = (attempt: Record<string, unknown>) =>
      JSON.stringify({ outcome: attempt.outcome, statusCode: attempt.statusCode, reason: attempt.reason, responseBody: attempt.responseBody ?? null });
    for (const [row, id] of registrations) {
      const items = (await get(`/api/v1/alerts/webhook/${id}/attempts`, { 'x-api-key': key.raw })).json().items as Record<string, unknown>[];
      assert.equal(items.length, 1, `${row}: one attempt, no retry`);
      attempts.set(row, visible(items[0]!));
      latest.set(row, visible(listed.find((item) => item.id === id)!.latestAttempt));
      adminListed.set(row, visible(adminItems.find((item) => item.id === id)!.latestAttempt));
      const page = await get(`/dashboard/webhooks/${id}`, { cookie: admin.cookie });
      assert.equal(page.statusCode, 200, page.body);
      const cell = /<td><span class="(?:delivered|failed)">[\s\S]*?<\/td>/.exec(page.body);
      assert.ok(cell, `${row}: the attempt's outcome cell`);
      dashboard.set(row, cell[0]);
    }
    assertOneAnswer(attempts, 'GET …/attempts');
    assert.equal(JSON.parse(attempts.get(ROWS[0]!.name)!).reason, 'destination not reachable or not allowed');
    assertOneAnswer(latest, 'GET /api/v1/alerts/webhook latestAttempt');
    assertOneAnswer(adminListed, 'the admin listing');
    assertOneAnswer(dashboard, 'the dashboard attempts page');
  });

  test('the worker log tells the names apart', () => {
    const logged = new Map<string, string>();
    for (const row of ROWS) {
      const line = service.logs.find((l) => l.msg === 'webhook request failed' && l.webhookId === registrations.get(row.name));
      if (line) logged.set(row.name, logLine(line));
    }
    assertLogTellsApart(logged);
  });

  test('attempts stored with a retired reason read as the reason that replaced it', async () => {
    const [first, second] = ROWS.map((row) => registrations.get(row.name)!);
    await database.db.updateTable('webhook_attempts').set({ reason: 'unsafe destination' }).where('webhook_id', '=', first!).execute();
    await database.db.updateTable('webhook_attempts').set({ reason: 'DNS failure' }).where('webhook_id', '=', second!).execute();
    const listed = (await get('/api/v1/alerts/webhook', { 'x-api-key': key.raw })).json().items as { id: string; latestAttempt: { reason: string } }[];
    const adminItems = (await get('/api/v1/alerts/webhooks?limit=100', { cookie: admin.cookie })).json().items as { id: string; latestAttempt: { reason: string } }[];
    for (const id of [first!, second!]) {
      const [attempt] = (await get(`/api/v1/alerts/webhook/${id}/attempts`, { 'x-api-key': key.raw })).json().items;
      assert.equal(attempt.reason, 'destination not reachable or not allowed');
      assert.equal(listed.find((item) => item.id === id)!.latestAttempt.reason, 'destination not reachable or not allowed');
      assert.equal(adminItems.find((item) => item.id === id)!.latestAttempt.reason, 'destination not reachable or not allowed');
      const page = await get(`/dashboard/webhooks/${id}`, { cookie: admin.cookie });
      assert.match(page.body, /<br>destination not reachable or not allowed<\/td>/);
      assert.doesNotMatch(page.body, /unsafe destination|DNS failure/);
    }
  });
});
