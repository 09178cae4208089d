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
import { analyseWcag } from './wcag/index.ts';

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
    analyse: async ({ crawled, includeWarnings, standard }) =>
      analyseWcag(buildPage(crawled.html, crawled.finalUrl), standard ?? 'WCAG21AA', includeWarnings),
  },
};
