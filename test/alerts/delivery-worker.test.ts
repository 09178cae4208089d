// The delivery worker against real HTTPS receivers on loopback (test CA, static resolve), a real
// test database, an injected clock and jitter draw: retries are driven by moving the clock, never
// by sleeping.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/alerts/delivery-worker.ts';
import { listAttempts, listRegistrations } from '../../src/alerts/registrations.ts';
import type { StoredEvent } from '../../src/alerts/signing.ts';
import { verifySignature } from '../../src/alerts/verify-signature.ts';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.ts';
import { createAddressPolicy, parseCidrList, parseStaticResolve } from '../../src/net/address-policy.ts';
import { createSafeFetcher, type SafeFetcher } from '../../src/net/safe-fetch.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startHttpsFixture, type Fixture, type RecordedRequest } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';

const HOST = 'hooks.test';
const SECRET = 'a-challenge-of-32-random-bytes-base64url-xx';
const T0 = new Date('2026-03-01T10:00:00.000Z');

let database: TestDatabase;
let fixture: Fixture;
let fetcher: SafeFetcher;
let keyId: string;
/** Per-path answers, changeable per test. */
const answers = new Map<string, (res: ServerResponse) => void>();

before(async () => {
  database = await openTestDatabase();
  const pki = await makeTestPki([HOST]);
  fixture = await startHttpsFixture((req, res) => {
    const answer = answers.get(new URL(req.url ?? '/', 'https://x').pathname);
    if (answer) answer(res);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }, pki);
  fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.0/8')),
    staticResolve: parseStaticResolve(`${HOST}=127.0.0.1`),
    ca: [pki.caPem],
  });
  keyId = (await createApiKey(database.db, 'worker')).id;
});
after(async () => {
  await fetcher.close();
  await fixture.close();
  await database.close();
});

// Each test counts the tries it causes: rows other tests left pending must not fall due in it.
beforeEach(async () => {
  await database.db.updateTable('webhook_deliveries').set({ state: 'failed' }).where('state', '=', 'pending').execute();
});

const logs: { level: string; obj: object; msg: string }[] = [];
const log = {
  info: (obj: object, msg: string) => logs.push({ level: 'info', obj, msg }),
  warn: (obj: object, msg: string) => logs.push({ level: 'warn', obj, msg }),
  error: (obj: object, msg: string) => logs.push({ level: 'error', obj, msg }),
};

function fakeClock(start = T0) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms), set: (date: Date) => (now = date.getTime()) };
}

function worker(clock: () => Date, options: { schedule?: number[]; random?: () => number; timeoutMs?: number; db?: TestDatabase['db'] } = {}): DeliveryWorker {
  return createDeliveryWorker({
    db: options.db ?? database.db,
    fetcher,
    // Generous: a loaded machine (the suite runs files in parallel) must not turn a slow handshake into a failure.
    timeoutMs: options.timeoutMs ?? 15_000,
    retryScheduleMs: options.schedule ?? [5_000, 300_000],
    log,
    clock,
    random: options.random ?? (() => 0.5),
  });
}

/** A registration and an audit with one pending delivery to it, inserted directly. */
async function pendingDelivery(path: string, options: { challenge?: string | null; at?: Date; apiKeyId?: string } = {}) {
  const webhookId = randomUUID();
  await database.db
    .insertInto('webhooks')
    .values({
      id: webhookId,
      api_key_id: options.apiKeyId ?? keyId,
      url: fixture.url(HOST, path),
      trigger_branch: 'privacy',
      trigger_severity: 'high',
      challenge: options.challenge === undefined ? SECRET : options.challenge,
      verified_at: T0,
    })
    .execute();
  const auditId = await insertAudit();
  const event: StoredEvent = {
    audit: { id: auditId, url: 'https://example.com/', branch: 'privacy', createdAt: T0.toISOString(), totals: { errors: 1, warnings: 0 } },
    failures: [{ control: 'privacy.privacy-policy-link', status: 'fail', severity: 'error', evidence: 'No privacy policy link' }],
  };
  const deliveryId = randomUUID();
  await database.db
    .insertInto('webhook_deliveries')
    .values({ id: deliveryId, webhook_id: webhookId, audit_id: auditId, event: JSON.stringify(event), next_attempt_at: options.at ?? T0 })
    .execute();
  return { webhookId, auditId, deliveryId, path };
}

