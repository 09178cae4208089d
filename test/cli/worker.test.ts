// `node src/main.ts worker` as an operator runs it: separate delivery processes on one PostgreSQL,
// woken by LISTEN/NOTIFY, sharing the outbox through SKIP LOCKED, and surviving kill -9.
// PostgreSQL only (TEST_DATABASE_URL): on the embedded database delivery runs in the server.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { saveAudit } from '../../src/audit/audit-store.ts';
import { totalsOf } from '../../src/audit/findings.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { stubCrawl } from '../support/audits.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startHttpsFixture, type Fixture, type RecordedRequest } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const skip = usingPostgres ? false : 'PostgreSQL only (TEST_DATABASE_URL): worker processes need a shared server';
const HOST = 'receiver.test';
const SECRET = 'worker-test-challenge-0123456789abcdefghijk';

let database: TestDatabase;
let fixture: Fixture;
let caFile: string;
let keyId: string;
let delayMs = 0;
const children = new Set<ChildProcess>();

before(async () => {
  if (skip) return;
  database = await openTestDatabase();
  const pki = await makeTestPki([HOST]);
  caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-worker-')), 'ca.pem');
  fs.writeFileSync(caFile, pki.caPem);
  fixture = await startHttpsFixture(async (_req, res) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.writeHead(200).end('ok');
  }, pki);
  keyId = (await createApiKey(database.db, 'worker')).id;
});
after(async () => {
  if (skip) return;
  for (const child of children) child.kill('SIGKILL');
  await fixture.close();
  await database.close();
});

/** Starts a worker process and resolves once it says delivery started. */
const startWorker = (env: Record<string, string> = {}): Promise<WorkerProcess> =>
  startWorkerProcess({
    connectionString: database.connectionString!,
    host: HOST,
    caFile,
    ready: 'delivery worker started',
    env: { AUDIT_WEBHOOK_POLL_INTERVAL_MS: '50', ...env },
    children,
  });

const stopWorker = (child: ChildProcess) => stopWorkerProcess(child, children);

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addWebhook(): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('webhooks')
    .values({ id, api_key_id: keyId, url: fixture.url(HOST, `/${id}`), trigger_branch: 'privacy', trigger_severity: 'medium', challenge: SECRET, verified_at: new Date() })
    .execute();
  return id;
}

/** `count` audits, each with one pending delivery to `webhookId`, in one statement each. */
async function queue(webhookId: string, count: number): Promise<string[]> {
  const audits = Array.from({ length: count }, () => randomUUID());
  const now = new Date();
  await database.db
    .insertInto('audits')
    .values(audits.map((id) => ({
      id, api_key_id: keyId, branch: 'privacy', standard: null, include_warnings: true, requested_url: 'https://example.com/',
      final_url: 'https://example.com/', origin: 'https://example.com', http_status: 200, redirect_chain: '[]', fetched_at: now,
      byte_count: 1, body_sha256: '0'.repeat(64), errors: 1, warnings: 0, inconclusive: 0,
    })))
    .execute();
  await database.db
    .insertInto('webhook_deliveries')
    .values(audits.map((auditId) => ({
      id: randomUUID(), webhook_id: webhookId, audit_id: auditId,
      event: JSON.stringify({
        audit: { id: auditId, url: 'https://example.com/', branch: 'privacy', createdAt: now.toISOString(), totals: { errors: 1, warnings: 0 } },
        failures: [{ control: 'privacy.privacy-policy-link', status: 'fail', severity: 'error', evidence: 'none' }],
      }),
    })))
    .execute();
  return audits;
}

const receivedBy = (webhookId: string): RecordedRequest[] => fixture.requests.filter((r) => r.path === `/${webhookId}`);
const auditIdOf = (r: RecordedRequest): string => JSON.parse(r.body).audit.id;

async function attemptsPerDelivery(webhookId: string) {
  return database.db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .select(['d.id', 'd.state', sql<number>`count(a.id)::int`.as('attempts'), sql<number>`count(a.id) filter (where a.outcome = 'delivered')::int`.as('delivered')])
    .where('d.webhook_id', '=', webhookId)
    .groupBy(['d.id', 'd.state'])
    .execute();
}

