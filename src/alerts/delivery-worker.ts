// Sends the outbox: claims due deliveries, posts each as a freshly signed failure event through
// the safe fetcher, and records one attempt row per HTTP try.
//
// A pipeline, not batch after batch: up to `concurrency` tries are in flight at once and start as
// slots free, from a local queue refilled a batch per claim; finished tries are recorded together,
// one record statement at a time. A slow receiver holds one slot, not a whole batch.
//
// Claiming is one statement (`FOR UPDATE SKIP LOCKED` in a CTE, then a lease stamped on the rows),
// so several workers on one PostgreSQL never take the same delivery, and no transaction is held
// open while a receiver answers. The lease outlives the longest possible try; a worker that dies
// mid-send loses its rows when the lease expires, and only the lease holder may record an outcome.
//
// Fairness (issue 16): the tries in flight are bounded per destination (a URL: two registrations
// of one URL are one destination) and per API key, across every worker on the database. The
// leases are what is in flight (claimed rows with `locked_until` after now, sent or queued, until
// recorded), so the claim counts them per destination and per key and takes, oldest due first,
// only what fits under both bounds: a destination at its bound is skipped, not waited on, and a
// hanging receiver holds its few slots while everyone else's events go past it. Claims take a
// transaction-scoped advisory lock first, so concurrent claims see each other's leases and the
// bounds are exact, not approximate.
//
// Time and chance are injected (clock, random) so retry schedules are tested without sleeping.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { PREPARED } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { wakeableSleep } from '../wakeable-sleep.ts';
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
  /** Tries in flight at once (and the most one claim takes). Default 16. */
  concurrency?: number;
  /** AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: leased tries per destination URL, all workers together. Default 4. */
  maxInFlightPerDestination?: number;
  /** AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY: leased tries per API key, all workers together. Default 8. */
  maxInFlightPerKey?: number;
  /**
   * Claims take turns through an advisory lock, so the bounds hold across processes. Default true;
   * false only where one process holds the database (the embedded one, a single connection on
   * which claims take turns anyway): it saves three statements per claim.
   */
  claimLock?: boolean;
}

/**
 * The defaults of the two bounds: half and three quarters of one process's 16 slots. 4 and 8 were
 * as fair but cost a single fast receiver a third of its throughput in the bench; at 8 a hanging
 * receiver still leaves half, and with the claim and the record prepared (planned once per
 * connection) the single receiver's throughput is back to what it was unbounded (README).
 */
export const DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION = 8;
export const DEFAULT_MAX_IN_FLIGHT_PER_KEY = 12;

export interface DeliveryWorker {
  /** Starts the claim loop (idempotent). */
  start(): void;
  /** Wakes the loop now: called right after an audit's events are committed. */
  notify(): void;
  /** Claims and sends everything due at the clock's now, until nothing is; returns the tries made. */
  drain(): Promise<number>;
  /** Stops claiming and waits for the tries in flight to be recorded. */
  stop(): Promise<void>;
}

/** ±20% around each scheduled delay, so receivers that failed together are not retried together. */
const JITTER = 0.2;
/** A Retry-After beyond this is treated as this: a receiver cannot park a delivery for weeks. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** The longest a finished try waits for others to be recorded with it. */
const RECORD_LINGER_MS = 20;

interface Claimed {
  id: string;
  /** The claim's lease token: only its holder records the outcome. */
  lease: string;
  locked_until: Date;
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
  const concurrency = options.concurrency ?? 16;
  // Longer than any try (the fetcher's deadline, which bounds DNS, connect and body alike) plus
  // ample time to record it. A crashed worker's rows wait this long before another takes them.
  const leaseMs = timeoutMs * 2 + 10_000;

  const perDestination = options.maxInFlightPerDestination ?? DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION;
  const perKey = options.maxInFlightPerKey ?? DEFAULT_MAX_IN_FLIGHT_PER_KEY;
  const claimLock = options.claimLock ?? true;

