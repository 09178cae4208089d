// npm run bench: speed as ratios against a baseline measured in the same run, never as a timed
// test. Prints a table and writes the figures to bench/results/<timestamp>.json.
//
// 1. Analysis: per corpus page and branch, the branch's analysis (page model + every control) next
//    to the bare parse of the same page (the service's parser: parse5 with the htmlparser2 tree
//    adapter, src/audit/page/parse.ts). The privacy branch's one network request (the
//    policy follow) is not analysis: a reachable result is supplied, the link is still selected.
//    The WCAG branch also reports its slowest page (the target is none over 250 ms), the page with
//    the most duplicate ids next to the median, and RSS growth over three passes of the corpora;
//    and, on three generated pathological pages (issue 16: 20,000 identical rules, one structural
//    rule over 100,000 siblings, 10,000 rules × 36,000 elements), its analysis next to the bare
//    parse of the same page, with the cascade's match attempts against its budget. These run
//    without the corpora too.
// 2. End to end: audits through the real HTTP stack, safe fetcher and database against a local
//    HTTPS fixture, next to a bare fetch-and-parse loop over the same pages at the same concurrency.
//    Twice: the service as its own process (`node src/main.ts serve`, as users deploy it; the
//    headline figure), and the service inside the bench process, sharing one thread with the load
//    and the fixture (the old figure, kept for comparison). Each next to a baseline measured just
//    before it.
//
//    2b. The crafted pages of issue 16 through the service process: each crafted audit's answer and
//    time, and the p99 of small audits sent beside it against their p99 alone.
//
// 3. Webhooks: deliveries per second from the outbox to a loopback HTTPS receiver (the worker:
//    claim, sign, send, record) next to a bare signed-POST loop through the same safe fetcher at the
//    same concurrency; and the time from an audit's commit to its event's arrival at the receiver.
//
// 4. Report: the one-page PDF's generation time, the renderer alone and the whole endpoint over
//    loopback HTTP, p50/p99, next to a pdfkit page of the same text in built-in Helvetica
//    (bench/report-bench.ts). The goal is an endpoint p50 of at most 40 ms with the embedded font.
//
// 5. Monitors (bench/monitors-bench.ts): monitors falling due at once drained by the scheduler, next
//    to the same audits through POST /api/v1/audit at the same concurrency; and on an idle service
//    the time from a slot falling due to its run starting.
//
// 6. Changes (bench/changes-bench.ts): GET /api/v1/audits/{id}/changes on audits with 50
//    occurrences in each of 25 criteria, next to the audit's read-back; goal p50 under 20 ms.
//
// 7. The CI client (bench/check-bench.ts): `check` over 200 corpus pages against the service in its
//    own process, next to a bare concurrent loop of the same audits; goal: the client costs under
//    10% over the loop. Reports pages per second and the client's peak RSS.
//
// Without the shared corpora (a fresh clone has no ../shared) part 1 cannot run: it is reported as
// missing, part 2 runs on generated pages, and the process exits 1 so nobody takes the run as whole.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDocument } from '../src/audit/page/parse.ts';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { aiGovernanceControls } from '../src/audit/ai-governance/index.ts';
import { crawl } from '../src/audit/crawl.ts';
import { evaluateControls } from '../src/audit/findings.ts';
import { buildPage } from '../src/audit/page.ts';
import { privacyControls } from '../src/audit/privacy/index.ts';
import { selectPolicyLink } from '../src/audit/privacy/links/index.ts';
import { analyseWcag } from '../src/audit/wcag/index.ts';
import { WcagContext } from '../src/audit/wcag/context.ts';
import { MATCH_BUDGET } from '../src/audit/wcag/styles.ts';
import { pathologicalPages } from '../test/support/pathological-pages.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, openPostgres, type DatabaseHandle } from '../src/db/connect.ts';
import { createAddressPolicy } from '../src/net/address-policy.ts';
import { createSafeFetcher } from '../src/net/safe-fetch.ts';
import { randomUUID } from 'node:crypto';
import { createDeliveryWorker } from '../src/alerts/delivery-worker.ts';
import { signFailureEvent } from '../src/alerts/signing.ts';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { CORPORA, loadCorpusPages } from '../test/support/corpus-pages.ts';
import { missingShared } from '../test/support/shared.ts';
import { benchChanges } from './changes-bench.ts';
import { benchCheck } from './check-bench.ts';
import { benchMonitors } from './monitors-bench.ts';
import { benchReport } from './report-bench.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const E2E_AUDITS = Number(process.env.BENCH_AUDITS ?? 300);
const E2E_CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WEBHOOK_DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1000);
const WEBHOOK_AUDITS = Number(process.env.BENCH_WEBHOOK_AUDITS ?? 100);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);

