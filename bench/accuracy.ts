// npm run accuracy: the privacy branch against an independent, hand-labelled set of pages
// (test/fixtures/privacy/accuracy; see its README for the labelling rules and the path scheme).
//
// Every page runs end to end through the real pieces: a local HTTPS fixture server, the safe
// fetcher (static resolve + loopback allow-list, as in test/support/service.ts), the crawl, and the
// privacy branch's analysis, which may follow one policy link back to the same fixture. Prints, per
// control and overall, the confusion matrix (expected × actual), precision and recall for `fail`
// (the outcome that raises alerts) and for `pass`, and accuracy; then every mismatch with its
// evidence. Writes bench/results/accuracy.json.
//
//   npm run accuracy                 both branches: this set, then the AI-governance dev set
//   npm run accuracy -- --branch privacy           this set only (--branch ai-governance: the other)
//   npm run accuracy -- --check      only validate labels.json against the pages (no branch needed)
//   npm run accuracy -- spa cookie   only pages whose name contains one of the words
//
// Exit 0 even with mismatches (this is a report); 1 when the set is not fully labelled, a page
// fails to crawl or analyse, or the branch leaves out a labelled control.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { branchAnalyses, type AnalysisInput } from '../src/audit/branches.ts';
import type { OutcomeStatus } from '../src/audit/control.ts';
import { crawl, type CrawlLimits } from '../src/audit/crawl.ts';
import type { AuditResult } from '../src/audit/findings.ts';
import { createAddressPolicy, parseCidrList } from '../src/net/address-policy.ts';
import { createSafeFetcher, type SafeFetcher } from '../src/net/safe-fetch.ts';
import { startHttpsFixture, type FixtureRoutes } from '../test/support/https-fixture.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { runAiAccuracy } from './accuracy-ai-governance.ts';
import { emptyMatrix, OUTCOMES, printScores, score, type Matrix, type Scores } from './accuracy-scores.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SET_DIR = path.join(ROOT, 'test/fixtures/privacy/accuracy');
const PAGES_DIR = path.join(SET_DIR, 'pages');
const LABELS_FILE = path.join(SET_DIR, 'labels.json');
const RESULTS_FILE = path.join(ROOT, 'bench/results/accuracy.json');

const HOST = 'site.test';
const LIMITS: CrawlLimits = { timeoutMs: 2000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 };
/** Guard against an analysis that never settles; well above one crawl plus one policy follow. */
const PAGE_DEADLINE_MS = 15_000;
const MIN_PAGES = 40;
/** Paths the harness itself serves on every page's server. */
const PAGE_PATH = '/';
const HOP_PATH = '/start';

export const PRIVACY_CONTROL_IDS = [
  'privacy.consent-before-nonessential-cookies',
  'privacy.nonessential-cookies',
  'privacy.consent-banner-structure',
  'privacy.do-not-sell-opt-out',
  'privacy.privacy-policy-link',
  'privacy.privacy-policy-reachable',
] as const;
type ControlId = (typeof PRIVACY_CONTROL_IDS)[number];

// ---------------------------------------------------------------------------------------------
// Labels

export type PolicyRoute =
  | { status: number; contentType?: string; body?: string }
  | { redirect: string; status?: number }
  | { hang: true };