  /**
   * Takes up to `limit` due deliveries, oldest first, that fit under the bounds: each due row is
   * ranked within its destination (URL) behind the tries already in flight there, the rows within
   * the destination bound are then ranked within their key the same way, and only those within
   * both bounds are locked. PostgreSQL refuses FOR UPDATE on a query level with window functions,
   * so the ranking happens in CTEs and the lock in a level of its own, which re-checks that each
   * row is still pending and unleased (a row leased and committed meanwhile is skipped, as is one
   * another claim holds). The ranking reads a few rows per registration, never the backlog. The advisory lock, held to commit, makes claims take turns: each sees
   * every earlier claim's leases, so the counts are exact across processes. On the embedded
   * database there is one connection, so claims take turns anyway (`claimLock: false`).
   */
  async function claim(lease: string, limit: number): Promise<Claimed[]> {
    if (!claimLock) return claimUnder(db, lease, limit);
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended('webhook-delivery-claim', 0))`.execute(trx);
      return claimUnder(trx, lease, limit);
    });
  }

  async function claimUnder(executor: Kysely<Database>, lease: string, limit: number): Promise<Claimed[]> {
    const now = clock();
    const result = await sql<Claimed>`${PREPARED('webhook-claim')}
      with in_flight as (
        select w.url, w.api_key_id
        from webhook_deliveries as d join webhooks as w on w.id = d.webhook_id
        where d.locked_until > ${now} and d.state = 'pending'
      ), per_destination as (
        select url, count(*) as n from in_flight group by url
      ), per_key as (
        select api_key_id, count(*) as n from in_flight group by api_key_id
      ), candidates as (
        -- No registration can take more than the destination bound, so its first few due rows
        -- are all a claim needs to look at: an index probe each, however long the backlog.
        -- A revoked key's registrations send nothing (revocation failed their pending rows, and
        -- the outbox queues none after it; this covers an audit that committed in between): one
        -- primary-key probe each. A paused registration's rows wait for its resume.
        select d.id, d.next_attempt_at, w.url, w.api_key_id
        from webhooks as w
        join api_keys as k on k.id = w.api_key_id and k.revoked_at is null
        cross join lateral (
          select q.id, q.next_attempt_at from webhook_deliveries as q
          where q.webhook_id = w.id and q.state = 'pending' and q.next_attempt_at <= ${now}
            and (q.locked_until is null or q.locked_until <= ${now})
          order by q.next_attempt_at, q.id
          limit ${perDestination}
        ) as d
        where w.paused_at is null
      ), by_destination as (
        select c.id, c.next_attempt_at, c.api_key_id,
          coalesce(pd.n, 0) + row_number() over (partition by c.url order by c.next_attempt_at, c.id) as destination_slot
        from candidates as c
        left join per_destination as pd on pd.url = c.url
      ), by_key as (
        select b.id, b.next_attempt_at,
          coalesce(pk.n, 0) + row_number() over (partition by b.api_key_id order by b.next_attempt_at, b.id) as key_slot
        from by_destination as b
        left join per_key as pk on pk.api_key_id = b.api_key_id
        where b.destination_slot <= ${perDestination}
      ), due as (
        -- The chosen ids as one array (computed once), looked up by primary key and locked here,
        -- re-checked: still pending and unleased (a lease expired under a slow holder can still
        -- be recorded by it).
        select d.id from webhook_deliveries as d
        where d.id = any(array(select id from by_key where key_slot <= ${perKey} order by next_attempt_at, id limit ${limit}))
          and d.state = 'pending' and (d.locked_until is null or d.locked_until <= ${now})
        for update skip locked
      )
      update webhook_deliveries as d
      set locked_until = ${new Date(now.getTime() + leaseMs)}, lease = ${lease}
      from due, webhooks as w
      where d.id = due.id and w.id = d.webhook_id
      returning d.id, d.lease, d.locked_until, d.webhook_id, d.event, d.attempts, w.url, w.challenge
    `.execute(executor);
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
   * Records finished tries in one statement (atomic without BEGIN/COMMIT): the deliveries' new
   * state, one attempt row each, and each registration's latestAttempt moved forward in time
   * (tries finish out of order). Only rows still under the lease they were claimed with are
   * recorded: a lease lost (expired and re-claimed) or a registration deleted meanwhile is not ours
   * to record.
   */
  async function record(tries: Try[]): Promise<Set<string>> {
    const column = <T>(pick: (t: Try) => T) => tries.map(pick);
    const result = await sql<{ id: string }>`${PREPARED('webhook-record')}
      with input as (
        select * from unnest(
          ${column((t) => t.delivery.id)}::uuid[], ${column((t) => t.delivery.lease)}::uuid[], ${column((t) => t.state)}::text[],
          ${column((t) => t.attemptNumber)}::int[], ${column((t) => t.nextAt.toISOString())}::timestamptz[],
          ${column((t) => t.deliveryId)}::uuid[], ${column((t) => t.delivery.webhook_id)}::uuid[], ${column((t) => t.result.outcome)}::text[],
          ${column((t) => t.result.statusCode)}::int[], ${column((t) => t.result.reason)}::text[],
          ${column((t) => t.result.durationMs)}::int[], ${column((t) => t.result.responseBody)}::text[],
          ${column((t) => t.at.toISOString())}::timestamptz[]
        ) as t(id, lease, state, attempt_number, next_at, attempt_id, webhook_id, outcome, status_code, reason, duration_ms, response_body, attempted_at)
      ), updated as (
        update webhook_deliveries as d
        set state = i.state, attempts = i.attempt_number, next_attempt_at = i.next_at, locked_until = null, lease = null
        from input as i
        where d.id = i.id and d.lease = i.lease
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

  async function recordAndLog(tries: Try[]): Promise<void> {
    let recorded: Set<string>;
    try {
      recorded = await record(tries);
    } catch (error) {
      // The leases expire and the deliveries are tried again; the error is the operator's.
      log.error({ err: error, deliveries: tries.length }, 'webhook delivery attempts could not be recorded');
      return;
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
  }

  // Every claim and every record is a statement (and on the embedded database every statement
  // runs on this thread), so both go in batches of `concurrency` rows, as a batch worker's would:
  // a claim takes a full batch into a local queue once the queue has room for it, and tries start
  // from the queue as slots free. A queued delivery waits at most for the tries ahead of it (one
  // timeout each) and their record, so it is sent and recorded well inside its lease
  // (2 × timeout + 10 s); one that somehow is not (a stalled process) is dropped unsent and its
  // lease left to expire.
  const queue: Claimed[] = [];
  let inFlight = 0;
  // Tries finished but not yet recorded, and the record statement running (at most one).
  const finished: Try[] = [];
  let recording: Promise<void> | undefined;
  let recordingCount = 0;
  /** Record statements completed so far. */
  let records = 0;
  // A slot is held from the send until the try is recorded, so at most `concurrency` tries are
  // ever sent but unrecorded: what a crash can make go out twice is bounded as it was.
  const occupied = () => inFlight + finished.length + recordingCount;
  const waiting: (() => void)[] = [];
  const signalChange = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const nextChange = () => new Promise<void>((resolve) => waiting.push(resolve));

  // Recording takes every try finished meanwhile: at once when half a batch (or a destination's
  // bound: a destination at its bound gets more only once its tries are recorded) has finished or
  // nothing else is in flight (a hanging receiver's tries count as in flight), otherwise
  // RECORD_LINGER_MS after the oldest unrecorded try finished, so that others join it.
  let lingering: NodeJS.Timeout | undefined;
  const recordAtOnce = Math.max(1, Math.min(concurrency / 2, perDestination));

  function flush(force = false): void {
    if (recording || finished.length === 0) return;
    if (!force && finished.length < recordAtOnce && inFlight > 0 && !stopping) {
      lingering ??= setTimeout(() => {
        lingering = undefined;
        flush(true);
      }, RECORD_LINGER_MS);
      return;
    }
    clearTimeout(lingering);
    lingering = undefined;
    const tries = finished.splice(0);
    recordingCount = tries.length;
    recording = recordAndLog(tries).finally(() => {
      recording = undefined;
      recordingCount = 0;
      records++;
      // Recorded tries no longer count against their destination's and key's bounds: a claim
      // that came back short because of them may now get more, so the loop claims again at once.
      wake();
      pump();
      flush();
      signalChange();
    });
  }

  /** Starts queued deliveries while slots are free (none once stopping: those are released). */
  function pump(): void {
    while (!stopping && occupied() < concurrency && queue.length > 0) {
      const delivery = queue.shift()!;
      // Time for one whole try and its record before the lease ends, or it is not ours to send.
      if (clock().getTime() > delivery.locked_until.getTime() - timeoutMs - 5_000) {
        log.warn({ webhookId: delivery.webhook_id }, 'claimed delivery not started before its lease ran short; left for the lease to expire');
        continue;
      }
      startTry(delivery);
    }
  }

  function startTry(delivery: Claimed): void {
    inFlight++;
    send(delivery)
      .then(
        (t) => {
          finished.push(t);
        },
        (error: unknown) => {
          // Not a receiver's answer (those are outcomes) but a fault here: the lease expires and
          // the delivery is tried again.
          log.error({ err: error, webhookId: delivery.webhook_id }, 'webhook delivery try failed unexpectedly');
        },
      )
      .finally(() => {
        inFlight--;
        pump();
        flush();
        signalChange();
      });
  }

  /** Claims a batch into the queue when it has room for one; how many were asked for and claimed. */
  async function claimMore(): Promise<{ asked: number; claimed: number }> {
    if (occupied() + queue.length > concurrency) return { asked: 0, claimed: 0 };
    const claimed = await claim(randomUUID(), concurrency);
    queue.push(...claimed);
    pump();
    return { asked: concurrency, claimed: claimed.length };
  }

  const idle = () => queue.length === 0 && inFlight === 0 && finished.length === 0 && !recording;

  /** Resolves when nothing is queued, in flight or waiting to be recorded. */
  async function settled(): Promise<void> {
    while (!idle()) await nextChange();
  }

  /** Resolves when a record has completed since `count` records (or nothing is left to record). */
  async function recordedSince(count: number): Promise<void> {
    while (records === count && !idle()) await nextChange();
  }

  /** Resolves when the queue has room for a batch (or the worker is stopping). */
  async function roomToClaim(): Promise<void> {
    while (occupied() + queue.length > concurrency && !stopping) await nextChange();
  }

  /** On stop: the queued deliveries that were never started go back to the outbox at once. */
  async function releaseQueued(): Promise<void> {
    const released = queue.splice(0);
    if (released.length === 0) return;
    try {
      await sql`
        update webhook_deliveries as d set locked_until = null, lease = null
        from unnest(${released.map((d) => d.id)}::uuid[], ${released.map((d) => d.lease)}::uuid[]) as r(id, lease)
        where d.id = r.id and d.lease = r.lease
      `.execute(db);
    } catch (error) {
      log.error({ err: error, deliveries: released.length }, 'queued deliveries could not be released; their leases expire');
    }
  }

  let stopping = false;
  let running: Promise<void> | undefined;
  const { sleep, wake } = wakeableSleep();

  async function loop(): Promise<void> {
    // Claims that fail because the database is away are logged once when the outage starts and
    // once when it ends, not at every poll; any other claim failure is an error each time.
    let unavailableSince: Date | undefined;
    while (!stopping) {
      let asked = 0;
      let claimed = 0;
      try {
        ({ asked, claimed } = await claimMore());
      } catch (error) {
        if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'webhook delivery claim failed');
        else if (!unavailableSince) {
          unavailableSince = clock();
          log.warn({ err: error }, 'database unavailable: webhook delivery paused, claiming again every poll');
        }
        await sleep(pollIntervalMs);
        continue;
      }
      if (unavailableSince) {
        log.info({ pausedMs: clock().getTime() - unavailableSince.getTime() }, 'database back: webhook delivery resumed');
        unavailableSince = undefined;
      }
      if (stopping) break;
      // A claim that got all it asked for (or had no room) suggests more is due: claim again as
      // soon as there is room. Otherwise nothing more is due, or the rest is held back by the
      // bounds: wait for a wake-up (a notification, or one of our records freeing a bound) or the
      // poll (another process's records).
      if (claimed < asked) await sleep(pollIntervalMs);
      else await roomToClaim();
    }
    await releaseQueued();
    await settled();
  }

  return {
    start() {
      if (running || stopping) return;
      running = loop();
    },
    notify() {
      wake();
    },
    async drain() {
      let total = 0;
      for (;;) {
        await roomToClaim();
        const before = records;
        // Whether the claim's snapshot can have counted tries of ours: one recorded while the
        // claim ran was still in flight for it, so an empty claim then proves nothing.
        const idleBefore = idle();
        const { asked, claimed } = await claimMore();
        total += claimed;
        if (claimed < asked) {
          // Nothing more due now, or the rest is held back by the bounds. A record frees room
          // under them (and may make a retry due): claim again after each, until a claim that
          // started with nothing of ours in flight finds nothing. What other processes hold is
          // theirs.
          if (claimed === 0 && idleBefore) return total;
          await recordedSince(before);
        }
      }
    },
    async stop() {
      stopping = true;
      wake();
      flush();
      signalChange();
      await running;
    },
  };
}
