// 5. Monitors (issue 19), for npm run bench. One service, two figures:
//
// - Throughput: the same audits two ways at the same concurrency. First sent through
//   POST /api/v1/audit by BENCH_CONCURRENCY clients (the baseline), then as monitors falling due all
//   at once, drained by the scheduler with AUDIT_MONITOR_CONCURRENCY equal to that concurrency.
//   The ratio is scheduler audits per second over API audits per second (goal ≥ 0.8).
// - Latency on an idle service: monitors falling due one by one, spread over a few seconds; for
//   each, the time from its slot to its run's start (goal: p50 under 1 s).
//
// On PostgreSQL (BENCH_DATABASE_URL) the service runs as its own process, as deployed, and the
// bench writes the monitors through its own connection. The embedded database admits one process,
// so without PostgreSQL the service runs in the bench's process and shares its database handle.
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { authenticateApiKey, createApiKey } from '../src/auth/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres, type DatabaseHandle } from '../src/db/connect.ts';
import { createAddressPolicy } from '../src/net/address-policy.ts';
import { createSafeFetcher } from '../src/net/safe-fetch.ts';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { startServiceProcess } from './service-process.ts';

export interface MonitorBench {
  database: 'postgres' | 'pglite';
  serviceProcess: boolean;
  monitors: number;
  concurrency: number;
  apiPerSecond: number;
  schedulerPerSecond: number;
  ratio: number;
  dueToStart: { monitors: number; p50: number; p99: number; max: number };
}

interface Running {
  origin: string;
  rawKey: string;
  db: DatabaseHandle;
  close(): Promise<void>;
}

const HOST = 'bench.test';

export async function benchMonitors(
  pages: { html: string }[],
  options: { monitors: number; concurrency: number; openDatabase: () => Promise<DatabaseHandle>; serviceEnv: Record<string, string> },
): Promise<MonitorBench> {
  const { monitors: count, concurrency } = options;
  const sample = pages.filter((_, i) => i % Math.ceil(pages.length / 40) === 0);
  const pki = await makeTestPki([HOST]);
  const fixture = await startHttpsFixture((req, res) => {
    const index = Number((req.url ?? '/p/0').split('/')[2] ?? 0) % sample.length;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(sample[index]!.html);
  }, pki);
  const pageUrl = (i: number) => fixture.url(HOST, `/p/${i % sample.length}/${i}`);
  const env = { ...options.serviceEnv, AUDIT_MONITOR_CONCURRENCY: String(concurrency) };
  const postgresUrl = process.env.BENCH_DATABASE_URL;

  let service: Running;
  if (postgresUrl) {
    const child = await startServiceProcess(pki.caPem, HOST, { ...env, DATABASE_URL: postgresUrl });
    const db = await openPostgres(postgresUrl);
    service = { ...child, db, close: async () => (await child.close(), await db.close()) };
  } else {
    const config = loadConfig(env);
    const fetcher = createSafeFetcher({ policy: createAddressPolicy(config.allowPrivateNetworks), staticResolve: config.staticResolve, ca: [pki.caPem] });
    const db = await options.openDatabase();
    const app = await buildApp({ config, db: db.db, fetcher });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { rawKey } = await createApiKey(db.db, 'bench-monitors');
    service = {
      origin: `http://127.0.0.1:${(app.server.address() as import('node:net').AddressInfo).port}`,
      rawKey,
      db,
      async close() {
        await app.close();
        await fetcher.close();
        await db.close();
      },
    };
  }
  const { db } = service.db;
  const keyId = (await authenticateApiKey(db, service.rawKey))!.id;

  const apiAudit = async (i: number) => {
    const response = await request(`${service.origin}/api/v1/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.rawKey },
      body: JSON.stringify({ url: pageUrl(i) }),
    });
    await response.body.text();
    if (response.statusCode !== 201) throw new Error(`audit answered ${response.statusCode}`);
  };
  const viaApi = async (n: number) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < n) await apiAudit(next++);
    }));
    return (n / (performance.now() - started)) * 1000;
  };
  /** `n` daily monitors whose slots fall at `slotOf(i)`; their ids. */
  const insertMonitors = async (n: number, slotOf: (i: number) => Date) => {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (let done = 0; done < n; done += 500) {
      await db
        .insertInto('monitors')
        .values(ids.slice(done, done + 500).map((id, j) => ({
          id, api_key_id: keyId, url: pageUrl(done + j), branch: 'wcag', standard: 'WCAG21AA', include_warnings: true,
          every: '1d', every_seconds: 86_400, paused_at: null, next_run_at: slotOf(done + j), locked_until: null, lease: null, last_run: null,
        })))
        .execute();
    }
    return ids;
  };
  const finished = async (ids: string[]) => {
    const row = await db.selectFrom('monitors').select(sql<number>`count(*)::int`.as('n')).where('id', 'in', ids).where('last_run', 'is not', null).executeTakeFirstOrThrow();
    return row.n;
  };
  const viaScheduler = async (n: number) => {
    const ids = await insertMonitors(n, () => new Date(Date.now() - 1000));
    const started = performance.now();
    while ((await finished(ids)) < n) await new Promise((resolve) => setTimeout(resolve, 20));
    return (n / (performance.now() - started)) * 1000;
  };

  // Warm both paths, then measure back to back.
  await viaApi(60);
  await viaScheduler(60);
  const apiPerSecond = await viaApi(count);
  const schedulerPerSecond = await viaScheduler(count);

  // Idle latency: 30 monitors falling due 200 ms apart, from 1 s after they are stored.
  const base = Date.now() + 1000;
  const spread = await insertMonitors(30, (i) => new Date(base + i * 200));
  while ((await finished(spread)) < spread.length) await new Promise((resolve) => setTimeout(resolve, 50));
  const runs = await db.selectFrom('monitors').select(['next_run_at', 'every_seconds', sql<string>`last_run->>'startedAt'`.as('started')]).where('id', 'in', spread).execute();
  const delays = runs.map((r) => Date.parse(r.started) - (new Date(r.next_run_at).getTime() - r.every_seconds * 1000)).sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!;

  // The bench's monitors would fall due again in a later run on the same PostgreSQL.
  await db.deleteFrom('monitors').where('api_key_id', '=', keyId).execute();
  await service.close();
  await fixture.close();
  return {
    database: postgresUrl ? 'postgres' : 'pglite',
    serviceProcess: Boolean(postgresUrl),
    monitors: count,
    concurrency,
    apiPerSecond,
    schedulerPerSecond,
    ratio: schedulerPerSecond / apiPerSecond,
    dueToStart: { monitors: delays.length, p50: at(0.5), p99: at(0.99), max: delays[delays.length - 1]! },
  };
}