export interface Label {
  page: string;
  /** Set-Cookie values of the page response. */
  setCookie?: string[];
  /** The page is reached through one 302 hop (HOP_PATH → PAGE_PATH) that sets these cookies. */
  redirectFrom?: { setCookie: string[] };
  /** Extra same-origin routes: the policy target(s) and anything a follow could hit. */
  policyRoutes?: Record<string, PolicyRoute>;
  expected: Record<ControlId, OutcomeStatus>;
  why?: string | string[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkRoute(where: string, route: unknown, problems: string[]): void {
  if (!isObject(route)) return void problems.push(`${where}: route must be an object`);
  const keys = Object.keys(route);
  if ('hang' in route) {
    if (route.hang !== true || keys.length !== 1) problems.push(`${where}: { "hang": true } takes no other keys`);
  } else if ('redirect' in route) {
    if (typeof route.redirect !== 'string' || route.redirect === '') problems.push(`${where}: redirect must be a non-empty string`);
    if (route.status !== undefined && ![301, 302, 303, 307, 308].includes(route.status as number)) problems.push(`${where}: redirect status must be 301/302/303/307/308`);
    if (keys.some((k) => k !== 'redirect' && k !== 'status')) problems.push(`${where}: unknown key beside redirect`);
  } else {
    if (typeof route.status !== 'number' || !Number.isInteger(route.status) || route.status < 100 || route.status > 599) {
      problems.push(`${where}: status must be an HTTP status code`);
    }
    if (route.contentType !== undefined && typeof route.contentType !== 'string') problems.push(`${where}: contentType must be a string`);
    if (route.body !== undefined && typeof route.body !== 'string') problems.push(`${where}: body must be a string`);
    if (keys.some((k) => !['status', 'contentType', 'body'].includes(k))) problems.push(`${where}: unknown key (status, contentType, body)`);
  }
}

/** The self-check: every problem with the set, or an empty list. */
export function checkLabels(raw: unknown, pageFiles: readonly string[]): string[] {
  const problems: string[] = [];
  if (!Array.isArray(raw)) return ['labels.json must be an array of page labels'];
  if (raw.length < MIN_PAGES) problems.push(`labels.json has ${raw.length} pages; at least ${MIN_PAGES} are required`);
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    if (!isObject(entry) || typeof entry.page !== 'string') return void problems.push(`entry ${index}: needs a "page" string`);
    const where = entry.page;
    if (seen.has(where)) problems.push(`${where}: labelled twice`);
    seen.add(where);
    if (!/^[a-z0-9][a-z0-9-]*\.html$/.test(where)) problems.push(`${where}: page must be a lower-case <name>.html`);
    if (!pageFiles.includes(where)) problems.push(`${where}: no such file in pages/`);
    const known = ['page', 'setCookie', 'redirectFrom', 'policyRoutes', 'expected', 'why'];
    for (const key of Object.keys(entry)) if (!known.includes(key)) problems.push(`${where}: unknown key "${key}"`);
    if (entry.setCookie !== undefined && !isStringArray(entry.setCookie)) problems.push(`${where}: setCookie must be an array of strings`);
    if (entry.redirectFrom !== undefined && !(isObject(entry.redirectFrom) && isStringArray(entry.redirectFrom.setCookie))) {
      problems.push(`${where}: redirectFrom must be { "setCookie": [strings] }`);
    }
    if (entry.why !== undefined && typeof entry.why !== 'string' && !isStringArray(entry.why)) problems.push(`${where}: why must be a string or an array of strings`);
    if (entry.policyRoutes !== undefined) {
      if (!isObject(entry.policyRoutes)) problems.push(`${where}: policyRoutes must be an object`);
      else {
        for (const [route, spec] of Object.entries(entry.policyRoutes)) {
          if (!route.startsWith('/') || route.includes('?') || route.includes('#')) problems.push(`${where}: route "${route}" must be a path without query or fragment`);
          if (route === PAGE_PATH || route === HOP_PATH) problems.push(`${where}: route "${route}" is reserved for the page itself`);
          checkRoute(`${where} ${route}`, spec, problems);
        }
      }
    }
    if (!isObject(entry.expected)) return void problems.push(`${where}: needs an "expected" object`);
    for (const id of PRIVACY_CONTROL_IDS) {
      const value = entry.expected[id];
      if (value === undefined) problems.push(`${where}: ${id} is not labelled`);
      else if (!OUTCOMES.includes(value as OutcomeStatus)) problems.push(`${where}: ${id} = ${JSON.stringify(value)} is not pass|fail|inconclusive`);
    }
    for (const key of Object.keys(entry.expected)) {
      if (!(PRIVACY_CONTROL_IDS as readonly string[]).includes(key)) problems.push(`${where}: "${key}" is not a privacy control id`);
    }
  });
  for (const file of pageFiles) if (!seen.has(file)) problems.push(`${file}: page has no label`);
  return problems;
}

function loadSet(): { labels: Label[]; problems: string[] } {
  const pageFiles = fs.existsSync(PAGES_DIR) ? fs.readdirSync(PAGES_DIR).filter((f) => f.endsWith('.html')).sort() : [];
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(LABELS_FILE, 'utf8'));
  } catch (err) {
    return { labels: [], problems: [`cannot read ${path.relative(ROOT, LABELS_FILE)}: ${(err as Error).message}`] };
  }
  const problems = checkLabels(raw, pageFiles);
  return { labels: problems.length === 0 ? (raw as Label[]) : [], problems };
}

// ---------------------------------------------------------------------------------------------
// Serving one page

/** Absolute first-party URLs in pages and redirect targets point at https://site.test; give them the fixture's port. */
function withOrigin(text: string, origin: string): string {
  return text.replace(/https:\/\/site\.test(?![\w.:-])/g, origin);
}