interface Stats {
  median: number;
  p99: number;
  mean: number;
  perSecond: number;
}

function stats(samples: number[], totalMs = samples.reduce((a, b) => a + b, 0)): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p99: at(0.99), mean: totalMs / samples.length, perSecond: (samples.length / totalMs) * 1000 };
}

const url = new URL('https://bench.test/page');
const ANALYSES: Record<string, (html: string) => unknown> = {
  wcag: (html) => analyseWcag(buildPage(html, url), 'WCAG21AA', true),
  'ai-governance': (html) => evaluateControls(aiGovernanceControls, buildPage(html, url), true),
  privacy: (html) => {
    const page = buildPage(html, url);
    const link = selectPolicyLink(page);
    const follow = { outcome: 'reachable', finalUrl: url.href, status: 200, textLength: 1000 } as const;
    return evaluateControls(privacyControls, { page, responseCookies: [], policy: link && { link, follow } }, true);
  },
};

function benchAnalysis(pages: { name: string; html: string }[], analyse: (html: string) => unknown) {
  const parse: number[] = [];
  const analysis: number[] = [];
  for (const page of pages) analyse(page.html); // warm-up: JIT and regex compilation
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of pages) {
      // Alternate the order so neither side always runs on a cache the other warmed.
      const first = round % 2 === 0;
      for (const which of first ? ['parse', 'analysis'] : ['analysis', 'parse']) {
        const start = performance.now();
        if (which === 'parse') parseDocument(page.html);
        else analyse(page.html);
        (which === 'parse' ? parse : analysis).push(performance.now() - start);
      }
    }
  }
  const p = stats(parse);
  const a = stats(analysis);
  return { pages: pages.length, rounds: ROUNDS, parse: p, analysis: a, ratioMedian: a.median / p.median, ratioMean: a.mean / p.mean };
}

/** WCAG: the slowest page, the page with most duplicate ids against the median, and RSS over three passes. */
function benchWcagExtras(pages: { name: string; html: string }[], medianMs: number) {
  const analyse = ANALYSES.wcag!;
  const slowest = { name: '', ms: 0 };
  let over250 = 0;
  for (const page of pages) {
    let best = Infinity;
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      analyse(page.html);
      best = Math.min(best, performance.now() - start);
    }
    if (best > 250) over250++;
    if (best > slowest.ms) Object.assign(slowest, { name: page.name, ms: best });
  }
  const duplicates = (html: string) => [...buildPage(html, url).ids.values()].reduce((n, list) => n + (list.length > 1 ? list.length - 1 : 0), 0);
  const dupPage = pages.map((p) => ({ page: p, duplicates: duplicates(p.html) })).sort((a, b) => b.duplicates - a.duplicates)[0]!;
  const dupTimes: number[] = [];
  const dupParse: number[] = [];
  for (let i = 0; i < 5; i++) {
    let start = performance.now();
    analyse(dupPage.page.html);
    dupTimes.push(performance.now() - start);
    start = performance.now();
    parseDocument(dupPage.page.html);
    dupParse.push(performance.now() - start);
  }
  const dupMs = stats(dupTimes).median;
  const dupParseMs = stats(dupParse).median;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  for (let pass = 0; pass < 3; pass++) for (const page of pages) analyse(page.html);
  gc?.();
  const rssAfter = process.memoryUsage().rss;
  return {
    slowest,
    pagesOver250ms: over250,
    duplicateIdPage: { name: dupPage.page.name, duplicateIds: dupPage.duplicates, ms: dupMs, timesMedian: dupMs / medianMs, parseMs: dupParseMs, timesOwnParse: dupMs / dupParseMs },
    rss: { beforeMB: rssBefore / 2 ** 20, afterThreePassesMB: rssAfter / 2 ** 20, growthMB: (rssAfter - rssBefore) / 2 ** 20, gcExposed: gc !== undefined },
  };
}

