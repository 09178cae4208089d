// The remediation-ticket projection: which controls fail now, per origin and pillar, and since when.
//
// Decisions (README, "Remediation tickets"):
// - Per origin across all API keys: the report is an admin's view of a site, whoever audited it.
// - A control fails when its checked outcome is `fail`. Inconclusive outcomes are what static HTML
//   cannot prove, not failures: they never open a ticket (the report counts them apart). The
//   checked controls, not the findings list, are read, because `includeWarnings: false` only hides
//   warnings from that response; the control still failed.
// - The open tickets of an origin and pillar are exactly the failed controls of its newest audit:
//   a newer audit that does not fail a control (passed, inconclusive, or not checked, such as a
//   narrower WCAG standard) resolves its ticket. `opened_at` says how long it has failed unbroken.
// - The statement that stores the audit writes the tickets (CTEs below), so they commit together.
//   Only the newest audit of an origin and pillar changes them; see migration 0008 for how
//   concurrent audits are ordered by their created_at, whatever order they commit in.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Branch, Severity } from '../audit/control.ts';
import type { CheckedControl } from '../audit/findings.ts';
import { truncate } from '../audit/page.ts';
import type { Database } from '../db/schema.ts';

/** A ticket keeps at most this much of its failure's evidence. */
export const TICKET_EVIDENCE_MAX = 1000;

/** SQLSTATE of remediation_concurrent_audit(): the caller runs the whole statement again. */
export const SERIALIZATION_FAILURE = '40001';

export interface TicketedAudit {
  /** The audits.origin value (`URL.origin` of the requested URL). */
  origin: string;
  branch: Branch;
  controls: readonly CheckedControl[];
}

export interface OpenTicket {
  origin: string;
  branch: Branch;
  control: string;
  /** The control's requirement as its audit stated it (for WCAG, number and title). */
  requirement: string;
  severity: Severity;
  evidence: string;
  openedAt: Date;
  lastFailedAt: Date;
  failCount: number;
}

interface FailedControl {
  control: string;
  requirement: string;
  severity: Severity;
  evidence: string;
}

/** One entry per failed control, in the audit's order; an error wins if a control is listed twice. */
export function failedControls(controls: readonly CheckedControl[]): FailedControl[] {
  const byControl = new Map<string, FailedControl>();
  for (const checked of controls) {
    if (checked.outcome !== 'fail') continue;
    const seen = byControl.get(checked.control);
    if (seen !== undefined && !(seen.severity === 'warning' && checked.severity === 'error')) continue;
    byControl.set(checked.control, {
      control: checked.control,
      requirement: checked.requirement,
      severity: checked.severity,
      evidence: boundEvidence(checked.evidence),
    });
  }
  return [...byControl.values()];
}

function boundEvidence(evidence: string): string {
  return evidence.length <= TICKET_EVIDENCE_MAX ? evidence : `${truncate(evidence, TICKET_EVIDENCE_MAX - 1)}…`;
}

/**
 * CTEs for the audit's own statement, after a CTE named `audit` that returns the new row's `id` and
 * `created_at`; `check` goes in that statement's final select list, since a plain select CTE that
 * nothing reads is never run. In order:
 * - `ticket_head` moves the origin and pillar's head to this audit if it is newer (by created_at,
 *   then id) and returns a row only then. The upsert waits for any concurrent audit holding the
 *   row, and compares with the committed head.
 * - `ticket_stale` aborts the statement (40001) when the head it replaced belongs to an audit this
 *   statement's snapshot cannot see: that audit's tickets would be invisible to the writes below.
 * - `ticket_failed` opens a ticket per failed control, or updates the open one.
 * - `ticket_resolved` resolves the open tickets of every other control.
 */
