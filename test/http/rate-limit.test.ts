import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const policy = { limit: 10, windowSeconds: 60 };

test('50 concurrent takes in one window: exactly 10 allowed', async () => {
  const { id } = await createApiKey(database.db, null);
  const clock = () => new Date('2026-01-01T00:00:30Z');
  const limiter = createRateLimiter(database.db, policy, clock);
  const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.take(id)));
  assert.equal(decisions.filter((d) => d.allowed).length, 10);
  assert.equal(decisions.filter((d) => !d.allowed).length, 40);
  assert.deepEqual(
    decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  for (const decision of decisions) assert.equal(decision.resetSeconds, 30);
});

test('windows are aligned to the clock and a new window starts fresh', async () => {
  const { id } = await createApiKey(database.db, null);
  let now = new Date('2026-01-01T00:00:59.500Z');
  const limiter = createRateLimiter(database.db, { limit: 2, windowSeconds: 60 }, () => now);
  assert.equal((await limiter.take(id)).allowed, true);
  assert.equal((await limiter.take(id)).allowed, true);
  const denied = await limiter.take(id);
  assert.deepEqual(denied, { allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
  now = new Date('2026-01-01T00:01:00.000Z');
  assert.deepEqual(await limiter.take(id), { allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  // Finished windows of the key are cleaned up as new ones start.
  const rows = await database.db.selectFrom('rate_limit_windows').selectAll().where('api_key_id', '=', id).execute();
  assert.equal(rows.length, 1);
});

test('keys have separate budgets', async () => {
  const a = await createApiKey(database.db, null);
  const b = await createApiKey(database.db, null);
  const limiter = createRateLimiter(database.db, { limit: 1, windowSeconds: 60 }, () => new Date('2026-01-01T00:00:00Z'));
  assert.equal((await limiter.take(a.id)).allowed, true);
  assert.equal((await limiter.take(a.id)).allowed, false);
  assert.equal((await limiter.take(b.id)).allowed, true);
});

test('the database clock is used when no clock is injected', async () => {
  const { id } = await createApiKey(database.db, null);
  const limiter = createRateLimiter(database.db, { limit: 3, windowSeconds: 60 });
  const decision = await limiter.take(id);
  assert.equal(decision.allowed, true);
  assert.ok(decision.resetSeconds >= 1 && decision.resetSeconds <= 60);
});

test('exact across two independent pools, as two processes sharing PostgreSQL would be', { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only (TEST_DATABASE_URL)' }, async () => {
  const other = await database.connectAgain!();
  try {
    const { id } = await createApiKey(database.db, null);
    const clock = () => new Date('2026-01-01T00:00:10Z');
    const first = createRateLimiter(database.db, policy, clock);
    const second = createRateLimiter(other.db, policy, clock);
    const decisions = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? first : second).take(id)));
    assert.equal(decisions.filter((d) => d.allowed).length, 10);
  } finally {
    await other.close();
  }
});

test('authenticate and take in one statement: 50 concurrent with the raw key, exactly 10 allowed, each with the key id', async () => {
  const { id, rawKey } = await createApiKey(database.db, null);
  const limiter = createRateLimiter(database.db, policy, () => new Date('2026-01-01T00:00:30Z'));
  const taken = await Promise.all(Array.from({ length: 50 }, () => limiter.authenticateAndTake(rawKey)));
  assert.ok(taken.every((t) => t?.apiKey.id === id));
  assert.equal(taken.filter((t) => t!.decision.allowed).length, 10);
  assert.deepEqual(
    taken.filter((t) => t!.decision.allowed).map((t) => t!.decision.remaining).sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  for (const t of taken) assert.equal(t!.decision.resetSeconds, 30);
});

test('authenticate and take: a missing, unknown or revoked key is undefined and takes no slot', async () => {
  const { id, rawKey } = await createApiKey(database.db, null);
  await revokeApiKey(database.db, id);
  const limiter = createRateLimiter(database.db, policy, () => new Date('2026-01-01T00:00:30Z'));
  assert.equal(await limiter.authenticateAndTake(undefined), undefined);
  assert.equal(await limiter.authenticateAndTake(''), undefined);
  assert.equal(await limiter.authenticateAndTake(`${rawKey}x`), undefined);
  assert.equal(await limiter.authenticateAndTake(rawKey), undefined);
  const rows = await database.db.selectFrom('rate_limit_windows').selectAll().where('api_key_id', '=', id).execute();
  assert.deepEqual(rows, []);
});
