// Monitors as rows: a key's registrations (create, read, list, change, delete) and the schedule's
// two statements, the claim and the finish. The row is the schedule: `next_run_at` is the next
// slot, and a claim stamps a lease on the row (`locked_until`, `lease`) so no other process runs
// that slot while the lease holds; only the lease holder may finish it.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Branch, WcagStandard } from '../audit/control.ts';
import { pageOf, POSITION_FORMAT, type ListPosition } from '../db/keyset.ts';
import type { Database, MonitorsTable } from '../db/schema.ts';

/** What a finished run came to. `audited`: an audit is stored (`auditId`); otherwise `reason` says why not. */
export interface MonitorRun {
  startedAt: Date;
  outcome: 'audited' | 'unreachable' | 'analysis-failed';
  auditId?: string;
  reason?: string;
}

export interface Monitor {
  id: string;
  url: string;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
  every: string;
  everyMs: number;
  paused: boolean;
  createdAt: Date;
  nextRunAt: Date;
  lastRun: MonitorRun | null;
}

export interface NewMonitor {
  apiKeyId: string;
  url: string;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
  every: string;
  everyMs: number;
  /** The first slot. */
  firstRunAt: Date;
}

type MonitorRow = Selectable<MonitorsTable>;

function monitorOf(row: MonitorRow): Monitor {
  const last = row.last_run as { startedAt: string; outcome: MonitorRun['outcome']; auditId?: string; reason?: string } | null;
  return {
    id: row.id,
    url: row.url,
    branch: row.branch as Branch,
    standard: (row.standard ?? undefined) as WcagStandard | undefined,
    includeWarnings: row.include_warnings,
    every: row.every,
    everyMs: row.every_seconds * 1000,
    paused: row.paused_at !== null,
    createdAt: row.created_at,
    nextRunAt: row.next_run_at,
    lastRun: last === null ? null : { ...last, startedAt: new Date(last.startedAt) },
  };
}

/**
 * Stores a monitor unless the key already holds `maxPerKey`. The key's row is locked for the count
 * and the insert, so concurrent registrations of one key cannot overshoot the bound.
 */
export async function createMonitor(db: Kysely<Database>, input: NewMonitor, maxPerKey: number): Promise<Monitor | 'limit reached'> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('api_keys').select('id').where('id', '=', input.apiKeyId).forUpdate().executeTakeFirstOrThrow();
    const { n } = await trx
      .selectFrom('monitors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('api_key_id', '=', input.apiKeyId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxPerKey) return 'limit reached';
    const row = await trx
      .insertInto('monitors')
      .values({
        id: randomUUID(),
        api_key_id: input.apiKeyId,
        url: input.url,
        branch: input.branch,
        standard: input.standard ?? null,
        include_warnings: input.includeWarnings,
        every: input.every,
        every_seconds: Math.round(input.everyMs / 1000),
        paused_at: null,
        next_run_at: input.firstRunAt,
        locked_until: null,
        lease: null,
        last_run: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return monitorOf(row);
  });
}

/** The key's monitor with this id; another key's is as absent as an unknown id. */
export async function findMonitor(db: Kysely<Database>, apiKeyId: string, id: string): Promise<Monitor | undefined> {
  const row = await db.selectFrom('monitors').selectAll().where('id', '=', id).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return row === undefined ? undefined : monitorOf(row);
}

/** One page of the key's monitors, newest first, and where the next page starts (null at the end). */
export async function listMonitors(
  db: Kysely<Database>,
  apiKeyId: string,
  page: { limit: number; after?: ListPosition },
): Promise<{ monitors: Monitor[]; next: ListPosition | null }> {
  const { limit, after } = page;
  const rows = await db
    .selectFrom('monitors')
    .selectAll()
    .select(sql<string>`to_char(created_at at time zone 'UTC', ${sql.raw(POSITION_FORMAT)})`.as('position'))
    .where('api_key_id', '=', apiKeyId)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1) // see pageOf
    .execute();
  const { rows: monitors, next } = pageOf(rows, limit);
  return { monitors: monitors.map(monitorOf), next };
}

