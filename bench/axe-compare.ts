// npm run bench:axe (also from `npm run bench` with BENCH_AXE=1): the WCAG branch against axe-core
// 4.x in jsdom, over both real-page corpora in the same run.
//
// 1. Speed: our analysis per page (page model + the WCAG 2.1 AA rules and findings) next to the bare
//    parse (the service's own parser: parse5 with the htmlparser2 tree adapter, as buildPage runs
//    it), BENCH_ROUNDS rounds; then axe-core in jsdom on the same pages, once each, in a worker
//    thread (bench/axe-worker.ts) with a per-page timeout (AXE_TIMEOUT_MS, 30 s): a page
//    that runs over it is reported and the worker replaced. axe's time is jsdom's window plus
//    axe.run; both are reported, and the ratio axe / ours at the median. Ours also reports its
//    slowest page (target: none over 250 ms).
// 2. Memory: RSS growth over three passes of the corpora with our engine only, measured before any
//    axe worker exists (worker threads share the process's RSS).
// 3. Agreement per WCAG 2.1 A/AA criterion: on how many pages both engines fail it, only ours, only
//    axe, neither. Ours fails a criterion when the audit has a `fail` finding for it; axe when a
//    violation carries its `wcagNNN` tag. Sorted by disagreement; written to
//    bench/results/axe-compare.json.
//
// axe runs as the issue's anchor measured it (a new jsdom window per page, axe.run with its default
// rules and default result detail), with frames and preload off so that nothing is fetched (see
// bench/axe-worker.ts). AXE_QUICK=1 runs only its WCAG 2.0/2.1 A/AA rules with violations only,
// about twice as fast, for the agreement table; its speed ratio flatters axe and is labelled so
// (axe-compare-quick.json). AXE_PAGES=n runs a spread sample of n pages.
//
// axe runs without layout in jsdom: nothing has a size or position, so its color-contrast is
// mostly incomplete and its layout-dependent checks see zero boxes. Exits 1 without ../shared.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { parseDocument } from '../src/audit/page/parse.ts';
import { buildPage } from '../src/audit/page.ts';
import { analyseWcag, CRITERIA, REPORTED_CRITERIA, WCAG_RULES, type WcagCriterion } from '../src/audit/wcag/index.ts';
import { CORPORA, loadCorpusPages, type CorpusPage } from '../test/support/corpus-pages.ts';
import { missingShared } from '../test/support/shared.ts';
import { QUICK_TAGS, type AxeMode, type AxeReply, type AxeRequest, type AxeRules } from './axe-worker.ts';

const root = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const AXE_TIMEOUT_MS = Number(process.env.AXE_TIMEOUT_MS ?? 30_000);
/** AXE_QUICK=1: only axe's WCAG 2.0/2.1 A/AA rules, violations only; not the anchor's setting. */
const MODE: AxeMode = process.env.AXE_QUICK === '1' ? 'quick' : 'default';
/** A quick run on a spread sample of this many pages (all when unset). */
const SAMPLE = Number(process.env.AXE_PAGES ?? 0);
const STANDARD = 'WCAG21AA';
const LAYOUT_NOTE =
  'axe-core runs without layout in jsdom (no sizes or positions): color-contrast comes back incomplete on most pages, ' +
  'and checks that need boxes (scrollable regions, target size, inline spacing in effect) see none. Frames and linked style sheets are not loaded (iframes: false, preload: false).';
const url = 'https://bench.test/page';

interface Stats {
  median: number;
  p99: number;
  mean: number;
}

function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/** The service's own parse (parse5 into domhandler nodes, as buildPage runs it), without the page model. */
const parse = (html: string) => parseDocument(html);
const ours = (html: string) => analyseWcag(buildPage(html, new URL(url)), STANDARD, true);

