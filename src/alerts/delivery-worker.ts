// Sends the outbox: claims due deliveries, posts each as a freshly signed failure event through
// the safe fetcher, and records one attempt row per HTTP try.
//
// Claiming is one statement (`FOR UPDATE SKIP LOCKED` in a CTE, then a lease stamped on the rows),
// so several workers on one PostgreSQL never take the same delivery, and no transaction is held
// open while a receiver answers. The lease outlives the longest possible try; a worker that dies
// mid-send loses its rows when the lease expires, and only the lease holder may record an outcome.
//
// Time and chance are injected (clock, random) so retry schedules are tested without sleeping.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { SafeFetcher } from '../net/safe-fetch.ts';
import { FAILURE_REASONS, postWebhook, type PostOutcome } from './outbound.ts';
import { signFailureEvent, type StoredEvent } from './signing.ts';

export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DeliveryWorkerOptions {
  db: Kysely<Database>;
  fetcher: SafeFetcher;
  /** AUDIT_WEBHOOK_TIMEOUT_MS: one try, DNS to last byte. */
  timeoutMs: number;
  /** Delay before each retry; 1 + length tries in all. */
  retryScheduleMs: readonly number[];
  log: WorkerLog;
  clock?: () => Date;
  /** In [0, 1): the jitter draw. */
  random?: () => number;
  /** Fallback polling when no wake-up arrives (retries falling due, other processes' audits). Default 1000. */
  pollIntervalMs?: number;
  /** Deliveries claimed and sent together. Default 16. */
  batchSize?: number;
}

export interface DeliveryWorker {
  /** Starts the claim loop (idempotent). */
  start(): void;
  /** Wakes the loop now: called right after an audit's events are committed. */
  notify(): void;
  /** Claims and sends everything due at the clock's now, batch after batch; returns the tries made. */
  drain(): Promise<number>;
  /** Stops claiming and waits for the tries in flight to be recorded. */
  stop(): Promise<void>;
}

