// What changed between two audits of one page (the same key, requested URL, branch and standard):
// the reads behind GET /api/v1/audits/{id}/changes. The comparison itself is identity.ts's.
//
// - Both audits' occurrences come from their stored findings, each with the identity that the
//   audit's statement stored (audit_identities, in the same order), so nothing is hashed again; an
//   audit stored before migration 0013 has none stored, is hashed here, and compares like any other.
// - Without `against`, the audit is compared with the previous audit of its page, by created_at
//   then id (what a new-failures event compared with, barring concurrent audits of one page).
// - `regressed`: new occurrences that an audit of the page older than the one compared with had
//   (so they were fixed, then came back): an index seek per new occurrence in
//   identity_appearances, and for audits stored before migration 0013, which have no appearances,
//   their findings (identity_backlog lists them per page). An audit that a process still running
//   older code stores after the migration is in neither, so during such a rolling deploy it is
//   missing from this history (it still compares as `against` or as the audit).
// - When either audit was stored without its warnings (`includeWarnings: false`), only errors are
//   compared: a warning it never recorded must not read as fixed, nor one the other lacks as new.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FindingsTable } from '../db/schema.ts';
import { findingOf, isAuditOf, previousAuditId, type PageRef } from './audit-store.ts';
import type { Severity } from './control.ts';
import type { Finding } from './findings.ts';
import { compareOccurrences, failedOccurrences, type Comparable, type FailedControl, type FailedOccurrence } from './identity.ts';

export interface AuditRef {
  id: string;
  createdAt: Date;
}

/** A failed occurrence as the endpoint shows it. */
export type ChangedOccurrence = Omit<FailedOccurrence, 'finding'>;

export interface RegressedOccurrence extends ChangedOccurrence {
  /** The newest audit of the page before the one compared with in which it appeared (see seenBefore). */
  seenIn: AuditRef;
}

export interface AuditChanges {
  audit: AuditRef;
  /** The earlier audit; null when the page has none (everything is new). */
  against: AuditRef | null;
  /** The finding severities compared: both, or errors only when either audit left its warnings out. */
  severities: Severity[];
  controls: { new: FailedControl[]; fixed: FailedControl[]; persisting: FailedControl[] };
  occurrences: { new: ChangedOccurrence[]; fixed: ChangedOccurrence[]; persisting: ChangedOccurrence[]; regressed: RegressedOccurrence[] };
}

export type ChangesOutcome =
  | { outcome: 'compared'; changes: AuditChanges }
  /** The audit, or the `against` audit, is unknown or another key's. */
  | { outcome: 'not found' }
  /** `against` is an audit of another URL, branch or standard. */
  | { outcome: 'other page' }
  /** `against` is not older than the audit (by created_at, then id). */
  | { outcome: 'not earlier' };

const ALL_SEVERITIES: Severity[] = ['error', 'warning'];

/** Audit `a` (the one asked about) as a page and a place in its history. */
const auditA: PageRef = {
  apiKeyId: sql`a.api_key_id`,
  url: sql`a.requested_url`,
  branch: sql`a.branch`,
  standard: sql`a.standard`,
  createdAt: sql`a.created_at`,
  id: sql`a.id`,
};

/**
 * The changes from `against` (or the page's previous audit) to audit `id`, both owned by
 * `apiKeyId`. Ids must be UUIDs (the caller checks: the columns would refuse anything else).
 */