/** A WCAG success-criterion tag (`wcag111`, `wcag1412`) as a criterion number; level tags (`wcag2aa`) give undefined. */
export function criterionOfTag(tag: string): string | undefined {
  const match = /^wcag(\d)(\d)(\d+)$/.exec(tag);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

// 4.1.1 is never reported (always satisfied by W3C's 2023 erratum): not compared.
const inStandard = REPORTED_CRITERIA[STANDARD];
const isComparable = (criterion: string): criterion is WcagCriterion => inStandard.has(criterion as WcagCriterion);

interface OurPage {
  fails: Map<string, string[]>; // criterion → engine rules
  inconclusive: Set<string>;
}

function ourVerdict(html: string): OurPage {
  const fails = new Map<string, string[]>();
  const inconclusive = new Set<string>();
  for (const finding of ours(html).findings) {
    // A criterion may carry an error and a secondary rules' warning: both fail it here, as axe's rules do.
    if (finding.status === 'fail') fails.set(finding.control, [...(fails.get(finding.control) ?? []), ...(finding.rules ?? [])]);
    else inconclusive.add(finding.control);
  }
  return { fails, inconclusive };
}

/** Our engine and the bare parse, alternating which goes first, as bench/run.ts does. */
function timeOurs(pages: readonly CorpusPage[]) {
  const parseMs: number[] = [];
  const oursMs: number[] = [];
  // Each page's best round: the slowest page by its own time, not by a pause of the shared machine.
  const bestMs = pages.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, page] of pages.entries()) {
      for (const which of round % 2 === 0 ? ['parse', 'ours'] : ['ours', 'parse']) {
        const start = performance.now();
        if (which === 'parse') parse(page.html);
        else ours(page.html);
        const ms = performance.now() - start;
        if (which === 'parse') parseMs.push(ms);
        else {
          oursMs.push(ms);
          bestMs[i] = Math.min(bestMs[i]!, ms);
        }
      }
    }
  }
  const slowestAt = bestMs.indexOf(Math.max(...bestMs));
  const slowest = { name: pages[slowestAt]?.name ?? '', ms: bestMs[slowestAt] ?? NaN };
  return { parse: stats(parseMs), ours: stats(oursMs), slowest, pagesOver250ms: bestMs.filter((ms) => ms > 250).length };
}

function rssAfterThreePasses(pages: readonly CorpusPage[]) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  for (let pass = 0; pass < 3; pass++) for (const page of pages) ours(page.html);
  gc?.();
  const after = process.memoryUsage();
  // RSS also moves with what the allocator keeps after a collection (tens of MB from run to run);
  // the live heap after a full collection is the leak signal.
  return {
    beforeMB: before.rss / 2 ** 20,
    afterMB: after.rss / 2 ** 20,
    growthMB: (after.rss - before.rss) / 2 ** 20,
    heapGrowthMB: (after.heapUsed - before.heapUsed) / 2 ** 20,
    gcExposed: gc !== undefined,
  };
}

/** One worker at a time, replaced when a page times out or the worker dies. */
class AxeRunner {
  #worker: Worker | undefined;

  #spawn(): Worker {
    // A heap far above axe's ~1 GB peak, so that an out-of-memory page is an error, not a crash.
    this.#worker ??= new Worker(new URL('./axe-worker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 4096 } });
    return this.#worker;
  }

  async #ask<T>(request: AxeRequest, timeoutMs: number): Promise<T | { timedOut: true } | { ok: false; error: string }> {
    const worker = this.#spawn();
    return new Promise((resolve) => {
      const finish = (value: T | { timedOut: true } | { ok: false; error: string }) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(value);
      };
      const replace = () => {
        if (this.#worker === worker) this.#worker = undefined;
        void worker.terminate();
      };
      const onMessage = (reply: T) => finish(reply);
      const onError = (error: Error) => {
        replace();
        finish({ ok: false, error: `worker: ${error.message}` });
      };
      const onExit = (code: number) => {
        replace();
        finish({ ok: false, error: `worker exited with code ${code}` });
      };
      const timer = setTimeout(() => {
        replace();
        finish({ timedOut: true });
      }, timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(request);
    });
  }

  rules() {
    return this.#ask<AxeRules>({ kind: 'rules', mode: MODE }, 60_000);
  }

  page(html: string) {
    return this.#ask<AxeReply>({ kind: 'page', html, url, mode: MODE }, AXE_TIMEOUT_MS);
  }

  async close() {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}

interface Row {
  criterion: string;
  title: string;
  ourRules: number;
  axeRules: number;
  both: number;
  onlyOurs: number;
  onlyAxe: number;
  neither: number;
  disagreement: number;
  agreement: number;
  /** Of the pages only axe fails: on how many ours reports the criterion inconclusive. */
  onlyAxeOursInconclusive: number;
  /** Of the pages only ours fails: on how many axe left a rule of the criterion incomplete. */
  onlyOursAxeIncomplete: number;
  /** Which rules drive each side of the disagreement (rule → pages), and a few pages. */
  onlyOursRules: Record<string, number>;
  onlyAxeRules: Record<string, number>;
  onlyOursPages: string[];
  onlyAxePages: string[];
}