/** WCAG on the pathological pages: best of two analyses next to the best of three bare parses, and the cascade's work. */
function benchPathological() {
  const analyse = ANALYSES.wcag!;
  return pathologicalPages().map(({ name, html }) => {
    let parseMs = Infinity;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      parseDocument(html);
      parseMs = Math.min(parseMs, performance.now() - start);
    }
    let ms = Infinity;
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      analyse(html);
      ms = Math.min(ms, performance.now() - start);
    }
    const { styles } = new WcagContext(buildPage(html, url), { html: true });
    return { name, kB: html.length / 1024, parseMs, ms, timesParse: ms / parseMs, matchWork: styles.matchWork, budget: MATCH_BUDGET, budgetSpent: styles.exhausted };
  });
}

async function runConcurrently(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const start = performance.now();
        await task(i);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { ...stats(latencies, performance.now() - started), p50: stats(latencies).median };
}

/** Article-like pages from 2 KB to about 200 KB, for the end-to-end part when the corpora are missing. */
function generatedPages(): { name: string; html: string }[] {
  const paragraph =
    '<p>Our assistant drafts replies with a language model; a support agent reviews every answer before it is sent. ' +
    '<a href="/docs/model-card">Model card</a> · <a href="/privacy">Privacy notice</a></p>\n';
  return Array.from({ length: 40 }, (_, i) => ({
    name: `generated-${i}`,
    html: `<!doctype html><html lang="en"><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>${paragraph.repeat(8 + i * i)}</main></body></html>`,
  }));
}

/** A running service under load: where to send audits, with which key, and how to stop it. */
/** In the bench's process or its own (bench/service-process.ts): reached the same way. */
type ServiceUnderTest = ServiceProcess;

const SERVICE_ENV = {
  AUDIT_RESOLVE: 'bench.test=127.0.0.1',
  AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
  // Loopback on purpose: the fixtures listen on 127.0.0.1.
  AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
  AUDIT_RATE_LIMIT: '1000000',
  LOG_LEVEL: 'warn',
};

/**
 * A fresh database for one bench part: PostgreSQL with BENCH_DATABASE_URL (migrated), else the
 * embedded one in a temp dir, which `close` also removes.
 */
