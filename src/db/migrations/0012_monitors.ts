// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Monitors (issue 19): a page re-audited on a schedule. The schedule is the row itself: its next
// slot (`next_run_at`) and the lease of the process running it (`locked_until`, `lease`), claimed
// with FOR UPDATE SKIP LOCKED like the webhook outbox, so no in-memory timer is the source of truth.
// Audits record what triggered them; a monitor's audit also records its slot, and a unique index on
// (monitor, slot) makes a run taken over after a crash land on the audit already stored, never a
// second one. Registration has its own rate-limit windows, like webhook registration.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('standard', 'text')
    .addColumn('include_warnings', 'boolean', (c) => c.notNull())
    // As written (`6h`), and in seconds for the schedule's arithmetic.
    .addColumn('every', 'text', (c) => c.notNull())
    .addColumn('every_seconds', 'integer', (c) => c.notNull())
    .addColumn('paused_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('next_run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz')
    .addColumn('lease', 'uuid')
    // `{startedAt, outcome, auditId?, reason?}` of the latest finished run; NULL before the first.
    .addColumn('last_run', 'jsonb')
    .execute();
  await sql`create index monitors_due_idx on monitors (next_run_at) where paused_at is null`.execute(db);
  await db.schema.createIndex('monitors_key_idx').on('monitors').columns(['api_key_id', 'created_at', 'id']).execute();

  await db.schema
    .alterTable('audits')
    .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('api'))
    // No foreign key: an audit keeps naming its monitor after the monitor is deleted.
    .addColumn('monitor_id', 'uuid')
    .addColumn('monitor_slot', 'timestamptz')
    .execute();
  await sql`create unique index audits_monitor_slot_idx on audits (monitor_id, monitor_slot) where monitor_id is not null`.execute(db);

  await db.schema
    .createTable('monitor_rate_limit_windows')
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitor_rate_limit_windows_pk', ['api_key_id', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('monitor_rate_limit_windows').execute();
  await sql`drop index audits_monitor_slot_idx`.execute(db);
  await db.schema.alterTable('audits').dropColumn('monitor_slot').dropColumn('monitor_id').dropColumn('trigger').execute();
  await db.schema.dropTable('monitors').execute();
}
