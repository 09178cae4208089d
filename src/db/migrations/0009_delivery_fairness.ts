// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Fair delivery (issue 16): the claim bounds the tries in flight per destination and per key, so
// it reads, per registration, the first few due deliveries, and the leases in flight. Both are
// index lookups here, whatever the backlog: a registration's pending deliveries in due order, and
// the rows under a lease (few: the tries in flight, plus a crashed worker's until they expire).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_registration_due_idx on webhook_deliveries (webhook_id, next_attempt_at, id) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_leased_idx on webhook_deliveries (locked_until) where locked_until is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_deliveries_leased_idx`.execute(db);
  await sql`drop index webhook_deliveries_registration_due_idx`.execute(db);
}
