// The monitor scheduler against a real database, real HTTPS pages on loopback and the real audit
// flow (crawl, analysis threads, the one-statement persistence), with an injected clock: no test
// sleeps for a schedule. Monitors are created through the API, as users create them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, test } from 'node:test';
import { saveAudit } from '../../src/audit/audit-store.ts';
import { AnalysisQueueFullError } from '../../src/audit/analysis/pool.ts';
import { runAudit } from '../../src/audit/run-audit.ts';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.ts';
import { createMonitorScheduler, POSTPONE_MS, RUN_REASONS, type SchedulerOptions } from '../../src/monitors/scheduler.ts';
import { claimDueSlots } from '../../src/monitors/store.ts';
import { newAudit } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { FIXTURE_HOST, startTestService, type TestService } from '../support/service.ts';

const HOUR = 3_600_000;
let database: TestDatabase;
let service: TestService;
let now = new Date('2026-03-01T10:00:00.000Z');
const clock = () => now;
const advance = (ms: number) => (now = new Date(now.getTime() + ms));

const PAGE = '<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><img src="/a.png"></main></body></html>';

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    env: { AUDIT_RESOLVE: `${FIXTURE_HOST}=127.0.0.1,other.test=127.0.0.1`, AUDIT_MONITOR_RATE_LIMIT: '1000', AUDIT_RATE_LIMIT: '1' },
    resolver: async (host) => {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
      error.code = 'ENOTFOUND';
      throw error;
    },
    delivery: { enabled: false },
    // The app's own scheduler stays off: each test drives one with its clock.
    monitors: { enabled: false, clock, random: () => 0 },
    routes: {
      '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
      '/missing': (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'),
      '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    },
  });
});
// Each test counts its own runs: what earlier tests created must not fall due as time moves on.
afterEach(async () => {
  await database.db.updateTable('monitors').set({ paused_at: now }).where('paused_at', 'is', null).execute();
});
after(async () => {
  await service.close();
  await database.close();
});

const quiet = { info() {}, warn() {}, error() {} };

