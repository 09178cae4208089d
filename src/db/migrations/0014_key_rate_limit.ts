// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Issue 20: a key may carry its own audit budget (requests per AUDIT_RATE_WINDOW_SECONDS window)
// instead of AUDIT_RATE_LIMIT: a CI key that checks 200 pages needs more than a dashboard's key.
// NULL means the default. The rate limiter reads it in the statement that takes the slot.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('rate_limit', 'integer', (column) => column.check(sql`rate_limit > 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('rate_limit').execute();
}