async function insertAudit(): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('audits')
    .values({
      id, api_key_id: keyId, branch: 'privacy', standard: null, include_warnings: true, requested_url: 'https://example.com/',
      final_url: 'https://example.com/', origin: 'https://example.com', http_status: 200, redirect_chain: '[]', fetched_at: T0,
      byte_count: 1, body_sha256: '0'.repeat(64), errors: 1, warnings: 0, inconclusive: 0,
    })
    .execute();
  return id;
}

const received = (path: string): RecordedRequest[] => fixture.requests.filter((r) => new URL(r.path, 'https://x').pathname === path);
const delivery = (id: string) => database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const attemptsOf = async (webhookId: string) => (await listAttempts(database.db, keyId, webhookId, { limit: 100 }))!.attempts;

describe('one try', () => {
  test('a 2xx: delivered; the receiver gets the signed event, verified with an independent HMAC on the raw bytes', async () => {
    const clock = fakeClock();
    const { webhookId, auditId, deliveryId, path } = await pendingDelivery('/ok');
    assert.equal(await worker(clock.now).drain(), 1);

    const [request] = received(path);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    const h = request.headers;
    assert.match(String(h['content-type']), /^application\/json/);
    assert.equal(h['x-svc-event'], 'svc.audit.failure');
    assert.equal(h['x-svc-version'], '1');
    assert.equal(h['x-svc-timestamp'], String(T0.getTime() / 1000));
    const expected = createHmac('sha256', Buffer.from(SECRET, 'utf8'))
      .update(Buffer.concat([Buffer.from(`${h['x-svc-timestamp']}.${h['x-svc-delivery-id']}.`), request.rawBody]))
      .digest('hex');
    assert.equal(h['x-svc-signature'], `sha256=${expected}`);
    assert.equal(verifySignature({ secret: SECRET, body: request.rawBody, headers: h, now: T0 }).valid, true);
    const body = JSON.parse(request.body);
    assert.equal(body.deliveryId, h['x-svc-delivery-id']);
    assert.equal(body.timestamp, T0.toISOString());
    assert.equal(body.audit.id, auditId);

    const row = await delivery(deliveryId);
    assert.equal(row.state, 'delivered');
    assert.equal(row.attempts, 1);
    assert.equal(row.lease, null);
    const [attempt] = await attemptsOf(webhookId);
    assert.deepEqual({ ...attempt, durationMs: 0 }, {
      deliveryId: h['x-svc-delivery-id'], auditId, attemptNumber: 1, outcome: 'delivered', statusCode: 200, reason: null,
      responseBody: 'ok', attemptedAt: T0, durationMs: 0,
    });
    const registration = (await listRegistrations(database.db, keyId)).find((r) => r.id === webhookId)!;
    assert.deepEqual(registration.latestAttempt, {
      deliveryId: attempt!.deliveryId, outcome: 'delivered', statusCode: 200, reason: null, attemptedAt: T0, durationMs: attempt!.durationMs,
    });
    assert.equal(await worker(clock.now).drain(), 0, 'nothing left to send');
  });

  test('at most 1 KiB of the answer is kept, whatever its size', async () => {
    answers.set('/chatty', (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('é'.repeat(5000)));
    const { webhookId } = await pendingDelivery('/chatty');
    await worker(fakeClock().now).drain();
    const [attempt] = await attemptsOf(webhookId);
    assert.equal(attempt!.outcome, 'delivered');
    assert.ok(Buffer.byteLength(attempt!.responseBody!, 'utf8') <= 1024 + 2);
    assert.ok(attempt!.responseBody!.startsWith('éé'));
  });

  const failing: [string, (res: ServerResponse) => void, number | null, string][] = [
    ['a 302 (not followed)', (res) => res.writeHead(302, { location: '/ok' }).end(), 302, 'redirect'],
    ['a 500', (res) => res.writeHead(500).end('boom'), 500, 'non-2xx response (status 500)'],
    ['a receiver that never answers', () => {}, null, 'timeout'],
  ];
  for (const [name, answer, statusCode, reason] of failing) {
    test(`${name}: a failed attempt with reason "${reason}", retry scheduled`, async () => {
      const path = `/failing-${randomUUID()}`;
      answers.set(path, answer);
      const clock = fakeClock();
      const { webhookId, deliveryId } = await pendingDelivery(path);
      await worker(clock.now, { timeoutMs: 300 }).drain();
      const [attempt] = await attemptsOf(webhookId);
      assert.equal(attempt!.outcome, 'failed');
      assert.equal(attempt!.statusCode, statusCode);
      assert.equal(attempt!.reason, reason);
      const row = await delivery(deliveryId);
      assert.equal(row.state, 'pending');
      assert.equal(row.next_attempt_at.getTime(), T0.getTime() + 5000);
      assert.equal(received('/ok').filter((r) => r.method === 'GET').length, 0, 'the redirect was not followed');
    });
  }

  test('a legacy registration (no challenge): one failed attempt, nothing sent, never retried', async () => {
    const clock = fakeClock();
    const { webhookId, deliveryId, path } = await pendingDelivery('/legacy', { challenge: null });
    assert.equal(await worker(clock.now).drain(), 1);
    assert.equal(received(path).length, 0);
    const attempts = await attemptsOf(webhookId);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]!.outcome, 'failed');
    assert.equal(attempts[0]!.reason, 'no signing secret (legacy registration)');
    assert.equal(attempts[0]!.statusCode, null);
    assert.equal((await delivery(deliveryId)).state, 'failed');
    clock.advance(48 * 3_600_000);
    assert.equal(await worker(clock.now).drain(), 0);
    assert.equal((await attemptsOf(webhookId)).length, 1);
  });
});

