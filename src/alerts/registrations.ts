// Webhook registrations: the verification ping that must succeed before anything is stored, and
// the key-scoped reads and writes behind the /api/v1/alerts/webhook routes. The challenge is the
// signing secret: it is written here and read only by the delivery worker, never returned.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { pageOf, POSITION_FORMAT, type ListPosition } from '../db/keyset.ts';
import type { SafeFetcher } from '../net/safe-fetch.ts';
import type { TriggerBranch, TriggerOn, TriggerSeverity } from './matching.ts';
import { currentReason, postWebhook, type OperatorLog } from './outbound.ts';

export const VERIFICATION_EVENT_TYPE = 'svc.webhook.verification';

export interface Trigger {
  severity: TriggerSeverity;
  branch: TriggerBranch;
  on: TriggerOn;
}

export interface LatestAttempt {
  deliveryId: string;
  outcome: 'delivered' | 'failed';
  statusCode: number | null;
  reason: string | null;
  attemptedAt: Date;
  durationMs: number;
}

export interface Registration {
  id: string;
  url: string;
  trigger: Trigger;
  verifiedAt: Date;
  createdAt: Date;
  latestAttempt: LatestAttempt | null;
}

export interface Attempt extends LatestAttempt {
  auditId: string;
  attemptNumber: number;
  responseBody: string | null;
}

/** 32 random bytes, base64url (43 characters): the challenge and, once verified, the signing secret. */
export function newChallenge(): string {
  return randomBytes(32).toString('base64url');
}

export type Verification = { ok: true; challenge: string; verifiedAt: Date } | { ok: false; reason: string };

/** Sends the verification ping; any 2xx within the timeout verifies the destination. */
export async function verifyDestination(fetcher: SafeFetcher, url: URL, timeoutMs: number, log: OperatorLog): Promise<Verification> {
  const challenge = newChallenge();
  const result = await postWebhook(
    fetcher,
    url,
    {
      body: JSON.stringify({ type: VERIFICATION_EVENT_TYPE, challenge }),
      headers: { 'content-type': 'application/json' },
      timeoutMs,
    },
    log,
  );
  return result.outcome === 'delivered' ? { ok: true, challenge, verifiedAt: new Date() } : { ok: false, reason: result.reason! };
}

export async function countRegistrations(db: Kysely<Database>, apiKeyId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Stores a verified registration unless the key already holds `maxPerKey`. The key's row is locked
 * for the count and insert, so concurrent registrations of one key cannot overshoot the limit.
 */
export async function saveRegistration(
  db: Kysely<Database>,
  input: { apiKeyId: string; url: string; trigger: Trigger; challenge: string; verifiedAt: Date; maxPerKey: number },
): Promise<Registration | 'limit reached'> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('api_keys').select('id').where('id', '=', input.apiKeyId).forUpdate().executeTakeFirstOrThrow();
    if ((await countRegistrations(trx, input.apiKeyId)) >= input.maxPerKey) return 'limit reached';
    const row = await trx
      .insertInto('webhooks')
      .values({
        id: randomUUID(),
        api_key_id: input.apiKeyId,
        url: input.url,
        trigger_severity: input.trigger.severity,
        trigger_branch: input.trigger.branch,
        trigger_on: input.trigger.on,
        challenge: input.challenge,
        verified_at: input.verifiedAt,
      })
      .returning(['id', 'url', 'trigger_severity', 'trigger_branch', 'trigger_on', 'verified_at', 'created_at'])
      .executeTakeFirstOrThrow();
    return registrationOf({ ...row, attempt_id: null });
  });
}

type RegistrationRow = {
  id: string;
  url: string;
  trigger_severity: string;
  trigger_branch: string;
  trigger_on: string;
  verified_at: Date;
  created_at: Date;
  attempt_id: string | null;
  outcome?: string | null;
  status_code?: number | null;
  reason?: string | null;
  attempted_at?: Date | null;
  duration_ms?: number | null;
};

function registrationOf(row: RegistrationRow): Registration {
  return {
    id: row.id,
    url: row.url,
    trigger: { severity: row.trigger_severity as TriggerSeverity, branch: row.trigger_branch as TriggerBranch, on: row.trigger_on as TriggerOn },
    verifiedAt: row.verified_at,
    createdAt: row.created_at,
    latestAttempt:
      row.attempt_id === null
        ? null
        : {
            deliveryId: row.attempt_id,
            outcome: row.outcome as LatestAttempt['outcome'],
            statusCode: row.status_code ?? null,
            reason: currentReason(row.reason ?? null),
            attemptedAt: row.attempted_at!,
            durationMs: row.duration_ms!,
          },
  };
}