test('a worker process is woken by NOTIFY at the audit commit (its polling is set to 10 minutes)', { skip }, async () => {
  const worker = await startWorker({ AUDIT_WEBHOOK_POLL_INTERVAL_MS: '600000' });
  const webhookId = await addWebhook();
  const findings = [{ control: 'privacy.privacy-policy-link', status: 'fail' as const, severity: 'error' as const, evidence: 'No policy link' }];
  const audit = await saveAudit(database.db, {
    apiKeyId: keyId, url: new URL('https://example.com/'), branch: 'privacy', standard: undefined, includeWarnings: true,
    crawled: stubCrawl('https://example.com/', ''),
    result: { controls: [], findings, totals: totalsOf(findings) },
  });
  await until('the event at the receiver', async () => receivedBy(webhookId).length === 1, 10_000);
  assert.equal(auditIdOf(receivedBy(webhookId)[0]!), audit.id);
  assert.equal(await stopWorker(worker), 0, 'SIGTERM: a clean exit');
});

test('two worker processes, 500 deliveries: exactly one attempt per delivery, each sent once', { skip }, async (t) => {
  const [a, b] = await Promise.all([startWorker(), startWorker()]);
  const webhookId = await addWebhook();
  const audits = await queue(webhookId, 500);
  await sql`select pg_notify('svc_webhook_deliveries', '')`.execute(database.db);
  await until('all 500 delivered', async () => (await attemptsPerDelivery(webhookId)).every((d) => d.state === 'delivered'));
  const rows = await attemptsPerDelivery(webhookId);
  assert.equal(rows.length, 500);
  assert.ok(rows.every((d) => d.attempts === 1 && d.delivered === 1), 'one attempt row per delivery');
  const sent = receivedBy(webhookId);
  assert.equal(sent.length, 500, 'the receiver got each delivery once');
  assert.deepEqual(new Set(sent.map(auditIdOf)), new Set(audits));
  assert.equal(new Set(sent.map((r) => r.headers['x-svc-delivery-id'])).size, 500);
  // The log lines are counted once both processes have exited: a line can still be in a pipe when
  // the database already shows its attempt.
  assert.deepEqual(await Promise.all([stopWorker(a), stopWorker(b)]), [0, 0]);
  const shares = [a, b].map((w) => (w.output().match(/webhook delivery attempt/g) ?? []).length);
  assert.equal(shares[0]! + shares[1]!, 500);
  t.diagnostic(`tries per worker: ${shares.join(' + ')}`);
});

test('kill -9 with deliveries in flight: after a restart every delivery goes out, none lost, none recorded twice', { skip }, async (t) => {
  delayMs = 200;
  try {
    // A short timeout keeps the lease (2 × timeout + 10 s) of the killed worker's rows short.
    const env = { AUDIT_WEBHOOK_TIMEOUT_MS: '1000' };
    const first = await startWorker(env);
    const webhookId = await addWebhook();
    const audits = await queue(webhookId, 100);
    await sql`select pg_notify('svc_webhook_deliveries', '')`.execute(database.db);
    await until('some deliveries under way', async () => receivedBy(webhookId).length >= 20);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.on('exit', resolve));
    children.delete(first);
    const beforeRestart = (await attemptsPerDelivery(webhookId)).filter((d) => d.state === 'delivered').length;
    assert.ok(beforeRestart < 100, 'the kill left deliveries pending');

    const second = await startWorker(env);
    await until('all 100 delivered after the restart', async () => (await attemptsPerDelivery(webhookId)).every((d) => d.state === 'delivered'), 90_000);
    const rows = await attemptsPerDelivery(webhookId);
    assert.ok(rows.every((d) => d.delivered === 1 && d.attempts === 1), 'exactly one recorded attempt per delivery');
    const sent = receivedBy(webhookId).map(auditIdOf);
    assert.deepEqual(new Set(sent), new Set(audits), 'none lost');
    // At-least-once: a try the killed worker had sent but not recorded goes out again, with a new
    // deliveryId and the same audit.id (receivers deduplicate on it). Only those can repeat.
    const repeats = sent.length - new Set(sent).size;
    assert.ok(repeats <= 16, `at most one batch in flight is re-sent (${repeats})`);
    t.diagnostic(`delivered before the kill: ${beforeRestart}; re-sent after the restart (in flight at the kill): ${repeats}`);
    assert.equal(await stopWorker(second), 0);
  } finally {
    delayMs = 0;
  }
});
