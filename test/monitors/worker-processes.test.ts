// Monitors run by `node src/main.ts worker` processes as an operator runs them on one PostgreSQL:
// two processes share the due slots through SKIP LOCKED, and a process killed with kill -9 mid-run
// loses no slot and doubles none (its claims are taken over after their lease; a slot whose audit
// it had stored is not audited again). PostgreSQL only (TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startHttpsFixture, type Fixture } from '../support/https-fixture.ts';
import { makeTestPki } from '../support/tls.ts';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const skip = usingPostgres ? false : 'PostgreSQL only (TEST_DATABASE_URL): worker processes need a shared server';
const HOST = 'monitored.test';
const PAGE = '<!doctype html><html lang="en"><head><title>Page</title></head><body><main><h1>Page</h1><img src="a.png"></main></body></html>';

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
  caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-monitors-')), 'ca.pem');
  fs.writeFileSync(caFile, pki.caPem);
  fixture = await startHttpsFixture(async (_req, res) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  }, pki);
  keyId = (await createApiKey(database.db, 'monitors')).id;
});
after(async () => {
  if (skip) return;
  for (const child of children) child.kill('SIGKILL');
  await fixture.close();
  await database.close();
});

const startWorker = (env: Record<string, string> = {}): Promise<WorkerProcess> =>
  startWorkerProcess({
    connectionString: database.connectionString!,
    host: HOST,
    caFile,
    ready: 'monitor scheduler started',
    env: { AUDIT_MONITOR_POLL_INTERVAL_MS: '50', AUDIT_MONITOR_CONCURRENCY: '8', ...env },
    children,
  });

const stopWorker = (child: ChildProcess) => stopWorkerProcess(child, children);

async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `count` hourly monitors of the fixture page whose first slot fell due a minute ago, in one statement. */
async function dueMonitors(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const slot = new Date(Date.now() - 60_000);
  await database.db
    .insertInto('monitors')
    .values(ids.map((id, i) => ({
      id, api_key_id: keyId, url: `https://${HOST}:${fixture.port}/page/${i}`, branch: 'wcag', standard: 'WCAG21AA', include_warnings: true,
      every: '1h', every_seconds: 3600, paused_at: null, next_run_at: slot, locked_until: null, lease: null, last_run: null,
    })))
    .execute();
  return ids;
}

async function progress(ids: readonly string[]) {
  const rows = await database.db
    .selectFrom('monitors as m')
    .leftJoin('audits as a', 'a.monitor_id', 'm.id')
    .select(['m.id', sql<number>`count(a.id)::int`.as('audits'), sql<string | null>`m.last_run->>'outcome'`.as('outcome')])
    .where('m.id', 'in', ids)
    .groupBy('m.id')
    .execute();
  return { rows, finished: rows.filter((r) => r.outcome !== null).length, audits: rows.reduce((n, r) => n + r.audits, 0) };
}

test('two worker processes, 500 due monitors: exactly one audit per slot, shared between them', { skip }, async (t) => {
  const [a, b] = await Promise.all([startWorker(), startWorker()]);
  const ids = await dueMonitors(500);
  await until('every monitor run', async () => (await progress(ids)).finished === 500, 240_000);
  const { rows } = await progress(ids);
  assert.ok(rows.every((r) => r.outcome === 'audited'), 'every run stored its audit');
  assert.ok(rows.every((r) => r.audits === 1), 'one audit per monitor: no slot ran twice');
  assert.deepEqual(await Promise.all([stopWorker(a), stopWorker(b)]), [0, 0]);
  const shares = [a, b].map((w) => (w.output().match(/"msg":"monitor run"/g) ?? []).length);
  assert.equal(shares[0]! + shares[1]!, 500);
  assert.ok(shares.every((n) => n > 0), `both processes ran slots: ${shares.join(' + ')}`);
  t.diagnostic(`runs per worker: ${shares.join(' + ')}`);
});

test('kill -9 of a worker mid-run: its slots are taken over after the lease, none lost, none audited twice', { skip }, async (t) => {
  delayMs = 150;
  try {
    const env = { AUDIT_MONITOR_LEASE_MS: '3000' };
    const first = await startWorker(env);
    const ids = await dueMonitors(120);
    await until('some runs finished and more under way', async () => (await progress(ids)).audits >= 16, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.on('exit', resolve));
    children.delete(first);
    const atKill = await progress(ids);
    const leased = await database.db.selectFrom('monitors').select('id').where('id', 'in', ids).where('lease', 'is not', null).execute();
    assert.ok(atKill.finished < 120, 'the kill left slots unfinished');
    t.diagnostic(`at the kill: ${atKill.finished} finished, ${atKill.audits} audits stored, ${leased.length} slots still leased`);

    const second = await startWorker(env);
    await until('every monitor run after the restart', async () => (await progress(ids)).finished === 120, 180_000);
    const { rows } = await progress(ids);
    assert.ok(rows.every((r) => r.audits === 1), `one audit per slot: ${rows.filter((r) => r.audits !== 1).length} monitors differ`);
    assert.ok(rows.every((r) => r.outcome === 'audited'));
    assert.equal(await stopWorker(second), 0);
  } finally {
    delayMs = 0;
  }
});
