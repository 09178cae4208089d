// Runs monitors' due slots: claims them from the database (store.ts), audits each through the same
// flow as POST /api/v1/audit (crawl, analysis in the pool, the one-statement persistence with its
// outbox rows and tickets), and moves each monitor to its next slot. It runs in the processes that
// deliver webhooks: the server on the embedded database, `worker` processes on PostgreSQL.
//
// No timer is the source of truth: the rows are. The loop claims when slots are free, then sleeps
// until the soonest monitor falls due (or the poll interval, or a wake-up from a new monitor), and
// claims again. Every slot runs at most once: a process that dies mid-run loses its claim when the
// lease expires, and the process that takes it over finds the slot's audit if it was stored (the
// unique (monitor, slot) key) instead of auditing again.
//
// Time and chance are injected (clock) so schedules are tested without sleeping.
import type { AuditRequest, AuditSnapshot } from '../audit/audit-store.ts';
import { AnalysisQueueFullError, AnalysisTimeoutError } from '../audit/analysis/pool.ts';
import { PageTooComplexError } from '../audit/page.ts';
import { AnalysisFailedError } from '../audit/wcag/index.ts';
import { failureReason, FAILURE_REASONS, nonSuccessReason } from '../alerts/outbound.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { wakeableSleep } from '../wakeable-sleep.ts';
import { OutboundError } from '../net/safe-fetch.ts';
import { auditOfSlot, claimDueSlots, finishSlot, nextDueAt, postponeSlot, type ClaimedSlot, type MonitorRun } from './store.ts';

export interface SchedulerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Why a run stored no audit: a fixed set, like the webhook attempts' reasons, never the network's detail. */
export const RUN_REASONS = {
  ...FAILURE_REASONS,
  notHtml: 'not an HTML page',
  tooLarge: 'page over the size bound',
  tooComplex: 'page too complex to analyse within the bounds',
  aiStep: 'the WCAG AI step failed',
  internal: 'internal error',
} as const;

/** Every reason a run may record (the OpenAPI description lists them). */
export const RUN_REASON_TEXTS: readonly string[] = [
  ...new Set(Object.entries(RUN_REASONS).filter(([id]) => id !== 'legacy' && id !== 'revoked').map(([, text]) => text)),
  'non-2xx response (status N)',
];

export interface SchedulerOptions {
  db: Kysely<Database>;
  /** The audit flow (run-audit.ts) with this process's fetcher, pool and outbox wake-up. */
  audit: (request: AuditRequest) => Promise<AuditSnapshot>;
  log: SchedulerLog;
  /** Monitor audits running at once in this process. */
  concurrency: number;
  leaseMs: number;
  pollIntervalMs: number;
  clock?: () => Date;
}

export interface MonitorScheduler {
  start(): void;
  /** Wakes the loop now: a monitor was created or resumed. */
  notify(): void;
  /** Claims and runs every slot due at the clock's now, until none is; returns the runs finished. */
  drain(): Promise<number>;
  /** Stops claiming and waits for the runs in flight to finish. */
  stop(): Promise<void>;
}

/** A slot given back (busy analysis threads, an unreachable database) is claimable again after this. */
export const POSTPONE_MS = 15_000;

/** The outcome of one run, or `postpone` when it was not run and should be tried again soon. */
type RunResult = MonitorRun | 'postpone';