async function openBenchDatabase(): Promise<DatabaseHandle> {
  if (process.env.BENCH_DATABASE_URL) {
    const database = await openPostgres(process.env.BENCH_DATABASE_URL);
    await (await import('../src/db/migrate.ts')).migrateToLatest(database.db);
    return database;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bench-'));
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  return {
    ...database,
    async close() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The old shape: the service in the bench's own process, sharing its thread with load and fixture. */
async function inProcessService(caPem: string): Promise<ServiceUnderTest> {
  const config = loadConfig(SERVICE_ENV);
  const fetcher = createSafeFetcher({ policy: createAddressPolicy(config.allowPrivateNetworks), staticResolve: config.staticResolve, ca: [caPem] });
  const database = await openBenchDatabase();
  const app = await buildApp({ config, db: database.db, fetcher });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as import('node:net').AddressInfo;
  const { rawKey } = await createApiKey(database.db, 'bench');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    rawKey,
    async close() {
      await app.close();
      await fetcher.close();
      await database.close();
    },
  };
}

/** The way users deploy it (bench/service-process.ts), on BENCH_DATABASE_URL when set. */
function childProcessService(caPem: string): Promise<ServiceUnderTest> {
  return startServiceProcess(caPem, 'bench.test', process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {});
}

async function benchEndToEnd(pages: { name: string; html: string }[]) {
  // A fixed, varied sample of the pages served by a local HTTPS fixture.
  const sample = pages.filter((_, i) => i % Math.ceil(pages.length / 40) === 0);
  const pki = await makeTestPki(['bench.test']);
  const routes = Object.fromEntries(
    sample.map((page, i) => [`/p/${i}`, (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page.html);
    }]),
  );
  const fixture = await startHttpsFixture(routes, pki);
  const config = loadConfig(SERVICE_ENV);
  const policy = createAddressPolicy(config.allowPrivateNetworks);
  const pageUrl = (i: number) => new URL(fixture.url('bench.test', `/p/${i % sample.length}`));

  const baselineFetcher = createSafeFetcher({ policy, staticResolve: config.staticResolve, ca: [pki.caPem] });
  const baseline = async (i: number) => {
    const page = await crawl(baselineFetcher, pageUrl(i), config.crawl);
    parseDocument(page.html);
  };
  const auditsOn = (service: ServiceUnderTest) => async (i: number) => {
    const response = await request(`${service.origin}/api/v1/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.rawKey },
      body: JSON.stringify({ branch: 'ai-governance', url: pageUrl(i).href }),
    });
    await response.body.text();
    if (response.statusCode !== 201) throw new Error(`audit answered ${response.statusCode}`);
  };
  /** The service's figure next to a baseline measured right before it, both warmed. */
  const measure = async (service: ServiceUnderTest) => {
    const audit = auditsOn(service);
    // A fresh service process has cold code: warm it as far as the in-process one is.
    await runConcurrently(60, E2E_CONCURRENCY, baseline);
    await runConcurrently(60, E2E_CONCURRENCY, audit);
    const base = await runConcurrently(E2E_AUDITS, E2E_CONCURRENCY, baseline);
    const full = await runConcurrently(E2E_AUDITS, E2E_CONCURRENCY, audit);
    await service.close();
    return {
      baseline: { perSecond: base.perSecond, p50: base.p50, p99: base.p99 },
      audits: { perSecond: full.perSecond, p50: full.p50, p99: full.p99 },
      throughputRatio: full.perSecond / base.perSecond,
      p50Ratio: full.p50 / base.p50,
      p99Ratio: full.p99 / base.p99,
    };
  };
  // The separate process first: it is the figure users meet, and the default one reported.
  const separateProcess = await measure(await childProcessService(pki.caPem));
  const inProcess = await measure(await inProcessService(pki.caPem));

  await baselineFetcher.close();
  await fixture.close();
  return {
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    pages: sample.length,
    requests: E2E_AUDITS,
    concurrency: E2E_CONCURRENCY,
    ...separateProcess,
    separateProcess,
    inProcess,
  };
}


/**
 * 2b. Crafted pages end to end (issue 16): the service as its own process; for each pathological
 * page, small WCAG audits from two clients alone (the baseline), then beside one audit of the
 * crafted page. Reports the crafted audit's time and answer, and the small audits' p99 beside it
 * against their p99 alone: analysis runs in threads, so a crafted page should delay only itself.
 */
async function benchCraftedEndToEnd() {
  const pki = await makeTestPki(['bench.test']);
  const crafted = pathologicalPages();
  const fixture = await startHttpsFixture((req, res) => {
    const index = Number((req.url ?? '').split('/crafted/')[1]);
    const html = Number.isInteger(index) ? crafted[index]!.html : `<!doctype html><html lang="en"><title>Small</title><h1>Small</h1><p>${req.url}</p></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  }, pki);
  const service = await childProcessService(pki.caPem);
  const audit = async (pagePath: string) => {
    const start = performance.now();
    const response = await request(`${service.origin}/api/v1/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.rawKey },
      body: JSON.stringify({ branch: 'wcag', url: fixture.url('bench.test', pagePath) }),
      headersTimeout: 120_000,
    });
    await response.body.text();
    return { status: response.statusCode, ms: performance.now() - start };
  };
  /** Two clients of small audits until `until` settles (or `count` each when it is a number). */
  const smallAudits = async (until: Promise<unknown> | number) => {
    const times: number[] = [];
    let done = false;
    if (typeof until !== 'number') void until.finally(() => (done = true));
    await Promise.all([0, 1].map(async (client) => {
      for (let i = 0; typeof until === 'number' ? i < until : !done; i++) times.push((await audit(`/small/${client}-${i}`)).ms);
    }));
    return times;
  };
  await smallAudits(30); // warm
  const alone = stats(await smallAudits(50));
  const rows = [];
  for (const [index, page] of crafted.entries()) {
    const heavy = audit(`/crafted/${index}`);
    const beside = stats(await smallAudits(heavy));
    const { status, ms } = await heavy;
    rows.push({ page: page.name, status, ms, smallBeside: beside, p99Ratio: beside.p99 / alone.p99 });
  }
  await service.close();
  await fixture.close();
  return { smallAlone: alone, rows };
}

async function benchWebhooks(pages: { name: string; html: string }[]) {
  const pki = await makeTestPki(['bench.test', 'hooks.test']);
  const sample = pages.filter((_, i) => i % Math.ceil(pages.length / 20) === 0);
  const arrivals: number[] = [];
  const fixture = await startHttpsFixture((req, res, recorded) => {
    const path = req.url ?? '/';
    if (path.startsWith('/p/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(sample[Number(path.slice(3)) % sample.length]!.html);
      return;
    }
    // The receiver: when the event arrived, against the audit's stored creation time.
    if (path === '/latency') arrivals.push(Date.now() - Date.parse(JSON.parse(recorded.body).audit.createdAt));
    res.writeHead(200).end('ok');
  }, pki);
  // The fairness bounds as deployed (defaults), or as set in the bench's environment to compare.
  const bounds = Object.fromEntries(
    ['AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION', 'AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  const config = loadConfig({ ...SERVICE_ENV, ...bounds, AUDIT_RESOLVE: 'bench.test=127.0.0.1,hooks.test=127.0.0.1' });
  const policy = createAddressPolicy(config.allowPrivateNetworks);
  const fetcher = createSafeFetcher({ policy, staticResolve: config.staticResolve, ca: [pki.caPem] });
  const database = await openBenchDatabase();
  const { id: keyId, rawKey } = await createApiKey(database.db, 'bench-webhooks');
  const secret = 'bench-secret-0123456789abcdefghijklmnopqrstu';
  const silent = { info() {}, warn() {}, error(obj: object, msg: string) { console.error(msg, obj); } };

  // (a) Throughput: a pre-filled outbox drained by one worker, against a bare signed-POST loop.
  const throughputHook = randomUUID();
  await database.db.insertInto('webhooks').values({
    id: throughputHook, api_key_id: keyId, url: fixture.url('hooks.test', '/throughput'), trigger_branch: 'privacy',
    trigger_severity: 'medium', challenge: secret, verified_at: new Date(),
  }).execute();
  const auditId = randomUUID();
  await database.db.insertInto('audits').values({
    id: auditId, api_key_id: keyId, branch: 'privacy', standard: null, include_warnings: true, requested_url: 'https://example.com/',
    final_url: 'https://example.com/', origin: 'https://example.com', http_status: 200, redirect_chain: '[]', fetched_at: new Date(),
    byte_count: 1, body_sha256: '0'.repeat(64), errors: 1, warnings: 0, inconclusive: 0,
  }).execute();
  const event = {
    audit: { id: auditId, url: 'https://example.com/', branch: 'privacy' as const, createdAt: new Date().toISOString(), totals: { errors: 1, warnings: 0 } },
    failures: [{ control: 'privacy.privacy-policy-link', status: 'fail' as const, severity: 'error' as const, evidence: 'No link to a privacy policy or privacy notice was found.' }],
  };
  const fill = async (count: number) => {
    for (let done = 0; done < count; done += 500) {
      const rows = Array.from({ length: Math.min(500, count - done) }, () => ({ id: randomUUID(), webhook_id: throughputHook, audit_id: auditId, event: JSON.stringify(event) }));
      await database.db.insertInto('webhook_deliveries').values(rows).execute();
    }
  };
  const CONCURRENCY = 16; // the worker's tries in flight, and the bare loop's
  const worker = createDeliveryWorker({
    db: database.db, fetcher, timeoutMs: config.webhooks.timeoutMs, retryScheduleMs: [], log: silent, concurrency: CONCURRENCY,
    maxInFlightPerDestination: config.webhooks.maxInFlightPerDestination, maxInFlightPerKey: config.webhooks.maxInFlightPerKey,
    claimLock: database.kind === 'postgres',
  });
  const url = new URL(fixture.url('hooks.test', '/throughput'));
  const bareSignedPost = async () => {
    const signed = signFailureEvent(secret, event, randomUUID(), new Date());
    await fetcher.request(url, { method: 'POST', headers: signed.headers, body: signed.body, maxRedirects: 0, timeoutMs: 5000, maxBytes: 1024, overflow: 'truncate', failOnHttpError: false });
  };
  // Warm both, then measure back to back.
  await fill(100);
  await worker.drain();
  await runConcurrently(100, CONCURRENCY, bareSignedPost);
  const bare = await runConcurrently(WEBHOOK_DELIVERIES, CONCURRENCY, bareSignedPost);
  await fill(WEBHOOK_DELIVERIES);
  const started = performance.now();
  const sent = await worker.drain();
  const drainMs = performance.now() - started;
  if (sent !== WEBHOOK_DELIVERIES) throw new Error(`drained ${sent} of ${WEBHOOK_DELIVERIES}`);

  // (b) Latency: audits through the HTTP API with the worker running in the server, woken at commit.
  await database.db.insertInto('webhooks').values({
    id: randomUUID(), api_key_id: keyId, url: fixture.url('hooks.test', '/latency'), trigger_branch: 'ai_gov',
    trigger_severity: 'medium', challenge: secret, verified_at: new Date(),
  }).execute();
  const app = await buildApp({ config, db: database.db, fetcher });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as import('node:net').AddressInfo;
  let queued = 0;
  for (let i = 0; i < WEBHOOK_AUDITS; i++) {
    const response = await request(`http://127.0.0.1:${address.port}/api/v1/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': rawKey },
      body: JSON.stringify({ branch: 'ai-governance', url: fixture.url('bench.test', `/p/${i}`) }),
    });
    const body = (await response.body.json()) as { findings: { status: string }[] };
    if (body.findings.some((f) => f.status === 'fail')) queued++;
    // One at a time, each delivered before the next audit: the latency alone, not a queue's.
    const deadline = Date.now() + 10_000;
    while (arrivals.length < queued && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await app.close();
  await fetcher.close();
  await fixture.close();
  await database.close();
  const sorted = [...arrivals].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    deliveries: WEBHOOK_DELIVERIES,
    concurrency: CONCURRENCY,
    maxInFlightPerDestination: config.webhooks.maxInFlightPerDestination,
    maxInFlightPerKey: config.webhooks.maxInFlightPerKey,
    bareSignedPostPerSecond: bare.perSecond,
    workerPerSecond: (sent / drainMs) * 1000,
    ratio: (sent / drainMs) * 1000 / bare.perSecond,
    commitToDelivery: { events: arrivals.length, audits: WEBHOOK_AUDITS, p50: at(0.5), p99: at(0.99) },
  };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const corporaMissing = missingShared(...CORPORA);
if (corporaMissing) console.error(`analysis part skipped: ${corporaMissing}; the end-to-end part runs on generated pages`);
const pages = corporaMissing ? generatedPages() : loadCorpusPages();
const analysis = corporaMissing || process.env.BENCH_SKIP_ANALYSIS
  ? {}
  : Object.fromEntries(Object.entries(ANALYSES).map(([branch, analyse]) => [branch, benchAnalysis(pages, analyse)]));
const wcagExtras = corporaMissing || process.env.BENCH_SKIP_ANALYSIS ? undefined : benchWcagExtras(pages, (analysis as Record<string, ReturnType<typeof benchAnalysis>>).wcag!.analysis.median);
const pathological = process.env.BENCH_SKIP_ANALYSIS ? undefined : benchPathological();
const e2e = process.env.BENCH_SKIP_E2E ? undefined : { source: corporaMissing ? 'generated' : 'corpus', ...(await benchEndToEnd(pages)) };
const craftedE2e = process.env.BENCH_SKIP_E2E ? undefined : await benchCraftedEndToEnd();
const webhooks = process.env.BENCH_SKIP_WEBHOOKS ? undefined : await benchWebhooks(pages);
const monitors = process.env.BENCH_SKIP_MONITORS
  ? undefined
  : await benchMonitors(pages, { monitors: MONITORS, concurrency: E2E_CONCURRENCY, openDatabase: openBenchDatabase, serviceEnv: SERVICE_ENV });
const changes = process.env.BENCH_SKIP_CHANGES ? undefined : await benchChanges(openBenchDatabase, process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');
const check = process.env.BENCH_SKIP_CHECK ? undefined : await benchCheck(pages, { pages: 200, concurrency: E2E_CONCURRENCY, rounds: 3 });
const report = process.env.BENCH_SKIP_REPORT ? undefined : await benchReport(openBenchDatabase, process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');

for (const [branch, result] of Object.entries(analysis)) {
  console.log(`\n${branch} analysis over ${result.pages} corpus pages × ${result.rounds} rounds`);
  console.table({
    'bare parse (parse5, htmlparser2 adapter)': { 'median ms': fmt(result.parse.median, 3), 'p99 ms': fmt(result.parse.p99, 3), 'pages/s': fmt(result.parse.perSecond, 0) },
    'analysis (page model + controls)': { 'median ms': fmt(result.analysis.median, 3), 'p99 ms': fmt(result.analysis.p99, 3), 'pages/s': fmt(result.analysis.perSecond, 0) },
    'ratio analysis / parse': { 'median ms': fmt(result.ratioMedian), 'p99 ms': fmt(result.analysis.p99 / result.parse.p99), 'pages/s': fmt(result.ratioMean) },
  });
}
if (wcagExtras) {
  const x = wcagExtras;
  console.log(`\nwcag: slowest page ${fmt(x.slowest.ms, 1)} ms (${x.slowest.name}); pages over 250 ms: ${x.pagesOver250ms}`);
  console.log(
    `wcag: page with most duplicate ids (${x.duplicateIdPage.duplicateIds}, ${x.duplicateIdPage.name}) ${fmt(x.duplicateIdPage.ms, 1)} ms = ${fmt(x.duplicateIdPage.timesMedian, 1)}× the median page, ${fmt(x.duplicateIdPage.timesOwnParse, 1)}× its own bare parse (${fmt(x.duplicateIdPage.parseMs, 1)} ms)`,
  );
  console.log(
    `wcag: RSS ${fmt(x.rss.beforeMB, 0)} MB before, ${fmt(x.rss.afterThreePassesMB, 0)} MB after three passes (growth ${fmt(x.rss.growthMB, 1)} MB${x.rss.gcExposed ? ', after gc' : ', gc not exposed'})`,
  );
}
if (pathological) {
  console.log(`\nwcag on pathological pages (generated; cascade budget ${MATCH_BUDGET.toLocaleString('en')} matching steps)`);
  console.table(
    Object.fromEntries(
      pathological.map((p) => [
        p.name,
        { KB: fmt(p.kB, 0), 'parse ms': fmt(p.parseMs, 1), 'wcag ms': fmt(p.ms, 0), '× parse': fmt(p.timesParse, 1), 'match work': p.matchWork, 'budget spent': p.budgetSpent },
      ]),
    ),
  );
}
if (e2e) console.log(`end to end: ${e2e.requests} requests, concurrency ${e2e.concurrency}, ${e2e.pages} ${e2e.source} pages, ${e2e.database}`);
for (const [shape, figures] of e2e ? ([['service in its own process (npm start)', e2e.separateProcess], ['service in the bench process', e2e.inProcess]] as const) : []) {
  console.log(shape);
  console.table({
    'bare fetch + parse': { 'req/s': fmt(figures.baseline.perSecond, 1), 'p50 ms': fmt(figures.baseline.p50, 1), 'p99 ms': fmt(figures.baseline.p99, 1) },
    'audit via HTTP + DB': { 'req/s': fmt(figures.audits.perSecond, 1), 'p50 ms': fmt(figures.audits.p50, 1), 'p99 ms': fmt(figures.audits.p99, 1) },
    'ratio audit / baseline': { 'req/s': fmt(figures.throughputRatio), 'p50 ms': fmt(figures.p50Ratio), 'p99 ms': fmt(figures.p99Ratio) },
  });
}
if (craftedE2e) {
  const alone = craftedE2e.smallAlone;
  console.log(`crafted pages end to end (service in its own process): small wcag audits from 2 clients alone p50 ${fmt(alone.median, 1)} ms, p99 ${fmt(alone.p99, 1)} ms; beside each crafted audit:`);
  console.table(
    Object.fromEntries(
      craftedE2e.rows.map((r) => [
        r.page,
        { answer: r.status, 'crafted ms': fmt(r.ms, 0), 'small p50 ms': fmt(r.smallBeside.median, 1), 'small p99 ms': fmt(r.smallBeside.p99, 1), 'p99 ÷ alone': fmt(r.p99Ratio) },
      ]),
    ),
  );
}
if (webhooks) {
  console.log(
    `webhooks: ${webhooks.deliveries} deliveries to one receiver at concurrency ${webhooks.concurrency} ` +
      `(in flight at most ${webhooks.maxInFlightPerDestination} per destination, ${webhooks.maxInFlightPerKey} per key), ${webhooks.database}`,
  );
  console.table({
    'bare signed POST loop': { 'per s': fmt(webhooks.bareSignedPostPerSecond, 1) },
    'outbox worker (claim, sign, send, record)': { 'per s': fmt(webhooks.workerPerSecond, 1) },
    'ratio worker / bare': { 'per s': fmt(webhooks.ratio) },
  });
  const c2d = webhooks.commitToDelivery;
  console.log(`audit commit → event at the receiver over ${c2d.events} events (${c2d.audits} audits): p50 ${fmt(c2d.p50, 1)} ms, p99 ${fmt(c2d.p99, 1)} ms (from the audit's created_at, the transaction's start, so an upper bound)`);
}
if (report) {
  console.log(`report: ${report.renders} renders of the sample report (${fmt(report.render.bytes / 1024, 1)} KB); first render in the process ${fmt(report.firstRenderMs, 1)} ms (font load)`);
  console.table({
    'pdfkit page, built-in Helvetica': { 'p50 ms': fmt(report.baselineHelvetica.p50), 'p99 ms': fmt(report.baselineHelvetica.p99) },
    'report render, embedded DejaVu Sans': { 'p50 ms': fmt(report.render.p50), 'p99 ms': fmt(report.render.p99) },
    'ratio render / baseline': { 'p50 ms': fmt(report.ratioRenderP50), 'p99 ms': fmt(report.render.p99 / report.baselineHelvetica.p99) },
    [`GET /api/v1/audit/report over HTTP (${report.endpoint.database})`]: { 'p50 ms': fmt(report.endpoint.p50), 'p99 ms': fmt(report.endpoint.p99) },
  });
  console.log(`report: endpoint p50 ${fmt(report.endpoint.p50, 1)} ms, goal ≤ ${report.goalP50Ms} ms: ${report.endpointMeetsGoal ? 'met' : 'NOT met'}`);
}
if (monitors) {
  console.log(`\nmonitors (${monitors.database}${monitors.serviceProcess ? ', service in its own process' : ', service in the bench process'}): ${monitors.monitors} audits each way, concurrency ${monitors.concurrency}`);
  console.table({
    'POST /api/v1/audit (baseline)': { 'audits per s': fmt(monitors.apiPerSecond, 1) },
    'monitors falling due at once, drained by the scheduler': { 'audits per s': fmt(monitors.schedulerPerSecond, 1) },
    'ratio scheduler / API': { 'audits per s': fmt(monitors.ratio) },
  });
  console.log(`monitors: scheduler / API ${fmt(monitors.ratio)}, goal ≥ 0.8: ${monitors.ratio >= 0.8 ? 'met' : 'NOT met'}`);
  const d = monitors.dueToStart;
  console.log(`monitors: slot due → run started on an idle service over ${d.monitors} slots: p50 ${fmt(d.p50, 0)} ms, p99 ${fmt(d.p99, 0)} ms, max ${fmt(d.max, 0)} ms (goal p50 < 1000 ms: ${d.p50 < 1000 ? 'met' : 'NOT met'})`);
}
if (changes) {
  console.log(
    `\nchanges (${changes.database}, ${changes.occurrencesPerAudit} occurrences per audit): GET …/changes p50 ${fmt(changes.unchangedP50, 1)} ms unchanged page, ` +
      `${fmt(changes.changedP50, 1)} ms changed page (new, fixed, regressed); the audit's read-back ${fmt(changes.readBackP50, 1)} ms; goal < 20 ms: ${changes.meetsGoal ? 'met' : 'NOT met'}`,
  );
}
if (check) {
  console.log(`\ncheck client: ${check.pages} pages, concurrency ${check.concurrency}, ${check.rounds} rounds (service in its own process, the key's own budget)`);
  console.table({
    'bare concurrent loop (POST, read JSON)': { 'pages/s': fmt(check.loopPagesPerSecond, 1), 'seconds per round': check.loopSeconds.map((s) => fmt(s, 1)).join(', ') },
    'check (packed build, own process)': { 'pages/s': fmt(check.checkPagesPerSecond, 1), 'seconds per round': check.checkSeconds.map((s) => fmt(s, 1)).join(', ') },
  });
  console.log(
    `check: median round ${fmt(check.ratio)}× the loop (goal < 1.10: ${check.ratio < 1.1 ? 'met' : 'NOT met'}); client peak RSS ${check.checkPeakRssMB === null ? 'unknown' : `${fmt(check.checkPeakRssMB, 0)} MB`}`,
  );
}
const file = path.join(root, 'bench/results', `${new Date().toISOString().replaceAll(':', '-')}.json`);
fs.writeFileSync(file, `${JSON.stringify({ node: process.version, cpus: os.cpus().length, analysis, wcag: wcagExtras, pathological, e2e, craftedE2e, webhooks, monitors, changes, report, check }, null, 2)}\n`);
console.log(`written ${path.relative(root, file)}`);
if (corporaMissing) {
  console.error(`incomplete run: the analysis part needs ${CORPORA.join(' and ')} from the shared folder`);
  process.exitCode = 1;
}
if (process.env.BENCH_AXE === '1') await (await import('./axe-compare.ts')).runAxeCompare(); // axe-core in jsdom, ~5 min: bench/axe-compare.ts
