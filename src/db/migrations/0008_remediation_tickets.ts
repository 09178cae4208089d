// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Remediation tickets: a projection of the failed controls per origin, pillar (branch) and
// control, kept by the statement that stores each audit (src/report/tickets.ts). A ticket is open
// while the newest audit of its origin and pillar fails the control, and resolved by the first newer
// audit that does not; a later failure opens a new ticket, so resolved rows are the history.
//
// `remediation_heads` names the newest audit of each origin and pillar. Every audit statement
// upserts its row first: that row lock serialises the ticket writes of concurrent audits of the same
// origin and pillar, and an audit older than the head leaves the tickets alone. When the head was
// moved by a transaction that committed after this statement's snapshot was taken, the statement
// cannot see that audit's tickets, so `remediation_concurrent_audit()` aborts it as a serialization
// failure (SQLSTATE 40001) and the caller runs it again with a fresh snapshot.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remediation_tickets')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('control', 'text', (c) => c.notNull())
    .addColumn('requirement', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    // open → resolved, once; a control that fails again gets a new ticket.
    .addColumn('status', 'text', (c) => c.notNull())
    // Audit times (the audits' created_at), not the time the row was written.
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_failed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by_audit_id', 'uuid', (c) => c.references('audits.id').onDelete('cascade'))
    // The evidence of the latest failure, bounded by the writer.
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('fail_count', 'integer', (c) => c.notNull())
    .execute();
  // At most one open ticket per origin, pillar and control: the upsert's conflict target.
  await sql`create unique index remediation_tickets_open_idx on remediation_tickets (origin, branch, control) where status = 'open'`.execute(db);
  // The dashboard's list of every open ticket, errors first and newest first.
  await sql`create index remediation_tickets_open_list_idx on remediation_tickets (last_failed_at desc) where status = 'open'`.execute(db);

  await db.schema
    .createTable('remediation_heads')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('audit_id', 'uuid', (c) => c.notNull())
    .addColumn('audit_created_at', 'timestamptz', (c) => c.notNull())
    // The head this audit replaced: the statement checks that its snapshot can see that audit.
    .addColumn('previous_audit_id', 'uuid')
    .addPrimaryKeyConstraint('remediation_heads_pk', ['origin', 'branch'])
    .execute();

  await sql`
    create function remediation_concurrent_audit() returns void language plpgsql volatile as $$
    begin
      raise exception 'a concurrent audit of the same origin and pillar committed first; run the statement again'
        using errcode = 'serialization_failure';
    end
    $$
  `.execute(db);

  // Audits stored before this migration: the newest of each origin and pillar becomes the head and
  // its failed controls open tickets, so a report on an existing database lists what fails now.
  await sql`
    insert into remediation_heads (origin, branch, audit_id, audit_created_at)
    select distinct on (origin, branch) origin, branch, id, created_at
    from audits
    order by origin, branch, created_at desc, id desc
  `.execute(db);
  await sql`
    insert into remediation_tickets (id, origin, branch, control, requirement, severity, status, opened_at, last_failed_at,
                                     last_audit_id, evidence, fail_count)
    select distinct on (h.origin, h.branch, c.control)
           gen_random_uuid(), h.origin, h.branch, c.control, coalesce(c.requirement, c.control),
           coalesce(c.severity, f.severity, 'error'), 'open', h.audit_created_at, h.audit_created_at, h.audit_id, left(c.evidence, 1000), 1
    from remediation_heads as h
    join audit_controls as c on c.audit_id = h.audit_id and c.outcome = 'fail'
    left join findings as f on f.audit_id = c.audit_id and f.control = c.control and f.status = 'fail'
    order by h.origin, h.branch, c.control, f.severity, c.position
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function remediation_concurrent_audit()`.execute(db);
  await db.schema.dropTable('remediation_heads').execute();
  await db.schema.dropTable('remediation_tickets').execute();
}
