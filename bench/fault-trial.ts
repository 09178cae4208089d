// npm run trial: the fault trial of issue 16, repeatable. The service runs as its own process on
// PostgreSQL (TRIAL_DATABASE_URL, default the local test server; a fresh schema each run) behind a
// TCP proxy on loopback, and is put through:
//   1. a database restart under load (TRIAL_PG_RESTART=1: a real `pg_ctlcluster … restart`;
//      otherwise every connection terminated by the server, 57P01, as a restart does, then reset);
//   2. a 10 s partition (the proxy holds every byte), with /readyz and an audit sent into it;
//   3. the crafted pages, each audited beside /healthz probes and small audits;
//   4. two tenants: A's receiver hangs with 100 deliveries queued, then B gets one event;
//   5. 640 audits of one site at concurrency 64.
// Prints what it saw; never part of `npm test` (it takes minutes and restarts shared servers).
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { request } from 'undici';
import { createApiKey } from '../src/auth/api-keys.ts';
import { openPostgres } from '../src/db/connect.ts';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { pathologicalPages } from '../test/support/pathological-pages.ts';
import { startTcpProxy } from '../test/support/tcp-proxy.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { freePort } from './service-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const databaseUrl = process.env.TRIAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HOST = 'trial.test';
/** TRIAL_PARTS=1,2: only those sections. */
const parts = new Set((process.env.TRIAL_PARTS ?? '1,2,3,4,5').split(',').map((p) => p.trim()));