function scheduler(options: Partial<SchedulerOptions> = {}) {
  return createMonitorScheduler({
    db: database.db,
    audit: (request) =>
      runAudit({ db: database.db, fetcher: service.fetcher, crawlLimits: service.config.crawl, analysisPool: service.app.analysisPool }, request, quiet),
    log: quiet,
    concurrency: 2,
    leaseMs: 60_000,
    pollIntervalMs: 60_000,
    clock,
    ...options,
  });
}

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, apiKey: string, payload?: unknown) {
  return service.app.inject({
    method,
    url,
    headers: { 'x-api-key': apiKey, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

async function newKey() {
  return createApiKey(database.db, 'scheduler');
}

/** A monitor created through the API; with the draw fixed at 0 its first slot is now. */
async function monitor(apiKey: string, path = '/page', every = '1h') {
  const response = await call('POST', '/api/v1/monitors', apiKey, { url: service.pageUrl(path), every });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as { id: string; nextRunAt: string };
}

const readMonitor = async (apiKey: string, id: string) => (await call('GET', `/api/v1/monitors/${id}`, apiKey)).json();
const auditsOf = async (monitorId: string) =>
  database.db.selectFrom('audits').select(['id', 'trigger', 'monitor_slot']).where('monitor_id', '=', monitorId).orderBy('created_at').execute();

describe('a slot', () => {
  test('runs once: one audit triggered by the monitor, its last run, the next slot one interval on; nothing more at the same time', async () => {
    const key = await newKey();
    const { id, nextRunAt } = await monitor(key.rawKey);
    assert.equal(nextRunAt, now.toISOString());
    assert.equal(await scheduler().drain(), 1);
    const audits = await auditsOf(id);
    assert.equal(audits.length, 1);
    assert.equal(audits[0]!.trigger, 'monitor');
    const read = await readMonitor(key.rawKey, id);
    assert.deepEqual(read.lastRun, { startedAt: now.toISOString(), outcome: 'audited', auditId: audits[0]!.id });
    assert.equal(read.nextRunAt, new Date(now.getTime() + HOUR).toISOString());
    assert.equal(await scheduler().drain(), 0, 'the slot is done');
    advance(HOUR - 1);
    assert.equal(await scheduler().drain(), 0, 'the next slot is not due yet');
    advance(1);
    assert.equal(await scheduler().drain(), 1);
    assert.equal((await auditsOf(id)).length, 2);
  });

  test('its audit reads back with trigger and monitorId, and lists by monitorId; failures are found as for an API audit', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    await scheduler().drain();
    const [audit] = await auditsOf(id);
    const read = (await call('GET', `/api/v1/audits/${audit!.id}`, key.rawKey)).json();
    assert.equal(read.trigger, 'monitor');
    assert.equal(read.monitorId, id);
    assert.ok(read.findings.some((f: { control: string; severity: string }) => f.control === '1.1.1' && f.severity === 'error'), 'the image without alt');
    const listed = (await call('GET', `/api/v1/audits?monitorId=${id}`, key.rawKey)).json();
    assert.deepEqual(listed.items.map((a: { id: string }) => a.id), [audit!.id]);
    assert.equal(listed.items[0].monitorId, id);
    const other = await newKey();
    assert.deepEqual((await call('GET', `/api/v1/audits?monitorId=${id}`, other.rawKey)).json().items, [], 'another key lists none of them');
    assert.equal((await call('GET', '/api/v1/audits?monitorId=nope', key.rawKey)).statusCode, 400);
  });

  test('after downtime a monitor runs once and moves to the next slot on its grid, never a burst', async () => {
    const key = await newKey();
    const { id, nextRunAt } = await monitor(key.rawKey);
    const first = new Date(nextRunAt).getTime();
    advance(3.5 * HOUR);
    assert.equal(await scheduler().drain(), 1);
    assert.equal((await auditsOf(id)).length, 1);
    const read = await readMonitor(key.rawKey, id);
    assert.equal(read.nextRunAt, new Date(first + 4 * HOUR).toISOString(), 'the first grid slot after now');
    assert.equal(await scheduler().drain(), 0);
  });

  test('a paused monitor does not run; resumed after its slot has passed, it runs once', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    await call('PATCH', `/api/v1/monitors/${id}`, key.rawKey, { paused: true });
    advance(2 * HOUR);
    assert.equal(await scheduler().drain(), 0);
    await call('PATCH', `/api/v1/monitors/${id}`, key.rawKey, { paused: false });
    assert.equal(await scheduler().drain(), 1);
    assert.equal((await auditsOf(id)).length, 1);
  });

  test('a deleted monitor no longer runs; its audits keep its id', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    await scheduler().drain();
    assert.equal((await call('DELETE', `/api/v1/monitors/${id}`, key.rawKey)).statusCode, 204);
    advance(HOUR);
    assert.equal(await scheduler().drain(), 0);
    const listed = (await call('GET', `/api/v1/audits?monitorId=${id}`, key.rawKey)).json();
    assert.equal(listed.items.length, 1);
  });
});

describe('runs that store no audit', () => {
  const cases: Array<[string, string, string, string]> = [
    ['a page answering 404', '/missing', 'unreachable', 'non-2xx response (status 404)'],
    ['a JSON document', '/json', 'unreachable', RUN_REASONS.notHtml],
  ];
  for (const [name, path, outcome, reason] of cases) {
    test(`${name}: ${outcome}, "${reason}", nothing stored, the next slot scheduled`, async () => {
      const key = await newKey();
      const { id } = await monitor(key.rawKey, path);
      assert.equal(await scheduler().drain(), 1);
      const read = await readMonitor(key.rawKey, id);
      assert.deepEqual(read.lastRun, { startedAt: now.toISOString(), outcome, reason });
      assert.equal(read.nextRunAt, new Date(now.getTime() + HOUR).toISOString());
      assert.equal((await auditsOf(id)).length, 0);
    });
  }

  test('a name that does not resolve reads as the webhooks’ unreachable reason, with no network detail', async () => {
    const key = await newKey();
    const created = await call('POST', '/api/v1/monitors', key.rawKey, { url: 'https://no-such-name.example/', every: '1h' });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json();
    assert.equal(await scheduler().drain(), 1);
    const read = await readMonitor(key.rawKey, id);
    assert.deepEqual(read.lastRun, { startedAt: now.toISOString(), outcome: 'unreachable', reason: RUN_REASONS.unreachable });
    assert.doesNotMatch(JSON.stringify(read), /ENOTFOUND|getaddrinfo|127\.0\.0\.1/);
  });

  test('a busy analysis queue postpones the slot: no last run, claimable again after the pause, then run', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    const busy = scheduler({
      audit: async () => {
        throw new AnalysisQueueFullError(1);
      },
    });
    assert.equal(await busy.drain(), 1);
    assert.equal((await readMonitor(key.rawKey, id)).lastRun, null);
    assert.equal(await scheduler().drain(), 0, 'postponed, not due again yet');
    advance(POSTPONE_MS);
    assert.equal(await scheduler().drain(), 1);
    assert.equal((await readMonitor(key.rawKey, id)).lastRun.outcome, 'audited');
  });
});

