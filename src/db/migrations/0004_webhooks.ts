// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Alert webhooks, in the shape Svix stores them: a registration (the destination), one delivery
// row per failure event × matching registration (the transactional outbox: written in the audit's
// own transaction, so an event cannot be lost between commit and send), and one attempt row per
// HTTP try. A registration's latest attempt is a reference into the attempt log, not a copy.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('trigger_severity', 'text', (c) => c.notNull())
    .addColumn('trigger_branch', 'text', (c) => c.notNull())
    // The verification challenge, kept as the signing secret. NULL only on legacy registrations
    // (stored before challenges were kept): their deliveries fail without being sent.
    .addColumn('challenge', 'text')
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // No foreign key: attempts reference webhooks, and a cycle would complicate deletes for nothing;
    // readers left-join, so a dangling id reads as no attempt.
    .addColumn('latest_attempt_id', 'uuid')
    .execute();
  await db.schema.createIndex('webhooks_key_idx').on('webhooks').columns(['api_key_id', 'trigger_branch']).execute();

  // The outbox. `event` holds what the body is rebuilt from on every try (audit summary and the
  // failures that met this destination's threshold); deliveryId and timestamp are new per try.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('webhook_id', 'uuid', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('event', 'jsonb', (c) => c.notNull())
    // pending → delivered | failed (for good: 410, schedule exhausted, or no secret to sign with).
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A claim is a lease: a worker that dies mid-send loses it when it expires, and the lease token
    // makes sure only the claimant records the outcome.
    .addColumn('locked_until', 'timestamptz')
    .addColumn('lease', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    // The attempt's deliveryId: what the event body, X-Svc-Delivery-Id and the signature carry.
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('webhook_id', 'uuid', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('reason', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_list_idx')
    .on('webhook_attempts')
    .columns(['webhook_id', 'attempted_at desc', 'id desc'])
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').column('delivery_id').execute();

  // Registration attempts have their own fixed-window budget, apart from the audit route's.
  await db.schema
    .createTable('webhook_rate_limit_windows')
    .addColumn('api_key_id', 'uuid', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_rate_limit_windows_pk', ['api_key_id', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_rate_limit_windows', 'webhook_attempts', 'webhook_deliveries', 'webhooks']) {
    await db.schema.dropTable(table).execute();
  }
}
