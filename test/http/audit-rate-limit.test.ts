// The 429 row of the spec and the limiter's exactness through the real HTTP stack.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

let database: TestDatabase;
let service: TestService;
const fixedClock = () => new Date('2026-03-01T10:00:15Z');

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    routes: { '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>') },
    rateLimiter: createRateLimiter(database.db, { limit: 10, windowSeconds: 60 }, fixedClock),
  });
});
after(async () => {
  await service.close();
  await database.close();
});

function post(app: TestService['app'], apiKey: string, payload: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    payload,
  });
}

test('every request takes its slot before validation; the 11th gets 429 with Retry-After', async () => {
  const { createApiKey } = await import('../../src/auth/api-keys.ts');
  const { rawKey } = await createApiKey(database.db, 'sequential');
  const remaining: string[] = [];
  for (let i = 0; i < 10; i++) {
    // Malformed and invalid requests all count (a standard with a branch other than wcag is invalid).
    const payload = [`{bad`, '{}', JSON.stringify({ branch: 'privacy', standard: 'WCAG21AA', url: 'https://example.com/' })][i % 3]!;
    const response = await post(service.app, rawKey, payload);
    assert.equal(response.statusCode, 400);
    remaining.push(String(response.headers['ratelimit-remaining']));
  }
  assert.deepEqual(remaining, ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
  const limited = await post(service.app, rawKey, JSON.stringify({ branch: 'ai-governance', url: service.pageUrl('/') }));
  assert.equal(limited.statusCode, 429);
  assert.deepEqual(limited.json(), { error: 'rate limit exceeded', retryAfterSeconds: 45 });
  assert.equal(limited.headers['retry-after'], '45');
  assert.equal(limited.headers['ratelimit-limit'], '10');
  assert.equal(limited.headers['ratelimit-remaining'], '0');
  assert.equal(limited.headers['ratelimit-reset'], '45');
  assert.equal(limited.headers['ratelimit-policy'], '10;w=60');
  assert.equal(service.fixture.requests.length, 0, 'a limited request never reaches the target');
});

test('50 concurrent requests in one window: exactly 10 pass the limiter, 40 get 429', async () => {
  const { createApiKey } = await import('../../src/auth/api-keys.ts');
  const { rawKey } = await createApiKey(database.db, 'concurrent');
  const responses = await Promise.all(Array.from({ length: 50 }, () => post(service.app, rawKey, '{}')));
  const codes = responses.map((r) => r.statusCode);
  assert.equal(codes.filter((c) => c === 400).length, 10);
  assert.equal(codes.filter((c) => c === 429).length, 40);
});

test('the same across two app instances sharing PostgreSQL', { skip: !usingPostgres && 'PostgreSQL only (TEST_DATABASE_URL)' }, async () => {
  const other = await database.connectAgain!();
  const second = await startTestService({
    database: other,
    routes: {},
    fixture: service.fixture,
    rateLimiter: createRateLimiter(other.db, { limit: 10, windowSeconds: 60 }, fixedClock),
  });
  try {
    const { createApiKey } = await import('../../src/auth/api-keys.ts');
    const { rawKey } = await createApiKey(database.db, 'two instances');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(i % 2 ? service.app : second.app, rawKey, '{}')),
    );
    const codes = responses.map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 400).length, 10);
    assert.equal(codes.filter((c) => c === 429).length, 40);
  } finally {
    await second.close();
    await other.close();
  }
});
