// Per-key audit budgets (issue 20) over real HTTP: the app listening on 127.0.0.1 and fetch, as a
// client meets it. A key with its own budget gets exactly that many requests a window, another key
// the default (AUDIT_RATE_LIMIT); every RateLimit-* header carries the key's figure; a 401 the
// default policy only; a key set back to default is on the default again; and on PostgreSQL two
// app instances sharing the database never let the key past its budget.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey, setApiKeyRateLimit } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

let database: TestDatabase;
let service: TestService;
let base: string;
/** Mid-window, so no test crosses a window boundary: 45 s until it ends. */
const fixedClock = () => new Date('2026-03-01T10:00:15Z');
const DEFAULT = { limit: 10, windowSeconds: 60 };

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, rateLimiter: createRateLimiter(database.db, DEFAULT, fixedClock) });
  base = await service.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await service.close();
  await database.close();
});

/** An invalid audit (400): it takes its slot like any other, and never crawls anything. */
async function post(url: string, apiKey: string | undefined) {
  const res = await fetch(`${url}/api/v1/audit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }) },
    body: '{}',
  });
  await res.arrayBuffer();
  return res;
}

function rateHeaders(res: Response) {
  return Object.fromEntries(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after'].map((name) => [name, res.headers.get(name)]));
}

test('a key with its own budget gets exactly that many; every header carries its figure; the next is 429', async () => {
  const { rawKey } = await createApiKey(database.db, 'ci', 3);
  for (let i = 0; i < 3; i++) {
    const res = await post(base, rawKey);
    assert.equal(res.status, 400);
    assert.deepEqual(rateHeaders(res), { 'ratelimit-limit': '3', 'ratelimit-remaining': String(2 - i), 'ratelimit-reset': '45', 'ratelimit-policy': '3;w=60', 'retry-after': null });
  }
  const limited = await fetch(`${base}/api/v1/audit`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': rawKey }, body: '{}' });
  assert.equal(limited.status, 429);
  assert.deepEqual(await limited.json(), { error: 'rate limit exceeded', retryAfterSeconds: 45 });
  assert.deepEqual(rateHeaders(limited), { 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'ratelimit-policy': '3;w=60', 'retry-after': '45' });
});

test('another key, without a budget of its own, gets the default', async () => {
  const { rawKey } = await createApiKey(database.db, 'dashboard');
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 11; i++) {
    last = await post(base, rawKey);
    statuses.push(last.status);
  }
  assert.deepEqual(statuses, [...Array(10).fill(400), 429]);
  assert.equal(last!.headers.get('ratelimit-limit'), '10');
  assert.equal(last!.headers.get('ratelimit-policy'), '10;w=60');
});

test('a budget above the default: 50 concurrent requests, exactly the key’s 30 pass the limiter', async () => {
  const { rawKey } = await createApiKey(database.db, 'big ci', 30);
  const responses = await Promise.all(Array.from({ length: 50 }, () => post(base, rawKey)));
  const codes = responses.map((res) => res.status);
  assert.equal(codes.filter((code) => code === 400).length, 30);
  assert.equal(codes.filter((code) => code === 429).length, 20);
  for (const res of responses) assert.equal(res.headers.get('ratelimit-policy'), '30;w=60');
});

test('a 401 carries the default RateLimit-Policy only: no key is known, so no key’s budget applies', async () => {
  const { rawKey } = await createApiKey(database.db, 'wrong', 500);
  for (const key of [undefined, `${rawKey}x`]) {
    const res = await fetch(`${base}/api/v1/audit`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: '{}' });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: 'invalid api key' });
    assert.deepEqual(rateHeaders(res), { 'ratelimit-limit': null, 'ratelimit-remaining': null, 'ratelimit-reset': null, 'ratelimit-policy': '10;w=60', 'retry-after': null });
  }
});

test('set back to default: the key is on the default from its next request, counting the slots it took', async () => {
  const { id, rawKey } = await createApiKey(database.db, 'was big', 12);
  for (let i = 0; i < 11; i++) assert.equal((await post(base, rawKey)).status, 400);
  assert.equal(await setApiKeyRateLimit(database.db, id, null), 'updated');
  const res = await post(base, rawKey);
  assert.equal(res.status, 429, 'its 12th request is over the default of 10');
  assert.deepEqual(rateHeaders(res), { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'ratelimit-policy': '10;w=60', 'retry-after': '45' });
  // And given a budget again, the same window goes on counting.
  assert.equal(await setApiKeyRateLimit(database.db, id, 14), 'updated');
  const again = await post(base, rawKey);
  assert.equal(again.status, 400);
  assert.equal(again.headers.get('ratelimit-remaining'), '1', '13 of 14 used');
  assert.equal(again.headers.get('ratelimit-policy'), '14;w=60');
});

test('the app’s own limiter (from AUDIT_RATE_LIMIT) honours a key’s budget too; webhook registration stays on its global budget', async () => {
  const own = await startTestService({ database, routes: {}, env: { AUDIT_RATE_LIMIT: '4', AUDIT_WEBHOOK_RATE_LIMIT: '2' } });
  try {
    const url = await own.app.listen({ host: '127.0.0.1', port: 0 });
    const { rawKey } = await createApiKey(database.db, 'ci', 250);
    const audit = await post(url, rawKey);
    assert.equal(audit.status, 400);
    assert.equal(audit.headers.get('ratelimit-limit'), '250');
    assert.equal(audit.headers.get('ratelimit-policy'), `250;w=${own.config.rateLimit.windowSeconds}`);
    const other = await post(url, own.apiKey);
    assert.equal(other.headers.get('ratelimit-limit'), '4');
    const webhook = await fetch(`${url}/api/v1/alerts/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': rawKey }, body: '{}' });
    await webhook.arrayBuffer();
    assert.equal(webhook.status, 400);
    assert.equal(webhook.headers.get('ratelimit-limit'), '2');
    assert.equal(webhook.headers.get('ratelimit-policy'), `2;w=${own.config.webhooks.rateLimit.windowSeconds}`);
  } finally {
    await own.close();
  }
});

test('two app instances sharing PostgreSQL: 60 concurrent requests of a key with a budget of 7, exactly 7 pass', { skip: !usingPostgres && 'PostgreSQL only (TEST_DATABASE_URL)' }, async () => {
  const other = await database.connectAgain!();
  const second = await startTestService({ database: other, routes: {}, fixture: service.fixture, rateLimiter: createRateLimiter(other.db, DEFAULT, fixedClock) });
  try {
    const secondBase = await second.app.listen({ host: '127.0.0.1', port: 0 });
    const { rawKey } = await createApiKey(database.db, 'two instances', 7);
    const plain = await createApiKey(database.db, 'two instances, default');
    const [budgeted, defaulted] = await Promise.all([
      Promise.all(Array.from({ length: 60 }, (_, i) => post(i % 2 ? base : secondBase, rawKey))),
      Promise.all(Array.from({ length: 30 }, (_, i) => post(i % 2 ? base : secondBase, plain.rawKey))),
    ]);
    const count = (responses: Response[], status: number) => responses.filter((res) => res.status === status).length;
    assert.equal(count(budgeted, 400), 7);
    assert.equal(count(budgeted, 429), 53);
    assert.deepEqual(budgeted.filter((res) => res.status === 400).map((res) => Number(res.headers.get('ratelimit-remaining'))).sort(), [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(count(defaulted, 400), 10);
    assert.equal(count(defaulted, 429), 20);
  } finally {
    await second.close();
    await other.close();
  }
});