describe('at most once per slot', () => {
  test('a run taken over after its process died lands on the audit already stored, never a second one', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    // Another process claimed the slot, stored its audit and died before recording the run.
    const [claimed] = (await claimDueSlots(database.db, now, 1000, 30_000)).filter((c) => c.monitorId === id);
    assert.ok(claimed);
    const stored = await saveAudit(database.db, {
      ...newAudit(key.id, service.pageUrl('/page'), 'wcag', { '1.1.1': 'fail' }),
      monitor: { id, slot: claimed.slot },
    });
    assert.equal(await scheduler().drain(), 0, 'its lease still holds');
    advance(30_000);
    assert.equal(await scheduler().drain(), 1);
    const audits = await auditsOf(id);
    assert.deepEqual(audits.map((a) => a.id), [stored.id]);
    assert.equal((await readMonitor(key.rawKey, id)).lastRun.auditId, stored.id);
  });

  test('the unique (monitor, slot) key refuses a second audit of one slot', async () => {
    const key = await newKey();
    const { id, nextRunAt } = await monitor(key.rawKey);
    const audit = { ...newAudit(key.id, service.pageUrl('/page'), 'wcag', {}), monitor: { id, slot: new Date(nextRunAt) } };
    await saveAudit(database.db, audit);
    await assert.rejects(saveAudit(database.db, audit), (error: { code?: string }) => error.code === '23505');
  });
});

describe('fairness and keys', () => {
  test('one claim takes every key’s turn: a key with many due monitors does not crowd out a key with one', async () => {
    const busy = await newKey();
    const small = await newKey();
    for (let i = 0; i < 6; i++) await monitor(busy.rawKey);
    const { id } = await monitor(small.rawKey);
    const claimed = await claimDueSlots(database.db, now, 2, 60_000);
    assert.equal(claimed.length, 2);
    assert.ok(claimed.some((c) => c.monitorId === id), 'the small key’s monitor is in the first claim');
    assert.equal(new Set(claimed.map((c) => c.apiKeyId)).size, 2);
  });

  test('a revoked key’s monitors never run', async () => {
    const key = await newKey();
    const { id } = await monitor(key.rawKey);
    await revokeApiKey(database.db, key.id);
    assert.equal(await scheduler().drain(), 0);
    assert.equal((await auditsOf(id)).length, 0);
  });

  test('runs take no slot of the key’s audit rate limit (AUDIT_RATE_LIMIT is 1 here)', async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) await monitor(key.rawKey);
    assert.equal(await scheduler().drain(), 3);
    const audit = await call('POST', '/api/v1/audit', key.rawKey, { url: service.pageUrl('/page') });
    assert.equal(audit.statusCode, 201, 'the key’s one API audit is still there');
    assert.equal((await call('POST', '/api/v1/audit', key.rawKey, { url: service.pageUrl('/page') })).statusCode, 429);
  });

  test('a run queues failure events for the key’s webhooks, as an API audit does', async () => {
    const key = await newKey();
    const webhookId = randomUUID();
    await database.db
      .insertInto('webhooks')
      .values({ id: webhookId, api_key_id: key.id, url: 'https://hooks.example.com/x', trigger_branch: 'accessibility', trigger_severity: 'high', challenge: 'secret', verified_at: new Date() })
      .execute();
    const { id } = await monitor(key.rawKey);
    await scheduler().drain();
    const [audit] = await auditsOf(id);
    const deliveries = await database.db.selectFrom('webhook_deliveries').select(['audit_id', 'event']).where('webhook_id', '=', webhookId).execute();
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0]!.audit_id, audit!.id);
    assert.ok((deliveries[0]!.event as { failures: { control: string }[] }).failures.some((f) => f.control === '1.1.1'));
  });
});

test('the server runs monitors itself: a new monitor is audited without anyone draining', async () => {
  const own = await startTestService({
    database,
    fixture: service.fixture,
    delivery: { enabled: false },
    // Real time; the first slot is now (the draw is 0), and the creation wakes the scheduler.
    monitors: { random: () => 0, pollIntervalMs: 60_000 },
    env: { AUDIT_MONITOR_RATE_LIMIT: '1000' },
    routes: {},
  });
  try {
    await own.app.ready();
    const key = await newKey();
    const response = await own.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'x-api-key': key.rawKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: service.pageUrl('/page'), every: '1h' }),
    });
    const { id } = response.json();
    const deadline = Date.now() + 20_000;
    while ((await auditsOf(id)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await auditsOf(id)).length, 1);
  } finally {
    await own.close();
  }
});
