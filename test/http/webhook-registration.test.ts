// POST/GET /api/v1/alerts/webhook, DELETE …/{id} and GET …/{id}/attempts through the real HTTP
// stack, the real safe fetcher and real HTTPS receivers on loopback (test CA, static resolve).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import type { RecordedRequest } from '../support/https-fixture.ts';
import { FIXTURE_HOST, startTestService, type TestService } from '../support/service.ts';

const RESOLVE = `${FIXTURE_HOST}=127.0.0.1,other.test=127.0.0.1,wrong-cert.test=127.0.0.1,private.test=10.1.2.3`;

let database: TestDatabase;
let service: TestService;
/** Every response body the service sent in this file: scanned for challenges at the end. */
const payloads: string[] = [];
const hangs: (() => void)[] = [];

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    env: { AUDIT_RESOLVE: RESOLVE, AUDIT_WEBHOOK_TIMEOUT_MS: '2500', AUDIT_WEBHOOK_RATE_LIMIT: '1000', AUDIT_MAX_WEBHOOKS_PER_KEY: '3' },
    resolver: async (host) => {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
      error.code = 'ENOTFOUND';
      throw error;
    },
    routes: {
      '/ok': (_req, res) => res.writeHead(200).end(),
      '/accepted': (_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('queued'),
      '/redirect': (_req, res) => res.writeHead(302, { location: '/ok' }).end(),
      '/not-modified': (_req, res) => res.writeHead(304).end(),
      '/unavailable': (_req, res) => res.writeHead(503).end('down for maintenance'),
      '/fail': (_req, res) => res.writeHead(500).end(),
      // Never answers: the ping's timeout must end it.
      '/hang': (_req, res) => new Promise<void>((resolve) => hangs.push(() => { res.destroy(); resolve(); })),
    },
  });
});
after(async () => {
  for (const release of hangs) release();
  await service.close();
  await database.close();
});

