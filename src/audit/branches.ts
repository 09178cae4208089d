// Which analysis each branch runs. A branch whose controls have not landed yet is explicitly
// unavailable, so a request for it gets a clear 400 rather than placeholder findings.
import type { Branch } from './control.ts';
import { evaluateControls, type AuditResult } from './findings.ts';
import { buildPage } from './page.ts';
import { aiGovernanceControls } from './ai-governance/index.ts';
import type { CrawledPage } from './crawl.ts';

export interface AnalysisInput {
  crawled: CrawledPage;
  includeWarnings: boolean;
}

export type BranchAnalysis =
  | { available: true; analyse(input: AnalysisInput): AuditResult }
  | { available: false };

export const branchAnalyses: Record<Branch, BranchAnalysis> = {
  'ai-governance': {
    available: true,
    analyse: ({ crawled, includeWarnings }) =>
      evaluateControls(aiGovernanceControls, buildPage(crawled.html, crawled.finalUrl), includeWarnings),
  },
  privacy: { available: false },
  wcag: { available: false },
};
