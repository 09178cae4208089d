// POST /api/v1/audit with its analysis in worker threads (issue 16): a slow page delays only its own
// audit, a page over the time budget is a 422 and its thread is replaced, a full queue is a 503 with
// Retry-After, and a client that hangs up cancels its queued or running analysis. Nothing of a
// refused, timed-out or cancelled audit is persisted. Behaviour and order only, never durations: the
// slow page outlasts every budget here by far (test/support/slow-page.ts).
import assert from 'node:assert/strict';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { slowPage, SPINNING_WORKER } from '../support/slow-page.ts';

const SMALL = `<!doctype html><html lang="en"><head><title>Bakery</title></head><body><main><h1>Bread</h1><p>Fresh every morning.</p></main></body></html>`;

const page = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

let database: TestDatabase;
/** Serves the pages to the services each test starts with its own settings. */
let base: TestService;

before(async () => {
  database = await openTestDatabase();
  base = await startTestService({ database, delivery: { enabled: false }, routes: { '/slow': page(slowPage()), '/small': page(SMALL) } });
  await base.app.ready(); // it serves no request, but its close reads its OpenAPI description
});
after(async () => {
  await base.close();
  await database.close();
});

async function withService(env: Record<string, string>, run: (service: TestService) => Promise<void>, listen = false): Promise<void> {
  const service = await startTestService({
    database,
    fixture: base.fixture,
    routes: {},
    delivery: { enabled: false },
    analysisWorkerFile: SPINNING_WORKER,
    env: { AUDIT_RATE_LIMIT: '1000', ...env },
  });
  try {
    if (listen) await service.app.listen({ port: 0, host: '127.0.0.1' });
    await run(service);
  } finally {
    await service.close();
  }
}

function audit(service: TestService, path: string) {
  return service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    payload: JSON.stringify({ url: service.pageUrl(path) }),
  });
}

/** An audit over a real socket, which the test can hang up. */
function auditOverSocket(service: TestService, path: string) {
  const { port } = service.app.server.address() as AddressInfo;
  const client = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
  });
  const answered = new Promise<string>((resolve) => {
    client.on('response', (res) => {
      res.resume();
      resolve(`answered ${res.statusCode}`);
    });
    client.on('close', () => resolve('no answer'));
  });
  client.on('error', () => {}); // the socket destroyed by hangUp
  client.end(JSON.stringify({ url: service.pageUrl(path) }));
  return { answered, hangUp: () => client.destroy() };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function count(table: 'audits' | 'findings' | 'webhook_deliveries'): Promise<number> {
  const row = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
  return Number(row.rows[0]!.n);
}

async function persisted() {
  return { audits: await count('audits'), findings: await count('findings'), deliveries: await count('webhook_deliveries') };
}

const logged = (service: TestService, pattern: RegExp) => service.logs.filter((l) => typeof l.msg === 'string' && pattern.test(l.msg));

test('while a slow page is analysed, /healthz answers and a small audit completes before it', { timeout: 120_000 }, async () => {
  // Two threads, and a budget the slow page would take long to reach: the test hangs up on it instead.
  await withService(
    { AUDIT_ANALYSIS_THREADS: '2', AUDIT_ANALYSIS_TIMEOUT_MS: '600000' },
    async (service) => {
      const finished: string[] = [];
      const slow = auditOverSocket(service, '/slow');
      void slow.answered.then(() => finished.push('slow'));
      await until(() => service.app.analysisPool.stats().running === 1);

      const health = await service.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(health.statusCode, 200);
      finished.push('healthz');
      const small = await audit(service, '/small');
      assert.equal(small.statusCode, 201, small.body);
      finished.push('small');

      assert.deepEqual(finished, ['healthz', 'small'], 'both answered while the slow analysis still ran');
      assert.equal(service.app.analysisPool.stats().running, 1);
      slow.hangUp();
      assert.equal(await slow.answered, 'no answer');
      await until(() => service.app.analysisPool.stats().cancelled.running === 1);
      assert.deepEqual(finished, ['healthz', 'small', 'slow']);
    },
    true,
  );
});