export function createMonitorScheduler(options: SchedulerOptions): MonitorScheduler {
  const { db, log, concurrency, leaseMs, pollIntervalMs } = options;
  const clock = options.clock ?? (() => new Date());

  async function execute(claimed: ClaimedSlot, startedAt: Date): Promise<RunResult> {
    const fields = { monitorId: claimed.monitorId, slot: claimed.slot.toISOString() };
    // A run taken over after its process died: the audit may already be stored.
    const stored = await auditOfSlot(db, claimed.monitorId, claimed.slot);
    if (stored !== undefined) {
      log.info({ ...fields, auditId: stored }, 'monitor slot already audited (a run taken over): not audited again');
      return { startedAt, outcome: 'audited', auditId: stored };
    }
    try {
      const audit = await options.audit({
        apiKeyId: claimed.apiKeyId,
        url: new URL(claimed.url),
        branch: claimed.branch,
        standard: claimed.standard,
        includeWarnings: claimed.includeWarnings,
        monitor: { id: claimed.monitorId, slot: claimed.slot },
      });
      return { startedAt, outcome: 'audited', auditId: audit.id };
    } catch (error) {
      if (isSlotTaken(error)) {
        // Another process ran the same slot after this one's lease expired, and stored first.
        const auditId = await auditOfSlot(db, claimed.monitorId, claimed.slot);
        if (auditId !== undefined) return { startedAt, outcome: 'audited', auditId };
      }
      // First: an OutboundError's cause is a socket error, which would read as the database's.
      if (error instanceof OutboundError) {
        // The detail (addresses, socket and TLS codes) is for this log only.
        log.info({ ...fields, reason: error.reason, detail: error.message }, 'monitor run: page unreachable, refused or over a bound');
        return { startedAt, outcome: 'unreachable', reason: crawlReason(error) };
      }
      if (error instanceof AnalysisQueueFullError || isDatabaseUnavailable(error)) {
        log.warn({ ...fields, err: error }, 'monitor run not started (analysis queue full or database unavailable): slot postponed');
        return 'postpone';
      }
      if (error instanceof PageTooComplexError || error instanceof AnalysisTimeoutError) {
        log.warn({ ...fields, detail: error.message }, 'monitor run: page over the analysis bounds');
        return { startedAt, outcome: 'analysis-failed', reason: RUN_REASONS.tooComplex };
      }
      if (error instanceof AnalysisFailedError) {
        log.warn({ ...fields, reason: error.reason }, 'monitor run: WCAG AI step failed after its retry, nothing stored');
        return { startedAt, outcome: 'analysis-failed', reason: RUN_REASONS.aiStep };
      }
      log.error({ ...fields, err: error }, 'monitor run failed unexpectedly');
      return { startedAt, outcome: 'analysis-failed', reason: RUN_REASONS.internal };
    }
  }

  async function run(claimed: ClaimedSlot): Promise<void> {
    const startedAt = clock();
    let result: RunResult;
    try {
      result = await execute(claimed, startedAt);
    } catch (error) {
      // The slot's own reads failed (the database went away): it is tried again after a pause.
      log.warn({ monitorId: claimed.monitorId, err: error }, 'monitor run could not start: slot postponed');
      result = 'postpone';
    }
    try {
      if (result === 'postpone') await postponeSlot(db, claimed, new Date(clock().getTime() + POSTPONE_MS));
      else if (!(await finishSlot(db, claimed, result, clock()))) {
        log.warn({ monitorId: claimed.monitorId }, 'monitor run finished after its lease was taken over or the monitor deleted: not recorded');
      } else {
        log.info({ monitorId: claimed.monitorId, slot: claimed.slot.toISOString(), outcome: result.outcome, auditId: result.auditId }, 'monitor run');
      }
    } catch (error) {
      // The lease expires and another claim runs the slot again (landing on its audit, if stored).
      log.error({ monitorId: claimed.monitorId, err: error }, 'monitor run could not be recorded; its lease will expire');
    }
  }

  const running = new Set<Promise<void>>();
  let stopping = false;
  let loopDone: Promise<void> | undefined;
  const { sleep, wake } = wakeableSleep();

  function notify(): void {
    wake();
  }

  /** Claims as many due slots as this process has room for and starts them; how many were claimed. */
  async function claimAndStart(): Promise<{ room: number; claimed: number }> {
    const room = concurrency - running.size;
    if (room <= 0) return { room, claimed: 0 };
    const slots = await claimDueSlots(db, clock(), room, leaseMs);
    for (const slot of slots) {
      const done: Promise<void> = run(slot).finally(() => {
        running.delete(done);
        notify();
      });
      running.add(done);
    }
    return { room, claimed: slots.length };
  }

  async function loop(): Promise<void> {
    let unavailableSince: Date | undefined;
    while (!stopping) {
      let result: { room: number; claimed: number };
      try {
        result = await claimAndStart();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'monitor claim failed');
        else if (!unavailableSince) {
          unavailableSince = clock();
          log.warn({ err: error }, 'database unavailable: monitors paused, claiming again every poll');
        }
        await sleep(pollIntervalMs);
        continue;
      }
      if (unavailableSince) {
        log.info({ pausedMs: clock().getTime() - unavailableSince.getTime() }, 'database back: monitors resumed');
        unavailableSince = undefined;
      }
      if (stopping) break;
      if (result.room <= 0 || result.claimed === result.room) {
        // Full, or more may be due: claim again when a run ends (it wakes the loop) or at the poll.
        await sleep(pollIntervalMs);
        continue;
      }
      // Nothing more is due now: sleep until the soonest monitor falls due, at most one poll.
      let delay = pollIntervalMs;
      try {
        const due = await nextDueAt(db);
        if (due !== null) delay = Math.min(delay, due.getTime() - clock().getTime());
      } catch {
        // The claim above answered; a failed read here only means waiting one poll.
      }
      await sleep(delay);
    }
    await Promise.all(running);
  }

  return {
    start() {
      if (loopDone || stopping) return;
      loopDone = loop();
    },
    notify,
    async drain() {
      let total = 0;
      for (;;) {
        const { claimed } = await claimAndStart();
        total += claimed;
        if (running.size === 0 && claimed === 0) return total;
        // Wait for one run to end, then claim again.
        if (running.size > 0) await Promise.race(running);
      }
    },
    async stop() {
      stopping = true;
      wake();
      await loopDone;
      await Promise.all(running);
    },
  };
}

/** The public reason for a crawl failure: the webhook attempts' texts, with the crawl's own cases. */
function crawlReason(error: OutboundError): string {
  switch (error.reason) {
    case 'http-status':
      return error.status === undefined ? RUN_REASONS.connection : nonSuccessReason(error.status);
    case 'not-html':
      return RUN_REASONS.notHtml;
    case 'too-large':
      return RUN_REASONS.tooLarge;
    default:
      return failureReason(error.reason);
  }
}

/** The unique (monitor, slot) key refused a second audit of the slot. */
function isSlotTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e !== null && typeof e === 'object' && e.code === '23505' && (e.constraint === undefined || e.constraint === 'audits_monitor_slot_idx');
}
