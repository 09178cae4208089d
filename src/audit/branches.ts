// Which analysis each branch runs. A branch whose controls have not landed yet is explicitly
// unavailable, so a request for it gets a clear 400 rather than placeholder findings. Every
// branch parses the page once (page.ts) and reads that model.
import type { SafeFetcher } from '../net/safe-fetch.ts';
import { aiGovernanceControls } from './ai-governance/index.ts';
import type { Branch, WcagStandard } from './control.ts';
import type { CrawledPage, CrawlLimits } from './crawl.ts';
import { evaluateControls, type AuditResult } from './findings.ts';
import { buildPage } from './page.ts';
import { buildPrivacyPage, privacyControls, type OperatorLog } from './privacy/index.ts';
import type { AiLog } from './wcag/ai-step/index.ts';
import { analyseWcag, analyseWcagWithAi, type WcagAi } from './wcag/index.ts';

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

export type BranchAnalysis =
  | { available: true; analyse(input: AnalysisInput): Promise<AuditResult> }
  | { available: false };

export const branchAnalyses: Record<Branch, BranchAnalysis> = {
  'ai-governance': {
    available: true,
    analyse: async ({ crawled, includeWarnings }) =>
      evaluateControls(aiGovernanceControls, buildPage(crawled.html, crawled.finalUrl), includeWarnings),
  },
  privacy: {
    available: true,
    analyse: async ({ crawled, includeWarnings, fetcher, limits, log }) =>
      evaluateControls(privacyControls, await buildPrivacyPage(crawled, fetcher, limits, log), includeWarnings),
  },
  wcag: {
    available: true,
    // With the AI step, an AnalysisFailedError propagates: the audit is not persisted (502).
    analyse: async ({ crawled, includeWarnings, standard, ai, signal }) => {
      const page = buildPage(crawled.html, crawled.finalUrl);
      return ai === undefined
        ? analyseWcag(page, standard ?? 'WCAG21AA', includeWarnings)
        : analyseWcagWithAi(page, standard ?? 'WCAG21AA', includeWarnings, { ai: ai.step, log: ai.log, signal });
    },
  },
};
