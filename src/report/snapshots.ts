// What a report is made of: the target's HTTPS origin, the newest persisted audit of each pillar
// for it (across API keys: the report is an admin's view of a site), and each pillar's open
// tickets (tickets.ts). Nothing here renders; pdf.ts does.
import { sql, type Kysely } from 'kysely';
import { BRANCHES, type Branch, type WcagStandard } from '../audit/control.ts';
import type { Totals } from '../audit/findings.ts';
import type { Database } from '../db/schema.ts';
import type { OpenTicket } from './tickets.ts';

/** The report lists at most this many open failed controls per pillar (spec section 8). */
export const TICKETS_PER_PILLAR = 2;

export type TargetField = 'domain' | 'url';

export type ReportTarget =
  | { ok: true; origin: string; /** The host name as URL spells it: lower case, punycode, IPv6 in brackets. */ host: string }
  | { ok: false; errors: Partial<Record<TargetField, string>> };

/**
 * The HTTPS origin that `domain` or `url` names; exactly one must be given. Either may be a host
 * (with an optional port and path) or an https URL: `example.com`, `https://example.com/path?q` and
 * `HTTPS://Example.com:443` are one origin. IP literals are origins too. Refused, naming the
 * parameter: none or both, an empty or unparseable value, another scheme (`http:` included: audits
 * are HTTPS only, so it could only ever be a 404), and user or password parts (a credential has no
 * place in a target, and would be echoed back in errors and file names).
 */
export function parseReportTarget(query: { domain?: string | undefined; url?: string | undefined }): ReportTarget {
  const given = (['domain', 'url'] as const).filter((field) => query[field] !== undefined);
  if (given.length === 0) return { ok: false, errors: { domain: 'give exactly one of domain or url' } };
  if (given.length === 2) return { ok: false, errors: { url: 'give exactly one of domain or url, not both' } };
  const field = given[0]!;
  const value = query[field]!.trim();
  if (value === '') return { ok: false, errors: { [field]: 'must not be empty' } };
  // `example.com:8443` would read as scheme `example.com`: a host and port is not a scheme.
  const hostAndPort = /^[^:/?#]+:(\d+($|[/?#])|$)/.test(value);
  const scheme = hostAndPort ? undefined : /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'https') return { ok: false, errors: { [field]: 'must be a host name or an https URL' } };
  const url = URL.parse(scheme !== undefined ? value : `https://${value}`);
  if (url === null || url.hostname === '') return { ok: false, errors: { [field]: 'is not a valid host name or https URL' } };
  if (url.username !== '' || url.password !== '') return { ok: false, errors: { [field]: 'must not carry a user name or password' } };
  return { ok: true, origin: url.origin, host: url.hostname };
}

export interface PillarSnapshot {
  branch: Branch;
  auditId: string;
  /** The audited URL as requested. */
  url: string;
  createdAt: Date;
  /** WCAG only. */
  standard: WcagStandard | undefined;
  /** False when the audit was asked for errors only: its findings and totals leave warnings out. */
  includeWarnings: boolean;
  totals: Totals;
  /** Up to TICKETS_PER_PILLAR, errors before warnings, then the most recently failed. */
  openTickets: OpenTicket[];
  /** All open tickets of the pillar, listed or not. */
  openTicketCount: number;
}

export interface ReportData {
  origin: string;
  host: string;
  pillars: Record<Branch, PillarSnapshot>;
}

export type ReportSelection = { ok: true; report: ReportData } | { ok: false; missing: Branch[] };

/**
 * The newest persisted audit of each pillar for the origin (by created_at, then id) and its open
 * tickets, read in one snapshot so the two agree. `missing` lists the pillars without any audit, in
 * the order wcag, privacy, ai-governance.
 */
export async function selectReport(db: Kysely<Database>, target: { origin: string; host: string }): Promise<ReportSelection> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const audits = await sql<{
        id: string;
        branch: string;
        requested_url: string;
        created_at: Date;
        standard: string | null;
        include_warnings: boolean;
        errors: number;
        warnings: number;
        inconclusive: number;
      }>`
        select distinct on (branch) id, branch, requested_url, created_at, standard, include_warnings, errors, warnings, inconclusive
        from audits
        where origin = ${target.origin} and branch = any(${[...BRANCHES]}::text[])
        order by branch, created_at desc, id desc
      `.execute(trx);
      const byBranch = new Map(audits.rows.map((row) => [row.branch as Branch, row]));
      const missing = BRANCHES.filter((branch) => !byBranch.has(branch));
      if (missing.length > 0) return { ok: false as const, missing };

      const tickets = await sql<{
        branch: string;
        control: string;
        requirement: string;
        severity: string;
        evidence: string;
        opened_at: Date;
        last_failed_at: Date;
        fail_count: number;
        open_count: number;
        rank: number;
      }>`
        select * from (
          select branch, control, requirement, severity, evidence, opened_at, last_failed_at, fail_count,
                 count(*) over (partition by branch) as open_count,
                 row_number() over (
                   partition by branch
                   order by case severity when 'error' then 0 else 1 end, last_failed_at desc, opened_at desc, control
                 ) as rank
          from remediation_tickets
          where origin = ${target.origin} and status = 'open'
        ) as ranked
        where rank <= ${TICKETS_PER_PILLAR}
        order by branch, rank
      `.execute(trx);

      const pillars = {} as Record<Branch, PillarSnapshot>;
      for (const branch of BRANCHES) {
        const audit = byBranch.get(branch)!;
        const listed = tickets.rows.filter((row) => row.branch === branch);
        pillars[branch] = {
          branch,
          auditId: audit.id,
          url: audit.requested_url,
          createdAt: audit.created_at,
          standard: (audit.standard ?? undefined) as WcagStandard | undefined,
          includeWarnings: audit.include_warnings,
          totals: { errors: audit.errors, warnings: audit.warnings, inconclusive: audit.inconclusive },
          openTickets: listed.map((row) => ({
            origin: target.origin,
            branch,
            control: row.control,
            requirement: row.requirement,
            severity: row.severity as OpenTicket['severity'],
            evidence: row.evidence,
            openedAt: row.opened_at,
            lastFailedAt: row.last_failed_at,
            failCount: row.fail_count,
          })),
          openTicketCount: Number(listed[0]?.open_count ?? 0),
        };
      }
      return { ok: true as const, report: { origin: target.origin, host: target.host, pillars } };
    });
}