export async function auditChanges(db: Kysely<Database>, apiKeyId: string, id: string, against?: string): Promise<ChangesOutcome> {
  const againstRow =
    against === undefined
      ? sql`
          select p.id, p.created_at, p.include_warnings, true as same_page, true as earlier
          from audits as p
          where p.id = ${previousAuditId(auditA)}`
      : sql`
          select p.id, p.created_at, p.include_warnings, ${isAuditOf(sql`p`, auditA)} as same_page,
                 (p.created_at, p.id) < (a.created_at, a.id) as earlier
          from audits as p
          where p.id = ${against} and p.api_key_id = a.api_key_id`;
  const { rows } = await sql<{
    id: string;
    created_at: Date;
    include_warnings: boolean;
    page_key: string;
    against_id: string | null;
    against_created_at: Date | null;
    against_include_warnings: boolean | null;
    same_page: boolean | null;
    earlier: boolean | null;
  }>`
    select a.id, a.created_at, a.include_warnings, audit_page_key(a.api_key_id, a.requested_url, a.branch, a.standard) as page_key,
           p.id as against_id, p.created_at as against_created_at, p.include_warnings as against_include_warnings, p.same_page, p.earlier
    from audits as a
    left join lateral (${againstRow}) as p on true
    where a.id = ${id} and a.api_key_id = ${apiKeyId}
  `.execute(db);
  const audit = rows[0];
  if (audit === undefined) return { outcome: 'not found' };
  if (against !== undefined && audit.against_id === null) return { outcome: 'not found' };
  if (audit.same_page === false) return { outcome: 'other page' };
  if (audit.earlier === false) return { outcome: 'not earlier' };

  const againstId = audit.against_id;
  const [findings, stored] = await Promise.all([
    failedFindings(db, [audit.id]),
    storedOccurrences(db, againstId === null ? [audit.id] : [audit.id, againstId]),
  ]);
  const severities = audit.include_warnings && audit.against_include_warnings !== false ? ALL_SEVERITIES : ['error' as const];
  const compared = <O extends Comparable>(list: readonly O[]) => list.filter((o) => severities.includes(o.severity));
  const occurrencesOf = (auditId: string, found: Map<string, Finding[]>) =>
    compared(failedOccurrences(found.get(auditId) ?? [], stored.get(auditId)?.map((o) => o.identity)));
  const current = occurrencesOf(audit.id, findings);
  // The earlier audit's stored identities are enough to compare with; its findings, the bulk of
  // the reading, are read only for the details of what was fixed, or when it has no identities
  // stored (before migration 0013; or nothing failed, and then there are none to read).
  const earlierDetails = async () => occurrencesOf(againstId!, await failedFindings(db, [againstId!]));
  const earlierStored = againstId === null ? [] : stored.get(againstId);
  const earlier = earlierStored ?? (await earlierDetails());
  const { controls, occurrences } = compareOccurrences(current, compared(earlier));
  // Without stored identities `earlier` already has the details; with them, they are looked up.
  let fixed = occurrences.fixed as FailedOccurrence[];
  if (earlierStored !== undefined && fixed.length > 0) {
    const byIdentity = new Map((await earlierDetails()).map((o) => [o.identity, o]));
    fixed = occurrences.fixed.map((o) => byIdentity.get(o.identity)!);
  }
  const seen =
    againstId === null || occurrences.new.length === 0
      ? new Map<string, AuditRef>()
      : await seenBefore(db, audit.page_key, againstId, occurrences.new.map((o) => o.identity));
  return {
    outcome: 'compared',
    changes: {
      audit: { id: audit.id, createdAt: audit.created_at },
      against: againstId === null ? null : { id: againstId, createdAt: audit.against_created_at! },
      severities,
      controls,
      occurrences: {
        new: occurrences.new.map(shown),
        fixed: fixed.map(shown),
        persisting: occurrences.persisting.map(shown),
        regressed: occurrences.new.flatMap((o) => {
          const seenIn = seen.get(o.identity);
          return seenIn === undefined ? [] : [{ ...shown(o), seenIn }];
        }),
      },
    },
  };
}

function shown({ finding: _, ...occurrence }: FailedOccurrence): ChangedOccurrence {
  return occurrence;
}

/** The failed findings of each audit, in order. */
async function failedFindings(db: Kysely<Database>, auditIds: string[]) {
  const rows = await db.selectFrom('findings').selectAll().where('audit_id', 'in', auditIds).where('status', '=', 'fail').orderBy('audit_id').orderBy('position').execute();
  return groupFindings(rows);
}