/** ±20% around each scheduled delay, so receivers that failed together are not retried together. */
const JITTER = 0.2;
/** A Retry-After beyond this is treated as this: a receiver cannot park a delivery for weeks. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

interface Claimed {
  id: string;
  webhook_id: string;
  event: StoredEvent;
  attempts: number;
  url: string;
  challenge: string | null;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, fetcher, timeoutMs, retryScheduleMs, log } = options;
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const batchSize = options.batchSize ?? 16;
  // Longer than any try (the fetcher's deadline, which bounds DNS, connect and body alike) plus
  // ample time to record it. A crashed worker's rows wait this long before another takes them.
  const leaseMs = timeoutMs * 2 + 10_000;

  async function claim(lease: string): Promise<Claimed[]> {
    const now = clock();
    const result = await sql<Claimed>`
      with due as (
        select id from webhook_deliveries
        where state = 'pending' and next_attempt_at <= ${now} and (locked_until is null or locked_until <= ${now})
        order by next_attempt_at
        limit ${batchSize}
        for update skip locked
      )
      update webhook_deliveries as d
      set locked_until = ${new Date(now.getTime() + leaseMs)}, lease = ${lease}
      from due, webhooks as w
      where d.id = due.id and w.id = d.webhook_id
      returning d.id, d.webhook_id, d.event, d.attempts, w.url, w.challenge
    `.execute(db);
    return result.rows;
  }

  /** The state after this try, and when the next one is due. */
  function nextStep(attemptNumber: number, result: PostOutcome, at: Date): { state: string; nextAt: Date } {
    if (result.outcome === 'delivered') return { state: 'delivered', nextAt: at };
    // 410 Gone: the receiver says the endpoint is no more. A legacy row cannot ever be signed.
    if (result.statusCode === 410 || result.reason === FAILURE_REASONS.legacy) return { state: 'failed', nextAt: at };
    const scheduled = retryScheduleMs[attemptNumber - 1];
    if (scheduled === undefined) return { state: 'failed', nextAt: at };
    let delay = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
    if (result.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
    return { state: 'pending', nextAt: new Date(at.getTime() + delay) };
  }

  interface Try {
    delivery: Claimed;
    deliveryId: string;
    attemptNumber: number;
    at: Date;
    result: PostOutcome;
    state: string;
    nextAt: Date;
  }

  /** One HTTP try (or, for a legacy registration, the failure that replaces it). */
  async function send(delivery: Claimed): Promise<Try> {
    const attemptNumber = delivery.attempts + 1;
    const deliveryId = randomUUID();
    const at = clock();
    let result: PostOutcome;
    if (delivery.challenge === null) {
      // Nothing to sign with: recorded as failed, nothing sent, never retried (spec section 3).
      result = { outcome: 'failed', statusCode: null, reason: FAILURE_REASONS.legacy, responseBody: null, retryAfterMs: undefined, durationMs: 0 };
    } else {
      const signed = signFailureEvent(delivery.challenge, delivery.event, deliveryId, at);
      result = await postWebhook(
        fetcher,
        new URL(delivery.url),
        { body: signed.body, headers: signed.headers, timeoutMs },
        { info: (obj, msg) => log.info({ ...obj, deliveryId, webhookId: delivery.webhook_id }, msg) },
        () => clock().getTime(),
      );
    }
    return { delivery, deliveryId, attemptNumber, at, result, ...nextStep(attemptNumber, result, at) };
  }

  /**
   * Records a batch's tries in one statement (atomic without BEGIN/COMMIT): the deliveries' new
   * state, one attempt row each, and each registration's latestAttempt moved forward in time
   * (workers finish out of order). Only rows still under this lease are recorded: a lease lost
   * (expired and re-claimed) or a registration deleted meanwhile is not ours to record.
   */
  async function record(tries: Try[], lease: string): Promise<Set<string>> {
    const column = <T>(pick: (t: Try) => T) => tries.map(pick);
    const result = await sql<{ id: string }>`
      with input as (
        select * from unnest(
          ${column((t) => t.delivery.id)}::uuid[], ${column((t) => t.state)}::text[], ${column((t) => t.attemptNumber)}::int[],
          ${column((t) => t.nextAt.toISOString())}::timestamptz[], ${column((t) => t.deliveryId)}::uuid[],
          ${column((t) => t.delivery.webhook_id)}::uuid[], ${column((t) => t.result.outcome)}::text[],
          ${column((t) => t.result.statusCode)}::int[], ${column((t) => t.result.reason)}::text[],
          ${column((t) => t.result.durationMs)}::int[], ${column((t) => t.result.responseBody)}::text[],
          ${column((t) => t.at.toISOString())}::timestamptz[]
        ) as t(id, state, attempt_number, next_at, attempt_id, webhook_id, outcome, status_code, reason, duration_ms, response_body, attempted_at)
      ), updated as (
        update webhook_deliveries as d
        set state = i.state, attempts = i.attempt_number, next_attempt_at = i.next_at, locked_until = null, lease = null
        from input as i
        where d.id = i.id and d.lease = ${lease}
        returning d.id
      ), inserted as (
        insert into webhook_attempts (id, delivery_id, webhook_id, attempt_number, outcome, status_code, reason, duration_ms, response_body, attempted_at)
        select i.attempt_id, i.id, i.webhook_id, i.attempt_number, i.outcome, i.status_code, i.reason, i.duration_ms, i.response_body, i.attempted_at
        from input as i join updated as u on u.id = i.id
        returning id, webhook_id, attempted_at
      ), newest as (
        select distinct on (webhook_id) id, webhook_id, attempted_at from inserted order by webhook_id, attempted_at desc, id desc
      ), moved as (
        update webhooks as w set latest_attempt_id = n.id
        from newest as n
        where w.id = n.webhook_id
          and (w.latest_attempt_id is null
               or not exists (select 1 from webhook_attempts as a where a.id = w.latest_attempt_id and a.attempted_at > n.attempted_at))
      )
      select id from updated
    `.execute(db);
    return new Set(result.rows.map((row) => row.id));
  }

  /** One claim, its tries side by side, and one statement to record them; the number of tries. */
  async function batch(): Promise<number> {
    const lease = randomUUID();
    const claimed = await claim(lease);
    if (claimed.length === 0) return 0;
    const tries = await Promise.all(claimed.map(send));
    let recorded: Set<string>;
    try {
      recorded = await record(tries, lease);
    } catch (error) {
      // The leases expire and the deliveries are tried again; the error is the operator's.
      log.error({ err: error, deliveries: tries.length }, 'webhook delivery attempts could not be recorded');
      return claimed.length;
    }
    for (const t of tries) {
      const fields = { deliveryId: t.deliveryId, webhookId: t.delivery.webhook_id };
      if (!recorded.has(t.delivery.id)) {
        log.warn(fields, 'delivery outcome not recorded: lease lost or registration deleted');
        continue;
      }
      log.info(
        { ...fields, attempt: t.attemptNumber, outcome: t.result.outcome, statusCode: t.result.statusCode, state: t.state },
        'webhook delivery attempt',
      );
    }
    return claimed.length;
  }

  let stopping = false;
  let running: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let woken = false;

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        woken = false;
        resolve();
      }
      wake = done;
    });
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let count = 0;
      try {
        count = await batch();
      } catch (error) {
        log.error({ err: error }, 'webhook delivery claim failed');
      }
      // A full batch suggests more is due: claim again at once; otherwise wait for a wake-up or the poll.
      if (!stopping && count < batchSize) await sleep(pollIntervalMs);
    }
  }

  return {
    start() {
      if (running || stopping) return;
      running = loop();
    },
    notify() {
      woken = true;
      wake?.();
    },
    async drain() {
      let total = 0;
      for (;;) {
        const count = await batch();
        total += count;
        if (count === 0) return total;
      }
    },
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
