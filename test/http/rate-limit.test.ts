import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey, revokeApiKey, setApiKeyRateLimit } from '../../src/auth/api-keys.ts';
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

test('a key’s own budget on the audit budget: 50 concurrent authenticate-and-takes, exactly its 3; another key the default', async () => {
  const own = await createApiKey(database.db, null, 3);
  const plain = await createApiKey(database.db, null);
  const limiter = createRateLimiter(database.db, policy, () => new Date('2026-01-01T00:00:30Z'));
  const taken = await Promise.all(Array.from({ length: 50 }, () => limiter.authenticateAndTake(own.rawKey)));
  assert.equal(taken.filter((t) => t!.decision.allowed).length, 3);
  for (const t of taken) assert.equal(t!.decision.limit, 3);
  assert.deepEqual(taken.filter((t) => t!.decision.allowed).map((t) => t!.decision.remaining).sort(), [0, 1, 2]);
  const others = await Promise.all(Array.from({ length: 20 }, () => limiter.authenticateAndTake(plain.rawKey)));
  assert.equal(others.filter((t) => t!.decision.allowed).length, 10);
  for (const t of others) assert.equal(t!.decision.limit, 10);
  // take() by id reads the same budget.
  const byId = await limiter.take(own.id);
  assert.deepEqual(byId, { allowed: false, limit: 3, remaining: 0, resetSeconds: 30 });
});

test('a budget above the default lets the key past it', async () => {
  const { rawKey } = await createApiKey(database.db, null, 25);
  const limiter = createRateLimiter(database.db, policy, () => new Date('2026-01-01T00:00:30Z'));
  const taken = await Promise.all(Array.from({ length: 30 }, () => limiter.authenticateAndTake(rawKey)));
  assert.equal(taken.filter((t) => t!.decision.allowed).length, 25);
});

test('a changed budget applies from the next take, to the window in progress; back to default is the policy again', async () => {
  const { id, rawKey } = await createApiKey(database.db, null);
  const limiter = createRateLimiter(database.db, { limit: 2, windowSeconds: 60 }, () => new Date('2026-01-01T00:00:30Z'));
  await limiter.authenticateAndTake(rawKey);
  await limiter.authenticateAndTake(rawKey);
  assert.equal((await limiter.authenticateAndTake(rawKey))!.decision.allowed, false, 'the default of 2 is spent');
  assert.equal(await setApiKeyRateLimit(database.db, id, 5), 'updated');
  assert.deepEqual((await limiter.authenticateAndTake(rawKey))!.decision, { allowed: true, limit: 5, remaining: 1, resetSeconds: 30 }, 'the 4th of 5');
  assert.equal(await setApiKeyRateLimit(database.db, id, 5), 'unchanged');
  assert.equal(await setApiKeyRateLimit(database.db, id, null), 'updated');
  assert.deepEqual((await limiter.authenticateAndTake(rawKey))!.decision, { allowed: false, limit: 2, remaining: 0, resetSeconds: 30 });
  assert.equal(await setApiKeyRateLimit(database.db, id, null), 'unchanged');
  assert.equal(await setApiKeyRateLimit(database.db, '00000000-0000-4000-8000-000000000000', 3), 'not-found');
  assert.equal(await setApiKeyRateLimit(database.db, 'not-a-uuid', 3), 'not-found');
});

test('the webhook and monitor budgets ignore a key’s own audit budget', async () => {
  const { id, rawKey } = await createApiKey(database.db, null, 100);
  for (const table of ['webhook_rate_limit_windows', 'monitor_rate_limit_windows'] as const) {
    const limiter = createRateLimiter(database.db, { limit: 2, windowSeconds: 60 }, () => new Date('2026-01-01T00:00:30Z'), table);
    const taken = await Promise.all(Array.from({ length: 5 }, () => limiter.authenticateAndTake(rawKey)));
    assert.equal(taken.filter((t) => t!.decision.allowed).length, 2, table);
    for (const t of taken) assert.equal(t!.decision.limit, 2, table);
    assert.equal((await limiter.take(id)).limit, 2, table);
  }
});

test('the store refuses a budget outside 1..1,000,000; the database refuses one below 1', async () => {
  const { id } = await createApiKey(database.db, null);
  for (const bad of [0, -1, 1.5, 1_000_001, Number.NaN]) {
    await assert.rejects(setApiKeyRateLimit(database.db, id, bad), RangeError, String(bad));
    await assert.rejects(createApiKey(database.db, null, bad), RangeError, String(bad));
  }
  await assert.rejects(database.db.updateTable('api_keys').set({ rate_limit: 0 }).where('id', '=', id).execute(), /check constraint/);
  assert.equal(await setApiKeyRateLimit(database.db, id, 1_000_000), 'updated');
});

test('a key’s own budget is exact across two independent pools, as two processes sharing PostgreSQL would be', { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only (TEST_DATABASE_URL)' }, async () => {
  const other = await database.connectAgain!();
  try {
    const { rawKey } = await createApiKey(database.db, null, 7);
    const clock = () => new Date('2026-01-01T00:00:10Z');
    const first = createRateLimiter(database.db, policy, clock);
    const second = createRateLimiter(other.db, policy, clock);
    const taken = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? first : second).authenticateAndTake(rawKey)));
    assert.equal(taken.filter((t) => t!.decision.allowed).length, 7);
  } finally {
    await other.close();
  }
});
