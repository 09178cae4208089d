// npm run compare:browser: the WCAG branch, through the real service over HTTP, against axe-core in
// headless Chromium, on the same bytes of every corpus page (../shared/corpus/real-pages and
// readability-pages, 388 pages). A benchmark, not a test.
//
// Per page:
// - ours: POST /api/v1/audit {branch: wcag, standard: WCAG21AA, includeWarnings: true} to the
//   service as its own process (`node src/main.ts serve`, as deployed; bench/run.ts starts it the
//   same way), on a fresh embedded database, with a seeded API key, the rate limit lifted, and the
//   fixture's hostname mapped to 127.0.0.1 (AUDIT_RESOLVE) and its CA trusted (NODE_EXTRA_CA_CERTS).
//   The service fetches the page from a loopback HTTPS fixture. Timed end to end: request sent →
//   response body read (crawl over HTTPS, analysis in its thread, the audit persisted).
// - axe: Debian's Chromium (/usr/bin/chromium, driven by playwright-core, the flags of
//   test/support/browser.ts), one browser for the run and one context per page, closed after. The
//   page is loaded from the same fixture, which answers it with `Content-Security-Policy:
//   script-src 'none'` so that none of its scripts run; every request but the main document is
//   aborted (context.route), so no style sheet, image, font or frame loads: the browser sees the
//   bytes the service sees. `axe.source` (the axe-core dev dependency) is injected with
//   page.evaluate (a DevTools evaluation, outside the page's CSP) and `axe.run` runs with
//   runOnly tags wcag2a, wcag2aa, wcag21a, wcag21aa, default result detail, and `iframes: false`
//   (frames are aborted, so there is no axe in them to answer). Timed: load (goto until `load`) +
//   inject + run; the context's creation and closing are reported apart.
// The two sides run one after the other, never at once, alternating which goes first per page.
//
// Verdicts per WCAG 2.1 A/AA criterion and page: ours fails it when the audit has a `fail` finding
// with severity `error` for it; warnings are not failures (inconclusive findings are warnings; an AI
// `fail` warning cannot occur, as the bench's service has no AI step), but are counted beside the
// pages only axe fails. axe fails it when a violation carries the criterion's tag (`wcag111` →
// 1.1.1); its `incomplete` results are not failures, counted beside the pages only ours fails.
// Printed: per criterion both / only ours / only axe / neither, flagged where ours alone fails more
// than 2 % of the compared pages; speed (medians, ratio, slowest page of each). Written: every
// disagreement with both sides' selectors and snippets, to bench/results/compare-browser-<time>.json.
//
// COMPARE_PAGES=n (or `-- --pages n`): a spread sample of n pages, for short runs.
// COMPARE_TIMEOUT_MS (180 s): one side's limit per page; over it the page is left out of the
// agreement and listed, and its time counts at the limit (a lower bound, marked ≥).
// Skips with a message and exit 0 without Chromium or without ../shared (AUDIT_SHARED_DIR).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { CRITERIA, STANDARD_CRITERIA, WCAG_RULES, type WcagCriterion } from '../src/audit/wcag/index.ts';
import { CHROMIUM_PATH, launchBrowser } from '../test/support/browser.ts';
import { CORPORA } from '../test/support/corpus-pages.ts';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { missingShared, sharedPath } from '../test/support/shared.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const HOST = 'pages.test';
const STANDARD = 'WCAG21AA';
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const CSP = "script-src 'none'";
const PROBE_PATH = '/probe';
const PROBE_HTML =
  '<!doctype html><html lang="en"><head><title>static</title><link rel="stylesheet" href="/probe.css"></head>' +
  '<body><script>document.title = "script ran"</script><img src="/probe.png"><iframe src="/probe-frame"></iframe></body></html>';
const TIMEOUT_MS = Number(process.env.COMPARE_TIMEOUT_MS ?? 180_000);
const SPEED_TARGET = 15;

const { values: flags } = parseArgs({ options: { pages: { type: 'string' } }, strict: false });
const LIMIT = Number(flags.pages ?? process.env.COMPARE_PAGES ?? 0);

// ---------------------------------------------------------------------------------------------
// Skips: the corpus and the browser.