/** The crafted pages (and one found since), all under the 2 MiB crawl limit. */
const CRAFTED = Object.fromEntries(pathologicalPages().map(({ name, html }) => [name, () => html]));

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${Math.round(value)} ms`;

async function main() {
  const schema = `trial_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => {}); // the restart of part 1 ends this connection too
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const schemaUrl = new URL(databaseUrl);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
  const direct = await openPostgres(schemaUrl.href);

  const pki = await makeTestPki([HOST]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-trial-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, pki.caPem);
  const crafted = Object.fromEntries(Object.entries(CRAFTED).map(([name, make]) => [name, make()]));
  const craftedPaths = Object.keys(crafted).map((_, i) => `/crafted/${i}`);
  const received: { path: string; at: number }[] = [];
  const fixture = await startHttpsFixture(async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/hook/')) {
      received.push({ path: url, at: performance.now() });
      if (url.startsWith('/hook/hang')) return; // never answers: each try runs to the delivery timeout
      return res.writeHead(204).end();
    }
    const index = craftedPaths.indexOf(url);
    const html = index >= 0 ? Object.values(crafted)[index]! : `<!doctype html><html lang="en"><title>Small</title><h1>Small</h1><p>${url}</p></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  }, pki);

  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const applicationName = `trial-${randomBytes(3).toString('hex')}`;
  const serviceUrl = new URL(proxy.via(schemaUrl.href));
  serviceUrl.searchParams.set('application_name', applicationName);
  const rawKey = `trial-${randomUUID()}-${randomUUID()}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'src/main.ts'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: serviceUrl.href,
      PORT: String(port),
      AUDIT_SEED_API_KEY: rawKey,
      AUDIT_RESOLVE: `${HOST}=127.0.0.1`,
      AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      // Loopback on purpose: the fixtures listen on 127.0.0.1.
      AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
      AUDIT_RATE_LIMIT: '1000000',
      NODE_EXTRA_CA_CERTS: caFile,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const alive = () => child.exitCode === null && child.signalCode === null;

  async function call(method: string, route: string, body?: unknown, key = rawKey): Promise<{ status: number; ms: number }> {
    const start = performance.now();
    try {
      const response = await request(`${base}${route}`, {
        method: method as 'GET',
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      });
      await response.body.text();
      return { status: response.statusCode, ms: performance.now() - start };
    } catch {
      return { status: 0, ms: performance.now() - start };
    }
  }
  const audit = (pagePath: string, branch = 'ai-governance', key = rawKey) =>
    call('POST', '/api/v1/audit', { branch, url: fixture.url(HOST, pagePath) }, key);

  for (const deadline = Date.now() + 60_000; (await call('GET', '/readyz')).status !== 200; await delay(100)) {
    if (!alive() || Date.now() > deadline) throw new Error(`service did not start: ${output}`);
  }
  console.log(`service up on PostgreSQL through a proxy (schema ${schema})\n`);

  // 1. A restart under load.
  if (parts.has('1')) {
    const statuses: { at: number; status: number }[] = [];
    let loading = true;
    const load = Promise.all(Array.from({ length: 8 }, async (_, worker) => {
      for (let i = 0; loading; i++) {
        const { status } = await audit(`/small/${worker}-${i}`);
        statuses.push({ at: performance.now(), status }); // when the answer came
      }
    }));
    await delay(2000);
    const faultAt = performance.now();
    if (process.env.TRIAL_PG_RESTART === '1') {
      execSync(`pg_ctlcluster --skip-systemctl-redirect ${fs.readdirSync('/etc/postgresql')[0]} main restart`, { stdio: 'inherit' });
    } else {
      await sql(admin, `select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${applicationName}'`);
      proxy.reset();
    }
    await delay(8000);
    loading = false;
    await load;
    const after = statuses.filter((s) => s.at >= faultAt);
    const firstStored = after.find((s) => s.status === 201);
    const count = (list: typeof statuses) => Object.entries(Object.groupBy(list, (s) => String(s.status))).map(([k, v]) => `${k}×${v!.length}`).join(' ');
    console.log(`1. ${process.env.TRIAL_PG_RESTART === '1' ? 'pg_ctlcluster restart' : 'connections terminated (57P01) and reset'} under load (8 clients)`);
    console.log(`   process alive: ${alive()}; answers before: ${count(statuses.filter((s) => s.at < faultAt))}; after: ${count(after)}`);
    console.log(`   first audit stored ${firstStored ? ms(firstStored.at - faultAt) : 'never'} after the fault\n`);
    if (process.env.TRIAL_PG_RESTART === '1') await admin.end().catch(() => {});
  }

  // 2. A 10 s partition.
  if (parts.has('2')) {
    proxy.blackhole();
    const started = performance.now();
    const [ready, stored] = await Promise.all([call('GET', '/readyz'), audit('/small/partition')]);
    const health = await call('GET', '/healthz');
    const left = 10_000 - (performance.now() - started);
    if (left > 0) await delay(left);
    proxy.heal();
    const healedAt = performance.now();
    let back: { status: number } = { status: 0 };
    for (const deadline = Date.now() + 30_000; back.status !== 201 && Date.now() < deadline; ) back = await audit('/small/healed');
    console.log('2. a 10 s partition (every byte held both ways)');
    console.log(`   /readyz ${ready.status} in ${ms(ready.ms)}; audit ${stored.status} in ${ms(stored.ms)}; /healthz ${health.status} in ${ms(health.ms)}`);
    console.log(`   after healing: audit ${back.status} within ${ms(performance.now() - healedAt)}; process alive: ${alive()}\n`);
  }

  // 3. Crafted pages, each beside /healthz probes and small audits.
  if (parts.has('3')) console.log('3. crafted pages (wcag), each beside /healthz every 50 ms and 2 clients of small audits');
  for (const [index, name] of parts.has('3') ? Object.keys(crafted).entries() : []) {
    let running = true;
    const health: number[] = [];
    const small: number[] = [];
    const probes = (async () => {
      while (running) {
        health.push((await call('GET', '/healthz')).ms);
        await delay(50);
      }
    })();
    const smalls = Promise.all([0, 1].map(async (c) => {
      for (let i = 0; running; i++) small.push((await audit(`/small/c${c}-${index}-${i}`, 'wcag')).ms);
    }));
    const heavy = await audit(craftedPaths[index]!, 'wcag');
    running = false;
    await Promise.all([probes, smalls]);
    console.log(`   ${name}: ${heavy.status} in ${ms(heavy.ms)}; /healthz p50 ${ms(quantile(health, 0.5))} max ${ms(Math.max(...health))}; ` +
      `${small.length} small audits p50 ${ms(quantile(small, 0.5))} p99 ${ms(quantile(small, 0.99))}`);
  }
  console.log('');

  // 4. Two tenants: A's receiver hangs with 100 deliveries queued; then B gets one event.
  if (parts.has('4')) {
    const keys = [await createApiKey(direct.db, 'tenant-a'), await createApiKey(direct.db, 'tenant-b')];
    const hooks = ['/hook/hang', '/hook/ok'].map((hookPath, i) => ({ id: randomUUID(), api_key_id: keys[i]!.id, url: fixture.url(HOST, hookPath) }));
    await direct.db.insertInto('webhooks').values(hooks.map((h) => ({ ...h, trigger_branch: 'privacy', trigger_severity: 'high', challenge: `trial-${randomUUID()}`, verified_at: new Date() }))).execute();
    // A privacy audit of a page without a policy link fails privacy.privacy-policy-link: one event each.
    await Promise.all(Array.from({ length: 100 }, (_, i) => audit(`/small/a-${i}`, 'privacy', keys[0]!.rawKey)));
    await delay(1000);
    const sentAt = performance.now();
    const b = await audit('/small/b', 'privacy', keys[1]!.rawKey);
    for (const deadline = Date.now() + 120_000; !received.some((r) => r.path === '/hook/ok') && Date.now() < deadline; ) await delay(10);
    const arrived = received.find((r) => r.path === '/hook/ok');
    console.log('4. two tenants: A’s receiver hangs (100 deliveries queued), then one event for B');
    console.log(`   B's audit ${b.status}; its event arrived ${arrived ? ms(arrived.at - sentAt) : 'never (120 s)'} after the audit was sent; ` +
      `A's tries seen so far: ${received.filter((r) => r.path === '/hook/hang').length}\n`);
  }

  // 5. 640 audits of one site at concurrency 64.
  if (parts.has('5')) {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: 64 }, async () => {
      while (next < 640) statuses.push((await audit(`/small/same-${next++}`, 'ai-governance')).status);
    }));
    const counts = Object.entries(Object.groupBy(statuses, (s) => String(s))).map(([k, v]) => `${k}×${v!.length}`).join(' ');
    console.log(`5. 640 audits of one origin and branch at concurrency 64: ${counts}\n`);
  }

  if (process.env.TRIAL_DUMP) fs.writeFileSync(process.env.TRIAL_DUMP, output);
  console.log(`process alive at the end: ${alive()}; 500s in its log: ${(output.match(/"statusCode":500|unexpected error/g) ?? []).length}`);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await proxy.close();
  await fixture.close();
  await direct.close();
  const cleanup = new pg.Client({ connectionString: databaseUrl });
  await cleanup.connect();
  await cleanup.query(`drop schema ${schema} cascade`);
  await cleanup.end();
  await admin.end().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}

async function sql(client: pg.Client, text: string) {
  await client.query(text);
}

await main();
