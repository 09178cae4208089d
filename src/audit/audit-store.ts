// Persists a finished audit (snapshot facts, every control's outcome, the findings) in one
// transaction: a client never sees a 201 for an audit that is only partly stored.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Branch, WcagStandard } from './control.ts';
import type { CrawledPage } from './crawl.ts';
import type { AuditResult } from './findings.ts';

export interface AuditRequest {
  apiKeyId: string;
  /** The requested URL, already checked against the address policy. */
  url: URL;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
}

export interface NewAudit extends AuditRequest {
  crawled: CrawledPage;
  result: AuditResult;
}

export interface StoredAudit extends NewAudit {
  id: string;
  createdAt: Date;
}

export async function saveAudit(db: Kysely<Database>, audit: NewAudit): Promise<StoredAudit> {
  const id = randomUUID();
  const { crawled, result } = audit;
  const createdAt = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('audits')
      .values({
        id,
        api_key_id: audit.apiKeyId,
        branch: audit.branch,
        standard: audit.standard ?? null,
        include_warnings: audit.includeWarnings,
        requested_url: audit.url.href,
        final_url: crawled.finalUrl,
        origin: audit.url.origin,
        http_status: crawled.status,
        redirect_chain: JSON.stringify(crawled.redirectChain.map(({ url, status }) => ({ url, status }))),
        fetched_at: crawled.fetchedAt,
        byte_count: crawled.byteCount,
        body_sha256: crawled.bodySha256,
        errors: result.totals.errors,
        warnings: result.totals.warnings,
        inconclusive: result.totals.inconclusive,
      })
      .returning('created_at')
      .executeTakeFirstOrThrow();
    if (result.controls.length > 0) {
      await trx
        .insertInto('audit_controls')
        .values(
          result.controls.map((c, position) => ({ audit_id: id, position, control: c.control, outcome: c.outcome, evidence: c.evidence })),
        )
        .execute();
    }
    if (result.findings.length > 0) {
      await trx
        .insertInto('findings')
        .values(
          result.findings.map((f, position) => ({
            audit_id: id,
            position,
            control: f.control,
            status: f.status,
            severity: f.severity,
            evidence: f.evidence,
            selector: f.location?.selector ?? null,
            snippet: f.location?.snippet ?? null,
          })),
        )
        .execute();
    }
    return row.created_at;
  });
  return { ...audit, id, createdAt };
}