const skip = (why: string) => {
  console.log(`compare:browser skipped: ${why}`);
  process.exit(0);
};
const missing = missingShared(...CORPORA);
if (missing) skip(missing);
if (!fs.existsSync(CHROMIUM_PATH)) skip(`chromium missing: ${CHROMIUM_PATH} not found (install Debian's package: apt-get install -y chromium)`);

interface Page {
  name: string;
  bytes: Buffer;
}

/** Both corpora's `.html` files as bytes, sorted, as test/support/corpus-pages.ts lists them. */
function loadPages(): Page[] {
  const pages: Page[] = [];
  for (const relative of CORPORA) {
    const dir = sharedPath(relative);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort()) {
      pages.push({ name: `${path.basename(dir)}/${file}`, bytes: fs.readFileSync(path.join(dir, file)) });
    }
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// The two sides for one page.

interface Occurrence {
  rule?: string;
  selector?: string;
  snippet?: string;
}

interface Finding {
  control: string;
  status: 'fail' | 'inconclusive';
  severity: 'error' | 'warning';
  evidence?: string;
  location?: { selector?: string; snippet?: string };
  occurrences?: Occurrence[];
  rules?: string[];
  source?: string;
}

type OursResult = { ok: true; ms: number; findings: Finding[] } | { ok: false; ms: number; error: string };

async function auditOurs(service: ServiceProcess, pageUrl: string): Promise<OursResult> {
  const start = performance.now();
  try {
    const response = await request(`${service.origin}/api/v1/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.rawKey },
      body: JSON.stringify({ branch: 'wcag', standard: STANDARD, includeWarnings: true, url: pageUrl }),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = await response.body.text();
    const ms = performance.now() - start;
    if (response.statusCode !== 201) return { ok: false, ms, error: `HTTP ${response.statusCode}: ${text.slice(0, 200)}` };
    return { ok: true, ms, findings: (JSON.parse(text) as { findings: Finding[] }).findings };
  } catch (error) {
    return { ok: false, ms: performance.now() - start, error: error instanceof Error ? error.message : String(error) };
  }
}

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}

interface AxeRule {
  id: string;
  tags: string[];
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

type AxeResult =
  | { ok: true; loadMs: number; injectMs: number; runMs: number; ms: number; contextMs: number; violations: AxeRule[]; incomplete: AxeRule[]; passes: number }
  | { ok: false; ms: number; error: string; timedOut?: boolean };

const axeCore = (await import('axe-core')).default;
const axeSource = axeCore.source;
const axeVersion = axeCore.version;

class TimedOut extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimedOut(`${what}: over ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const trimRule = (r: AxeRule): AxeRule => ({
  id: r.id,
  tags: r.tags,
  impact: r.impact ?? null,
  help: r.help,
  nodes: r.nodes.slice(0, 50).map((n) => ({ target: n.target, html: n.html.slice(0, 500), ...(n.failureSummary ? { failureSummary: n.failureSummary.slice(0, 300) } : {}) })),
});

async function auditAxe(browser: import('playwright-core').Browser, pageUrl: string): Promise<AxeResult> {
  const contextStart = performance.now();
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  let contextMs = performance.now() - contextStart;
  const start = performance.now();
  try {
    // Everything but the main document is aborted: sub-resources, frames, anything a page starts.
    await context.route('**/*', (route) => {
      const req = route.request();
      return req.isNavigationRequest() && req.frame().parentFrame() === null && req.url() === pageUrl ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    const work = (async () => {
      const t0 = performance.now();
      const response = await page.goto(pageUrl, { waitUntil: 'load', timeout: TIMEOUT_MS });
      if (!response || response.status() !== 200) throw new Error(`document answered ${response?.status()}`);
      const t1 = performance.now();
      await page.evaluate(axeSource);
      const t2 = performance.now();
      const results = await page.evaluate(
        (tags) => (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: AxeRule[]; incomplete: AxeRule[]; passes: unknown[] }> } }).axe
          .run(document, { runOnly: { type: 'tag', values: tags }, iframes: false })
          .then((r) => ({ violations: r.violations, incomplete: r.incomplete, passes: r.passes.length })),
        AXE_TAGS,
      );
      const t3 = performance.now();
      return { loadMs: t1 - t0, injectMs: t2 - t1, runMs: t3 - t2, ...results };
    })();
    const r = await withTimeout(work, TIMEOUT_MS, 'axe in Chromium');
    const ms = r.loadMs + r.injectMs + r.runMs;
    const closeStart = performance.now();
    await context.close();
    contextMs += performance.now() - closeStart;
    return { ok: true, ms, contextMs, loadMs: r.loadMs, injectMs: r.injectMs, runMs: r.runMs, violations: r.violations.map(trimRule), incomplete: r.incomplete.map(trimRule), passes: r.passes };
  } catch (error) {
    await context.close().catch(() => {});
    const timedOut = error instanceof TimedOut || (error instanceof Error && error.name === 'TimeoutError'); // ours, or playwright's goto
    return { ok: false, ms: timedOut ? TIMEOUT_MS : performance.now() - start, error: error instanceof Error ? error.message.split('\n')[0]! : String(error), timedOut };
  }
}

// ---------------------------------------------------------------------------------------------
// Run.

const all = loadPages();
const pages = LIMIT > 0 && LIMIT < all.length ? all.filter((_, i) => i % Math.ceil(all.length / LIMIT) === 0).slice(0, LIMIT) : all;
const pki = await makeTestPki([HOST]);
/** Requests that reached the fixture per page path, by client: the document only, once each. */
const hits = new Map<string, number>();
const fixture = await startHttpsFixture((req, res) => {
  const index = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
  hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
  const page = req.url === PROBE_PATH ? { bytes: Buffer.from(PROBE_HTML) } : pages[index];
  if (!page) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  // The page's bytes as stored, declared UTF-8 to both clients (as the other benches read the
  // corpus), so both decode them alike; scripts refused.
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP }).end(page.bytes);
}, pki);
const pageUrl = (i: number) => fixture.url(HOST, `/p/${i}`);

/**
 * The setup checked before the run, on a page with an inline script, an image, a style sheet and a
 * frame: the script must not have run, nothing but the document may reach the fixture, and axe
 * must run under the page's CSP. A browser that would see more than the service stops the bench.
 */
async function probeBrowser(browser: import('playwright-core').Browser): Promise<void> {
  hits.clear();
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const url = fixture.url(HOST, PROBE_PATH);
    await context.route('**/*', (route) => {
      const req = route.request();
      return req.isNavigationRequest() && req.frame().parentFrame() === null && req.url() === url ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const title = await page.title();
    await page.evaluate(axeSource);
    const ran = await page.evaluate(() => (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: { id: string }[] }> } }).axe.run(document, { iframes: false }).then((r) => r.violations.map((v) => v.id)));
    const requested = [...hits.keys()];
    if (title !== 'static') throw new Error(`a page script ran under the CSP (title ${JSON.stringify(title)})`);
    if (requested.join() !== PROBE_PATH) throw new Error(`the browser requested more than the document: ${requested.join(', ')}`);
    if (!ran.includes('image-alt')) throw new Error(`axe did not run as expected under the CSP: ${ran.join(', ')}`);
  } finally {
    await context.close();
    hits.clear();
  }
}

