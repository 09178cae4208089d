// POST /api/v1/alerts/webhook/{id}/attempts/{deliveryId}/resend through the real app and worker,
// on whichever database the run uses: a receiver that is down until the retry schedule is used up
// (the delivery is failed for good), then a resend that is delivered and correctly signed, the
// try appended to the same attempt log; then the refusals (pending, other keys, unknown and
// malformed ids, no key) and the rate limit, each leaving the outbox as it was.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { listenForDeliveries } from '../../src/alerts/listen.ts';
import { resendDelivery } from '../../src/alerts/resend.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import type { RecordedRequest } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';

const TRACKED = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
</head><body><main><h1>Notes from the allotment</h1><p>The beans went in this week.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

const RATE_LIMIT = 40;

let database: TestDatabase;
let service: TestService;
/** Whether the receiver accepts failure events (the verification ping is always accepted). */
let receiverUp = false;
const events: RecordedRequest[] = [];

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    // One retry 1 ms after the first try: the schedule is used up after two tries.
    env: { AUDIT_WEBHOOK_RETRY_SCHEDULE: '1ms', AUDIT_RATE_LIMIT: '1000' },
    // A clock that stands still: the budget test's requests share one window wherever the real boundary falls.
    webhookRateLimiter: createRateLimiter(
      database.db,
      { limit: RATE_LIMIT, windowSeconds: 60 },
      () => new Date('2026-03-01T10:00:15Z'),
      'webhook_rate_limit_windows',
    ),
    delivery: { pollIntervalMs: 20 },
    routes: {
      '/tracked': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(TRACKED),
      '/gone': (_req, res) => res.writeHead(404).end(),
      '/receiver': (_req, res, recorded) => {
        if (JSON.parse(recorded.body).type !== 'svc.audit.failure') return res.writeHead(200).end();
        events.push(recorded);
        if (receiverUp) res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
        else res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      },
    },
  });
  await failForGood();
});
after(async () => {
  await service.close();
  await database.close();
});

