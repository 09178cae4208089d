// Fair delivery (issue 16): the tries in flight are bounded per destination URL and per API key,
// across workers, so a hanging receiver waits behind itself, not in front of everyone. Real
// loopback HTTPS receivers count the tries they hold; order is asserted, never elapsed time: the
// hanging receivers never answer, and each test ends by dropping their connections.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createDeliveryWorker, DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION, type DeliveryWorker, type DeliveryWorkerOptions } from '../../src/alerts/delivery-worker.ts';
import type { StoredEvent } from '../../src/alerts/signing.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createAddressPolicy, parseCidrList, parseStaticResolve } from '../../src/net/address-policy.ts';
import { createSafeFetcher, type SafeFetcher } from '../../src/net/safe-fetch.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startHttpsFixture, type Fixture } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';

const HOST = 'hooks.test';
const SECRET = 'a-challenge-of-32-random-bytes-base64url-xx';

let database: TestDatabase;
let fixture: Fixture;
let fetcher: SafeFetcher;

/**
 * The receiver. Paths under /hang/ never answer (until `release`), /slow/ answers 200 after a
 * moment, anything else at once. Per path: tries being held now, the most ever held at once, and
 * tries that ended without an answer from us (the worker gave up: its timeout).
 */
const held = new Map<string, Set<ServerResponse>>();
const most = new Map<string, number>();
/** Per test: a try of an earlier test may close its connection late, and must not count here. */
let round = { endedByClient: 0, releasing: false };

function hold(path: string, res: ServerResponse): void {
  const set = held.get(path) ?? new Set();
  held.set(path, set);
  set.add(res);
  most.set(path, Math.max(most.get(path) ?? 0, set.size));
  const current = round;
  res.on('close', () => {
    set.delete(res);
    if (!current.releasing && !res.writableEnded) current.endedByClient++;
  });
}

const holding = (prefix: string) => [...held].filter(([path]) => path.startsWith(prefix)).reduce((n, [, set]) => n + set.size, 0);

before(async () => {
  database = await openTestDatabase();
  const pki = await makeTestPki([HOST]);
  fixture = await startHttpsFixture((req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    if (path.startsWith('/hang/')) {
      if (round.releasing) res.destroy();
      else hold(path, res);
      return;
    }
    if (path.startsWith('/slow/')) {
      hold(path, res);
      setTimeout(() => res.writeHead(200).end('ok'), 20);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }, pki);
  fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.0/8')),
    staticResolve: parseStaticResolve(`${HOST}=127.0.0.1`),
    ca: [pki.caPem],
  });
});
after(async () => {
  await fetcher.close();
  await fixture.close();
  await database.close();
});

beforeEach(async () => {
  await database.db.updateTable('webhook_deliveries').set({ state: 'failed' }).where('state', '=', 'pending').execute();
  held.clear();
  most.clear();
  round = { endedByClient: 0, releasing: false };
  firstRequest = fixture.requests.length;
});

const workers: DeliveryWorker[] = [];
/** Stops the workers, then drops the held connections: the tries in flight fail and are recorded. */
afterEach(async () => {
  const stopped = Promise.all(workers.splice(0).map((w) => w.stop()));
  round.releasing = true;
  for (const set of held.values()) for (const res of set) res.destroy();
  await stopped;
});

const log = { info() {}, warn() {}, error() {} };

function startWorker(options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  const w = createDeliveryWorker({
    db: database.db,
    fetcher,
    // The longest allowed: no hanging try may end by itself while a test watches the order.
    timeoutMs: 15_000,
    retryScheduleMs: [],
    log,
    pollIntervalMs: 3_600_000,
    ...options,
  });
  workers.push(w);
  w.start();
  return w;
}

async function registration(keyId: string, path: string): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('webhooks')
    .values({ id, api_key_id: keyId, url: fixture.url(HOST, path), trigger_branch: 'privacy', trigger_severity: 'high', challenge: SECRET, verified_at: new Date() })
    .execute();
  return id;
}

/** `count` pending deliveries to a registration, due `agoMs` ago (one audit each). */
async function queue(keyId: string, webhookId: string, count: number, agoMs = 1000): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const auditId = randomUUID();
    await database.db
      .insertInto('audits')
      .values({
        id: auditId, api_key_id: keyId, branch: 'privacy', standard: null, include_warnings: true, requested_url: 'https://example.com/',
        final_url: 'https://example.com/', origin: 'https://example.com', http_status: 200, redirect_chain: '[]', fetched_at: new Date(),
        byte_count: 1, body_sha256: '0'.repeat(64), errors: 1, warnings: 0, inconclusive: 0,
      })
      .execute();
    const event: StoredEvent = {
      audit: { id: auditId, url: 'https://example.com/', branch: 'privacy', createdAt: new Date().toISOString(), totals: { errors: 1, warnings: 0 } },
      failures: [{ control: 'privacy.privacy-policy-link', status: 'fail', severity: 'error', evidence: 'No privacy policy link' }],
    };
    const id = randomUUID();
    // Each a millisecond after the one before: the queue's order is the insertion order.
    const due = new Date(Date.now() - agoMs + i);
    await database.db.insertInto('webhook_deliveries').values({ id, webhook_id: webhookId, audit_id: auditId, event: JSON.stringify(event), next_attempt_at: due }).execute();
    ids.push(id);
  }
  return ids;
}

