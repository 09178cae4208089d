// Audits every URL through every branch against the service, within the concurrency, waiting out
// 429 and 503 answers, and compares with the baseline.
//
// - Results come in URL order, then branch order, whatever order the audits finish in.
// - At most `concurrency` requests are in flight; each is bounded by a timeout (120 s by default).
// - A 429 or 503 closes one gate that every worker passes before it sends: the whole run pauses for
//   the wait the service named (Retry-After, else RateLimit-Reset, else 5 s; 1–120 s), then the
//   same request is sent again. A 429 is retried for as long as it takes (a small budget makes the
//   run slower, never incomplete); a 503 up to MAX_UNAVAILABLE_RETRIES times, then the page is not
//   audited.
// - A 401 stops the run: the key is refused for every page, so nothing else is sent, requests in
//   flight are abandoned, and every page not yet audited is not audited (status 401).
// - A 400, 422, 502, any other answer that is not an audit, a failure to reach the server and a
//   timeout leave that page not audited, with the reason; the other pages go on.
import { failedOccurrences, type FailedOccurrence } from '../../../src/audit/identity.ts';
import type { ApiAudit, Branch, FailOn, PageResult, RunIO, RunOptions, RunResult } from './model.ts';
import { EXIT } from './model.ts';
import { createProgress, type Progress, type WaitReason } from './progress.ts';
import { requestAudit, type AuditOutcome, type RequestContext } from './run-request.ts';

/** Each request's bound, from sending it to the last byte of the answer. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** A 503 is retried this many times for one page; the next makes it not audited. */
export const MAX_UNAVAILABLE_RETRIES = 5;
export const UNAUTHORIZED_MESSAGE = 'the service refused the API key (401): check AUDIT_API_KEY';

/** RunIO and what only tests set. */
export interface RunCheckIO extends RunIO {
  /** Each request's bound in milliseconds; default REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
}

export async function runCheck(options: RunOptions, io: RunCheckIO): Promise<RunResult> {
  const now = io.now ?? (() => new Date());
  const nowMs = () => now().getTime();
  const startedAt = now().toISOString();
  const server = options.server.replace(/\/+$/, '');
  const jobs = options.urls.flatMap((url) => options.branches.map((branch) => ({ url, branch })));
  const results: (PageResult | undefined)[] = new Array(jobs.length);
  const progress = createProgress(io.stderr, jobs.length, { now: nowMs });
  const stop = new AbortController();
  const sleep = io.sleep ?? ((ms: number) => abortableSleep(ms, stop.signal));
  const gate = createGate(sleep, progress, stop.signal);
  const context: RequestContext = {
    fetch: io.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: io.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    stop: stop.signal,
    now: nowMs,
  };

  async function auditPage(url: string, branch: Branch): Promise<PageResult | undefined> {
    const request = { server, apiKey: options.apiKey, url, branch, includeWarnings: options.includeWarnings, ...(options.standard === undefined ? {} : { standard: options.standard }) };
    let unavailable = 0;
    for (;;) {
      await gate.pass();
      if (stop.signal.aborted) return undefined;
      const outcome: AuditOutcome = await requestAudit(request, context);
      switch (outcome.kind) {
        case 'audited':
          return auditedPage(url, branch, outcome.audit, server, options);
        case 'not-audited':
          return notAuditedPage(url, branch, outcome.status, outcome.reason);
        case 'cancelled':
          return undefined;
        case 'unauthorized':
          if (!stop.signal.aborted) {
            progress.message(UNAUTHORIZED_MESSAGE);
            stop.abort();
          }
          return undefined;
        case 'retry':
          if (outcome.status === 503 && ++unavailable > MAX_UNAVAILABLE_RETRIES) return notAuditedPage(url, branch, 503, 'service unavailable');
          gate.close(outcome.waitMs, outcome.status === 429 ? 'rate limited' : 'service unavailable');
          break;
      }
    }
  }

  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length && !stop.signal.aborted) {
      const index = next++;
      const job = jobs[index]!;
      const page = await auditPage(job.url, job.branch);
      if (page === undefined) continue;
      results[index] = page;
      progress.pageDone(page);
    }
  }

  try {
    const workers = Math.max(1, Math.min(Math.floor(options.concurrency) || 1, jobs.length));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    progress.finish();
  }

  const pages = jobs.map((job, i) => results[i] ?? notAuditedPage(job.url, job.branch, 401, 'the service refused the API key'));
  return {
    server,
    failOn: options.failOn,
    ...(options.baseline === undefined ? {} : { baseline: options.baseline.file }),
    startedAt,
    finishedAt: now().toISOString(),
    pages,
    exitCode: exitCodeOf(pages),
  };
}

export function exitCodeOf(pages: readonly PageResult[]): 0 | 1 | 3 {
  if (pages.some((page) => page.notAudited !== undefined)) return EXIT.notAudited;
  if (pages.some((page) => page.overThreshold.length > 0)) return EXIT.failures;
  return EXIT.ok;
}

function auditedPage(url: string, branch: Branch, audit: ApiAudit, server: string, options: RunOptions): PageResult {
  let occurrences: FailedOccurrence[];
  try {
    occurrences = failedOccurrences(audit.findings);
  } catch {
    return notAuditedPage(url, branch, null, 'the service answered without an audit');
  }
  const page: PageResult = { url, branch, audit, dashboardUrl: `${server}/dashboard/audits/${encodeURIComponent(audit.id)}`, occurrences, overThreshold: [] };
  if (options.baseline !== undefined) {
    const known = options.baseline.identities.get(`${branch} ${url}`);
    page.newOccurrences = known === undefined ? [...occurrences] : occurrences.filter((o) => !known.has(o.identity));
  }
  page.overThreshold = overThreshold(options.failOn, occurrences, page.newOccurrences);
  return page;
}

/** The occurrences that fail the run under `failOn`; `new` without a baseline counts every one as new. */
export function overThreshold(failOn: FailOn, occurrences: readonly FailedOccurrence[], newOccurrences: readonly FailedOccurrence[] | undefined): FailedOccurrence[] {
  switch (failOn) {
    case 'error':
      return occurrences.filter((o) => o.severity === 'error');
    case 'warning':
      return [...occurrences];
    case 'new':
      return [...(newOccurrences ?? occurrences)];
    case 'none':
      return [];
  }
}

function notAuditedPage(url: string, branch: Branch, status: number | null, reason: string): PageResult {
  return { url, branch, notAudited: { status, reason }, occurrences: [], overThreshold: [] };
}

interface Gate {
  /** Resolves when no wait is in progress (at once when none is). */
  pass(): Promise<void>;
  /** Pauses every worker for `ms`; while a wait is in progress, joins it instead. */
  close(ms: number, why: WaitReason): void;
}

function createGate(sleep: (ms: number) => Promise<void>, progress: Progress, stop: AbortSignal): Gate {
  let closed: Promise<void> | undefined;
  const stopped = new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  return {
    async pass() {
      // A stopped run does not wait out the pause: its workers only need to see that it stopped.
      while (closed !== undefined && !stop.aborted) await Promise.race([closed, stopped]);
    },
    close(ms, why) {
      if (closed === undefined) {
        progress.waiting(Math.ceil(ms / 1000), why);
        closed = sleep(ms).finally(() => {
          closed = undefined;
          progress.resumed();
        });
      }
    },
  };
}

/** Resolves after `ms`, or at once when the run stops (its timer then no longer holds the process). */
function abortableSleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done, { once: true });
  });
}
