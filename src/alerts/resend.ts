// Resending a delivery, as Svix resends a message: the delivery's outbox row goes back to
// `pending`, due now, and the delivery worker sends it as it sends any due row — the same stored
// event, freshly signed with a new deliveryId and timestamp, to the registration's URL and with its
// secret as they are at send time, the try appended to the same attempt log. Nothing here talks to
// the receiver: the worker does, under its lease and concurrency bound.
//
// What is named: an attempt (its `deliveryId`, as the attempts list and the event's
// X-Svc-Delivery-Id carry it). Every try of one delivery has its own deliveryId; any of them names
// the same outbox row, so a resend of any try of a delivery requeues that one delivery.
//
// What may be resent: a delivery that is finished, `failed` or `delivered` (a receiver that lost a
// delivered event may want it again; receivers deduplicate on `audit.id`). A `pending` delivery
// (waiting for a retry, or in flight under a worker's lease) is not: one requeue per delivery at a
// time, so resends cannot pile tries onto a receiver.
//
// The attempt counter carries on (tries are numbered 1, 2, … per delivery across resends), and the
// worker retries a try only while the retry schedule has a delay for its number. So a delivery that
// used its whole schedule (failed for good by exhaustion: the case resending is for) gets exactly
// one try per resend; one that stopped early (delivered, 410 Gone) has the rest of its schedule
// left (a 410 or a legacy registration stops it at once again). A resend never restarts the
// schedule: someone asked now and can ask again; another ~28 hours of retries against a receiver
// still down would only add load. (This needs nothing of the worker: it reads the counter as it
// always has.)
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DELIVERY_CHANNEL } from './outbox.ts';

export type ResendResult =
  /** Requeued: the next try carries `attemptNumber`. */
  | { outcome: 'queued'; auditId: string; attemptNumber: number }
  /** No such attempt of this registration (or not the key's registration). */
  | { outcome: 'not found' }
  /** The delivery is pending: waiting for a retry or being sent now. */
  | { outcome: 'pending' };

/**
 * Requeues the delivery that the attempt `attemptId` of registration `webhookId` belongs to, in one
 * statement: the state is re-checked on the locked row, so of two resends at once only one
 * requeues. With `apiKeyId`, only that key's registration; without (the admin dashboard), any. The
 * statement NOTIFYs the delivery channel when it requeued, so worker processes on PostgreSQL wake
 * at the commit; the caller wakes its own in-process worker.
 */
export async function resendDelivery(
  db: Kysely<Database>,
  target: { webhookId: string; attemptId: string; apiKeyId?: string },
  now: Date = new Date(),
): Promise<ResendResult> {
  const owner = target.apiKeyId === undefined ? sql`true` : sql`w.api_key_id = ${target.apiKeyId}`;
  const result = await sql<{ audit_id: string | null; attempts: number | null; notified: unknown }>`
    with target as (
      select a.delivery_id as id
      from webhook_attempts as a
      join webhooks as w on w.id = a.webhook_id
      where a.id = ${target.attemptId} and a.webhook_id = ${target.webhookId} and ${owner}
    ), requeued as (
      update webhook_deliveries as d
      set state = 'pending', next_attempt_at = ${now}, locked_until = null, lease = null
      from target
      where d.id = target.id and d.state in ('failed', 'delivered')
      returning d.audit_id, d.attempts
    )
    select r.audit_id, r.attempts,
           (select count(*) from (select pg_notify(${DELIVERY_CHANNEL}, '') from requeued limit 1) as n) as notified
    from target left join requeued as r on true
  `.execute(db);
  const row = result.rows[0];
  if (!row) return { outcome: 'not found' };
  if (row.audit_id === null || row.attempts === null) return { outcome: 'pending' };
  return { outcome: 'queued', auditId: row.audit_id, attemptNumber: row.attempts + 1 };
}

export interface DeliveryOfAttempt {
  /** The state of the delivery the try belongs to, now. */
  state: 'pending' | 'delivered' | 'failed';
  /** Whether the try is its delivery's newest (where a page offers the resend, once per delivery). */
  newest: boolean;
}

/** For a page of attempts: each one's delivery state, and whether it is the delivery's newest try. */
export async function deliveriesOfAttempts(db: Kysely<Database>, attemptIds: readonly string[]): Promise<Map<string, DeliveryOfAttempt>> {
  if (attemptIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.id', 'a.attempt_number', 'd.state', 'd.attempts'])
    .where('a.id', 'in', attemptIds)
    .execute();
  return new Map(rows.map((row) => [row.id, { state: row.state as DeliveryOfAttempt['state'], newest: row.attempt_number === row.attempts }]));
}