/** Every monitor, admin-wide, with its key's label (the dashboard), soonest due first. */
export async function listAllMonitors(db: Kysely<Database>, limit: number): Promise<Array<Monitor & { apiKeyId: string; keyDisplay: string; keyLabel: string | null }>> {
  const rows = await db
    .selectFrom('monitors as m')
    .innerJoin('api_keys as k', 'k.id', 'm.api_key_id')
    .selectAll('m')
    .select(['k.display as key_display', 'k.label as key_label'])
    .orderBy('m.next_run_at')
    .orderBy('m.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...monitorOf(row), apiKeyId: row.api_key_id, keyDisplay: row.key_display, keyLabel: row.key_label }));
}

export interface MonitorChange {
  every?: { text: string; ms: number };
  includeWarnings?: boolean;
  paused?: boolean;
}

/**
 * Changes a monitor. A new `every` applies from the next run: the next slot stays where it is
 * when that is sooner than one new interval from now, and moves to one new interval from now
 * otherwise. Pausing keeps the next slot; a monitor resumed after it has passed runs once, soon.
 * `apiKeyId` undefined: any key's monitor (the admin dashboard).
 */
export async function changeMonitor(db: Kysely<Database>, apiKeyId: string | undefined, id: string, change: MonitorChange, now: Date): Promise<Monitor | undefined> {
  const row = await db
    .updateTable('monitors')
    .$if(change.every !== undefined, (q) =>
      q.set({
        every: change.every!.text,
        every_seconds: Math.round(change.every!.ms / 1000),
        next_run_at: sql<Date>`least(next_run_at, ${new Date(now.getTime() + change.every!.ms)}::timestamptz)`,
      }),
    )
    .$if(change.includeWarnings !== undefined, (q) => q.set({ include_warnings: change.includeWarnings! }))
    .$if(change.paused !== undefined, (q) => q.set({ paused_at: change.paused ? sql<Date>`coalesce(paused_at, ${now}::timestamptz)` : null }))
    .where('id', '=', id)
    .$if(apiKeyId !== undefined, (q) => q.where('api_key_id', '=', apiKeyId!))
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : monitorOf(row);
}

/** Deletes a monitor (`apiKeyId` undefined: any key's). Its audits stay, still naming it. */
export async function deleteMonitor(db: Kysely<Database>, apiKeyId: string | undefined, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('monitors')
    .where('id', '=', id)
    .$if(apiKeyId !== undefined, (q) => q.where('api_key_id', '=', apiKeyId!))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A slot claimed for running: the monitor's settings and the slot's scheduled time. */
export interface ClaimedSlot {
  monitorId: string;
  apiKeyId: string;
  url: string;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
  /** The slot: the time it fell due (the monitor's `next_run_at` when claimed). */
  slot: Date;
  lease: string;
}

/**
 * Claims up to `limit` due slots, fairly across keys: due monitors are ranked within their key
 * (oldest slot first) and taken rank by rank, so a key with a thousand due monitors takes its
 * turn beside a key with one. A revoked key's and a paused monitor's slots are never claimed.
 * PostgreSQL refuses FOR UPDATE on a level with window functions, so the ranking is a CTE and the
 * lock a level of its own, which re-checks that the row is still due and unleased.
 */
export async function claimDueSlots(db: Kysely<Database>, now: Date, limit: number, leaseMs: number): Promise<ClaimedSlot[]> {
  const lease = randomUUID();
  const result = await sql<{
    id: string;
    api_key_id: string;
    url: string;
    branch: string;
    standard: string | null;
    include_warnings: boolean;
    next_run_at: Date;
  }>`
    with ranked as (
      select m.id, m.next_run_at, row_number() over (partition by m.api_key_id order by m.next_run_at, m.id) as key_rank
      from monitors as m
      join api_keys as k on k.id = m.api_key_id and k.revoked_at is null
      where m.paused_at is null and m.next_run_at <= ${now}
        and (m.locked_until is null or m.locked_until <= ${now})
    ), chosen as (
      select m.id from monitors as m
      where m.id = any(array(select id from ranked order by key_rank, next_run_at, id limit ${limit}))
        and m.paused_at is null and m.next_run_at <= ${now} and (m.locked_until is null or m.locked_until <= ${now})
      for update skip locked
    )
    update monitors as m
    set locked_until = ${new Date(now.getTime() + leaseMs)}, lease = ${lease}
    from chosen
    where m.id = chosen.id
    returning m.id, m.api_key_id, m.url, m.branch, m.standard, m.include_warnings, m.next_run_at
  `.execute(db);
  return result.rows.map((row) => ({
    monitorId: row.id,
    apiKeyId: row.api_key_id,
    url: row.url,
    branch: row.branch as Branch,
    standard: (row.standard ?? undefined) as WcagStandard | undefined,
    includeWarnings: row.include_warnings,
    slot: new Date(row.next_run_at),
    lease,
  }));
}

/**
 * Ends a claimed run: records it as the monitor's last run and moves the monitor to its next
 * slot, the first one on its grid (slot + k × every) after `now`. After downtime that skips every
 * missed slot: the monitor has run once and moves on, never a burst. Only the lease holder
 * finishes (a run taken over after its lease expired changes nothing here); false otherwise.
 */
export async function finishSlot(db: Kysely<Database>, claimed: ClaimedSlot, run: MonitorRun, now: Date): Promise<boolean> {
  const result = await sql`
    update monitors
    set last_run = ${JSON.stringify(run)}::jsonb, locked_until = null, lease = null,
        next_run_at = next_run_at + make_interval(secs => every_seconds * greatest(1, floor(extract(epoch from (${now}::timestamptz - next_run_at)) / every_seconds) + 1))
    where id = ${claimed.monitorId} and lease = ${claimed.lease}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Gives a claimed slot back without running it (the analysis queue was full, the database did not
 * answer): it stays due and may be claimed again after `retryAfterMs`, by this process or another.
 */
export async function postponeSlot(db: Kysely<Database>, claimed: ClaimedSlot, retryAt: Date): Promise<void> {
  await db
    .updateTable('monitors')
    .set({ locked_until: retryAt, lease: null })
    .where('id', '=', claimed.monitorId)
    .where('lease', '=', claimed.lease)
    .execute();
}

/** When the soonest unpaused monitor falls due (null: none), so an idle scheduler wakes right then. */
export async function nextDueAt(db: Kysely<Database>): Promise<Date | null> {
  const row = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.min('next_run_at').as('at'))
    .where('paused_at', 'is', null)
    .executeTakeFirst();
  return row?.at ? new Date(row.at as Date) : null;
}

/** The audit already stored for a monitor's slot (a run taken over after a crash lands on it). */
export async function auditOfSlot(db: Kysely<Database>, monitorId: string, slot: Date): Promise<string | undefined> {
  const row = await db.selectFrom('audits').select('id').where('monitor_id', '=', monitorId).where('monitor_slot', '=', slot).executeTakeFirst();
  return row?.id;
}
