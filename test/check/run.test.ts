// The check client's run (packages/check/src/run.ts) against the real service over real HTTP:
// order, the concurrency bound, waiting out 429 and 503 with every worker paused, pages that are
// not audited and why, a refused key, bounded requests, the baseline, each --fail-on, and the
// progress a person sees on a terminal or in a CI log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { failedOccurrences } from '../../src/audit/identity.ts';
import type { PageResult, RunResult } from '../../packages/check/src/model.ts';
import { createProgress, REDRAW_INTERVAL_MS } from '../../packages/check/src/progress.ts';
import { MAX_WAIT_MS, retryDelayMs } from '../../packages/check/src/run-request.ts';
import { MAX_UNAVAILABLE_RETRIES, runCheck, UNAUTHORIZED_MESSAGE } from '../../packages/check/src/run.ts';
import {
  captureStream,
  closedPort,
  jsonResponse,
  page,
  runOptions,
  scriptedFetch,
  startCheckService,
  startSilentServer,
  type CheckService,
} from './support-run.ts';

const html = { 'content-type': 'text/html' };
/** Two images without alt (1.1.1, errors) and an empty heading (2.4.6, a warning). */
const FAILING = page('<img src="a.png"><img src="b.png"><h2></h2><p>Fish swim.</p>');
let swapped = false;

let check: CheckService;
before(async () => {
  check = await startCheckService({
    '/fail': (_req, res) => res.writeHead(200, html).end(FAILING),
    '/clean': (_req, res) => res.writeHead(200, html).end(page('<p>Fish swim.</p>')),
    '/slow': (_req, res) => void setTimeout(() => res.writeHead(200, html).end(page('<p>Slow fish.</p>')), 150),
    // One image fixed and another broken between two runs.
    '/swap': (_req, res) => res.writeHead(200, html).end(page(swapped ? '<img src="c.png"><img src="b.png" alt="">' : '<img src="a.png"><img src="b.png" alt="">')),
    '/gone': (_req, res) => res.writeHead(404, html).end('gone'),
  });
});
after(async () => {
  await check.close();
});

function plain() {
  return captureStream(false);
}

function summary(result: RunResult) {
  return result.pages.map((p) => [p.branch, new URL(p.url).pathname, p.notAudited ? `not audited ${p.notAudited.status}: ${p.notAudited.reason}` : `${p.occurrences.length}/${p.overThreshold.length}`]);
}

test('results come in URL order, then branch order, whatever order the audits finish in', async () => {
  const bodies: Record<string, unknown>[] = [];
  const err = plain();
  const urls = ['/slow', '/fail', '/clean'].map((p) => check.pageUrl(p));
  const result = await runCheck(runOptions(check, { urls, branches: ['wcag', 'privacy'], standard: 'WCAG22AA', includeWarnings: true, concurrency: 4 }), {
    stderr: err.stream,
    fetch: (input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    },
  });
  assert.deepEqual(
    result.pages.map((p) => [p.url, p.branch]),
    urls.flatMap((url) => [[url, 'wcag'], [url, 'privacy']]),
  );
  for (const p of result.pages) {
    assert.equal(p.audit?.url, p.url);
    assert.equal(p.audit?.branch, p.branch);
    assert.equal(p.dashboardUrl, `${check.base}/dashboard/audits/${p.audit!.id}`);
    assert.deepEqual(p.occurrences, failedOccurrences(p.audit!.findings));
    assert.equal(p.newOccurrences, undefined, 'no baseline, no new occurrences');
  }
  assert.equal(result.pages[0]!.audit!.standard, 'WCAG22AA');
  // The standard goes with wcag only (the service refuses it with any other branch).
  const sorted = bodies.map((b) => JSON.stringify(b)).sort();
  assert.deepEqual(sorted, urls.flatMap((url) => [{ url, branch: 'wcag', includeWarnings: true, standard: 'WCAG22AA' }, { url, branch: 'privacy', includeWarnings: true }]).map((b) => JSON.stringify(b)).sort());
  assert.equal(result.exitCode, 1, 'the failing page fails the run under --fail-on error');
  assert.equal(result.server, check.base);
  assert.equal(result.failOn, 'error');
  assert.ok(Date.parse(result.startedAt) <= Date.parse(result.finishedAt));
  // Progress lines come in finishing order, one per page and branch.
  const lines = err.text().trim().split('\n');
  assert.equal(lines.length, 6);
  assert.match(lines.at(-1)!, /^\[6\/6\] /);
});