const pings = (): RecordedRequest[] => service.fixture.requests.filter((r) => r.method === 'POST');

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, apiKey: string | undefined, payload?: unknown, app = service.app) {
  const res = await app.inject({
    method,
    url,
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
  payloads.push(res.body, JSON.stringify(res.headers));
  return res;
}

const register = (apiKey: string, body: unknown, app = service.app) => call('POST', '/api/v1/alerts/webhook', apiKey, body, app);
const hook = (path: string, host = FIXTURE_HOST) => service.fixture.url(host, path);
const trigger = { severity: 'high', branch: 'privacy' };

async function newKey() {
  return (await createApiKey(database.db, 'webhooks')).rawKey;
}

describe('registration', () => {
  test('a 2xx receiver: 201 with the registration, after one verification ping carrying a 32-byte challenge', async () => {
    const key = await newKey();
    const before = pings().length;
    const res = await register(key, { url: hook('/accepted?token=abc'), trigger: { severity: 'medium', branch: 'ai_gov' } });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'id', 'latestAttempt', 'trigger', 'url', 'verifiedAt']);
    assert.equal(body.url, hook('/accepted?token=abc'));
    assert.deepEqual(body.trigger, { severity: 'medium', branch: 'ai_gov', on: 'every-audit' }, 'trigger.on defaults to every-audit');
    assert.equal(body.latestAttempt, null);
    assert.ok(!Number.isNaN(Date.parse(body.verifiedAt)) && !Number.isNaN(Date.parse(body.createdAt)));
    assert.equal(res.headers['ratelimit-policy'], '1000;w=60');
    assert.equal(res.headers['ratelimit-remaining'], '999');

    const sent = pings().slice(before);
    assert.equal(sent.length, 1);
    const ping = sent[0]!;
    assert.equal(ping.path, '/accepted?token=abc');
    assert.match(String(ping.headers['content-type']), /^application\/json/);
    const payload = JSON.parse(ping.body);
    assert.deepEqual(Object.keys(payload), ['type', 'challenge']);
    assert.equal(payload.type, 'svc.webhook.verification');
    assert.match(payload.challenge, /^[A-Za-z0-9_-]{43,}$/);
    assert.ok(Buffer.from(payload.challenge, 'base64url').length >= 32);

    const list = await call('GET', '/api/v1/alerts/webhook', key);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), { items: [body] });
    const stored = await database.db.selectFrom('webhooks').select(['challenge', 'api_key_id']).where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.equal(stored.challenge, payload.challenge, 'the challenge is kept as the signing secret');
  });

  const failures: [string, () => string, string][] = [
    ['a 302 (never followed)', () => hook('/redirect'), 'redirect'],
    ['a 304', () => hook('/not-modified'), 'redirect'],
    ['a 500', () => hook('/fail'), 'non-2xx response (status 500)'],
    ['a 503', () => hook('/unavailable'), 'non-2xx response (status 503)'],
    ['a receiver that never answers (timeout)', () => hook('/hang'), 'timeout'],
    ['a name mapped to a private address by AUDIT_RESOLVE', () => hook('/ok', 'private.test'), 'destination not reachable or not allowed'],
    ['localhost', () => hook('/ok', 'localhost'), 'destination not reachable or not allowed'],
    ['an IP literal outside the allow-list', () => hook('/ok', '10.0.0.1'), 'destination not reachable or not allowed'],
    ['a certificate for another name (TLS error)', () => hook('/ok', 'wrong-cert.test'), 'TLS error'],
    ['a name that does not resolve', () => 'https://missing.test/hook', 'destination not reachable or not allowed'],
  ];
  for (const [name, url, reason] of failures) {
    test(`422 for ${name}: "${reason}", nothing saved`, async () => {
      const key = await newKey();
      const redirectsFollowed = service.fixture.requests.filter((r) => r.method === 'GET').length;
      const res = await register(key, { url: url(), trigger });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json(), { error: 'webhook verification failed', reason });
      assert.equal(res.headers['ratelimit-limit'], '1000');
      assert.deepEqual((await call('GET', '/api/v1/alerts/webhook', key)).json(), { items: [] });
      assert.equal(service.fixture.requests.filter((r) => r.method === 'GET').length, redirectsFollowed, 'no redirect was followed');
    });
  }

  test('the operator log gets the network detail of a failed verification; the answer does not', async () => {
    const key = await newKey();
    const res = await register(key, { url: hook('/ok', 'private.test'), trigger });
    assert.equal(res.statusCode, 422);
    assert.doesNotMatch(res.body, /10\.1\.2\.3|private\.test|10\.0\.0\.0/);
    const line = service.logs.find((l) => l.msg === 'webhook request failed' && String(l.detail).includes('10.1.2.3'));
    assert.ok(line, 'the log line names the refused address');
  });

  test('nothing is sent to a private address: the fixture never sees the ping', async () => {
    const key = await newKey();
    const before = pings().length;
    await register(key, { url: hook('/ok', 'localhost'), trigger });
    await register(key, { url: hook('/ok', '10.0.0.1'), trigger });
    assert.equal(pings().length, before);
  });

  const violations: [string, () => unknown, Record<string, string>][] = [
    ['an http URL', () => ({ url: hook('/ok').replace('https:', 'http:'), trigger }), { url: 'must be an https URL; nothing is sent to other schemes' }],
    ['a URL with user info', () => ({ url: hook('/ok').replace('https://', 'https://u:p@'), trigger }), { url: 'must not carry a user name or password' }],
    ['not a URL', () => ({ url: 'hooks.example.com/svc', trigger }), { url: 'must be an absolute https URL' }],
    ['a URL with a line break', () => ({ url: `${hook('/ok')}\n`, trigger }), { url: 'must not contain control characters such as tabs or line breaks' }],
    ['no url', () => ({ trigger }), { url: 'is required' }],
    ['no trigger', () => ({ url: hook('/ok') }), { trigger: 'is required' }],
    ['no trigger.severity', () => ({ url: hook('/ok'), trigger: { branch: 'privacy' } }), { 'trigger.severity': 'is required' }],
    ['no trigger.branch', () => ({ url: hook('/ok'), trigger: { severity: 'high' } }), { 'trigger.branch': 'is required' }],
    ['severity low', () => ({ url: hook('/ok'), trigger: { severity: 'low', branch: 'privacy' } }), { 'trigger.severity': 'must be one of medium, high, critical' }],
    ['branch wcag (the audit name, not the trigger name)', () => ({ url: hook('/ok'), trigger: { severity: 'high', branch: 'wcag' } }), { 'trigger.branch': 'must be one of privacy, ai_gov, accessibility' }],
    ['an owner field', () => ({ url: hook('/ok'), trigger, owner: 'someone' }), { owner: 'is not a known field' }],
    ['a key id field', () => ({ url: hook('/ok'), trigger, apiKeyId: randomUUID() }), { apiKeyId: 'is not a known field' }],
    ['an unknown trigger field', () => ({ url: hook('/ok'), trigger: { ...trigger, secret: 'x' } }), { 'trigger.secret': 'is not a known field' }],
    ['trigger.on outside its set', () => ({ url: hook('/ok'), trigger: { ...trigger, on: 'every-failure' } }), { 'trigger.on': 'must be one of every-audit, new-failures' }],
    ['trigger.on null', () => ({ url: hook('/ok'), trigger: { ...trigger, on: null } }), { 'trigger.on': 'must be one of every-audit, new-failures' }],
    ['a url that is a number', () => ({ url: 42, trigger }), { url: 'must be string' }],
    ['an array body', () => ([]), { body: 'must be a JSON object' }],
    ['malformed JSON', () => ('{"url":'), { body: 'is not valid JSON' }],
  ];
  for (const [name, payload, errors] of violations) {
    test(`400 for ${name}, and nothing is sent`, async () => {
      const key = await newKey();
      const before = pings().length;
      const res = await register(key, payload());
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { errors });
      assert.equal(res.headers['ratelimit-policy'], '1000;w=60');
      assert.equal(pings().length, before);
    });
  }

  test('trigger.on new-failures or every-audit, given: stored and read back as given', async () => {
    const key = await newKey();
    for (const on of ['new-failures', 'every-audit']) {
      const res = await register(key, { url: hook(`/ok?on=${on}`), trigger: { severity: 'high', branch: 'accessibility', on } });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(res.json().trigger, { severity: 'high', branch: 'accessibility', on });
    }
    const listed = (await call('GET', '/api/v1/alerts/webhook', key)).json().items.map((item: { trigger: unknown }) => item.trigger);
    assert.deepEqual(listed, [
      { severity: 'high', branch: 'accessibility', on: 'new-failures' },
      { severity: 'high', branch: 'accessibility', on: 'every-audit' },
    ]);
  });

  test('409 once the key holds AUDIT_MAX_WEBHOOKS_PER_KEY registrations, before any ping; other keys unaffected', async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) assert.equal((await register(key, { url: hook(`/ok?n=${i}`), trigger })).statusCode, 201);
    const before = pings().length;
    const res = await register(key, { url: hook('/ok?n=4'), trigger });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json(), { error: 'webhook limit reached' });
    assert.equal(pings().length, before, 'nothing was sent');
    assert.equal((await register(await newKey(), { url: hook('/ok'), trigger })).statusCode, 201);
  });

  test('concurrent registrations of one key never overshoot the maximum', async () => {
    const key = await newKey();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(key, { url: hook(`/ok?c=${i}`), trigger })));
    const codes = results.map((r) => r.statusCode).sort();
    assert.deepEqual(codes, [201, 201, 201, 409, 409, 409]);
    assert.equal((await call('GET', '/api/v1/alerts/webhook', key)).json().items.length, 3);
  });
});