// The deployed defaults otherwise; these may be set in the bench's environment to compare.
const passThrough = Object.fromEntries(['AUDIT_ANALYSIS_TIMEOUT_MS', 'AUDIT_ANALYSIS_THREADS', 'AUDIT_CRAWL_MAX_BYTES'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
const service = await startServiceProcess(pki.caPem, HOST, passThrough);
const browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
const chromiumVersion = browser.version();
try {
  await probeBrowser(browser);
} catch (error) {
  await browser.close();
  await service.close();
  await fixture.close();
  throw error;
}

const started = performance.now();
try {
  // Warm both (not counted): the service's threads and Chromium's first renderer.
  for (let i = 0; i < Math.min(3, pages.length); i++) {
    await auditOurs(service, pageUrl(i));
    await auditAxe(browser, pageUrl(i));
  }
  hits.clear();
} catch (error) {
  await browser.close();
  await service.close();
  await fixture.close();
  throw error;
}

const oursResults: OursResult[] = [];
const axeResults: AxeResult[] = [];
for (const [i] of pages.entries()) {
  if (i % 2 === 0) {
    oursResults.push(await auditOurs(service, pageUrl(i)));
    axeResults.push(await auditAxe(browser, pageUrl(i)));
  } else {
    axeResults.push(await auditAxe(browser, pageUrl(i)));
    oursResults.push(await auditOurs(service, pageUrl(i)));
  }
  if ((i + 1) % 25 === 0) console.error(`compare:browser: ${i + 1}/${pages.length} pages, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const wallS = (performance.now() - started) / 1000;
await browser.close();
await service.close();
await fixture.close();
/** A document fetched other than once by each side, and anything else that reached the fixture. */
const documentHits = pages.map((_, i) => hits.get(`/p/${i}`) ?? 0);
const badDocuments = pages.flatMap((p, i) => (documentHits[i] === 2 ? [] : [`${p.name} ×${documentHits[i]}`]));
const otherRequests = [...hits.keys()].filter((key) => !/^\/p\/\d+$/.test(key));

// ---------------------------------------------------------------------------------------------
// Agreement per criterion.

const criterionOfTag = (tag: string): string | undefined => {
  const match = /^wcag(\d)(\d)(\d+)$/.exec(tag);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
};
const inStandard = STANDARD_CRITERIA[STANDARD];
/** Rules per criterion: ours (the engine's registry) and axe's that the run's tags select (experimental ones are not run). */
const ourRulesFor = new Map<string, string[]>();
for (const rule of WCAG_RULES) for (const c of rule.criteria) ourRulesFor.set(c, [...(ourRulesFor.get(c) ?? []), rule.id]);
const axeRulesFor = new Map<string, string[]>();
for (const rule of axeCore.getRules(AXE_TAGS)) {
  if (rule.tags.includes('experimental')) continue;
  for (const c of new Set(rule.tags.map(criterionOfTag).filter((c) => c !== undefined))) axeRulesFor.set(c, [...(axeRulesFor.get(c) ?? []), rule.ruleId]);
}

interface Side {
  page: string;
  url: string;
  ours: { rules: string[]; evidence?: string; occurrences: Occurrence[] } | null;
  oursInconclusive: { rules: string[]; evidence?: string; occurrences: Occurrence[] } | null;
  axe: AxeRule[];
  axeIncomplete: AxeRule[];
}

interface Row {
  criterion: string;
  title: string;
  both: number;
  onlyOurs: number;
  onlyAxe: number;
  neither: number;
  /** Of the pages only axe fails, those where ours has an inconclusive warning for the criterion. */
  onlyAxeOursWarning: number;
  /** Of the pages only ours fails, those where axe left a rule of the criterion incomplete. */
  onlyOursAxeIncomplete: number;
  onlyOursRules: Record<string, number>;
  onlyAxeRules: Record<string, number>;
  disagreements: { onlyOurs: Side[]; onlyAxe: Side[] };
}

const rows = new Map<string, Row>();
for (const c of CRITERIA) {
  if (!inStandard.has(c.num as WcagCriterion)) continue;
  rows.set(c.num, {
    criterion: c.num, title: c.title, both: 0, onlyOurs: 0, onlyAxe: 0, neither: 0, onlyAxeOursWarning: 0, onlyOursAxeIncomplete: 0,
    onlyOursRules: {}, onlyAxeRules: {}, disagreements: { onlyOurs: [], onlyAxe: [] },
  });
}
const count = (tally: Record<string, number>, key: string) => (tally[key] = (tally[key] ?? 0) + 1);
const byCriterion = (rules: AxeRule[]) => {
  const map = new Map<string, AxeRule[]>();
  for (const r of rules) for (const c of new Set(r.tags.map(criterionOfTag).filter((c) => c !== undefined))) map.set(c, [...(map.get(c) ?? []), r]);
  return map;
};
const finding = (f: Finding | undefined) => (f ? { rules: f.rules ?? [], evidence: f.evidence, occurrences: f.occurrences ?? (f.location ? [f.location] : []) } : null);

let compared = 0;
let aiWarnings = 0;
const unmappedAxe = new Set<string>();
const outsideStandard = new Set<string>();
const failures: { page: string; side: 'ours' | 'axe'; error: string }[] = [];
for (const [i, page] of pages.entries()) {
  const o = oursResults[i]!;
  const a = axeResults[i]!;
  if (!o.ok) failures.push({ page: page.name, side: 'ours', error: o.error });
  if (!a.ok) failures.push({ page: page.name, side: 'axe', error: a.error });
  if (!o.ok || !a.ok) continue;
  compared++;
  const oursFail = new Map<string, Finding>();
  const oursWarn = new Map<string, Finding>();
  for (const f of o.findings) {
    if (f.status === 'fail' && f.severity === 'error') oursFail.set(f.control, f);
    else if (f.status === 'fail') aiWarnings++;
    else oursWarn.set(f.control, f);
  }
  const axeFail = byCriterion(a.violations);
  const axeIncomplete = byCriterion(a.incomplete);
  for (const v of a.violations) {
    const cs = v.tags.map(criterionOfTag).filter((c) => c !== undefined);
    if (cs.length === 0) unmappedAxe.add(v.id);
    for (const c of cs) if (!rows.has(c)) outsideStandard.add(`${v.id} (${c})`);
  }
  for (const row of rows.values()) {
    const ours = oursFail.get(row.criterion);
    const axe = axeFail.get(row.criterion);
    if (ours && axe) row.both++;
    else if (!ours && !axe) row.neither++;
    else {
      const side: Side = {
        page: page.name, url: pageUrl(i), ours: finding(ours), oursInconclusive: ours ? null : finding(oursWarn.get(row.criterion)),
        axe: axe ?? [], axeIncomplete: axe ? [] : (axeIncomplete.get(row.criterion) ?? []),
      };
      if (ours) {
        row.onlyOurs++;
        for (const r of ours.rules ?? []) count(row.onlyOursRules, r);
        if (side.axeIncomplete.length) row.onlyOursAxeIncomplete++;
        row.disagreements.onlyOurs.push(side);
      } else {
        row.onlyAxe++;
        for (const r of axe!) count(row.onlyAxeRules, r.id);
        if (side.oursInconclusive) row.onlyAxeOursWarning++;
        row.disagreements.onlyAxe.push(side);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Speed.

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
// Pages both finished, and those where axe ran over its limit, counted at the limit.
const both = pages.flatMap((p, i) => {
  const o = oursResults[i]!;
  const a = axeResults[i]!;
  return o.ok && (a.ok || a.timedOut) ? [{ page: p.name, kB: p.bytes.length / 1024, ours: o.ms, axe: a }] : [];
});
const axeTimedOut = both.filter((b) => !b.axe.ok).length;
const atLeast = axeTimedOut ? '≥ ' : '';
const ourMs = both.map((b) => b.ours);
const axeMs = both.map((b) => b.axe.ms);
const okAxe = both.map((b) => b.axe).filter((a): a is Extract<AxeResult, { ok: true }> => a.ok);
const perPageRatio = both.map((b) => b.axe.ms / b.ours);
const slowest = (key: 'ours' | 'axe') => {
  const top = [...both].sort((x, y) => (key === 'ours' ? y.ours - x.ours : y.axe.ms - x.axe.ms))[0];
  return top ? { page: top.page, kB: top.kB, ms: key === 'ours' ? top.ours : top.axe.ms } : undefined;
};
const speed = {
  pages: both.length,
  ours: { median: median(ourMs), p90: quantile(ourMs, 0.9), p99: quantile(ourMs, 0.99), slowest: slowest('ours') },
  axe: {
    median: median(axeMs), p90: quantile(axeMs, 0.9), p99: quantile(axeMs, 0.99), slowest: slowest('axe'),
    load: median(okAxe.map((a) => a.loadMs)), inject: median(okAxe.map((a) => a.injectMs)), run: median(okAxe.map((a) => a.runMs)),
    contextCreateClose: median(okAxe.map((a) => a.contextMs)),
  },
  axeTimedOut,
  ratioOfMedians: median(axeMs) / median(ourMs),
  medianPerPageRatio: median(perPageRatio),
  pagesUnderTarget: perPageRatio.filter((r) => r < SPEED_TARGET).length,
};

// ---------------------------------------------------------------------------------------------
// Print.

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const sortTally = (tally: Record<string, number>) => Object.entries(tally).sort((a, b) => b[1] - a[1]);
const topOf = (tally: Record<string, number>) => sortTally(tally).slice(0, 2).map(([r, n]) => `${r} ${n}`).join(', ');
/** "More than 2 % of the pages": 8 of 388. */
const flagAt = Math.floor(compared * 0.02) + 1;
const table = [...rows.values()].sort((a, b) => a.criterion.localeCompare(b.criterion, 'en', { numeric: true }));
const shown = table.filter((r) => r.both + r.onlyOurs + r.onlyAxe > 0);
const flagged = table.filter((r) => r.onlyOurs >= flagAt);

console.log(`\nWCAG branch (service over HTTP, ${STANDARD}) vs axe-core ${axeVersion} in Chromium ${chromiumVersion} (runOnly ${AXE_TAGS.join(', ')}; scripts refused by CSP, sub-resources aborted)`);
console.log(`${pages.length} pages${LIMIT ? ` (a spread sample: COMPARE_PAGES=${LIMIT})` : ''}, compared on ${compared}; ${fmt(wallS, 0)} s`);
console.log(`ours fails a criterion on a page with a \`fail\` finding of severity error; warnings (inconclusive) are not failures and are counted in "only axe (ours warn)"; axe fails it with a violation tagged for it, its incomplete results counted in "only ours (axe incompl.)".`);
console.log(`▶ = ours alone fails it on more than 2 % of the compared pages (≥ ${flagAt} of ${compared}). Criteria no side failed on any page are not shown.`);
console.table(
  Object.fromEntries(
    shown.map((r) => [
      `${r.onlyOurs >= flagAt ? '▶ ' : '  '}${r.criterion} ${r.title}`.slice(0, 42),
      {
        both: r.both,
        'only ours': r.onlyOurs,
        'only axe': r.onlyAxe,
        neither: r.neither,
        agree: `${fmt(((r.both + r.neither) / compared) * 100, 0)}%`,
        'rules ours/axe': `${ourRulesFor.get(r.criterion)?.length ?? 0}/${axeRulesFor.get(r.criterion)?.length ?? 0}`,
        'only ours (axe incompl.)': r.onlyOurs ? r.onlyOursAxeIncomplete : '',
        'only axe (ours warn)': r.onlyAxe ? r.onlyAxeOursWarning : '',
        'only ours: top rules': topOf(r.onlyOursRules),
        'only axe: top rules': topOf(r.onlyAxeRules),
      },
    ]),
  ),
);
const quiet = table.filter((r) => r.both + r.onlyOurs + r.onlyAxe === 0).map((r) => r.criterion);
console.log(`not failed by either on any page: ${quiet.join(', ')}`);
if (flagged.length) {
  console.log(`▶ ours alone fails on ≥ ${flagAt} pages (only-ours pages: our rules behind them; axe's rules tagged for the criterion in this run):`);
  for (const r of flagged) {
    const axeRules = axeRulesFor.get(r.criterion) ?? [];
    console.log(`  ${r.criterion} ${r.title}: ${r.onlyOurs} pages (${sortTally(r.onlyOursRules).map(([rule, n]) => `${rule} ${n}`).join(', ')}); axe: ${axeRules.length ? axeRules.join(', ') : 'none'}`);
  }
} else console.log(`no criterion where ours alone fails ≥ ${flagAt} pages`);
if (unmappedAxe.size) console.log(`axe violations with no WCAG criterion tag (not compared): ${[...unmappedAxe].join(', ')}`);
if (outsideStandard.size) console.log(`axe violations tagged with a criterion outside ${STANDARD} (not compared): ${[...outsideStandard].join(', ')}`);
if (aiWarnings) console.log(`fail findings of severity warning (AI; not failures here): ${aiWarnings}`);
if (failures.length) console.log(`left out (${failures.length}): ${failures.map((f) => `${f.page} [${f.side}: ${f.error}]`).join('; ')}`);
if (badDocuments.length) console.log(`documents not requested exactly once by each side: ${badDocuments.slice(0, 10).join(', ')}`);
// Chromium fetches a page's favicon itself, outside the page's request interception: it reaches
// the fixture (404) but never the DOM axe reads.
if (otherRequests.length) console.log(`other requests that reached the fixture (${otherRequests.length}; a favicon is fetched by the browser outside request interception and never reaches the DOM): ${otherRequests.slice(0, 5).join(', ')}`);

console.log(
  `\nSpeed per page over ${speed.pages} pages (one page at a time, sides alternating; ${os.availableParallelism()} cores, load ${os.loadavg().map((n) => fmt(n)).join(' ')})` +
    (axeTimedOut ? `; ${axeTimedOut} axe page(s) over the ${TIMEOUT_MS} ms limit counted at it, so axe's figures are lower bounds (≥)` : ''),
);
console.table({
  'service: POST /api/v1/audit end to end': { 'median ms': fmt(speed.ours.median), 'p90 ms': fmt(speed.ours.p90), 'p99 ms': fmt(speed.ours.p99), slowest: speed.ours.slowest ? `${fmt(speed.ours.slowest.ms, 0)} ms ${speed.ours.slowest.page}` : '' },
  'axe in Chromium: load + inject + run': { 'median ms': atLeast + fmt(speed.axe.median), 'p90 ms': atLeast + fmt(speed.axe.p90), 'p99 ms': atLeast + fmt(speed.axe.p99), slowest: speed.axe.slowest ? `${atLeast}${fmt(speed.axe.slowest.ms, 0)} ms ${speed.axe.slowest.page}` : '' },
});
console.log(`axe medians: load ${fmt(speed.axe.load)} ms, inject ${fmt(speed.axe.inject)} ms, run ${fmt(speed.axe.run)} ms; context create + close (not counted) ${fmt(speed.axe.contextCreateClose)} ms`);
console.log(
  `ratio axe / service at the median: ${atLeast}${fmt(speed.ratioOfMedians)}× (target ≥ ${SPEED_TARGET}×: ${speed.ratioOfMedians >= SPEED_TARGET ? 'met' : 'NOT met'}); ` +
    `median of per-page ratios ${fmt(speed.medianPerPageRatio)}×; pages under ${SPEED_TARGET}×: ${speed.pagesUnderTarget}`,
);

const file = path.join(root, 'bench/results', `compare-browser-${new Date().toISOString().replaceAll(':', '-')}.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(
  file,
  `${JSON.stringify(
    {
      node: process.version, cpus: os.cpus().length, date: new Date().toISOString(), axeCore: axeVersion, chromium: chromiumVersion,
      standard: STANDARD, axeTags: AXE_TAGS, csp: CSP, pages: pages.length, sample: LIMIT || undefined, compared, wallSeconds: wallS,
      verdicts: 'ours: a fail finding of severity error; warnings are not failures. axe: a violation tagged with the criterion; incomplete is not a failure.',
      flagAt, flagged: flagged.map((r) => r.criterion),
      speed,
      perPage: pages.map((p, i) => ({ page: p.name, kB: p.bytes.length / 1024, oursMs: oursResults[i]!.ms, axe: (({ violations: _v, incomplete: _i, ...rest }) => rest)(axeResults[i]! as Extract<AxeResult, { ok: true }>) })),
      failures,
      otherRequests,
      rulesPerCriterion: Object.fromEntries(table.map((r) => [r.criterion, { ours: ourRulesFor.get(r.criterion) ?? [], axe: axeRulesFor.get(r.criterion) ?? [] }])),
      unmappedAxe: [...unmappedAxe], outsideStandard: [...outsideStandard],
      criteria: table.map((r) => ({ ...r, onlyOursRules: Object.fromEntries(sortTally(r.onlyOursRules)), onlyAxeRules: Object.fromEntries(sortTally(r.onlyAxeRules)) })),
    },
    null,
    1,
  )}\n`,
);
console.log(`written ${path.relative(root, file)}`);