const count = (tally: Record<string, number>, key: string) => (tally[key] = (tally[key] ?? 0) + 1);
const sortTally = (tally: Record<string, number>) => Object.fromEntries(Object.entries(tally).sort((a, b) => b[1] - a[1]));
const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Runs the comparison, prints its tables, writes bench/results/axe-compare.json. Sets exit code 1 on a missing corpus. */
export async function runAxeCompare(): Promise<void> {
  const missing = missingShared(...CORPORA);
  if (missing) {
    console.error(`axe comparison cannot run: ${missing}`);
    process.exitCode = 1;
    return;
  }
  const all = loadCorpusPages();
  const pages = SAMPLE > 0 && SAMPLE < all.length ? all.filter((_, i) => i % Math.ceil(all.length / SAMPLE) === 0) : all;

  // 1. Ours: verdicts (also the warm-up), timing next to the bare parse, then RSS, all before any worker.
  const verdicts = pages.map((page) => ourVerdict(page.html));
  const speed = timeOurs(pages);
  const rss = rssAfterThreePasses(pages);

  // 2. axe-core in jsdom, one page at a time, after a warm-up on a few pages.
  const runner = new AxeRunner();
  const axeRules = await runner.rules();
  if (!('rules' in axeRules)) throw new Error(`axe-core did not load in the worker: ${JSON.stringify(axeRules)}`);
  for (const page of pages.slice(0, 3)) await runner.page(page.html);
  const axeResults: (AxeReply | { timedOut: true })[] = [];
  let peakRss = process.memoryUsage().rss;
  const axeStarted = performance.now();
  for (const [i, page] of pages.entries()) {
    axeResults.push(await runner.page(page.html));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if ((i + 1) % 50 === 0) console.error(`axe-core: ${i + 1}/${pages.length} pages, ${fmt((performance.now() - axeStarted) / 1000, 0)} s`);
  }
  await runner.close();

  const timedOut = pages.filter((_, i) => 'timedOut' in axeResults[i]!).map((p) => p.name);
  const errored = pages.flatMap((p, i) => {
    const r = axeResults[i]!;
    return 'ok' in r && !r.ok ? [{ page: p.name, error: r.error }] : [];
  });
  const finished = axeResults.flatMap((r) => ('ok' in r && r.ok ? [r] : []));
  // A timed-out page counts at the timeout, a lower bound, so the p99 is not flattered by leaving it out.
  const axeTotal = stats([...finished.map((r) => r.jsdomMs + r.axeMs), ...timedOut.map(() => AXE_TIMEOUT_MS)]);
  const axeJsdom = stats(finished.map((r) => r.jsdomMs));
  const axeRun = stats(finished.map((r) => r.axeMs));
  const contrastIncomplete = finished.filter((r) => r.incomplete.includes('color-contrast')).length;
  const contrastViolation = finished.filter((r) => r.violations.some((v) => v.id === 'color-contrast')).length;

  // 3. Agreement per criterion, over the pages axe finished.
  const ourRulesPer = new Map<string, number>();
  for (const rule of WCAG_RULES) for (const c of [...rule.criteria, ...(rule.secondary ?? [])]) ourRulesPer.set(c, (ourRulesPer.get(c) ?? 0) + 1);
  const axeRulesPer = new Map<string, number>();
  for (const rule of axeRules.rules) {
    if (rule.tags.includes('experimental')) continue;
    for (const c of rule.tags.map(criterionOfTag)) if (c) axeRulesPer.set(c, (axeRulesPer.get(c) ?? 0) + 1);
  }
  const axeRuleCriteria = new Map(axeRules.rules.map((r) => [r.id, r.tags.map(criterionOfTag).filter((c) => c !== undefined)]));
  const rows = new Map<string, Row>();
  for (const row of CRITERIA) {
    if (!isComparable(row.num)) continue;
    rows.set(row.num, {
      criterion: row.num, title: row.title, ourRules: ourRulesPer.get(row.num) ?? 0, axeRules: axeRulesPer.get(row.num) ?? 0,
      both: 0, onlyOurs: 0, onlyAxe: 0, neither: 0, disagreement: 0, agreement: 0, onlyAxeOursInconclusive: 0, onlyOursAxeIncomplete: 0,
      onlyOursRules: {}, onlyAxeRules: {}, onlyOursPages: [], onlyAxePages: [],
    });
  }
  let compared = 0;
  const unmappedAxe = new Set<string>();
  for (const [i, page] of pages.entries()) {
    const axe = axeResults[i]!;
    if (!('ok' in axe) || !axe.ok) continue;
    compared++;
    const ourPage = verdicts[i]!;
    const axeFails = new Map<string, string[]>();
    for (const v of axe.violations) {
      const criteria = v.tags.map(criterionOfTag).filter((c) => c !== undefined);
      if (!criteria.some(isComparable)) unmappedAxe.add(v.id);
      for (const c of criteria) axeFails.set(c, [...(axeFails.get(c) ?? []), v.id]);
    }
    for (const row of rows.values()) {
      const o = ourPage.fails.get(row.criterion);
      const a = axeFails.get(row.criterion);
      if (o && a) row.both++;
      else if (!o && !a) row.neither++;
      else if (o) {
        row.onlyOurs++;
        for (const r of o) count(row.onlyOursRules, r);
        if (row.onlyOursPages.length < 5) row.onlyOursPages.push(page.name);
        if (axe.incomplete.some((id) => axeRuleCriteria.get(id)?.includes(row.criterion))) row.onlyOursAxeIncomplete++;
      } else {
        row.onlyAxe++;
        for (const r of a!) count(row.onlyAxeRules, r);
        if (row.onlyAxePages.length < 5) row.onlyAxePages.push(page.name);
        if (ourPage.inconclusive.has(row.criterion)) row.onlyAxeOursInconclusive++;
      }
    }
  }
  const table = [...rows.values()]
    .map((row) => ({
      ...row,
      disagreement: row.onlyOurs + row.onlyAxe,
      agreement: compared ? (row.both + row.neither) / compared : NaN,
      onlyOursRules: sortTally(row.onlyOursRules),
      onlyAxeRules: sortTally(row.onlyAxeRules),
    }))
    .sort((a, b) => b.disagreement - a.disagreement || b.both - a.both || a.criterion.localeCompare(b.criterion, 'en', { numeric: true }));

  // Print.
  const ratioMedian = axeTotal.median / speed.ours.median;
  const modeNote = MODE === 'default' ? 'default rules and result detail, as the anchor' : `QUICK: ${QUICK_TAGS.join('/')} rules, violations only; flatters axe`;
  console.log(`\nWCAG branch (${STANDARD}) vs axe-core ${axeRules.version} in jsdom (${modeNote}; ${axeRules.rules.length} rules) over ${pages.length} corpus pages (ours and the parse × ${ROUNDS} rounds, axe once per page)`);
  console.table({
    'bare parse (parse5, htmlparser2 adapter)': { 'median ms': fmt(speed.parse.median, 3), 'p99 ms': fmt(speed.parse.p99, 3), '× parse (median)': '1.00' },
    'ours (page model + rules + findings)': { 'median ms': fmt(speed.ours.median, 3), 'p99 ms': fmt(speed.ours.p99, 3), '× parse (median)': fmt(speed.ours.median / speed.parse.median) },
    'axe: jsdom window': { 'median ms': fmt(axeJsdom.median, 1), 'p99 ms': fmt(axeJsdom.p99, 1), '× parse (median)': fmt(axeJsdom.median / speed.parse.median, 0) },
    'axe: axe.run': { 'median ms': fmt(axeRun.median, 1), 'p99 ms': fmt(axeRun.p99, 1), '× parse (median)': fmt(axeRun.median / speed.parse.median, 0) },
    'axe: jsdom + axe.run': { 'median ms': `${timedOut.length ? '≥ ' : ''}${fmt(axeTotal.median, 1)}`, 'p99 ms': `${timedOut.length ? '≥ ' : ''}${fmt(axeTotal.p99, 1)}`, '× parse (median)': fmt(axeTotal.median / speed.parse.median, 0) },
  });
  console.log(`ratio axe / ours at the median: ${timedOut.length ? '≥ ' : ''}${fmt(ratioMedian, 1)}× (axe.run alone ${fmt(axeRun.median / speed.ours.median, 1)}×; target ≥ 25× on parse5, issue 18)`);
  console.log(`ours: slowest page ${fmt(speed.slowest.ms, 1)} ms (${speed.slowest.name}, its best of ${ROUNDS} rounds); pages over 250 ms: ${speed.pagesOver250ms}`);
  console.log(`axe timeouts (${AXE_TIMEOUT_MS} ms): ${timedOut.length}${timedOut.length ? ` — ${timedOut.join(', ')}` : ''}`);
  if (errored.length) console.log(`axe errors: ${errored.length} — ${errored.map((e) => `${e.page}: ${e.error}`).join('; ')}`);
  console.log(`process RSS peak while axe ran (its worker included): ${fmt(peakRss / 2 ** 20, 0)} MB`);
  console.log(
    `ours: RSS ${fmt(rss.beforeMB, 0)} MB before, ${fmt(rss.afterMB, 0)} MB after three passes of the corpora (growth ${fmt(rss.growthMB, 1)} MB, target < 50 MB${rss.gcExposed ? ', after gc' : ', gc not exposed: run with --expose-gc'}); live heap growth ${fmt(rss.heapGrowthMB, 1)} MB`,
  );
  console.log(`\nPer criterion (WCAG 2.1 A/AA), pages that fail, over the ${compared} pages axe finished; sorted by disagreement`);
  console.log(`note: ${LAYOUT_NOTE} color-contrast: incomplete on ${contrastIncomplete} pages, a violation on ${contrastViolation}.`);
  console.table(
    Object.fromEntries(
      table
        .filter((row) => row.ourRules + row.axeRules > 0 || row.disagreement + row.both > 0)
        .map((row) => [
          `${row.criterion} ${row.title}`.slice(0, 40),
          {
            both: row.both,
            'only ours': row.onlyOurs,
            'only axe': row.onlyAxe,
            neither: row.neither,
            agree: `${fmt(row.agreement * 100, 0)}%`,
            'rules ours/axe': `${row.ourRules}/${row.axeRules}`,
            'only ours: top rule': Object.keys(row.onlyOursRules)[0] ?? '',
            'only axe: top rule (ours inconcl.)': row.onlyAxe ? `${Object.keys(row.onlyAxeRules)[0]} (${row.onlyAxeOursInconclusive})` : '',
          },
        ]),
    ),
  );
  const untested = table.filter((row) => row.ourRules + row.axeRules === 0).map((row) => row.criterion);
  console.log(`criteria neither engine has a rule for (not shown): ${untested.join(', ')}`);
  if (unmappedAxe.size) console.log(`axe violations with no WCAG 2.1 A/AA criterion tag: ${[...unmappedAxe].join(', ')}`);

  const file = path.join(root, 'bench/results', MODE === 'default' ? 'axe-compare.json' : 'axe-compare-quick.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const result = {
    node: process.version,
    cpus: os.cpus().length,
    date: new Date().toISOString(),
    axeCore: axeRules.version,
    axeMode: MODE,
    axeOptions: MODE === 'default' ? { iframes: false, preload: false } : { iframes: false, preload: false, runOnly: QUICK_TAGS, resultTypes: ['violations'] },
    axeRules: axeRules.rules.map((r) => r.id),
    standard: STANDARD,
    note: LAYOUT_NOTE,
    pages: pages.length,
    rounds: ROUNDS,
    speed: {
      parse: speed.parse,
      ours: speed.ours,
      axe: { jsdom: axeJsdom, run: axeRun, total: axeTotal, timeoutMs: AXE_TIMEOUT_MS, timedOut, errors: errored },
      ratioAxeOursMedian: ratioMedian,
      ratioAxeRunOursMedian: axeRun.median / speed.ours.median,
      oursTimesParseMedian: speed.ours.median / speed.parse.median,
      axeTimesParseMedian: axeTotal.median / speed.parse.median,
    },
    rss: { ours: rss, axePhasePeakMB: peakRss / 2 ** 20 },
    colorContrast: { incomplete: contrastIncomplete, violation: contrastViolation, of: compared },
    agreement: { comparedPages: compared, criteria: table },
  };
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
}

if (import.meta.main) await runAxeCompare();
