// Which analysis each branch runs.
//
// The CPU-bound work is tasks (analysis/tasks.ts) handed to `run`: the audit flow runs them in the
// analysis threads (analysis/pool.ts), benches in their own thread. The network a branch needs in
// its middle (the privacy-policy follow, the WCAG AI step's model call) happens here, on the caller's
// thread, between two tasks; each task parses the page afresh (a few milliseconds beside the wait).
import type { SafeFetcher } from '../net/safe-fetch.ts';
import { runTask, type TaskKind, type TaskOf, type TaskResults } from './analysis/tasks.ts';
import type { Branch, WcagStandard } from './control.ts';
import type { CrawledPage, CrawlLimits } from './crawl.ts';
import type { AuditResult } from './findings.ts';
import { responseCookiesOf, type OperatorLog } from './privacy/index.ts';
import { followPolicyLink } from './privacy/links/index.ts';
import type { AiLog } from './wcag/ai-step/index.ts';
import { judgeWcag, type WcagAi } from './wcag/index.ts';

export interface AnalysisInput {
  crawled: CrawledPage;
  includeWarnings: boolean;
  /** For the one extra request a branch may make (the privacy-policy follow). */
  fetcher: SafeFetcher;
  limits: CrawlLimits;
  /** The request's logger: network detail of that request goes here, never into findings. */
  log: OperatorLog;
  /** The WCAG standard to audit against (`wcag` only; default WCAG21AA). */
  standard?: WcagStandard | undefined;
  /**
   * The WCAG branch's AI step (`config.ai` set) and the logger its failed attempts go to (the
   * request's); absent: deterministic rules only.
   */
  ai?: { step: WcagAi; log: AiLog } | undefined;
  /** Aborts when the request's client goes away; the WCAG AI step cancels its call on it. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs one analysis task. `continuation`: the audit's second task, after its network step (the pool
 * queues it first and never refuses it).
 */
export type RunTask = <K extends TaskKind>(task: TaskOf<K>, options?: { continuation?: boolean }) => Promise<TaskResults[K]>;

/** The tasks in the calling thread: for benches and tools, which have no pool. */
export const runInProcess: RunTask = async (task) => runTask(task);

export interface BranchAnalysis {
  analyse(input: AnalysisInput, run?: RunTask): Promise<AuditResult>;
}

export const branchAnalyses: Record<Branch, BranchAnalysis> = {
  'ai-governance': {
    analyse: async ({ crawled, includeWarnings }, run = runInProcess) =>
      run({ kind: 'ai-governance', html: crawled.html, url: crawled.finalUrl, includeWarnings }),
  },
  privacy: {
    // The one network request of the branch, following the selected policy link, happens before
    // any control runs; `log` gets what it saw of the network, which no finding may carry.
    analyse: async ({ crawled, includeWarnings, fetcher, limits, log }, run = runInProcess) => {
      const source = { html: crawled.html, url: crawled.finalUrl, includeWarnings, responseCookies: responseCookiesOf(crawled) };
      const step = await run({ kind: 'privacy-select', ...source });
      if ('done' in step) return step.done;
      const follow = await followPolicyLink(fetcher, { href: step.follow.href }, limits, { log, pageUrl: new URL(step.follow.pageUrl) });
      return run({ kind: 'privacy-finish', ...source, follow }, { continuation: true });
    },
  },
  wcag: {
    // With the AI step, an AnalysisFailedError propagates: the audit is not persisted (502).
    analyse: async ({ crawled, includeWarnings, standard = 'WCAG21AA', ai, signal }, run = runInProcess) => {
      const source = { html: crawled.html, url: crawled.finalUrl, standard };
      if (ai === undefined) return run({ kind: 'wcag', ...source, includeWarnings });
      const request = await run({ kind: 'wcag-ai-prepare', ...source });
      const judgement = await judgeWcag(request, standard, { ai: ai.step, log: ai.log, signal });
      return run({ kind: 'wcag-ai-finish', ...source, includeWarnings, judgement, model: ai.step.model }, { continuation: true });
    },
  },
};
