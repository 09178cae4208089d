// GET /api/v1/alerts/webhooks, the dashboard list: every key's registrations for an admin session,
// newest first, keyset-paginated, with each one's latest attempt, and no secret anywhere.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createAdminCookie } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

let database: TestDatabase;
let service: TestService;
let admin: Awaited<ReturnType<typeof createAdminCookie>>;
const keys: { id: string; rawKey: string; display: string }[] = [];
const challenges: string[] = [];
/** Registration ids, in the order created (oldest first). */
const registrations: string[] = [];
let attemptId: string;

async function register(keyId: string, index: number) {
  const id = randomUUID();
  const challenge = `challenge-${randomUUID()}-${index}`;
  challenges.push(challenge);
  await database.db
    .insertInto('webhooks')
    .values({
      id,
      api_key_id: keyId,
      url: `https://hooks.example.com/${index}`,
      trigger_severity: index % 2 ? 'high' : 'medium',
      trigger_branch: 'privacy',
      challenge,
      verified_at: new Date(T0 + index * 1000 - 10),
      // Two registrations share a timestamp: the id breaks the tie.
      created_at: new Date(T0 + Math.min(index, 5) * 1000),
    })
    .execute();
  registrations.push(id);
  return id;
}

/** An audit, a delivery and a failed attempt to the registration, recorded as its latest. */
async function recordAttempt(webhookId: string, keyId: string) {
  const auditId = randomUUID();
  await database.db
    .insertInto('audits')
    .values({
      id: auditId, api_key_id: keyId, branch: 'privacy', standard: null, include_warnings: true, requested_url: 'https://example.com/',
      final_url: 'https://example.com/', origin: 'https://example.com', http_status: 200, redirect_chain: '[]', fetched_at: new Date(T0),
      byte_count: 1, body_sha256: '0'.repeat(64), errors: 1, warnings: 0, inconclusive: 0,
    })
    .execute();
  const deliveryId = randomUUID();
  await database.db.insertInto('webhook_deliveries').values({ id: deliveryId, webhook_id: webhookId, audit_id: auditId, event: '{}' }).execute();
  const id = randomUUID();
  await database.db
    .insertInto('webhook_attempts')
    .values({
      id, delivery_id: deliveryId, webhook_id: webhookId, attempt_number: 1, outcome: 'failed', status_code: 503,
      reason: 'non-2xx response (status 503)', duration_ms: 41, response_body: 'down', attempted_at: new Date(T0 + 60_000),
    })
    .execute();
  await database.db.updateTable('webhooks').set({ latest_attempt_id: id }).where('id', '=', webhookId).execute();
  return id;
}

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, delivery: { enabled: false } });
  for (const label of ['one', 'two']) {
    const { id, rawKey } = await createApiKey(database.db, label);
    keys.push({ id, rawKey, display: rawKey.slice(0, 8) });
  }
  // Seven registrations alternating between the two keys; the third gets an attempt.
  for (let index = 0; index < 7; index++) await register(keys[index % 2]!.id, index);
  attemptId = await recordAttempt(registrations[2]!, keys[0]!.id);
  admin = await createAdminCookie(database.db);
});
after(async () => {
  await service.close();
  await database.close();
});

const bodies: string[] = [];
async function list(query = '', cookie: string | undefined = admin.cookie) {
  const res = await service.app.inject({ method: 'GET', url: `/api/v1/alerts/webhooks${query}`, headers: cookie ? { cookie } : {} });
  bodies.push(res.body);
  return res;
}

describe('the list', () => {
  test('every registration of both keys, newest first, with owner key id and display prefix', async () => {
    const res = await list();
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['items', 'nextCursor']);
    assert.equal(body.nextCursor, null);
    assert.equal(body.items.length, 7);
    const created = body.items.map((item: { createdAt: string }) => Date.parse(item.createdAt));
    assert.deepEqual(created, [...created].sort((a, b) => b - a), 'newest first');
    // Indexes 5 and 6 share createdAt: ordered by id, descending.
    const tied = body.items.slice(0, 2).map((item: { id: string }) => item.id);
    assert.deepEqual(tied, [registrations[5], registrations[6]].sort().reverse());
    for (const item of body.items) {
      assert.deepEqual(Object.keys(item), ['id', 'keyId', 'keyPrefix', 'url', 'trigger', 'verifiedAt', 'createdAt', 'latestAttempt']);
      const index = registrations.indexOf(item.id);
      const key = keys[index % 2]!;
      assert.equal(item.keyId, key.id);
      assert.equal(item.keyPrefix, key.display);
      assert.equal(item.url, `https://hooks.example.com/${index}`);
      // Inserted without trigger_on, as every registration stored before migration 0013: every-audit.
      assert.deepEqual(item.trigger, { severity: index % 2 ? 'high' : 'medium', branch: 'privacy', on: 'every-audit' });
    }
  });

  test('latestAttempt: the recorded attempt on the registration that has one, null on the others', async () => {
    const items = (await list()).json().items as { id: string; latestAttempt: unknown }[];
    const withAttempt = items.find((item) => item.id === registrations[2]);
    assert.deepEqual(withAttempt!.latestAttempt, {
      deliveryId: attemptId,
      outcome: 'failed',
      statusCode: 503,
      reason: 'non-2xx response (status 503)',
      attemptedAt: new Date(T0 + 60_000).toISOString(),
      durationMs: 41,
    });
    for (const item of items.filter((i) => i.id !== registrations[2])) assert.equal(item.latestAttempt, null);
  });

  test('pages of 3 walk all 7 once, in order; the last page has nextCursor null', async () => {
    const whole = (await list()).json().items.map((item: { id: string }) => item.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      seen.push(...body.items.map((item: { id: string }) => item.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, whole);
  });

  test('no raw key, key hash or challenge anywhere in a body', async () => {
    await list('?limit=100');
    const hashes = await database.db.selectFrom('api_keys').select('key_hash').execute();
    const all = bodies.join('\n');
    for (const secret of [...keys.map((k) => k.rawKey), ...hashes.map((h) => h.key_hash), ...challenges]) {
      assert.equal(all.includes(secret), false);
    }
    assert.equal(all.includes('challenge'), false);
  });

  const badQueries: [string, Record<string, string>][] = [
    ['?limit=0', { limit: 'must be >= 1' }],
    ['?limit=101', { limit: 'must be <= 100' }],
    ['?limit=ten', { limit: 'must be integer' }],
    ['?cursor=not-a-cursor', { cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' }],
    ['?owner=me', { owner: 'is not a known field' }],
  ];
  for (const [query, errors] of badQueries) {
    test(`400 for ${query}`, async () => {
      const res = await list(query);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { errors });
    });
  }
});

describe('access', () => {
  test('an API key is not a session: 403 {"error":"forbidden"}', async () => {
    const res = await service.app.inject({ method: 'GET', url: '/api/v1/alerts/webhooks', headers: { 'x-api-key': keys[0]!.rawKey } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, '{"error":"forbidden"}');
  });

  test('a member: 403, and refused before the query is validated', async () => {
    const member = await createAdminCookie(database.db, { role: 'member' });
    for (const query of ['', '?limit=0']) {
      const res = await list(query, member.cookie);
      assert.equal(res.statusCode, 403);
      assert.equal(res.body, '{"error":"forbidden"}');
    }
  });
});