function routesFor(label: Label, html: string, origin: string): FixtureRoutes {
  const routes: FixtureRoutes = {
    [PAGE_PATH]: (_req: IncomingMessage, res: ServerResponse) => {
      const headers: Record<string, string | string[]> = { 'content-type': 'text/html; charset=utf-8' };
      if (label.setCookie?.length) headers['set-cookie'] = label.setCookie;
      res.writeHead(200, headers).end(html);
    },
  };
  if (label.redirectFrom) {
    const hopCookies = label.redirectFrom.setCookie;
    routes[HOP_PATH] = (_req, res) => {
      const headers: Record<string, string | string[]> = { location: PAGE_PATH, 'content-type': 'text/html; charset=utf-8' };
      if (hopCookies.length) headers['set-cookie'] = hopCookies;
      res.writeHead(302, headers).end();
    };
  }
  for (const [route, spec] of Object.entries(label.policyRoutes ?? {})) {
    routes[route] = (_req, res) => {
      if ('hang' in spec) return; // never answer; the fixture's close() drops the socket
      if ('redirect' in spec) {
        res.writeHead(spec.status ?? 302, { location: withOrigin(spec.redirect, origin) }).end();
        return;
      }
      res.writeHead(spec.status, { 'content-type': spec.contentType ?? 'text/html; charset=utf-8' }).end(spec.body ?? '');
    };
  }
  return routes;
}

// ---------------------------------------------------------------------------------------------
// Running

type Analyse = (input: AnalysisInput) => Promise<AuditResult>;

