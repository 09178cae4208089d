// The service's processes against a PostgreSQL that misbehaves, as the fault trial found it: a
// restart (the server terminates every connection with 57P01), connection resets, an outage
// (connections refused) and a partition (connections open, nothing answers). A TCP proxy on
// loopback stands between the processes and the database; the processes are real ones
// (`node src/main.ts serve` and `worker`), as operators run them.
//
// What must hold: no process dies; while the database is away every API answer is a 503 with
// Retry-After (never a 500, never a hang), /readyz says 503 and /healthz 200; when it returns,
// audits are stored and their events delivered again without anyone restarting anything.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';
import { startHttpsFixture, type Fixture } from '../support/https-fixture.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { makeTestPki } from '../support/tls.ts';

const skip = usingPostgres ? false : 'PostgreSQL only (TEST_DATABASE_URL): the embedded database has no network to lose';
const main = path.resolve(import.meta.dirname, '../../src/main.ts');
const HOST = 'site.test';

let database: TestDatabase;
let fixture: Fixture;
let caFile: string;
let apiKey: string;
const children = new Set<ChildProcess>();

before(async () => {
  if (skip) return;
  database = await openTestDatabase();
  const pki = await makeTestPki([HOST]);
  caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-resilience-')), 'ca.pem');
  fs.writeFileSync(caFile, pki.caPem);
  fixture = await startHttpsFixture(
    {
      // No privacy-policy link: the privacy audit fails privacy.privacy-policy-link, an error.
      '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>t</title><p>Hello</p></html>'),
      '/hook': (_req, res) => res.writeHead(204).end(),
    },
    pki,
  );
  const key = await createApiKey(database.db, 'resilience');
  apiKey = key.rawKey;
  await database.db
    .insertInto('webhooks')
    .values({ id: randomUUID(), api_key_id: key.id, url: fixture.url(HOST, '/hook'), trigger_branch: 'privacy', trigger_severity: 'high', challenge: 'resilience-test-challenge-0123456789abcdef', verified_at: new Date() })
    .execute();
});
after(async () => {
  if (skip) return;
  for (const child of children) child.kill('SIGKILL');
  await fixture.close();
  await database.close();
});

interface Running extends ChildProcess {
  output(): string;
  /** The server's base URL (serve only). */
  base?: string;
}

function databaseAddress() {
  const url = new URL(database.connectionString!);
  return { host: url.hostname, port: Number(url.port || 5432) };
}

/** A connection string through the proxy, its connections named so a test can terminate them. */
function throughProxy(proxy: TcpProxy, applicationName: string): string {
  const url = new URL(proxy.via(database.connectionString!));
  url.searchParams.set('application_name', applicationName);
  return url.href;
}

function spawnService(command: 'serve' | 'worker', databaseUrl: string, env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [main, command], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      AUDIT_RESOLVE: `${HOST}=127.0.0.1`,
      AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      // Loopback on purpose: the fixtures listen on 127.0.0.1.
      AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
      NODE_EXTRA_CA_CERTS: caFile,
      AUDIT_RATE_LIMIT: '10000',
      AUDIT_DB_CONNECT_TIMEOUT_MS: '500',
      AUDIT_DB_STATEMENT_TIMEOUT_MS: '1000',
      AUDIT_WEBHOOK_POLL_INTERVAL_MS: '200',
      ...env,
    },
  }) as Running;
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  child.output = () => output;
  return child;
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await delay(50);
  }
}