describe('authentication', () => {
  const routes: ['GET' | 'POST' | 'DELETE', string][] = [
    ['POST', '/api/v1/alerts/webhook'],
    ['GET', '/api/v1/alerts/webhook'],
    ['DELETE', `/api/v1/alerts/webhook/${randomUUID()}`],
    ['GET', `/api/v1/alerts/webhook/${randomUUID()}/attempts`],
  ];
  for (const [method, url] of routes) {
    test(`${method} ${url.replace(/[0-9a-f-]{36}/, '{id}')}: 401 without a key and with an unknown one`, async () => {
      for (const key of [undefined, 'ask_unknown-key-unknown-key-unknown-key-unknown']) {
        const res = await call(method, url, key, method === 'POST' ? { url: hook('/ok'), trigger } : undefined);
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { error: 'invalid api key' });
      }
    });
  }
});

describe('own registrations', () => {
  test('a key sees, deletes and reads the attempts of only its own registrations', async () => {
    const owner = await newKey();
    const stranger = await newKey();
    const created = (await register(owner, { url: hook('/ok'), trigger })).json();
    assert.deepEqual((await call('GET', '/api/v1/alerts/webhook', stranger)).json(), { items: [] });
    assert.equal((await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts`, stranger)).statusCode, 404);
    const foreign = await call('DELETE', `/api/v1/alerts/webhook/${created.id}`, stranger);
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual(foreign.json(), { error: 'not found' });

    const attempts = await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts`, owner);
    assert.equal(attempts.statusCode, 200);
    assert.deepEqual(attempts.json(), { items: [], nextCursor: null });

    const deleted = await call('DELETE', `/api/v1/alerts/webhook/${created.id}`, owner);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    assert.deepEqual((await call('GET', '/api/v1/alerts/webhook', owner)).json(), { items: [] });
    assert.equal((await call('DELETE', `/api/v1/alerts/webhook/${created.id}`, owner)).statusCode, 404);
    assert.equal((await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts`, owner)).statusCode, 404);
  });

  test('ids that are not UUIDs are not found; a bad cursor or limit is a 400', async () => {
    const key = await newKey();
    assert.equal((await call('DELETE', '/api/v1/alerts/webhook/not-a-uuid', key)).statusCode, 404);
    assert.equal((await call('GET', '/api/v1/alerts/webhook/not-a-uuid/attempts', key)).statusCode, 404);
    const created = (await register(key, { url: hook('/ok'), trigger })).json();
    const cursor = await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts?cursor=bogus`, key);
    assert.equal(cursor.statusCode, 400);
    assert.deepEqual(Object.keys(cursor.json().errors), ['cursor']);
    const limit = await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts?limit=0`, key);
    assert.equal(limit.statusCode, 400);
    assert.deepEqual(Object.keys(limit.json().errors), ['limit']);
    const unknown = await call('GET', `/api/v1/alerts/webhook/${created.id}/attempts?page=2`, key);
    assert.equal(unknown.statusCode, 400);
  });
});

describe('rate limit', () => {
  test('registration attempts past the webhook rate limit get the audit route’s 429, before anything is sent', async () => {
    const limited = await startTestService({
      database,
      fixture: service.fixture,
      routes: {},
      env: { AUDIT_RESOLVE: RESOLVE },
      // A clock that stands still: the three requests share one window wherever the real boundary falls.
      webhookRateLimiter: createRateLimiter(
        database.db,
        { limit: 2, windowSeconds: 3600 },
        () => new Date('2026-03-01T10:30:00Z'),
        'webhook_rate_limit_windows',
      ),
    });
    try {
      const key = await newKey();
      assert.equal((await register(key, { url: hook('/ok'), trigger }, limited.app)).statusCode, 201);
      // A 400 takes its slot too, as on the audit route.
      assert.equal((await register(key, { url: 'http://example.com/', trigger }, limited.app)).statusCode, 400);
      const before = pings().length;
      const res = await register(key, { url: hook('/ok'), trigger }, limited.app);
      assert.equal(res.statusCode, 429);
      const body = res.json();
      assert.equal(body.error, 'rate limit exceeded');
      assert.ok(Number.isInteger(body.retryAfterSeconds) && body.retryAfterSeconds >= 1);
      assert.equal(res.headers['retry-after'], String(body.retryAfterSeconds));
      assert.equal(res.headers['ratelimit-policy'], '2;w=3600');
      assert.equal(res.headers['ratelimit-remaining'], '0');
      assert.equal(pings().length, before);
      // The audit budget is separate: the same key can still audit.
      const audits = await limited.app.inject({ method: 'GET', url: '/api/v1/audits', headers: { 'x-api-key': key } });
      assert.equal(audits.statusCode, 200);
    } finally {
      await limited.close();
    }
  });
});

describe('OpenAPI', () => {
  test('every status of the webhook routes is documented, each with an example body (204 has none)', async () => {
    const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const expected: Record<string, string[]> = {
      'post /api/v1/alerts/webhook': ['201', '400', '401', '409', '422', '429', '500'],
      'get /api/v1/alerts/webhook': ['200', '401'],
      'delete /api/v1/alerts/webhook/{id}': ['204', '401', '404'],
      'get /api/v1/alerts/webhook/{id}/attempts': ['200', '400', '401', '404'],
    };
    for (const [operation, statuses] of Object.entries(expected)) {
      const [method, path] = operation.split(' ') as [string, string];
      const responses = spec.paths[path][method].responses;
      for (const status of statuses) {
        assert.ok(responses[status], `${operation} documents ${status}`);
        if (status === '204') continue;
        const json = responses[status].content['application/json'];
        assert.ok(json.example ?? json.examples ?? json.schema.examples, `${operation} ${status} has an example`);
      }
    }
  });
});

// Last in the file: every ping the file caused is in the fixture's record by now.
test('no challenge appears in any response body or header, nor in any log line', () => {
  const challenges = pings().map((r) => (JSON.parse(r.body) as { challenge: string }).challenge);
  assert.ok(challenges.length >= 10, 'the file sent verification pings');
  assert.ok(service.rawLogs.length > 50, 'the file logged');
  for (const challenge of challenges) {
    assert.ok(!payloads.some((p) => p.includes(challenge)), 'a response carried a challenge');
    assert.ok(!service.rawLogs.some((line) => line.includes(challenge)), 'a log line carried a challenge');
  }
});
