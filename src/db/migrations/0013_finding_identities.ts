// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Issue 19, what changed between two audits of one page (key, requested URL, branch, standard):
// - `audit_page_key(...)` names a page in one short value (md5), for two indexes: a page's audits
//   newest first (the previous audit of a page, old audits included), and when an identity
//   appeared on a page.
// - `audit_identities`: one row per audit, written by the statement that stores it: its failed
//   occurrences' identities (src/audit/identity.ts) as one JSON array of [identity, control,
//   severity], in the order the findings list them. One row, not one per occurrence: a row per
//   occurrence (with its foreign key and indexes) cost the store about 16 µs per occurrence, 20 ms
//   for an audit with 1,250, and read back slower. Its presence also says the audit was stored
//   with identities.
// - `identity_appearances`: a row when an identity appears on a page, i.e. an audit has it and the
//   previous audit of the page did not (every identity of a page's first audit). "Was this present
//   in an audit of the page before X?" is then one index seek, and an unchanged page writes nothing.
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
    .createTable('audit_identities')
    .addColumn('audit_id', 'uuid', (c) => c.primaryKey().references('audits.id').onDelete('cascade'))
    // json, not jsonb: kept and returned as written, and never queried inside but by the statement
    // that stores the next audit of the page.
    .addColumn('occurrences', 'json', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('identity_appearances')
    .addColumn('page_key', 'text', (c) => c.notNull())
    .addColumn('identity', 'text', (c) => c.notNull())
    // Copies of the audit's (an audit never changes), so the index alone answers.
    .addColumn('audit_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .execute();
  await sql`
    create index identity_appearances_idx on identity_appearances (page_key, identity, audit_created_at desc, audit_id desc)
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
  await db.schema.dropTable('identity_appearances').execute();
  await db.schema.dropTable('audit_identities').execute();
  await sql`drop index audits_page_idx`.execute(db);
  await sql`drop function audit_page_key(uuid, text, text, text)`.execute(db);
}