describe('at most `concurrency` requests in flight', () => {
  for (const concurrency of [1, 2, 3]) {
    test(`concurrency ${concurrency}`, async () => {
      let inFlight = 0;
      let most = 0;
      const result = await runCheck(runOptions(check, { urls: ['/slow', '/slow?2', '/slow?3', '/slow?4', '/slow?5'].map((p) => check.pageUrl(p)), concurrency }), {
        stderr: plain().stream,
        fetch: async (input, init) => {
          most = Math.max(most, ++inFlight);
          try {
            const response = await fetch(input, init);
            await new Promise((resolve) => setTimeout(resolve, 20)); // the answer, still in flight
            return response;
          } finally {
            inFlight--;
          }
        },
      });
      assert.equal(most, concurrency);
      assert.equal(result.pages.filter((p) => p.audit !== undefined).length, 5);
      assert.equal(result.exitCode, 0);
    });
  }
});

test('a real 429 from a small budget: every worker pauses for the wait the service names, and the run completes', async () => {
  const apiKey = await check.keyWithBudget(2);
  const err = plain();
  const sentWhileWaiting: string[] = [];
  const statuses: number[] = [];
  const urls = ['/clean', '/fail', '/clean?3', '/clean?4', '/clean?5'].map((p) => check.pageUrl(p));
  const start = check.sleeps.length;
  const result = await runCheck(runOptions(check, { apiKey, urls, concurrency: 3, failOn: 'none' }), {
    stderr: err.stream,
    sleep: (ms) => check.sleep(ms),
    fetch: async (input, init) => {
      if (check.sleeping) sentWhileWaiting.push(JSON.parse(String(init?.body)).url);
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
  assert.deepEqual(sentWhileWaiting, [], 'no request is sent while the gate is closed');
  assert.deepEqual(result.pages.map((p) => p.url), urls);
  assert.ok(result.pages.every((p) => p.audit !== undefined), 'every page audited in the end');
  assert.equal(result.exitCode, 0);
  assert.equal(statuses.filter((s) => s === 201).length, 5);
  assert.ok(statuses.filter((s) => s === 429).length >= 1);
  // Budget 2 a minute for 5 pages: two waits at least; the first to the end of the window (45 s
  // from 10:00:15), the next a whole window; each from the service's Retry-After.
  const waits = check.sleeps.slice(start);
  assert.ok(waits.length >= 2 && waits.length <= 4, `waits: ${waits}`);
  assert.equal(waits[0], 45_000);
  assert.ok(waits.slice(1).every((ms) => ms === 60_000), `waits: ${waits}`);
  assert.match(err.text(), /^waiting 45s \(rate limited\)$/m);
});

describe('503: waited out and retried, a bounded number of times', () => {
  const unavailable = () => jsonResponse(503, { error: 'service unavailable' }, { 'retry-after': '7' });
  const cases = [
    { name: 'twice, then the audit', script: [unavailable, unavailable], audited: true, calls: 3, waits: [7000, 7000] },
    { name: 'always: not audited after the last retry', script: Array(MAX_UNAVAILABLE_RETRIES + 1).fill(unavailable), audited: false, calls: MAX_UNAVAILABLE_RETRIES + 1, waits: Array(MAX_UNAVAILABLE_RETRIES).fill(7000) },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const scripted = scriptedFetch(c.script);
      const waits: number[] = [];
      const err = plain();
      const result = await runCheck(runOptions(check, { urls: [check.pageUrl('/clean')], concurrency: 1 }), { stderr: err.stream, fetch: scripted.fetch, sleep: async (ms) => void waits.push(ms) });
      assert.equal(scripted.calls(), c.calls);
      assert.deepEqual(waits, c.waits);
      assert.match(err.text(), /^waiting 7s \(service unavailable\)$/m);
      if (c.audited) {
        assert.ok(result.pages[0]!.audit);
        assert.equal(result.exitCode, 0);
      } else {
        assert.deepEqual(result.pages[0]!.notAudited, { status: 503, reason: 'service unavailable' });
        assert.equal(result.exitCode, 3);
      }
    });
  }
});

test('how long a wait lasts: Retry-After, then RateLimit-Reset, then 5 s; between 1 s and the cap', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  const cases: [Record<string, string>, number][] = [
    [{ 'retry-after': '45', 'ratelimit-reset': '30' }, 45_000],
    [{ 'ratelimit-reset': '30' }, 30_000],
    [{}, 5_000],
    [{ 'retry-after': 'soon' }, 5_000],
    [{ 'retry-after': '0' }, 1_000],
    [{ 'retry-after': '86400' }, MAX_WAIT_MS],
    [{ 'retry-after': 'Sun, 01 Mar 2026 10:00:20 GMT' }, 20_000],
  ];
  for (const [headers, ms] of cases) assert.equal(retryDelayMs(new Headers(headers), now), ms, JSON.stringify(headers));
  assert.equal(MAX_WAIT_MS, 120_000);
});