async function started(child: Running, marker: string): Promise<void> {
  await until(`"${marker}" in the output`, () => {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${child.output()}`);
    return child.output().includes(marker);
  });
  const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output());
  if (listening) child.base = listening[1];
}

async function stop(child: Running): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await exited;
  children.delete(child);
  return code;
}

/** One request; a hang fails the test (the service must answer within its bounds). */
async function call(server: Running, method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.base}${route}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

const audit = (server: Running) => call(server, 'POST', '/api/v1/audit', { branch: 'privacy', url: fixture.url(HOST, '/page') });
const delivered = () => fixture.requests.filter((r) => r.path === '/hook').length;

/** Audits until one is stored: each answer in between is a 503 with Retry-After, never anything else. */
async function auditsAgain(server: Running, phase: string): Promise<number> {
  let refused = 0;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; refused++) {
    const answer = await audit(server);
    if (answer.status === 201) return refused;
    assert.equal(answer.status, 503, `${phase}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual(answer.body, { error: 'service unavailable' });
    assert.ok(Number(answer.retryAfter) > 0, `${phase}: Retry-After`);
    await delay(100);
  }
  throw new Error(`${phase}: no audit stored within 30 s`);
}

/** While the database is away: API routes 503 with Retry-After, /readyz 503, /healthz 200. */
async function assertUnavailable(server: Running, phase: string): Promise<void> {
  for (const answer of [await audit(server), await call(server, 'GET', '/api/v1/audits')]) {
    assert.equal(answer.status, 503, `${phase}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual(answer.body, { error: 'service unavailable' });
    assert.ok(Number(answer.retryAfter) > 0, `${phase}: Retry-After`);
  }
  // A dashboard page that needs the database (any session cookie is looked up): a 503 page.
  const page = await fetch(`${server.base}/dashboard`, { headers: { cookie: `svc_session=${randomBytes(32).toString('base64url')}` }, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
  assert.equal(page.status, 503, `${phase}: dashboard`);
  assert.ok(Number(page.headers.get('retry-after')) > 0);
  assert.match(await page.text(), /The service is unavailable/);
  assert.equal((await call(server, 'GET', '/readyz')).status, 503, `${phase}: /readyz`);
  assert.deepEqual(await call(server, 'GET', '/healthz'), { status: 200, retryAfter: null, body: { status: 'ok' } }, `${phase}: /healthz`);
}

test('a restart, resets, an outage and a partition: server and worker stay up, answer 503 meanwhile, and recover by themselves', { skip, timeout: 180_000 }, async (t) => {
  const proxy = await startTcpProxy(databaseAddress());
  const name = `resilience-${randomBytes(4).toString('hex')}`;
  // Only the worker process delivers, so a delivery after a fault shows that the worker recovered.
  const server = spawnService('serve', throughProxy(proxy, name), { AUDIT_WEBHOOK_WORKER: 'off' });
  const worker = spawnService('worker', throughProxy(proxy, name));
  try {
    await Promise.all([started(server, 'Server listening'), started(worker, 'delivery worker started')]);
    assert.equal((await audit(server)).status, 201);
    await until('the first event delivered', () => delivered() === 1);

    const faults: [string, () => void | Promise<void>][] = [
      // What `pg_ctlcluster … restart` does to every open connection: 57P01, then the socket closes.
      ['terminated by the server (57P01)', async () => {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${name}`.execute(database.db);
      }],
      ['connections reset', () => proxy.reset()],
    ];
    for (const [phase, fault] of faults) {
      const before = delivered();
      await fault();
      await delay(200);
      assert.equal(server.exitCode, null, `${phase}: the server is alive`);
      assert.equal(worker.exitCode, null, `${phase}: the worker is alive`);
      const refused = await auditsAgain(server, phase);
      await until(`${phase}: the next event delivered`, () => delivered() > before);
      t.diagnostic(`${phase}: ${refused} audit(s) answered 503 before one was stored`);
    }

    // The database is down: nothing accepts connections.
    await proxy.refuse();
    await assertUnavailable(server, 'outage');
    let before = delivered();
    await proxy.accept();
    t.diagnostic(`outage over: ${await auditsAgain(server, 'after the outage')} audit(s) answered 503 first`);
    await until('an event delivered after the outage', () => delivered() > before);

    // A partition: connections stay open and nothing answers. Every answer comes while it lasts.
    proxy.blackhole();
    await assertUnavailable(server, 'partition');
    before = delivered();
    proxy.heal();
    t.diagnostic(`partition healed: ${await auditsAgain(server, 'after the partition')} audit(s) answered 503 first`);
    await until('an event delivered after the partition', () => delivered() > before);

    assert.equal(server.exitCode, null);
    assert.equal(worker.exitCode, null);
    assert.doesNotMatch(server.output(), /"statusCode":500|unexpected error/, 'no 500 at any point');
    // The worker says so once per outage, not at every poll (200 ms here).
    const paused = (worker.output().match(/webhook delivery paused/g) ?? []).length;
    const resumed = (worker.output().match(/database back: webhook delivery resumed/g) ?? []).length;
    assert.ok(paused >= 1 && paused === resumed, `paused ${paused}, resumed ${resumed}`);
    assert.doesNotMatch(worker.output(), /webhook delivery claim failed/);
  } finally {
    const codes = await Promise.all([stop(server), stop(worker)]);
    await proxy.close();
    assert.deepEqual(codes, [0, 0], 'both stop cleanly on SIGTERM');
  }
});

test('a server started while the database is down waits for it, logging each try, and starts when it returns', { skip, timeout: 60_000 }, async () => {
  const proxy = await startTcpProxy(databaseAddress());
  await proxy.refuse();
  const server = spawnService('serve', throughProxy(proxy, 'resilience-start'));
  try {
    await until('the wait logged twice', () => (server.output().match(/database not reachable at start; waiting for it/g) ?? []).length >= 2);
    assert.equal(server.exitCode, null);
    await proxy.accept();
    await started(server, 'Server listening');
    assert.equal((await call(server, 'GET', '/readyz')).status, 200);
    assert.equal((await audit(server)).status, 201);
  } finally {
    assert.equal(await stop(server), 0);
    await proxy.close();
  }
});

test('a server whose database stays away gives up after AUDIT_DB_START_TIMEOUT_MS with one line and exit 1', { skip, timeout: 60_000 }, async () => {
  const proxy = await startTcpProxy(databaseAddress());
  await proxy.refuse();
  const server = spawnService('serve', throughProxy(proxy, 'resilience-give-up'), { AUDIT_DB_START_TIMEOUT_MS: '1500' });
  const code = await new Promise<number | null>((resolve) => server.on('close', resolve));
  children.delete(server);
  await proxy.close();
  assert.equal(code, 1);
  assert.match(server.output(), /^error: the database could not be reached \(.*\); gave up after AUDIT_DB_START_TIMEOUT_MS$/m);
});