/** The key's registrations, oldest first, each with its latest attempt (a read of the attempt log). */
export async function listRegistrations(db: Kysely<Database>, apiKeyId: string): Promise<Registration[]> {
  const rows = await db
    .selectFrom('webhooks as w')
    .leftJoin('webhook_attempts as a', 'a.id', 'w.latest_attempt_id')
    .select(['w.id', 'w.url', 'w.trigger_severity', 'w.trigger_branch', 'w.trigger_on', 'w.verified_at', 'w.created_at'])
    .select(['a.id as attempt_id', 'a.outcome', 'a.status_code', 'a.reason', 'a.attempted_at', 'a.duration_ms'])
    .where('w.api_key_id', '=', apiKeyId)
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
  return rows.map(registrationOf);
}

/** An admin's pause or resume of any key's registration; false if there is none. */
export async function setRegistrationPaused(db: Kysely<Database>, id: string, paused: boolean): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ paused_at: paused ? sql<Date>`coalesce(paused_at, now())` : null })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** An admin's delete: any key's registration (a revoked key's too, which its key can no longer reach); false if none. */
export async function deleteAnyRegistration(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes the key's registration (its pending deliveries and attempts go with it); false if not the key's. */
export async function deleteRegistration(db: Kysely<Database>, apiKeyId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** One page of a registration's attempts, newest first; undefined when the key does not own it. */
export async function listAttempts(
  db: Kysely<Database>,
  apiKeyId: string,
  webhookId: string,
  page: { limit: number; after?: ListPosition },
): Promise<{ attempts: Attempt[]; next: ListPosition | null } | undefined> {
  const owner = await db.selectFrom('webhooks').select('id').where('id', '=', webhookId).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  if (!owner) return undefined;
  const { limit, after } = page;
  const rows = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.id', 'd.audit_id', 'a.attempt_number', 'a.outcome', 'a.status_code', 'a.reason', 'a.duration_ms', 'a.response_body', 'a.attempted_at'])
    .select(sql<string>`to_char(a.attempted_at at time zone 'UTC', ${sql.raw(POSITION_FORMAT)})`.as('position'))
    .where('a.webhook_id', '=', webhookId)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(a.attempted_at, a.id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('a.attempted_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1) // see pageOf
    .execute();
  const { rows: attempts, next } = pageOf(rows, limit);
  return {
    attempts: attempts.map((row) => ({
      deliveryId: row.id,
      auditId: row.audit_id,
      attemptNumber: row.attempt_number,
      outcome: row.outcome as Attempt['outcome'],
      statusCode: row.status_code,
      reason: currentReason(row.reason),
      durationMs: row.duration_ms,
      responseBody: row.response_body,
      attemptedAt: row.attempted_at,
    })),
    next,
  };
}

/** A registration as the admin dashboard lists it: with its owner key's id and display prefix. */
export interface OwnedRegistration extends Registration {
  keyId: string;
  /** The key's display form (`ask_AbCd`, `sha256:1a2b3c4d`): never the key, its hash or the challenge. */
  keyPrefix: string;
  /** When an admin paused it (the dashboard only): its deliveries wait until it is resumed. */
  pausedAt: Date | null;
}

/** One page of every key's registrations, newest first (created_at desc, id desc), for admins. */
export async function listAllRegistrations(
  db: Kysely<Database>,
  page: { limit: number; after?: ListPosition },
): Promise<{ registrations: OwnedRegistration[]; next: ListPosition | null }> {
  const { limit, after } = page;
  const rows = await selectOwned(db)
    .select(sql<string>`to_char(w.created_at at time zone 'UTC', ${sql.raw(POSITION_FORMAT)})`.as('position'))
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(w.created_at, w.id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(limit + 1) // see pageOf
    .execute();
  const { rows: registrations, next } = pageOf(rows, limit);
  return {
    registrations: registrations.map(ownedRegistrationOf),
    next,
  };
}

/** Any key's registration with this id, for admins; undefined when there is none (or the id is not a UUID). */
export async function findOwnedRegistration(db: Kysely<Database>, id: string): Promise<OwnedRegistration | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await selectOwned(db).where('w.id', '=', id).executeTakeFirst();
  return row && ownedRegistrationOf(row);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function selectOwned(db: Kysely<Database>) {
  return db
    .selectFrom('webhooks as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .leftJoin('webhook_attempts as a', 'a.id', 'w.latest_attempt_id')
    .select(['w.id', 'w.url', 'w.trigger_severity', 'w.trigger_branch', 'w.trigger_on', 'w.verified_at', 'w.created_at', 'w.paused_at', 'k.id as key_id', 'k.display'])
    .select(['a.id as attempt_id', 'a.outcome', 'a.status_code', 'a.reason', 'a.attempted_at', 'a.duration_ms']);
}

function ownedRegistrationOf(row: RegistrationRow & { key_id: string; display: string; paused_at: Date | null }): OwnedRegistration {
  return { ...registrationOf(row), keyId: row.key_id, keyPrefix: row.display, pausedAt: row.paused_at };
}