describe('retries', () => {
  test('on the schedule, each try a new deliveryId, timestamp and signature; exhausted → failed for good', async () => {
    answers.set('/down', (res) => res.writeHead(503).end('down'));
    const clock = fakeClock();
    const w = worker(clock.now, { schedule: [5_000, 300_000] });
    const { webhookId, deliveryId, path } = await pendingDelivery('/down');
    assert.equal(await w.drain(), 1);
    clock.advance(4_999);
    assert.equal(await w.drain(), 0, 'not due before its delay');
    clock.advance(1);
    assert.equal(await w.drain(), 1);
    assert.equal((await delivery(deliveryId)).next_attempt_at.getTime(), T0.getTime() + 5_000 + 300_000);
    clock.advance(300_000);
    assert.equal(await w.drain(), 1);
    assert.equal((await delivery(deliveryId)).state, 'failed');
    clock.advance(86_400_000);
    assert.equal(await w.drain(), 0);

    const sent = received(path);
    assert.equal(sent.length, 3);
    const ids = sent.map((r) => r.headers['x-svc-delivery-id']);
    assert.equal(new Set(ids).size, 3);
    assert.deepEqual(sent.map((r) => Number(r.headers['x-svc-timestamp'])), [0, 5, 305].map((s) => T0.getTime() / 1000 + s));
    assert.equal(new Set(sent.map((r) => r.headers['x-svc-signature'])).size, 3);
    assert.equal(new Set(sent.map((r) => JSON.parse(r.body).audit.id)).size, 1, 'the same audit.id on every try');
    sent.forEach((r, i) => {
      const now = new Date(Number(r.headers['x-svc-timestamp']) * 1000);
      assert.equal(verifySignature({ secret: SECRET, body: r.rawBody, headers: r.headers, now }).valid, true, `try ${i + 1}`);
    });

    const attempts = await attemptsOf(webhookId);
    assert.deepEqual(attempts.map((a) => a.attemptNumber), [3, 2, 1], 'newest first');
    assert.deepEqual(attempts.map((a) => a.deliveryId), [...ids].reverse());
    const registration = (await listRegistrations(database.db, keyId)).find((r) => r.id === webhookId)!;
    assert.equal(registration.latestAttempt?.deliveryId, ids[2]);
    assert.equal(registration.latestAttempt?.reason, 'non-2xx response (status 503)');
  });

  test('±20% jitter around each delay', async () => {
    answers.set('/jitter', (res) => res.writeHead(500).end());
    for (const [draw, factor] of [[0, 0.8], [0.999999, 1.2], [0.25, 0.9]] as const) {
      const { deliveryId } = await pendingDelivery('/jitter');
      await worker(fakeClock().now, { schedule: [100_000], random: () => draw }).drain();
      const delay = (await delivery(deliveryId)).next_attempt_at.getTime() - T0.getTime();
      assert.ok(Math.abs(delay - 100_000 * factor) <= 1, `draw ${draw}: ${delay}`);
    }
  });

  test('Retry-After (seconds or an HTTP date) delays the next try beyond the schedule', async () => {
    answers.set('/busy', (res) => res.writeHead(429, { 'retry-after': '120' }).end());
    answers.set('/busy-date', (res) => res.writeHead(503, { 'retry-after': new Date(T0.getTime() + 3_600_000).toUTCString() }).end());
    answers.set('/busy-short', (res) => res.writeHead(503, { 'retry-after': '1' }).end());
    const busy = await pendingDelivery('/busy');
    const dated = await pendingDelivery('/busy-date');
    const short = await pendingDelivery('/busy-short');
    await worker(fakeClock().now, { schedule: [5_000] }).drain();
    assert.equal((await delivery(busy.deliveryId)).next_attempt_at.getTime(), T0.getTime() + 120_000);
    assert.equal((await delivery(dated.deliveryId)).next_attempt_at.getTime(), T0.getTime() + 3_600_000);
    assert.equal((await delivery(short.deliveryId)).next_attempt_at.getTime(), T0.getTime() + 5_000, 'never sooner than the schedule');
  });

  test('a 410 stops retries at once', async () => {
    answers.set('/gone', (res) => res.writeHead(410).end());
    const clock = fakeClock();
    const { deliveryId, webhookId } = await pendingDelivery('/gone');
    await worker(clock.now).drain();
    assert.equal((await delivery(deliveryId)).state, 'failed');
    clock.advance(86_400_000);
    assert.equal(await worker(clock.now).drain(), 0);
    assert.equal((await attemptsOf(webhookId)).length, 1);
  });
});

