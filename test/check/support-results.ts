// Realistic RunResult fixtures for the JUnit and SARIF reporters, built from REAL audits: the
// service's own app, database and analysis audit small fixture pages through POST /api/v1/audit
// (app.inject), and each answer is wrapped into a PageResult the way the check run does it
// (failedOccurrences from src/audit/identity.ts, a baseline, --fail-on).
import type { ServerResponse } from 'node:http';
import { failedOccurrences, type FailedOccurrence } from '../../src/audit/identity.ts';
import type { ApiAudit, Branch, FailOn, PageResult, RunResult } from '../../packages/check/src/model.ts';
import { openTestDatabase } from '../support/db.ts';
import { startTestService } from '../support/service.ts';

/** A shop page failing several WCAG criteria: errors (1.1.1, 4.1.2, 3.1.1…), a warning-only fail (2.4.6, an empty heading) and inconclusive judgement criteria. */
export const SHOP_PAGE = `<!doctype html><html><head><title>Shop</title></head><body>
<nav><a href="/">Home</a> <a href="/cart"></a></nav>
<main><h1>Garden tools</h1><h2></h2>
<img src="/img/spade.png">
<img src="/img/rake.png" alt="A steel rake">
<p><a href="/spade">Read more</a></p>
<form><input type="text" name="q"><button></button></form>
</main></body></html>`;

/**
 * A page whose failing element carries what XML 1.0 cannot hold, through character references a
 * browser keeps: C0 controls (U+0001, U+001B), a non-character (U+FFFE), and markup-like text
 * (`]]>`, quotes, `<`, `&`). U+0000 is replaced by the parser (U+FFFD), so it cannot arrive.
 */
export const HOSTILE_PAGE = `<!doctype html><html lang="en"><head><title>Hostile</title></head><body><main><h1>Hostile</h1>
<img src="/x.png" data-note="bell&#7;esc&#x1B;[0m nonchar&#xFFFE; cdata]]&gt; &quot;q&quot; 'a' &lt;b&gt; &amp;amp; tab&#9;end">
</main></body></html>`;

const PLAIN_PAGE = `<!doctype html><html lang="en"><head><title>Bakery</title></head><body><main><h1>Fresh bread daily</h1>
<p>Open from seven until noon. Our sourdough rests for 48 hours before baking.</p></main></body></html>`;

const TRACKED_PAGE = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
</head><body><main><h1>Notes from the allotment</h1>
<p>This week the beans went in and the first courgettes flowered.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

/** Every real audit the fixtures are built from, by name. */
export interface RealAudits {
  shop: ApiAudit;
  hostile: ApiAudit;
  tracked: ApiAudit;
  aiPlain: ApiAudit;
  /** What the service answered for a page it could not audit. */
  missing: { status: number; reason: string };
  /** The fixture pages' URLs, as audited. */
  urls: { shop: string; hostile: string; tracked: string; plain: string; missing: string };
}

let cached: Promise<RealAudits> | undefined;

/** Audits the fixture pages once per test file (the service, its database and fixture server are closed again). */
export function realAudits(): Promise<RealAudits> {
  cached ??= auditFixturePages();
  return cached;
}

async function auditFixturePages(): Promise<RealAudits> {
  const html = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const database = await openTestDatabase();
  const service = await startTestService({
    database,
    env: { AUDIT_RATE_LIMIT: '1000' },
    routes: {
      '/shop': html(SHOP_PAGE),
      '/hostile': html(HOSTILE_PAGE),
      '/plain': html(PLAIN_PAGE),
      '/tracked': html(TRACKED_PAGE),
      '/gone': (_req, res) => res.writeHead(404).end(),
      '/missing': (_req, res) => res.writeHead(404).end(),
    },
  });
  try {
    const post = async (branch: Branch, url: string) => {
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/v1/audit',
        headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
        payload: JSON.stringify({ branch, url }),
      });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    };
    const audited = async (branch: Branch, url: string): Promise<ApiAudit> => {
      const { status, body } = await post(branch, url);
      if (status !== 201) throw new Error(`audit of ${url} (${branch}): ${status} ${JSON.stringify(body)}`);
      return body as unknown as ApiAudit;
    };
    const urls = {
      shop: service.pageUrl('/shop'),
      hostile: service.pageUrl('/hostile'),
      tracked: service.pageUrl('/tracked'),
      plain: service.pageUrl('/plain'),
      missing: service.pageUrl('/missing'),
    };
    const refused = await post('wcag', urls.missing);
    return {
      shop: await audited('wcag', urls.shop),
      hostile: await audited('wcag', urls.hostile),
      tracked: await audited('privacy', urls.tracked),
      aiPlain: await audited('ai-governance', urls.plain),
      missing: { status: refused.status, reason: String(refused.body.error) },
      urls,
    };
  } finally {
    await service.close();
    await database.close();
  }
}