/**
 * The failed occurrences each audit's statement stored (audit_identities), in order: identity,
 * control, severity. They spare hashing occurrences again, and reading the earlier audit's findings
 * when nothing was fixed. An audit stored before migration 0013 has none.
 */
async function storedOccurrences(db: Kysely<Database>, auditIds: string[]): Promise<Map<string, Comparable[]>> {
  const rows = await db.selectFrom('audit_identities').select(['audit_id', 'occurrences']).where('audit_id', 'in', auditIds).execute();
  return new Map(
    rows.map((row) => [row.audit_id, row.occurrences.map(([identity, control, severity]) => ({ identity, control, severity: severity as Severity }))]),
  );
}

function groupFindings(rows: readonly Selectable<FindingsTable>[]) {
  const byAudit = new Map<string, ReturnType<typeof findingOf>[]>();
  for (const row of rows) {
    const list = byAudit.get(row.audit_id);
    if (list === undefined) byAudit.set(row.audit_id, [findingOf(row)]);
    else list.push(findingOf(row));
  }
  return byAudit;
}

/**
 * For each identity, the newest audit of the page older than `againstId` in which it appeared (had
 * it where the audit before it did not): an index seek per identity in identity_appearances. An
 * identity present in any audit of the page older than `againstId` has such a row, since every
 * audit records what it has that its previous audit had not, back to the page's first audit. The
 * page's audits stored before migration 0013 have no rows: their findings are read (through
 * identity_backlog) and hashed here. Both reads take the `against` audit's stored time, microseconds
 * included, from the database rather than from a JavaScript Date.
 */
async function seenBefore(db: Kysely<Database>, pageKey: string, againstId: string, identities: string[]): Promise<Map<string, AuditRef>> {
  const against = sql`against as (select id, created_at from audits where id = ${againstId})`;
  const [appeared, backlog] = await Promise.all([
    sql<{ identity: string; audit_id: string; audit_created_at: Date }>`
      with ${against}
      select n.identity, s.audit_id, s.audit_created_at
      from against, unnest(${identities}::text[]) as n(identity)
      cross join lateral (
        select audit_id, audit_created_at from identity_appearances as s
        where s.page_key = ${pageKey} and s.identity = n.identity
          and s.audit_created_at <= against.created_at and (s.audit_created_at, s.audit_id) < (against.created_at, against.id)
        order by s.audit_created_at desc, s.audit_id desc
        limit 1
      ) as s
    `.execute(db),
    sql<Selectable<FindingsTable> & { audit_created_at: Date }>`
      with ${against}
      select f.*, b.audit_created_at
      from against, identity_backlog as b
      join findings as f on f.audit_id = b.audit_id and f.status = 'fail'
      where b.page_key = ${pageKey} and (b.audit_created_at, b.audit_id) < (against.created_at, against.id)
      order by b.audit_created_at desc, b.audit_id desc, f.position
    `.execute(db),
  ]);
  const seen = new Map<string, AuditRef>();
  const offer = (identity: string, auditId: string, createdAt: Date) => {
    const known = seen.get(identity);
    if (known === undefined || createdAt > known.createdAt || (createdAt.getTime() === known.createdAt.getTime() && auditId > known.id)) {
      seen.set(identity, { id: auditId, createdAt });
    }
  };
  for (const row of appeared.rows) offer(row.identity, row.audit_id, row.audit_created_at);
  if (backlog.rows.length > 0) {
    const wanted = new Set(identities);
    const createdAt = new Map(backlog.rows.map((row) => [row.audit_id, row.audit_created_at]));
    for (const [auditId, findings] of groupFindings(backlog.rows)) {
      for (const { identity } of failedOccurrences(findings)) if (wanted.has(identity)) offer(identity, auditId, createdAt.get(auditId)!);
    }
  }
  return seen;
}