describe('a revoked key', () => {
  test('revocation fails its pending deliveries, each with one attempt "API key revoked" and nothing sent; another key’s are sent', async () => {
    const clock = fakeClock();
    const revoked = (await createApiKey(database.db, 'to revoke')).id;
    const due = await pendingDelivery('/revoked-due', { apiKeyId: revoked });
    const later = await pendingDelivery('/revoked-later', { apiKeyId: revoked, at: new Date(T0.getTime() + 60_000) });
    const kept = await pendingDelivery('/kept');
    assert.equal(await revokeApiKey(database.db, revoked), 'revoked');

    for (const { webhookId, deliveryId } of [due, later]) {
      const row = await delivery(deliveryId);
      assert.deepEqual([row.state, row.attempts, row.lease, row.locked_until], ['failed', 1, null, null]);
      const attempts = (await listAttempts(database.db, revoked, webhookId, { limit: 10 }))!.attempts;
      assert.deepEqual(attempts.map((a) => [a.outcome, a.statusCode, a.reason, a.attemptNumber, a.responseBody]), [['failed', null, 'API key revoked', 1, null]]);
      const registration = (await listRegistrations(database.db, revoked)).find((r) => r.id === webhookId)!;
      assert.equal(registration.latestAttempt?.reason, 'API key revoked');
    }
    assert.equal(await worker(clock.now).drain(), 1, 'only the other key’s delivery');
    assert.equal(received(kept.path).length, 1);
    assert.equal(received(due.path).length + received(later.path).length, 0);
  });

  test('the claim never takes a revoked key’s row (one queued by an audit still running at revocation)', async () => {
    const clock = fakeClock();
    const revoked = (await createApiKey(database.db, 'revoked first')).id;
    assert.equal(await revokeApiKey(database.db, revoked), 'revoked');
    const late = await pendingDelivery('/queued-after-revocation', { apiKeyId: revoked });
    assert.equal(await worker(clock.now).drain(), 0);
    assert.equal(received(late.path).length, 0);
    assert.equal((await delivery(late.deliveryId)).state, 'pending');
  });
});

