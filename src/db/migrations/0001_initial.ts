// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  // One row per key and clock-aligned window; the limiter's single upsert increments `used`.
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['api_key_id', 'window_start'])
    .execute();

  await db.schema
    .createTable('audits')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id'))
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('standard', 'text')
    .addColumn('include_warnings', 'boolean', (c) => c.notNull())
    .addColumn('requested_url', 'text', (c) => c.notNull())
    .addColumn('final_url', 'text', (c) => c.notNull())
    // HTTPS origin of the requested URL: what the report endpoint matches on.
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer', (c) => c.notNull())
    .addColumn('redirect_chain', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .addColumn('byte_count', 'integer', (c) => c.notNull())
    .addColumn('body_sha256', 'text', (c) => c.notNull())
    .addColumn('errors', 'integer', (c) => c.notNull())
    .addColumn('warnings', 'integer', (c) => c.notNull())
    .addColumn('inconclusive', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('audits_origin_branch_created_idx')
    .on('audits')
    .columns(['origin', 'branch', 'created_at'])
    .execute();

  // Every control that was evaluated, including passes, so a pass stays a visible signal.
  await db.schema
    .createTable('audit_controls')
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('control', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_controls_pk', ['audit_id', 'position'])
    .execute();

  await db.schema
    .createTable('findings')
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('control', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('selector', 'text')
    .addColumn('snippet', 'text')
    .addPrimaryKeyConstraint('findings_pk', ['audit_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['findings', 'audit_controls', 'audits', 'rate_limit_windows', 'api_keys']) {
    await db.schema.dropTable(table).execute();
  }
}