test('a page over the budget: 422, nothing persisted, one log line "too complex"; a small audit queued behind it gets its own budget and a new thread', { timeout: 120_000 }, async () => {
  await withService({ AUDIT_ANALYSIS_THREADS: '1', AUDIT_ANALYSIS_TIMEOUT_MS: '3000' }, async (service) => {
    const pool = service.app.analysisPool;
    const before = await persisted();
    const slow = audit(service, '/slow');
    await until(() => pool.stats().running === 1);
    let slowSettled = false;
    void slow.then(() => (slowSettled = true));
    const small = audit(service, '/small');
    await until(() => pool.stats().queued === 1 || slowSettled);
    assert.equal(slowSettled, false, 'the small audit waited behind the slow one');

    const refused = await slow;
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(refused.json(), { error: 'unreachable or blocked' });
    assert.equal(refused.headers['retry-after'], undefined);
    const lines = service.logs.filter((l) => l.reason === 'too complex');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.budgetMs, 3000);
    assert.deepEqual(await persisted(), before, 'no audit, no findings, no outbox row');

    // Queued for about a budget, yet not timed out: its budget started when its thread started it.
    const served = await small;
    assert.equal(served.statusCode, 201, served.body);
    assert.equal(pool.stats().timedOut, 1);
    assert.equal(pool.stats().completed, 1);
    assert.equal(service.logs.filter((l) => l.reason === 'too complex').length, 1);
  });
});

test('every thread busy and the queue full: 503 {"error":"service unavailable"} with Retry-After, nothing crawled or persisted', { timeout: 120_000 }, async () => {
  await withService({ AUDIT_ANALYSIS_THREADS: '1', AUDIT_ANALYSIS_QUEUE: '1', AUDIT_ANALYSIS_TIMEOUT_MS: '2000' }, async (service) => {
    const pool = service.app.analysisPool;
    const before = await persisted();
    const running = audit(service, '/slow');
    await until(() => pool.stats().running === 1);
    const queued = audit(service, '/slow');
    await until(() => pool.stats().queued === 1);
    const crawls = base.fixture.requests.length;

    const response = await audit(service, '/small');
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { error: 'service unavailable' });
    assert.equal(response.headers['retry-after'], '2', 'one budget, in seconds');
    assert.ok(response.headers['ratelimit-remaining'] !== undefined, 'the rate-limit headers as on every answer');
    assert.equal(base.fixture.requests.length, crawls, 'the page was not fetched');
    assert.equal(logged(service, /^analysis queue full/).length, 1);
    assert.equal(pool.stats().refused, 1);

    // The two slow audits end at their budgets, one after the other.
    assert.equal((await running).statusCode, 422);
    assert.equal((await queued).statusCode, 422);
    assert.deepEqual(await persisted(), before);
  });
});

test('a client that hangs up cancels its analysis, queued or running: nothing persisted, the log says which, the pool serves the next audit', { timeout: 120_000 }, async () => {
  await withService(
    { AUDIT_ANALYSIS_THREADS: '1', AUDIT_ANALYSIS_TIMEOUT_MS: '600000' },
    async (service) => {
      const pool = service.app.analysisPool;
      const before = await persisted();
      const slow = auditOverSocket(service, '/slow');
      await until(() => pool.stats().running === 1);
      const waiting = auditOverSocket(service, '/small');
      await until(() => pool.stats().queued === 1);

      waiting.hangUp();
      assert.equal(await waiting.answered, 'no answer');
      await until(() => logged(service, /^client closed the connection: analysis cancelled/).length === 1);
      assert.equal(logged(service, /^client closed the connection: analysis cancelled while queued, nothing persisted$/).length, 1);
      assert.deepEqual(pool.stats().cancelled, { queued: 1, running: 0 });
      assert.equal(pool.stats().running, 1, 'the slow analysis still runs');

      slow.hangUp();
      assert.equal(await slow.answered, 'no answer');
      await until(() => logged(service, /^client closed the connection: analysis cancelled/).length === 2);
      const line = logged(service, /^client closed the connection: analysis cancelled while running, nothing persisted$/);
      assert.equal(line.length, 1);
      assert.equal(line[0]!.level, 30);
      assert.deepEqual(pool.stats().cancelled, { queued: 1, running: 1 });
      assert.equal(pool.stats().running, 0, 'its thread was stopped');
      assert.deepEqual(await persisted(), before, 'no audit, no findings, no outbox row');

      const next = await audit(service, '/small');
      assert.equal(next.statusCode, 201, next.body);
    },
    true,
  );
});
