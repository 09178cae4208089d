// The audit flow after the request is authenticated, rate-limited and validated:
// crawl → analyse (in the analysis threads) → persist. Only a successful audit is persisted; a
// crawl failure propagates as an OutboundError, which the HTTP layer answers with 422, a failed WCAG
// AI step as an AnalysisFailedError (502), and the pool's refusals as its errors (analysis/pool.ts:
// queue full 503, over the budget 422, abandoned by the client): all before anything is written.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { SafeFetcher } from '../net/safe-fetch.ts';
import { saveAudit, type AuditRequest, type AuditSnapshot } from './audit-store.ts';
import { branchAnalyses, type AnalysisInput } from './branches.ts';
import type { AnalysisPool } from './analysis/pool.ts';
import type { AiLog } from './wcag/ai-step/index.ts';
import type { WcagAi } from './wcag/index.ts';
import { crawl, type CrawlLimits } from './crawl.ts';

export interface AuditDeps {
  db: Kysely<Database>;
  fetcher: SafeFetcher;
  crawlLimits: CrawlLimits;
  /** Wakes the delivery worker after an audit's failure events are committed. */
  onEventsQueued?: (count: number) => void;
  /** The WCAG branch's AI step, when `config.ai` is set. */
  ai?: WcagAi | undefined;
  /** Where the analysis runs: off the event loop, bounded in time and in how many wait. */
  analysisPool: AnalysisPool;
}

/**
 * `log` is the request's logger, for what the analysis saw of the network (never in a finding).
 * `signal` aborts when the client goes away: its analysis leaves the queue or its thread is stopped
 * (AnalysisAbandonedError), or the WCAG AI step cancels its call (AnalysisCancelledError); either
 * way nothing is persisted.
 */
export async function runAudit(deps: AuditDeps, request: AuditRequest, log: AnalysisInput['log'] & AiLog, signal?: AbortSignal): Promise<AuditSnapshot> {
  const analysis = branchAnalyses[request.branch];
  // Refused before the crawl when nothing could take the analysis: no fetch is spent on it.
  deps.analysisPool.assertRoom();
  const crawled = await crawl(deps.fetcher, request.url, deps.crawlLimits);
  const result = await analysis.analyse(
    {
      crawled,
      includeWarnings: request.includeWarnings,
      fetcher: deps.fetcher,
      limits: deps.crawlLimits,
      log,
      standard: request.standard,
      ai: request.branch === 'wcag' && deps.ai !== undefined ? { step: deps.ai, log } : undefined,
      signal,
    },
    (task, options) => deps.analysisPool.run(task, { ...options, signal }),
  );
  return saveAudit(deps.db, { ...request, crawled, result }, { onEventsQueued: deps.onEventsQueued });
}
