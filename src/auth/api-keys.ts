// API keys are high-entropy secrets, so a fast SHA-256 under a unique index is the right store:
// the raw key is never persisted, logged or returned after `create` prints it once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { BaseLogger } from 'pino';
import { FAILURE_REASONS } from '../alerts/outbound.ts';
import type { Database } from '../db/schema.ts';
import { codePointName, DISRUPTIVE_CHARACTER } from '../unsafe-text.ts';

export interface ApiKeyIdentity {
  id: string;
}

export interface ApiKeyRow {
  id: string;
  /** What an operator sees instead of the key: `ask_AbCd` or `sha256:1a2b3c4d` (see below). */
  display: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** The key's own audit budget per window; null: the default (AUDIT_RATE_LIMIT). */
  rateLimit: number | null;
}

/** A fixed, non-secret type prefix: secret scanners and people recognise the key by it. */
const KEY_TYPE_PREFIX = 'ask_';
const SEED_LABEL = 'seed (AUDIT_SEED_API_KEY)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/** A new raw key: the type prefix, then 32 random bytes in base64url (43 characters). */
export function generateRawKey(): string {
  return `${KEY_TYPE_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * A generated key displays as its type prefix plus its first 4 random characters, as API
 * providers show keys: 24 of its 256 random bits, enough to tell keys apart.
 */
function generatedKeyDisplay(rawKey: string): string {
  return rawKey.slice(0, KEY_TYPE_PREFIX.length + 4);
}

/**
 * An operator-chosen seed key may be far less random than a generated one, so none of its
 * characters is shown: only 8 hex characters of its SHA-256. Migration 0002 computes the same
 * form in SQL for rows stored before it.
 */
function keyFingerprint(keyHash: string): string {
  return `sha256:${keyHash.slice(0, 8)}`;
}

async function insertKey(
  db: Kysely<Database>,
  keyHash: string,
  display: string,
  label: string | null,
  rateLimit: number | null = null,
): Promise<{ id: string; inserted: boolean; revokedAt: Date | null }> {
  const inserted = await db
    .insertInto('api_keys')
    .values({ id: randomUUID(), key_hash: keyHash, display, label, rate_limit: rateLimit })
    .onConflict((conflict) => conflict.column('key_hash').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, inserted: true, revokedAt: null };
  const existing = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('key_hash', '=', keyHash).executeTakeFirstOrThrow();
  return { id: existing.id, inserted: false, revokedAt: existing.revoked_at };
}

export type SeedKeyStatus = 'created' | 'present' | 'revoked';

/**
 * Inserts the seed key's hash when it is absent; idempotent, safe for several processes starting
 * at once. A previously revoked seed stays revoked (rotation means setting a new value), and
 * starting with one is logged at warn: the operator believes it works, and no request will pass.
 */
export async function ensureSeedKey(
  db: Kysely<Database>,
  rawKey: string,
  log: Pick<BaseLogger, 'info' | 'warn'>,
): Promise<{ id: string; status: SeedKeyStatus }> {
  const keyHash = hashApiKey(rawKey);
  const seed = await insertKey(db, keyHash, keyFingerprint(keyHash), SEED_LABEL);
  const keyId = seed.id;
  if (seed.inserted) {
    log.info({ keyId }, 'seed API key created');
    return { id: keyId, status: 'created' };
  }
  if (seed.revokedAt) {
    log.warn(
      { keyId, revokedAt: seed.revokedAt.toISOString() },
      'seed API key is revoked and stays revoked: set a new AUDIT_SEED_API_KEY, or create a key with the CLI',
    );
    return { id: keyId, status: 'revoked' };
  }
  log.info({ keyId }, 'seed API key present');
  return { id: keyId, status: 'present' };
}

// ---- Labels: free text that operators read in a terminal (`keys list`) and in the dashboard ----

/** The dashboard's bound since it had a form, now everywhere; counted in code points. */
export const API_KEY_LABEL_MAX_LENGTH = 200;

export type LabelCheck = { ok: true; label: string | null } | { ok: false; problem: string };

/** A label as typed (trimmed; blank means none), or why it is refused, for "The label …". */
export function checkApiKeyLabel(raw: string | undefined | null): LabelCheck {
  const label = raw?.trim() ?? '';
  if (label === '') return { ok: true, label: null };
  const length = [...label].length;
  if (length > API_KEY_LABEL_MAX_LENGTH) {
    return { ok: false, problem: `must be at most ${API_KEY_LABEL_MAX_LENGTH} characters long (got ${length})` };
  }
  // They would split the CLI's tab-separated lines, drive the operator's terminal, or make the
  // dashboard show another name than the one stored (see unsafe-text.ts).
  const forbidden = DISRUPTIVE_CHARACTER.exec(label);
  if (forbidden) {
    return { ok: false, problem: `must not contain control or text-direction characters (tab, newline, escape, bidi overrides…); found ${codePointName(forbidden[0])}` };
  }
  return { ok: true, label };
}

/** Callers check labels first (their messages differ); this catches one that did not. */
function assertLabel(label: string | null): void {
  const check = checkApiKeyLabel(label);
  if (!check.ok || check.label !== label) throw new TypeError(`an unchecked API key label reached the store: it ${check.ok ? 'is not trimmed' : check.problem}`);
}

// ---- Audit budgets: a key's own requests per window, instead of AUDIT_RATE_LIMIT ----

/** AUDIT_RATE_LIMIT's bounds (config.ts), so a key's own budget is one the default could be. */
export const API_KEY_RATE_LIMIT_MIN = 1;
export const API_KEY_RATE_LIMIT_MAX = 1_000_000;

export type RateLimitCheck = { ok: true; rateLimit: number | null } | { ok: false; problem: string };

/**
 * A budget as typed: a whole number from 1 to 1,000,000, or `default` for none of the key's own;
 * or why it is refused, for "The budget …" (the value itself is not repeated).
 */
export function checkApiKeyRateLimit(raw: string): RateLimitCheck {
  const value = raw.trim();
  if (value.toLowerCase() === 'default') return { ok: true, rateLimit: null };
  const rateLimit = /^[0-9]{1,7}$/.test(value) ? Number(value) : Number.NaN;
  if (!(rateLimit >= API_KEY_RATE_LIMIT_MIN && rateLimit <= API_KEY_RATE_LIMIT_MAX)) {
    return { ok: false, problem: `must be a whole number from ${API_KEY_RATE_LIMIT_MIN} to ${API_KEY_RATE_LIMIT_MAX.toLocaleString('en')}, or default` };
  }
  return { ok: true, rateLimit };
}

function assertRateLimit(rateLimit: number | null): void {
  if (rateLimit !== null && !(Number.isInteger(rateLimit) && rateLimit >= API_KEY_RATE_LIMIT_MIN && rateLimit <= API_KEY_RATE_LIMIT_MAX)) {
    throw new RangeError(`an unchecked API key rate limit reached the store: ${rateLimit}`);
  }
}

export async function createApiKey(db: Kysely<Database>, label: string | null, rateLimit: number | null = null): Promise<{ id: string; rawKey: string }> {
  assertLabel(label);
  assertRateLimit(rateLimit);
  const rawKey = generateRawKey();
  const { id } = await insertKey(db, hashApiKey(rawKey), generatedKeyDisplay(rawKey), label, rateLimit);
  return { id, rawKey };
}

export type SetRateLimitResult = 'updated' | 'unchanged' | 'not-found';

/**
 * Gives the key its own audit budget, or (null) returns it to the default. The rate limiter reads
 * it in the statement that takes each slot, so it applies from the key's next request, to the
 * window in progress too (slots already taken in it count against the new figure).
 */
export async function setApiKeyRateLimit(db: Kysely<Database>, id: string, rateLimit: number | null): Promise<SetRateLimitResult> {
  assertRateLimit(rateLimit);
  if (!UUID.test(id)) return 'not-found';
  const updated = await db
    .updateTable('api_keys')
    .set({ rate_limit: rateLimit })
    .where('id', '=', id)
    .where(sql<boolean>`rate_limit is distinct from ${rateLimit}::integer`)
    .returning('id')
    .executeTakeFirst();
  if (updated) return 'updated';
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
  return exists ? 'unchanged' : 'not-found';
}

/**
 * Creates a key under an id the caller derived from one submission of a form, unless that id
 * exists: a form posted twice (a browser reload resubmits it) makes one key, and the second post
 * learns it was already made, without its raw value, which exists nowhere any more.
 */
export async function createApiKeyOnce(db: Kysely<Database>, id: string, label: string | null): Promise<{ id: string; rawKey: string } | 'exists'> {
  assertLabel(label);
  const rawKey = generateRawKey();
  const inserted = await db
    .insertInto('api_keys')
    .values({ id, key_hash: hashApiKey(rawKey), display: generatedKeyDisplay(rawKey), label })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? { id, rawKey } : 'exists';
}

/** The active key with this raw value, or undefined for unknown and revoked keys alike. */
export async function authenticateApiKey(db: Kysely<Database>, rawKey: string | undefined): Promise<ApiKeyIdentity | undefined> {
  if (!rawKey) return undefined;
  return db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', '=', hashApiKey(rawKey))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

function selectKeys(db: Kysely<Database>) {
  return db.selectFrom('api_keys').select(['id', 'display', 'label', 'created_at as createdAt', 'revoked_at as revokedAt', 'rate_limit as rateLimit']);
}

export function listApiKeys(db: Kysely<Database>): Promise<ApiKeyRow[]> {
  return selectKeys(db).orderBy('created_at').orderBy('id').execute();
}

/** The key with this id; undefined when there is none (including ids that are not UUIDs). */
export async function getApiKey(db: Kysely<Database>, id: string): Promise<ApiKeyRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return selectKeys(db).where('id', '=', id).executeTakeFirst();
}

export type RevokeResult = 'revoked' | 'already-revoked' | 'not-found';

/**
 * Revokes the key and, in the same statement, ends its webhook deliveries: each pending one (due
 * later, or being sent now) becomes failed with one attempt of reason "API key revoked", nothing
 * sent, and its registration's latestAttempt points at it. The registrations stay, for the record
 * and for an admin to delete. A try already on the wire still reaches its receiver; its outcome is
 * not recorded (the lease it held is gone). An audit that finishes afterwards queues no event for
 * a revoked key (outbox.ts), and the delivery worker's claim skips a revoked key's rows.
 */
export async function revokeApiKey(db: Kysely<Database>, id: string): Promise<RevokeResult> {
  if (!UUID.test(id)) return 'not-found';
  const now = new Date();
  const { rows } = await sql<{ id: string }>`
    with revoked as (
      update api_keys set revoked_at = ${now} where id = ${id} and revoked_at is null returning id
    ), ended as (
      update webhook_deliveries as d
      set state = 'failed', attempts = d.attempts + 1, next_attempt_at = ${now}, locked_until = null, lease = null
      from webhooks as w, revoked as k
      where w.id = d.webhook_id and w.api_key_id = k.id and d.state = 'pending'
      returning d.id, d.webhook_id, d.attempts
    ), recorded as (
      insert into webhook_attempts (id, delivery_id, webhook_id, attempt_number, outcome, status_code, reason, duration_ms, response_body, attempted_at)
      select gen_random_uuid(), e.id, e.webhook_id, e.attempts, 'failed', null, ${FAILURE_REASONS.revoked}, 0, null, ${now}
      from ended as e
      returning id, webhook_id
    ), moved as (
      update webhooks as w set latest_attempt_id = r.id
      from (select distinct on (webhook_id) id, webhook_id from recorded order by webhook_id, id) as r
      where w.id = r.webhook_id
    )
    select id from revoked
  `.execute(db);
  if (rows.length > 0) return 'revoked';
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
  return exists ? 'already-revoked' : 'not-found';
}