const states = async (ids: string[]) =>
  (await database.db.selectFrom('webhook_deliveries').select('state').where('id', 'in', ids).execute()).map((row) => row.state);

/** Polls (the database and the receiver) until `done` holds; no deadline: a hang is the test runner's timeout. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 10));
}

let firstRequest = 0;
/** Requests this test sent to paths under `prefix`. */
const received = (prefix: string) => fixture.requests.slice(firstRequest).filter((r) => new URL(r.path, 'https://x').pathname.startsWith(prefix)).length;

/** The default per-destination bound, which the first test runs with. */
const BOUND = DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION;

describe('fair delivery', () => {
  test(`a hanging destination holds at most its bound (the default, ${BOUND}) of the 16 slots; another key’s event is delivered while all its tries hang`, async () => {
    const keyA = (await createApiKey(database.db, 'tenant-a')).id;
    const keyB = (await createApiKey(database.db, 'tenant-b')).id;
    const hookA = await registration(keyA, '/hang/a');
    const hookB = await registration(keyB, '/b');
    await queue(keyA, hookA, 100);
    const w = startWorker();
    await until(() => holding('/hang/') >= BOUND);

    const [eventB] = await queue(keyB, hookB, 1, 0);
    w.notify(); // as the audit's commit does
    // Whichever comes first: B's event recorded, or one of A's tries ending (its timeout).
    await until(async () => round.endedByClient > 0 || (await states([eventB!]))[0] !== 'pending');

    assert.equal(round.endedByClient, 0, 'B waited for one of A’s tries to end');
    assert.deepEqual(await states([eventB!]), ['delivered']);
    assert.equal(received('/b'), 1);
    assert.equal(most.get('/hang/a'), BOUND, 'A held no more than its bound at any moment, seen at the receiver');
    assert.equal(holding('/hang/'), BOUND, 'A’s tries were all still hanging');
    assert.equal(received('/hang/'), BOUND, 'none of A’s others was sent');
  });

  test('per key and per destination URL: two registrations of one URL share one bound; the key’s bound caps its destinations together', async () => {
    const keyA = (await createApiKey(database.db, 'tenant-a')).id;
    const keyB = (await createApiKey(database.db, 'tenant-b')).id;
    // Due in this order: both registrations of /hang/1 first, then /hang/2, then /hang/3.
    await queue(keyA, await registration(keyA, '/hang/1'), 10, 60_000);
    await queue(keyA, await registration(keyA, '/hang/1'), 10, 50_000);
    await queue(keyA, await registration(keyA, '/hang/2'), 10, 40_000);
    await queue(keyA, await registration(keyA, '/hang/3'), 10, 30_000);
    const hookB = await registration(keyB, '/b');
    const w = startWorker({ maxInFlightPerDestination: 2, maxInFlightPerKey: 5 });
    await until(() => holding('/hang/') >= 5);

    const [eventB] = await queue(keyB, hookB, 1, 0);
    w.notify();
    await until(async () => round.endedByClient > 0 || (await states([eventB!]))[0] !== 'pending');

    assert.equal(round.endedByClient, 0);
    assert.deepEqual(await states([eventB!]), ['delivered']);
    assert.deepEqual(
      ['/hang/1', '/hang/2', '/hang/3'].map((path) => most.get(path) ?? 0),
      [2, 2, 1],
      'oldest first, 2 per URL (whichever registration), 5 for the key',
    );
    assert.equal(received('/hang/'), 5);
  });

  test('two workers on one database (separate pools, as two processes on PostgreSQL): the destination bound holds across them', async () => {
    const key = (await createApiKey(database.db, 'tenant')).id;
    const ids = await queue(key, await registration(key, '/slow/a'), 60);
    const second = usingPostgres ? await database.connectAgain!() : undefined;
    try {
      const sent = [0, 0];
      const counting = (i: number) => ({
        info: (_: object, msg: string) => {
          if (msg === 'webhook delivery attempt') sent[i]!++;
        },
        warn() {},
        error() {},
      });
      // Each polls often, so both keep claiming while the other holds the bound.
      startWorker({ pollIntervalMs: 10, log: counting(0), maxInFlightPerDestination: 4 });
      startWorker({ pollIntervalMs: 10, log: counting(1), db: second?.db ?? database.db, maxInFlightPerDestination: 4 });
      await until(async () => (await states(ids)).every((state) => state !== 'pending'));

      assert.deepEqual(new Set(await states(ids)), new Set(['delivered']));
      assert.equal(received('/slow/a'), 60, 'each sent once');
      assert.equal(sent[0]! + sent[1]!, 60);
      assert.ok(most.get('/slow/a')! <= 4, `at most 4 in flight at the receiver, saw ${most.get('/slow/a')}`);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await second?.close();
    }
  });
});