async function until<T>(what: string, poll: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const keyHeaders = () => ({ 'x-api-key': service.apiKey });
const resendUrl = (webhookId: string, deliveryId: string) => `/api/v1/alerts/webhook/${webhookId}/attempts/${deliveryId}/resend`;

type Attempt = { deliveryId: string; auditId: string; attemptNumber: number; outcome: string; statusCode: number | null };

async function attemptsOf(webhookId: string): Promise<Attempt[]> {
  const res = await service.app.inject({ method: 'GET', url: `/api/v1/alerts/webhook/${webhookId}/attempts?limit=100`, headers: keyHeaders() });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().items;
}

async function delivery(webhookId: string) {
  return database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
}

let webhook: { id: string };
let challenge: string;
let auditId: string;

/** A registration whose one delivery failed for good: both tries of the schedule answered 503. */
async function failForGood() {
  const registered = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers: keyHeaders(),
    payload: { url: service.pageUrl('/receiver'), trigger: { severity: 'medium', branch: 'privacy' } },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  webhook = registered.json();
  challenge = JSON.parse(service.fixture.requests.find((r) => r.path === '/receiver')!.body).challenge;
  const audited = await service.app.inject({ method: 'POST', url: '/api/v1/audit', headers: keyHeaders(), payload: { branch: 'privacy', url: service.pageUrl('/tracked') } });
  assert.equal(audited.statusCode, 201, audited.body);
  auditId = audited.json().id;
  await until('the delivery failing for good', async () => ((await delivery(webhook.id)).state === 'failed' ? true : undefined));
  const attempts = await attemptsOf(webhook.id);
  assert.deepEqual(attempts.map((a) => [a.attemptNumber, a.outcome, a.statusCode]), [[2, 'failed', 503], [1, 'failed', 503]]);
}

function verifySignature(request: RecordedRequest) {
  const h = request.headers;
  const expected = createHmac('sha256', Buffer.from(challenge, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${h['x-svc-timestamp']}.${h['x-svc-delivery-id']}.`, 'utf8'), request.rawBody]))
    .digest('hex');
  assert.equal(h['x-svc-signature'], `sha256=${expected}`);
}

test('a failed delivery is resent: one new, freshly signed try of the same event, appended to the attempt log', async () => {
  const before = await attemptsOf(webhook.id);
  const firstEvent = JSON.parse(events[0]!.rawBody.toString('utf8'));

  // Still down: the resend is one try (the schedule was used up), failed, and not retried.
  const stillDown = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, before[1]!.deliveryId), headers: keyHeaders() });
  assert.equal(stillDown.statusCode, 202, stillDown.body);
  assert.deepEqual(stillDown.json(), { state: 'pending', auditId, attemptNumber: 3 });
  assert.equal(stillDown.headers['ratelimit-limit'], String(RATE_LIMIT));
  await until('the resent try', async () => ((await delivery(webhook.id)).state === 'failed' ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 100)); // a retry would be due after 1 ms, claimed within 20 ms
  assert.deepEqual((await attemptsOf(webhook.id)).map((a) => [a.attemptNumber, a.outcome]), [[3, 'failed'], [2, 'failed'], [1, 'failed']]);
  assert.equal((await delivery(webhook.id)).state, 'failed');

  // Up again: resending (named by its newest attempt now) delivers the same stored event.
  receiverUp = true;
  const sentBefore = events.length;
  const newest = (await attemptsOf(webhook.id))[0]!;
  const resent = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, newest.deliveryId), headers: keyHeaders() });
  assert.equal(resent.statusCode, 202, resent.body);
  assert.deepEqual(resent.json(), { state: 'pending', auditId, attemptNumber: 4 });
  await until('the delivered resend', async () => ((await delivery(webhook.id)).state === 'delivered' ? true : undefined));
  assert.equal(events.length, sentBefore + 1, 'one request per resend');
  const received = events.at(-1)!;
  verifySignature(received);
  const body = JSON.parse(received.rawBody.toString('utf8'));
  assert.equal(body.deliveryId, received.headers['x-svc-delivery-id']);
  const earlierIds = new Set(events.slice(0, -1).map((e) => e.headers['x-svc-delivery-id']));
  assert.ok(!earlierIds.has(body.deliveryId), 'a new deliveryId per try');
  assert.ok(Math.abs(Number(received.headers['x-svc-timestamp']) - Date.now() / 1000) < 60, 'a fresh timestamp');
  assert.deepEqual({ ...body, deliveryId: undefined, timestamp: undefined }, { ...firstEvent, deliveryId: undefined, timestamp: undefined }, 'the same stored event');
  assert.equal(body.audit.id, auditId);

  const after = await attemptsOf(webhook.id);
  assert.deepEqual(after.map((a) => [a.attemptNumber, a.outcome, a.auditId]), [[4, 'delivered', auditId], [3, 'failed', auditId], [2, 'failed', auditId], [1, 'failed', auditId]]);
  assert.equal(after[0]!.deliveryId, body.deliveryId);
  const list = await service.app.inject({ method: 'GET', url: '/api/v1/alerts/webhook', headers: keyHeaders() });
  assert.equal(list.json().items[0].latestAttempt.deliveryId, body.deliveryId);
  assert.equal((await database.db.selectFrom('webhook_deliveries').select('id').execute()).length, 1, 'no new outbox row: the same delivery');
  assert.ok(!service.rawLogs.some((line) => line.includes(challenge)), 'the secret is in no log line');
});

test('a delivered delivery can be resent too (receivers deduplicate on audit.id)', async () => {
  const [newest] = await attemptsOf(webhook.id);
  assert.equal(newest!.outcome, 'delivered');
  const sentBefore = events.length;
  const res = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, newest!.deliveryId), headers: keyHeaders() });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().attemptNumber, newest!.attemptNumber + 1);
  await until('the second delivered resend', async () => ((await attemptsOf(webhook.id)).length === newest!.attemptNumber + 1 ? true : undefined));
  assert.equal(events.length, sentBefore + 1);
  verifySignature(events.at(-1)!);
  assert.equal((await delivery(webhook.id)).state, 'delivered');
});

test('a pending delivery (waiting for a retry, or in flight) is a 409 and stays as it was', async () => {
  const [newest] = await attemptsOf(webhook.id);
  const { id } = await delivery(webhook.id);
  const later = new Date(Date.now() + 86_400_000);
  const states = [
    { state: 'pending', next_attempt_at: later, locked_until: null, lease: null },
    { state: 'pending', next_attempt_at: new Date(Date.now() - 1000), locked_until: later, lease: randomUUID() },
  ];
  const restore = await delivery(webhook.id);
  try {
    for (const state of states) {
      await database.db.updateTable('webhook_deliveries').set(state).where('id', '=', id).execute();
      const before = await delivery(webhook.id);
      const res = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, newest!.deliveryId), headers: keyHeaders() });
      assert.equal(res.statusCode, 409, res.body);
      assert.deepEqual(res.json(), { error: 'delivery pending' });
      assert.deepEqual(await delivery(webhook.id), before, 'nothing changed');
    }
  } finally {
    await database.db
      .updateTable('webhook_deliveries')
      .set({ state: restore.state, next_attempt_at: restore.next_attempt_at, locked_until: null, lease: null })
      .where('id', '=', id)
      .execute();
  }
});

test('another key, unknown ids, another registration’s attempt: 404, nothing requeued', async () => {
  const [newest] = await attemptsOf(webhook.id);
  const other = await createApiKey(database.db, 'other');
  // The other key's own registration, to name this key's attempt under it.
  const otherWebhook = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers: { 'x-api-key': other.rawKey },
    payload: { url: service.pageUrl('/receiver'), trigger: { severity: 'high', branch: 'privacy' } },
  });
  assert.equal(otherWebhook.statusCode, 201, otherWebhook.body);
  const before = await delivery(webhook.id);
  const cases = [
    { key: other.rawKey, url: resendUrl(webhook.id, newest!.deliveryId), why: 'another key’s registration' },
    { key: other.rawKey, url: resendUrl(otherWebhook.json().id, newest!.deliveryId), why: 'an attempt of another registration' },
    { key: service.apiKey, url: resendUrl(randomUUID(), newest!.deliveryId), why: 'an unknown registration' },
    { key: service.apiKey, url: resendUrl(webhook.id, randomUUID()), why: 'an unknown attempt' },
    { key: service.apiKey, url: resendUrl(webhook.id, webhook.id), why: 'the registration’s id as an attempt' },
  ];
  for (const c of cases) {
    const res = await service.app.inject({ method: 'POST', url: c.url, headers: { 'x-api-key': c.key } });
    assert.equal(res.statusCode, 404, `${c.why}: ${res.body}`);
    assert.deepEqual(res.json(), { error: 'not found' }, c.why);
  }
  assert.deepEqual(await delivery(webhook.id), before);
});

test('malformed ids are a 400 in the contract’s shape; no or a wrong key is a 401', async () => {
  const [newest] = await attemptsOf(webhook.id);
  const before = await delivery(webhook.id);
  const malformed = [
    { url: resendUrl('not-a-uuid', newest!.deliveryId), errors: { id: 'must be a UUID' } },
    { url: resendUrl(webhook.id, '12345'), errors: { deliveryId: 'must be a UUID' } },
    { url: resendUrl('x', 'y'), errors: { id: 'must be a UUID', deliveryId: 'must be a UUID' } },
  ];
  for (const c of malformed) {
    const res = await service.app.inject({ method: 'POST', url: c.url, headers: keyHeaders() });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), { errors: c.errors });
  }
  for (const headers of [{}, { 'x-api-key': 'ask_wrong' }]) {
    const res = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, newest!.deliveryId), headers });
    assert.equal(res.statusCode, 401, res.body);
    assert.deepEqual(res.json(), { error: 'invalid api key' });
    assert.ok(res.headers['ratelimit-policy']);
  }
  // 401 comes before the ids are looked at.
  const unauthenticatedMalformed = await service.app.inject({ method: 'POST', url: resendUrl('x', 'y') });
  assert.equal(unauthenticatedMalformed.statusCode, 401);
  assert.deepEqual(await delivery(webhook.id), before);
});

test('resends take slots of the registration budget: over it, 429 and nothing requeued', async () => {
  const [newest] = await attemptsOf(webhook.id);
  const before = await delivery(webhook.id);
  let limited;
  for (let i = 0; i <= RATE_LIMIT && !limited; i++) {
    // Malformed ids: each takes a slot, none requeues anything.
    const res = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, 'x'), headers: keyHeaders() });
    if (res.statusCode === 429) limited = res;
    else assert.equal(res.statusCode, 400);
  }
  assert.ok(limited, 'the budget ran out');
  const res = await service.app.inject({ method: 'POST', url: resendUrl(webhook.id, newest!.deliveryId), headers: keyHeaders() });
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.json().error, 'rate limit exceeded');
  assert.ok(Number(res.headers['retry-after']) >= 1);
  assert.deepEqual(await delivery(webhook.id), before);
});

test('OpenAPI: every status of the resend route is documented, each with an example body', async () => {
  const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const operation = spec.paths['/api/v1/alerts/webhook/{id}/attempts/{deliveryId}/resend'].post;
  assert.deepEqual(Object.keys(operation.responses).sort(), ['202', '400', '401', '404', '409', '429', '500', '503']);
  for (const [status, response] of Object.entries(operation.responses as Record<string, { content: Record<string, { example?: unknown; examples?: unknown; schema: { examples?: unknown } }> }>)) {
    const json = response.content['application/json']!;
    assert.ok(json.example ?? json.examples ?? json.schema.examples, `${status} has an example`);
  }
  assert.deepEqual(operation.security, [{ apiKey: [] }]);
  assert.match(operation.description, /`failed` or `delivered`/);
  assert.match(operation.description, /409/);
});

test('on PostgreSQL, a resend NOTIFYs the delivery channel at its commit (worker processes wake at once)', { skip: !usingPostgres && 'PostgreSQL only: other processes LISTEN there' }, async () => {
  let notified!: () => void;
  const notification = new Promise<void>((resolve) => (notified = resolve));
  const quiet = { info() {}, warn() {} };
  let count = 0;
  const listener = await listenForDeliveries(database.connectionString!, () => {
    if (++count > 1) notified(); // the first call is the listener's own catch-up on connect
  }, quiet);
  try {
    const [newest] = await attemptsOf(webhook.id);
    // A fresh budget window is not guaranteed here: the previous test spent it, so go around the limiter.
    const result = await resendDelivery(database.db, { webhookId: webhook.id, attemptId: newest!.deliveryId, apiKeyId: service.apiKeyId });
    assert.equal(result.outcome, 'queued');
    await Promise.race([notification, new Promise((_, reject) => setTimeout(() => reject(new Error('no NOTIFY within 5 s')), 5000))]);
  } finally {
    await listener.close();
  }
});