export function updateTickets(audit: TicketedAudit): { ctes: RawBuilder<unknown>; check: RawBuilder<unknown> } {
  const failed = failedControls(audit.controls);
  const controls = failed.map((f) => f.control);
  const ctes = sql`
    ticket_head as (
      insert into remediation_heads as h (origin, branch, audit_id, audit_created_at)
      select ${audit.origin}, ${audit.branch}, audit.id, audit.created_at from audit
      on conflict (origin, branch) do update
        set audit_id = excluded.audit_id, audit_created_at = excluded.audit_created_at, previous_audit_id = h.audit_id
        where (h.audit_created_at, h.audit_id) < (excluded.audit_created_at, excluded.audit_id)
      returning audit_id, audit_created_at, previous_audit_id
    ), ticket_stale as (
      select remediation_concurrent_audit() from ticket_head
      where ticket_head.previous_audit_id is not null
        and not exists (select 1 from audits where audits.id = ticket_head.previous_audit_id)
    ), ticket_failed as (
      insert into remediation_tickets as t (id, origin, branch, control, requirement, severity, status, opened_at, last_failed_at,
                                            last_audit_id, evidence, fail_count)
      select gen_random_uuid(), ${audit.origin}, ${audit.branch}, f.control, f.requirement, f.severity, 'open',
             head.audit_created_at, head.audit_created_at, head.audit_id, f.evidence, 1
      from ticket_head as head, unnest(
        ${controls}::text[], ${failed.map((f) => f.requirement)}::text[], ${failed.map((f) => f.severity)}::text[],
        ${failed.map((f) => f.evidence)}::text[]
      ) as f(control, requirement, severity, evidence)
      on conflict (origin, branch, control) where status = 'open' do update
        set requirement = excluded.requirement, severity = excluded.severity, last_failed_at = excluded.last_failed_at,
            last_audit_id = excluded.last_audit_id, evidence = excluded.evidence, fail_count = t.fail_count + 1
      returning t.id
    ), ticket_resolved as (
      update remediation_tickets as t
      set status = 'resolved', resolved_at = head.audit_created_at, resolved_by_audit_id = head.audit_id
      from ticket_head as head
      where t.origin = ${audit.origin} and t.branch = ${audit.branch} and t.status = 'open'
        and t.control <> all(${controls}::text[])
      returning t.id
    )`;
  return { ctes, check: sql`(select count(*) from ticket_stale)` };
}

/** Whether an error is the serialization failure that asks for the statement to run again. */
export function isSerializationFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === SERIALIZATION_FAILURE;
}

/**
 * Open tickets, errors before warnings, then the most recently failed first (then the most recently
 * opened, then by control id, so the order is total).
 */
export async function listOpenTickets(
  db: Kysely<Database>,
  filter: { origin?: string; branch?: Branch; limit: number },
): Promise<OpenTicket[]> {
  return listTickets(db, { ...filter, status: 'open' });
}

/** A ticket as the dashboard shows it: whether it is open, and the audits that last failed and resolved it. */
export interface TicketRecord extends OpenTicket {
  id: string;
  status: 'open' | 'resolved';
  /** The newest audit that failed the control while the ticket was open. */
  lastAuditId: string;
  resolvedAt: Date | null;
  /** The first newer audit that did not fail it. */
  resolvedByAuditId: string | null;
}

/**
 * Open tickets in listOpenTickets' order; resolved ones (the history of an origin's remediation)
 * the most recently resolved first, then by control id.
 */
export async function listTickets(
  db: Kysely<Database>,
  filter: { status: TicketRecord['status']; origin?: string; branch?: Branch; limit: number },
): Promise<TicketRecord[]> {
  const rows = await db
    .selectFrom('remediation_tickets')
    .select(['id', 'origin', 'branch', 'control', 'requirement', 'severity', 'status', 'evidence', 'opened_at', 'last_failed_at', 'fail_count'])
    .select(['last_audit_id', 'resolved_at', 'resolved_by_audit_id'])
    .where('status', '=', filter.status)
    .$if(filter.origin !== undefined, (q) => q.where('origin', '=', filter.origin!))
    .$if(filter.branch !== undefined, (q) => q.where('branch', '=', filter.branch!))
    .$if(filter.status === 'open', (q) =>
      q.orderBy(sql`case severity when 'error' then 0 else 1 end`).orderBy('last_failed_at', 'desc').orderBy('opened_at', 'desc'),
    )
    .$if(filter.status === 'resolved', (q) => q.orderBy('resolved_at', 'desc').orderBy('origin').orderBy('branch'))
    .orderBy('control')
    .limit(filter.limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    origin: row.origin,
    branch: row.branch as Branch,
    control: row.control,
    requirement: row.requirement,
    severity: row.severity as Severity,
    status: row.status as TicketRecord['status'],
    evidence: row.evidence,
    openedAt: row.opened_at,
    lastFailedAt: row.last_failed_at,
    failCount: row.fail_count,
    lastAuditId: row.last_audit_id,
    resolvedAt: row.resolved_at,
    resolvedByAuditId: row.resolved_by_audit_id,
  }));
}
