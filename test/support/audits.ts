// Audits as saveAudit receives them, made from a table of control outcomes, for tests that need
// stored audits (and so remediation tickets) without crawling a page.
import type { NewAudit } from '../../src/audit/audit-store.ts';
import type { CrawledPage } from '../../src/audit/crawl.ts';
import type { Branch, OutcomeStatus, Severity } from '../../src/audit/control.ts';
import { totalsOf, type CheckedControl, type Finding } from '../../src/audit/findings.ts';

/** `control: outcome` or `control: fail/<severity>` (a fail's severity; error by default). */
export type Outcomes = Record<string, `${OutcomeStatus}` | `fail/${Severity}`>;

export function checkedControls(outcomes: Outcomes): CheckedControl[] {
  return Object.entries(outcomes).map(([control, spec]) => {
    const [outcome, severity] = spec.split('/') as [OutcomeStatus, Severity | undefined];
    return {
      control,
      framework: 'Test',
      requirement: `${control} requirement`,
      outcome,
      severity: severity ?? 'error',
      evidence: `${control} evidence`,
    };
  });
}

/** The findings evaluateControls would make of those outcomes. */
export function findingsOf(controls: readonly CheckedControl[], includeWarnings: boolean): Finding[] {
  return controls
    .filter((c) => c.outcome !== 'pass')
    .map((c): Finding => ({
      control: c.control,
      status: c.outcome === 'fail' ? 'fail' : 'inconclusive',
      severity: c.outcome === 'fail' ? c.severity : 'warning',
      evidence: c.evidence,
    }))
    .filter((f) => includeWarnings || f.severity === 'error');
}

export function newAudit(
  apiKeyId: string,
  url: string,
  branch: Branch,
  outcomes: Outcomes,
  options: { includeWarnings?: boolean } = {},
): NewAudit {
  const includeWarnings = options.includeWarnings ?? true;
  const controls = checkedControls(outcomes);
  const findings = findingsOf(controls, includeWarnings);
  return {
    apiKeyId,
    url: new URL(url),
    branch,
    standard: branch === 'wcag' ? 'WCAG21AA' : undefined,
    includeWarnings,
    crawled: stubCrawl(url),
    result: { controls, findings, totals: totalsOf(findings) },
  };
}

/** A small page as the crawler returns it, for audits saved without a crawl. */
export function stubCrawl(url: string, html = '<p>hi</p>'): CrawledPage {
  return {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    redirectChain: [],
    finalSetCookies: [],
    headers: {},
    fetchedAt: new Date(),
    byteCount: Buffer.byteLength(html),
    bodySha256: '0'.repeat(64),
    contentType: 'text/html',
    charset: 'UTF-8',
    html,
  };
}