describe('claiming', () => {
  test('a delivery under another worker’s lease is skipped until the lease expires', async () => {
    const clock = fakeClock();
    const { deliveryId } = await pendingDelivery('/ok');
    await database.db.updateTable('webhook_deliveries').set({ locked_until: new Date(T0.getTime() + 60_000), lease: randomUUID() }).where('id', '=', deliveryId).execute();
    assert.equal(await worker(clock.now).drain(), 0);
    clock.advance(60_000);
    assert.equal(await worker(clock.now).drain(), 1);
    assert.equal((await delivery(deliveryId)).state, 'delivered');
  });

  test('two workers draining together send each delivery exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, () => pendingDelivery('/ok')));
    const second = usingPostgres ? await database.connectAgain!() : undefined;
    try {
      const clock = fakeClock();
      const [a, b] = await Promise.all([worker(clock.now).drain(), worker(clock.now, { db: second?.db }).drain()]);
      assert.equal(a + b, 40);
      for (const { deliveryId, webhookId } of created) {
        assert.equal((await delivery(deliveryId)).state, 'delivered');
        assert.equal((await attemptsOf(webhookId)).length, 1);
      }
    } finally {
      await second?.close();
    }
  });

  test('drain(): a claim that found nothing while a try of ours was recorded under it claims again (it had counted that try as in flight)', async () => {
    // One try per destination, 4 slots, so a record lands after each fast try. The second claim
    // runs while the held try is in flight (destination full, so it finds nothing); its answer is
    // kept back until that try has been answered and recorded, when the worker is idle.
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => answers.set('/held-once', (res) => {
      resolve();
      release = () => void (res.headersSent || res.writeHead(204).end());
    }));
    const held = await pendingDelivery('/held-once');
    const fast = await pendingDelivery('/ok');
    const next = await pendingDelivery('/held-once', { at: new Date(T0.getTime() + 1) });
    let claims = 0;
    let claimRan: () => void = () => {};
    const secondClaimRan = new Promise<void>((resolve) => (claimRan = resolve));
    let letClaimAnswer: () => void = () => {};
    const claimMayAnswer = new Promise<void>((resolve) => (letClaimAnswer = resolve));
    const claimQueries = new Set<unknown>();
    const db = database.db.withPlugin({
      transformQuery({ node, queryId }) {
        if (JSON.stringify(node).includes('in_flight')) claimQueries.add(queryId);
        return node;
      },
      async transformResult({ queryId, result }) {
        if (claimQueries.has(queryId) && ++claims === 2) {
          claimRan();
          await claimMayAnswer;
        }
        return result;
      },
    });
    const w = createDeliveryWorker({
      db, fetcher, timeoutMs: 15_000, retryScheduleMs: [], log, clock: fakeClock(new Date(T0.getTime() + 1000)).now, concurrency: 4, maxInFlightPerDestination: 1,
      // The embedded database's one connection would hold the record behind the held claim's transaction.
      claimLock: usingPostgres,
    });
    const drained = w.drain();
    try {
      await Promise.all([arrived, secondClaimRan]);
      release();
      while ((await delivery(held.deliveryId)).state === 'pending') await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      release();
      letClaimAnswer();
      answers.delete('/held-once');
    }
    assert.equal(await drained, 3);
    for (const { deliveryId } of [held, fast, next]) assert.equal((await delivery(deliveryId)).state, 'delivered');
  });

  test('notify() wakes the running loop at once; stop() waits for the try in flight', async () => {
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => answers.set('/slow', (res) => {
      resolve();
      release = () => res.writeHead(204).end();
    }));
    const w = createDeliveryWorker({ db: database.db, fetcher, timeoutMs: 5000, retryScheduleMs: [], log, pollIntervalMs: 3_600_000 });
    w.start();
    // Let the first (empty) poll pass, then queue and wake.
    await new Promise((resolve) => setImmediate(resolve));
    const { deliveryId } = await pendingDelivery('/slow', { at: new Date(Date.now() - 1000) });
    w.notify();
    await arrived;
    const stopped = w.stop();
    release();
    await stopped;
    assert.equal((await delivery(deliveryId)).state, 'delivered', 'the try in flight was recorded before stop() resolved');
  });
});

describe('pipelining', () => {
  test('a slow receiver holds one slot: every other due delivery is sent and recorded while it answers', async () => {
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => answers.set('/held', (res) => {
      resolve();
      release = () => res.writeHead(204).end();
    }));
    const slow = await pendingDelivery('/held', { at: new Date(Date.now() - 60_000) });
    // More than one claim's worth (4 slots), each due after the slow one.
    const others = await Promise.all(Array.from({ length: 10 }, () => pendingDelivery('/ok', { at: new Date(Date.now() - 1000) })));
    const w = createDeliveryWorker({ db: database.db, fetcher, timeoutMs: 15_000, retryScheduleMs: [], log, pollIntervalMs: 3_600_000, concurrency: 4 });
    w.start();
    try {
      await arrived;
      const deadline = Date.now() + 30_000;
      const pendingOthers = async () =>
        (await database.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', others.map((o) => o.deliveryId)).where('state', '=', 'pending').execute()).length;
      while ((await pendingOthers()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(await pendingOthers(), 0, 'the other deliveries did not wait for the slow one');
      assert.equal((await delivery(slow.deliveryId)).state, 'pending', 'the slow one is still in flight');
    } finally {
      const stopped = w.stop();
      release();
      await stopped;
      answers.delete('/held');
    }
    assert.equal((await delivery(slow.deliveryId)).state, 'delivered');
    for (const other of others) assert.equal((await attemptsOf(other.webhookId)).length, 1, 'each sent once');
  });
});