test('a page the service cannot reach (422) is not audited with its reason; the rest go on; exit 3 wins over failures', async () => {
  const err = plain();
  const result = await runCheck(runOptions(check, { urls: ['/fail', '/gone', '/clean'].map((p) => check.pageUrl(p)) }), { stderr: err.stream });
  assert.deepEqual(summary(result), [
    ['wcag', '/fail', '3/2'],
    ['wcag', '/gone', 'not audited 422: unreachable or blocked'],
    ['wcag', '/clean', '0/0'],
  ]);
  assert.equal(result.exitCode, 3);
  assert.match(err.text(), new RegExp(`^\\[\\d/3\\] wcag ${check.pageUrl('/gone').replace(/[.?]/g, '\\$&')}: not audited: unreachable or blocked$`, 'm'));
});

test('a URL the service refuses (400) is not audited with the service’s message', async () => {
  const result = await runCheck(runOptions(check, { urls: ['https://localhost/', check.pageUrl('/clean')] }), { stderr: plain().stream });
  const refused = result.pages[0]!.notAudited!;
  assert.equal(refused.status, 400);
  assert.match(refused.reason, /^request refused: url: Local or internal host names/);
  assert.ok(result.pages[1]!.audit);
  assert.equal(result.exitCode, 3);
});

test('a refused key (401) stops the run at once: nothing more is sent, every page is not audited, stderr says why', async () => {
  let calls = 0;
  const err = plain();
  const result = await runCheck(runOptions(check, { apiKey: 'not-a-key', urls: ['/clean', '/fail', '/clean?3', '/clean?4'].map((p) => check.pageUrl(p)), concurrency: 1 }), {
    stderr: err.stream,
    fetch: (input, init) => {
      calls++;
      return fetch(input, init);
    },
  });
  assert.equal(calls, 1);
  assert.equal(result.pages.length, 4);
  assert.ok(result.pages.every((p) => p.notAudited?.status === 401));
  assert.equal(result.exitCode, 3);
  assert.ok(err.text().includes(UNAUTHORIZED_MESSAGE));
});

test('a 401 while the run waits out a 429 ends the run at once, without waiting out the pause', async () => {
  const started = Date.now();
  const scripted = scriptedFetch([
    () => jsonResponse(429, { error: 'rate limit exceeded', retryAfterSeconds: 100 }, { 'retry-after': '100' }),
    () => jsonResponse(401, { error: 'invalid api key' }),
  ]);
  const err = plain();
  // No injected sleep: the real one, which the stop must cut short (or the test would take 100 s).
  const result = await runCheck(runOptions(check, { urls: ['/clean', '/fail', '/clean?3'].map((p) => check.pageUrl(p)), concurrency: 2 }), { stderr: err.stream, fetch: scripted.fetch });
  assert.ok(Date.now() - started < 2000);
  assert.equal(scripted.calls(), 2);
  assert.deepEqual(result.pages.map((p) => p.notAudited?.status), [401, 401, 401]);
  assert.equal(result.exitCode, 3);
  assert.match(err.text(), /^waiting 100s \(rate limited\)$/m);
  assert.ok(err.text().includes(UNAUTHORIZED_MESSAGE));
});

describe('a server that cannot be reached or never answers: not audited, quickly', () => {
  const cases = [
    { name: 'nothing listens (connection refused)', start: async () => ({ url: await closedPort(), close: async () => {} }), reason: 'server unreachable' },
    { name: 'accepts and never answers', start: () => startSilentServer(), reason: 'timed out' },
    { name: 'sends headers and part of the body, then stalls', start: () => startSilentServer(true), reason: 'timed out' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const server = await c.start();
      try {
        const started = Date.now();
        const result = await runCheck(runOptions(check, { server: server.url, urls: [check.pageUrl('/clean'), check.pageUrl('/fail')], branches: ['wcag', 'privacy'], concurrency: 2 }), {
          stderr: plain().stream,
          requestTimeoutMs: 300,
        });
        assert.ok(Date.now() - started < 3000, 'bounded');
        assert.deepEqual(result.pages.map((p) => p.notAudited), Array(4).fill({ status: null, reason: c.reason }));
        assert.equal(result.exitCode, 3);
      } finally {
        await server.close();
      }
    });
  }
});

