// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Issue 19, what changed between two audits of one page (key, requested URL, branch, standard):
// - `audit_page_key(...)` names a page in one short value (md5), for two indexes: a page's audits
//   newest first (the previous audit of a page, old audits included), and its failed occurrences
//   by identity (was this occurrence present in an earlier audit of the page?).
// - `audit_occurrences`: one row per failed occurrence of an audit, by its identity
//   (src/audit/identity.ts), written by the statement that stores the audit.
// - `identity_backlog`: the audits stored before this migration that have failures. Their
//   identities were never written and SQL cannot compute them, so readers compute them from their
//   stored findings; this table is how they find those audits of a page without scanning.
// - `webhooks.trigger_on`: `every-audit` (the behaviour so far, and what every existing
//   registration keeps) or `new-failures`.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function audit_page_key(api_key_id uuid, requested_url text, branch text, standard text) returns text
    language sql immutable parallel safe
    as $$ select md5(api_key_id::text || ' ' || branch || ' ' || coalesce(standard, '-') || ' ' || requested_url) $$
  `.execute(db);
  await sql`
    create index audits_page_idx on audits (audit_page_key(api_key_id, requested_url, branch, standard), created_at desc, id desc)
  `.execute(db);

  await db.schema
    .createTable('audit_occurrences')
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    // Copies of the audit's page key and created_at (an audit never changes): the history index
    // answers "earlier audits of this page with this identity" without visiting the audits.
    .addColumn('page_key', 'text', (c) => c.notNull())
    .addColumn('audit_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('control', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_occurrences_pk', ['audit_id', 'position'])
    .execute();
  await sql`
    create index audit_occurrences_history_idx on audit_occurrences (page_key, identity, audit_created_at desc, audit_id desc)
  `.execute(db);

  await db.schema
    .createTable('identity_backlog')
    .addColumn('audit_id', 'uuid', (c) => c.primaryKey().references('audits.id').onDelete('cascade'))
    .addColumn('page_key', 'text', (c) => c.notNull())
    .addColumn('audit_created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index identity_backlog_page_idx on identity_backlog (page_key, audit_created_at desc, audit_id desc)`.execute(db);
  await sql`
    insert into identity_backlog (audit_id, page_key, audit_created_at)
    select a.id, audit_page_key(a.api_key_id, a.requested_url, a.branch, a.standard), a.created_at
    from audits as a
    where exists (select 1 from findings as f where f.audit_id = a.id and f.status = 'fail')
  `.execute(db);

  await db.schema.alterTable('webhooks').addColumn('trigger_on', 'text', (c) => c.notNull().defaultTo('every-audit')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('trigger_on').execute();
  await db.schema.dropTable('identity_backlog').execute();
  await db.schema.dropTable('audit_occurrences').execute();
  await sql`drop index audits_page_idx`.execute(db);
  await sql`drop function audit_page_key(uuid, text, text, text)`.execute(db);
}