interface PageRun {
  page: string;
  ms: number;
  /** Outcome and evidence per labelled control; absent when the page errored. */
  actual?: Record<ControlId, { outcome: OutcomeStatus; evidence: string }>;
  error?: string;
  /** Paths requested after the crawl finished (the policy follow and its redirects). */
  extraRequests: string[];
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function runPage(label: Label, analyse: Analyse, fetcher: SafeFetcher, pki: Awaited<ReturnType<typeof makeTestPki>>): Promise<PageRun> {
  const rawHtml = fs.readFileSync(path.join(PAGES_DIR, label.page), 'utf8');
  // The origin (its port) is only known once the server listens; the routes are built right after.
  let routes: FixtureRoutes = {};
  const fixture = await startHttpsFixture((req, res, recorded) => {
    const handler = routes[new URL(recorded.path, 'http://x').pathname];
    if (!handler) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return handler(req, res, recorded);
  }, pki);
  const origin = fixture.url(HOST, '').replace(/\/$/, '');
  routes = routesFor(label, withOrigin(rawHtml, origin), origin);
  const started = performance.now();
  const run: PageRun = { page: label.page, ms: 0, extraRequests: [] };
  let crawlRequests = 0;
  try {
    const url = new URL(fixture.url(HOST, label.redirectFrom ? HOP_PATH : PAGE_PATH));
    const crawled = await crawl(fetcher, url, LIMITS);
    crawlRequests = fixture.requests.length;
    const result = await withDeadline(analyse({ crawled, includeWarnings: true, fetcher, limits: { ...LIMITS }, log: { info: () => {} } }), PAGE_DEADLINE_MS, 'analysis');
    const actual: Partial<Record<ControlId, { outcome: OutcomeStatus; evidence: string }>> = {};
    const missing: string[] = [];
    for (const id of PRIVACY_CONTROL_IDS) {
      const checked = result.controls.find((c) => c.control === id);
      if (checked) actual[id] = { outcome: checked.outcome, evidence: checked.evidence };
      else missing.push(id);
    }
    if (missing.length) run.error = `analysis returned no outcome for ${missing.join(', ')}`;
    else run.actual = actual as Record<ControlId, { outcome: OutcomeStatus; evidence: string }>;
  } catch (err) {
    const e = err as Error & { reason?: string };
    run.error = `${e.name}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`;
  } finally {
    run.ms = performance.now() - started;
    if (crawlRequests > 0) run.extraRequests = fixture.requests.slice(crawlRequests).map((r) => r.path);
    await fixture.close();
  }
  return run;
}

/** Requests that start a new follow: not the Location target of a redirect route the harness served. */
function followChains(label: Label, extra: readonly string[]): number {
  const redirectTargets = new Set<string>();
  for (const spec of Object.values(label.policyRoutes ?? {})) {
    if ('redirect' in spec && spec.redirect.startsWith('/')) redirectTargets.add(new URL(spec.redirect, 'https://x').pathname);
  }
  return extra.filter((p) => !redirectTargets.has(new URL(p, 'https://x').pathname)).length;
}

// ---------------------------------------------------------------------------------------------

export async function runAccuracy(analyse: Analyse, filters: readonly string[] = []): Promise<number> {
  const { labels: all, problems } = loadSet();
  if (problems.length) {
    console.error(`accuracy set is not fully labelled (${problems.length} problem${problems.length === 1 ? '' : 's'}):`);
    for (const p of problems) console.error(`  - ${p}`);
    return 1;
  }
  const labels = filters.length ? all.filter((l) => filters.some((f) => l.page.includes(f))) : all;
  if (labels.length === 0) {
    console.error(`no page matches ${filters.join(', ')}`);
    return 1;
  }

  const pki = await makeTestPki([HOST]);
  const fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.0/8')),
    staticResolve: new Map([[HOST, ['127.0.0.1']]]),
    ca: [pki.caPem],
  });

  const runs: PageRun[] = [];
  try {
    for (const label of labels) {
      const run = await runPage(label, analyse, fetcher, pki);
      runs.push(run);
      const mark = run.error ? 'ERROR' : PRIVACY_CONTROL_IDS.every((id) => run.actual![id].outcome === label.expected[id]) ? 'ok' : 'diff';
      console.log(`${mark.padEnd(5)} ${label.page.padEnd(42)} ${run.ms.toFixed(0).padStart(6)} ms${run.extraRequests.length ? `  after crawl: ${run.extraRequests.join(', ')}` : ''}`);
    }
  } finally {
    await fetcher.close();
  }

  const perControl = new Map<ControlId, Matrix>(PRIVACY_CONTROL_IDS.map((id) => [id, emptyMatrix()]));
  const overall = emptyMatrix();
  const mismatches: { page: string; control: ControlId; expected: OutcomeStatus; actual: OutcomeStatus; evidence: string }[] = [];
  const errors = runs.filter((r) => r.error).map((r) => ({ page: r.page, error: r.error! }));
  const crawlRule: { page: string; requests: string[] }[] = [];
  for (const run of runs) {
    const label = labels.find((l) => l.page === run.page)!;
    if (followChains(label, run.extraRequests) > 1) crawlRule.push({ page: run.page, requests: run.extraRequests });
    if (!run.actual) continue;
    for (const id of PRIVACY_CONTROL_IDS) {
      const expected = label.expected[id];
      const { outcome, evidence } = run.actual[id];
      perControl.get(id)![expected][outcome]++;
      overall[expected][outcome]++;
      if (expected !== outcome) mismatches.push({ page: run.page, control: id, expected, actual: outcome, evidence });
    }
  }

  console.log(`\n=== Privacy accuracy: ${runs.length} pages, ${errors.length} errored ===`);
  console.log('Positive class `fail` = the outcome that raises alerts; `pass` scored the same way.');
  const scores: Record<string, Scores> = {};
  for (const id of PRIVACY_CONTROL_IDS) {
    scores[id] = score(perControl.get(id)!);
    printScores(id, scores[id]);
  }
  const overallScores = score(overall);
  printScores('OVERALL (all controls)', overallScores);

  if (mismatches.length) {
    console.log(`\nMismatches (${mismatches.length}):`);
    for (const m of mismatches) {
      console.log(`  ${m.page}  ${m.control}\n    expected ${m.expected}, actual ${m.actual}: ${m.evidence.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  } else if (errors.length === 0) {
    console.log('\nNo mismatches.');
  }
  if (crawlRule.length) {
    console.log(`\nCrawl rule (at most one policy link followed) broken on ${crawlRule.length} page(s):`);
    for (const c of crawlRule) console.log(`  ${c.page}: ${c.requests.join(', ')}`);
  }
  if (errors.length) {
    console.log(`\nErrors (${errors.length}):`);
    for (const e of errors) console.log(`  ${e.page}: ${e.error}`);
  }

  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        branch: 'privacy',
        pages: runs.length,
        filters,
        controls: scores,
        overall: overallScores,
        mismatches,
        errors,
        crawlRuleViolations: crawlRule,
        runs: runs.map((r) => ({ page: r.page, ms: Math.round(r.ms), extraRequests: r.extraRequests, ...(r.error ? { error: r.error } : {}) })),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${path.relative(ROOT, RESULTS_FILE)}`);
  return errors.length ? 1 : 0;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const branchFilter = option('--branch');
  const set = option('--set') ?? 'dev';
  const words = args.filter((a, i) => !a.startsWith('--') && !['--branch', '--set'].includes(args[i - 1] ?? ''));
  if (args.includes('--check')) return checkOnly();
  const statuses: number[] = [];
  if (branchFilter === undefined || branchFilter === 'privacy') {
    const branch = branchAnalyses.privacy;
      statuses.push(await runAccuracy((input) => branch.analyse(input), words));
  }
  if (branchFilter === undefined || branchFilter === 'ai-governance') statuses.push(await runAiAccuracy(set, words));
  return Math.max(0, ...statuses);
}

function checkOnly(): number {
  const { labels, problems } = loadSet();
  if (problems.length) {
    console.error(`accuracy set: ${problems.length} problem(s):`);
    for (const p of problems) console.error(`  - ${p}`);
    return 1;
  }
  console.log(`accuracy set OK: ${labels.length} pages, every page labelled for all ${PRIVACY_CONTROL_IDS.length} controls`);
  for (const id of PRIVACY_CONTROL_IDS) {
    const counts = OUTCOMES.map((o) => `${o} ${labels.filter((l) => l.expected[id] === o).length}`).join(', ');
    console.log(`  ${id.padEnd(46)} ${counts}`);
  }
  return 0;
}

if (import.meta.main) process.exitCode = await main();