describe('answers that are not an audit', () => {
  const cases: [string, () => Response, { status: number | null; reason: string }][] = [
    ['200 with HTML', () => new Response('<html>proxy login</html>', { status: 200, headers: { 'content-type': 'text/html' } }), { status: 200, reason: 'the service answered something other than JSON' }],
    ['201 with JSON that is no audit', () => jsonResponse(201, { id: 7 }), { status: 201, reason: 'the service answered without an audit' }],
    ['502 analysis failed', () => jsonResponse(502, { error: 'analysis failed' }), { status: 502, reason: 'analysis failed' }],
    ['502 from a proxy, in HTML', () => new Response('<h1>Bad Gateway</h1>', { status: 502 }), { status: 502, reason: 'the service answered HTTP 502' }],
    ['500 with JSON', () => jsonResponse(500, { error: 'internal error' }), { status: 500, reason: 'internal error' }],
    ['422 with an endless error text, cut', () => jsonResponse(422, { error: 'x'.repeat(5000) }), { status: 422, reason: `${'x'.repeat(300)}…` }],
    ['a redirect (never followed)', () => new Response(null, { status: 308, headers: { location: 'https://elsewhere.example/' } }), { status: 308, reason: 'the service answered with a redirect (HTTP 308): check the server URL' }],
  ];
  for (const [name, answer, notAudited] of cases) {
    test(name, async () => {
      const result = await runCheck(runOptions(check, { urls: [check.pageUrl('/clean')] }), { stderr: plain().stream, fetch: async () => answer() });
      assert.deepEqual(result.pages[0]!.notAudited, notAudited);
      assert.deepEqual(result.pages[0]!.occurrences, []);
      assert.equal(result.exitCode, 3);
    });
  }
});

test('baseline: one image fixed and another broken between runs; only the new one is over the threshold', async () => {
  swapped = false;
  const url = check.pageUrl('/swap');
  const first = await runCheck(runOptions(check, { urls: [url], failOn: 'none' }), { stderr: plain().stream });
  const known = new Set(first.pages[0]!.occurrences.map((o) => o.identity));
  assert.equal(known.size, 1);
  swapped = true;
  const baseline = { file: 'baseline.json', identities: new Map([[`wcag ${url}`, known]]) };
  const err = plain();
  const second = await runCheck(runOptions(check, { urls: [url, check.pageUrl('/fail')], failOn: 'new', baseline }), { stderr: err.stream });
  const [swappedPage, absent] = second.pages as [PageResult, PageResult];
  assert.equal(swappedPage.occurrences.length, 1);
  assert.equal(swappedPage.newOccurrences!.length, 1);
  assert.ok(!known.has(swappedPage.newOccurrences![0]!.identity));
  assert.match(swappedPage.newOccurrences![0]!.snippet!, /c\.png/);
  assert.deepEqual(swappedPage.overThreshold, swappedPage.newOccurrences);
  // A page the baseline lacks: all its occurrences are new.
  assert.equal(absent.newOccurrences!.length, 3);
  assert.deepEqual(absent.overThreshold, absent.occurrences);
  assert.equal(second.baseline, 'baseline.json');
  assert.equal(second.exitCode, 1);
  assert.match(err.text(), /: 1 error, 0 warnings, 1 new$/m);

  // With everything in the baseline, nothing is new and the run passes.
  const all = new Map([
    [`wcag ${url}`, new Set(swappedPage.occurrences.map((o) => o.identity))],
    [`wcag ${check.pageUrl('/fail')}`, new Set(absent.occurrences.map((o) => o.identity))],
  ]);
  const third = await runCheck(runOptions(check, { urls: [url, check.pageUrl('/fail')], failOn: 'new', baseline: { file: 'b', identities: all } }), { stderr: plain().stream });
  assert.deepEqual(third.pages.map((p) => [p.newOccurrences!.length, p.overThreshold.length]), [[0, 0], [0, 0]]);
  assert.equal(third.exitCode, 0);
});

