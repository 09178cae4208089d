// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Issue 17: an admin can pause a registration (any key's) from the dashboard. While `paused_at`
// is set the delivery worker claims none of its rows; events still queue and are sent on resume.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('paused_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('paused_at').execute();
}