export const SERVER = 'https://audit.example.com';

/** The occurrences over the threshold, as the run decides them for `--fail-on`. */
export function overThreshold(failOn: FailOn, occurrences: FailedOccurrence[], newOccurrences?: FailedOccurrence[]): FailedOccurrence[] {
  switch (failOn) {
    case 'error':
      return occurrences.filter((o) => o.severity === 'error');
    case 'warning':
      return occurrences;
    case 'new':
      return newOccurrences ?? occurrences;
    case 'none':
      return [];
  }
}

/** A PageResult for an audit, as the run builds it; `baseline` is the identities known for this page and branch. */
export function auditedPage(audit: ApiAudit, failOn: FailOn, baseline?: ReadonlySet<string>): PageResult {
  const occurrences = failedOccurrences(audit.findings);
  const newOccurrences = baseline === undefined ? undefined : occurrences.filter((o) => !baseline.has(o.identity));
  return {
    url: audit.url,
    branch: audit.branch,
    audit,
    dashboardUrl: `${SERVER}/dashboard/audits/${audit.id}`,
    occurrences,
    ...(newOccurrences === undefined ? {} : { newOccurrences }),
    overThreshold: overThreshold(failOn, occurrences, newOccurrences),
  };
}

export function notAuditedPage(url: string, branch: Branch, notAudited: { status: number | null; reason: string }): PageResult {
  return { url, branch, notAudited, occurrences: [], overThreshold: [] };
}

export function runOf(pages: PageResult[], failOn: FailOn, baseline?: string): RunResult {
  const failing = pages.some((p) => p.overThreshold.length > 0);
  const missing = pages.some((p) => p.notAudited !== undefined);
  return {
    server: SERVER,
    failOn,
    ...(baseline === undefined ? {} : { baseline }),
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:00:07.250Z',
    pages,
    exitCode: missing ? 3 : failing ? 1 : 0,
  };
}

/** Every page of the fixtures with `--fail-on error`, including one not audited. */
export function fullRun(audits: RealAudits): RunResult {
  return runOf(
    [
      auditedPage(audits.shop, 'error'),
      auditedPage(audits.hostile, 'error'),
      auditedPage(audits.tracked, 'error'),
      auditedPage(audits.aiPlain, 'error'),
      notAuditedPage(audits.urls.missing, 'wcag', audits.missing),
      notAuditedPage(audits.urls.plain, 'privacy', { status: null, reason: 'server unreachable' }),
    ],
    'error',
  );
}

/** The shop page with `--fail-on new` and a baseline that knows all but its first two occurrences. */
export function baselineRun(audits: RealAudits): RunResult {
  const known = new Set(failedOccurrences(audits.shop.findings).slice(2).map((o) => o.identity));
  return runOf([auditedPage(audits.shop, 'new', known)], 'new', 'audit-baseline.json');
}

/** A copy of an audit whose first failed occurrence's snippet holds a lone surrogate too (no page can deliver one: decoding replaces it). */
export function withLoneSurrogate(audit: ApiAudit): ApiAudit {
  const copy = structuredClone(audit);
  const finding = copy.findings.find((f) => f.status === 'fail' && f.occurrences !== undefined && f.occurrences.length > 0);
  if (finding === undefined) throw new Error('no failed finding with occurrences');
  finding.occurrences![0]!.snippet += ' lone\uD800high \uDC00low';
  return copy;
}