describe('each --fail-on on a page with 2 error and 1 warning occurrences', () => {
  const cases = [
    { failOn: 'error', baseline: false, over: ['error', 'error'], exit: 1 },
    { failOn: 'warning', baseline: false, over: ['error', 'error', 'warning'], exit: 1 },
    { failOn: 'new', baseline: true, over: ['error', 'warning'], exit: 1 }, // the baseline knows one image
    { failOn: 'none', baseline: false, over: [], exit: 0 },
  ] as const;
  for (const c of cases) {
    test(c.failOn, async () => {
      const url = check.pageUrl('/fail');
      let baseline;
      if (c.baseline) {
        const probe = await runCheck(runOptions(check, { urls: [url], failOn: 'none' }), { stderr: plain().stream });
        baseline = { file: 'b', identities: new Map([[`wcag ${url}`, new Set([probe.pages[0]!.occurrences[0]!.identity])]]) };
      }
      const result = await runCheck(runOptions(check, { urls: [url, check.pageUrl('/clean')], failOn: c.failOn, ...(baseline ? { baseline } : {}) }), { stderr: plain().stream });
      assert.deepEqual(result.pages[0]!.overThreshold.map((o) => o.severity), c.over);
      assert.deepEqual(result.pages[1]!.overThreshold, [], 'the clean page never fails');
      assert.equal(result.exitCode, c.exit);
    });
  }
});

describe('progress', () => {
  const hostile = '\u001b[31mred\u202eevil\u0007';

  test('plain: one line per page, the service’s text and URLs made safe for a terminal', async () => {
    const err = plain();
    const url = `${check.pageUrl('/clean')}?q=\u202eabc`;
    const result = await runCheck(runOptions(check, { urls: [url, check.pageUrl('/fail')], concurrency: 1 }), {
      stderr: err.stream,
      fetch: async (input, init) => (JSON.parse(String(init?.body)).url === url ? jsonResponse(422, { error: hostile }) : fetch(input, init)),
    });
    const text = err.text();
    assert.equal(result.pages[0]!.notAudited!.reason, hostile, 'kept as the service sent it: each reporter escapes for its own format');
    assert.equal(text, `[1/2] wcag ${check.pageUrl('/clean')}?q=\\u202eabc: not audited: \\x1b[31mred\\u202eevil\\x07\n[2/2] wcag ${check.pageUrl('/fail')}: 2 errors, 1 warning\n`);
    assert.equal(result.exitCode, 3);
  });

  test('terminal: one line redrawn in place, not-audited pages kept above it, a newline at the end', async () => {
    const err = captureStream(true, 200);
    const result = await runCheck(runOptions(check, { urls: ['/gone', '/fail', '/clean'].map((p) => check.pageUrl(p)), concurrency: 1 }), {
      stderr: err.stream,
      fetch: async (input, init) => (JSON.parse(String(init?.body)).url.endsWith('/gone') ? jsonResponse(422, { error: hostile }) : fetch(input, init)),
    });
    assert.equal(result.exitCode, 3);
    const text = err.text();
    assert.ok(text.endsWith('\n'));
    assert.ok(err.chunks.every((chunk) => chunk.startsWith('\r\u001b[2K') || chunk === '\n'));
    // Nothing from the network reaches the terminal raw: the only escape is the line clear.
    assert.doesNotMatch(text.replaceAll('\r\u001b[2K', ''), /[\u0000-\u0009\u000b-\u001f\u202e]/);
    const lines = text.split('\n').map((line) => line.split('\r\u001b[2K').at(-1));
    assert.deepEqual(lines, [`wcag ${check.pageUrl('/gone')}: not audited: \\x1b[31mred\\u202eevil\\x07`, '[####################] 3/3, 1 not audited', '']);
  });

  test('terminal: at most ten redraws a second, the wait and its countdown on the line', () => {
    let now = 0;
    const err = captureStream(true, 80);
    const progress = createProgress(err.stream, 40, { now: () => now });
    const pageResult: PageResult = { url: 'https://x.test/', branch: 'wcag', occurrences: [], overThreshold: [] };
    for (let i = 0; i < 20; i++) progress.pageDone(pageResult);
    assert.equal(err.chunks.length, 1, 'twenty pages in one instant: only the first draw');
    now += REDRAW_INTERVAL_MS;
    progress.waiting(45, 'rate limited');
    now += 3000;
    progress.pageDone(pageResult);
    progress.finish();
    const draws = err.chunks.filter((chunk) => chunk !== '\n').map((chunk) => chunk.replace('\r\u001b[2K', ''));
    assert.deepEqual(draws, ['[--------------------] 0/40', '[##########----------] 20/40  waiting 45s (rate limited)', '[###########---------] 21/40  waiting 42s (rate limited)', '[###########---------] 21/40']);
    assert.equal(err.chunks.at(-1), '\n');
  });

  test('terminal: the line never wraps past the width', () => {
    const err = captureStream(true, 30);
    const progress = createProgress(err.stream, 10, { now: () => 0 });
    progress.waiting(100, 'service unavailable');
    progress.finish();
    for (const chunk of err.chunks) assert.ok(chunk.replace('\r\u001b[2K', '').length <= 29, chunk);
  });
});
