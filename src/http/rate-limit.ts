// Fixed-window limiter per API key, exact under concurrency and across processes: one atomic
// upsert both takes the slot and reports the count, so there is no read-then-write to race.
// The window is aligned to the database clock (floor(now / window)), which every process shares.
// A keyed route authenticates and takes its slot in that same statement (one round trip).
// The audit budget honours a key's own limit (api_keys.rate_limit, NULL for the default): the
// statement reads it with the key, so a changed budget and the slot never race either.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { hashApiKey, type ApiKeyIdentity } from '../auth/api-keys.ts';
import type { Database } from '../db/schema.ts';

export interface RateLimitPolicy {
  /** The default: for every key on budgets without keys' own limits, else for a key without one. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The key's: its own limit on the audit budget when it has one, else the policy's. */
  limit: number;
  remaining: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  policy: RateLimitPolicy;
  take(apiKeyId: string): Promise<RateLimitDecision>;
  /**
   * Authenticates the raw key and takes its slot in one statement: undefined (and no slot taken)
   * for a missing, unknown or revoked key, as `authenticateApiKey` answers.
   */
  authenticateAndTake(rawKey: string | undefined): Promise<{ apiKey: ApiKeyIdentity; decision: RateLimitDecision } | undefined>;
}

/**
 * The tables of the same shape that hold a budget's windows, one per budget, and whether a key's
 * own limit (`api_keys.rate_limit`) overrides the policy's: only on the audit budget. Webhook and
 * monitor registration stay on their global budgets.
 */
const BUDGETS = {
  rate_limit_windows: { keyOwnLimit: true },
  webhook_rate_limit_windows: { keyOwnLimit: false },
  monitor_rate_limit_windows: { keyOwnLimit: false },
} as const;

export type RateLimitTable = keyof typeof BUDGETS;

/**
 * `clock` overrides the database clock; tests use it to cross window boundaries without sleeping.
 * `table` selects the budget: each has its own table, so one budget's clean-up of finished windows
 * never touches another's.
 */
export function createRateLimiter(
  db: Kysely<Database>,
  policy: RateLimitPolicy,
  clock?: () => Date,
  table: RateLimitTable = 'rate_limit_windows',
): RateLimiter {
  const window = policy.windowSeconds;
  const windows = sql.table(table);
  const { keyOwnLimit } = BUDGETS[table];
  /** The key's own limit where this budget honours one: read in the `key` CTE, with the key. */
  const ownLimit = keyOwnLimit ? sql`rate_limit` : sql`null::integer`;
  /**
   * One slot for the key the `key` CTE yields (`id`, `own_limit`; no row: nothing is taken). The
   * CTE also drops that key's finished windows, so the table stays one row per active key.
   */
  async function takeSlot(key: RawBuilder<unknown>): Promise<{ id: string; decision: RateLimitDecision } | undefined> {
    const now = clock ? sql`${clock().toISOString()}::timestamptz` : sql`now()`;
    const windowStart = sql`to_timestamp(floor(extract(epoch from ${now}) / ${window}) * ${window})`;
    const result = await sql<{ id: string; own_limit: number | null; used: number; reset_seconds: string }>`
      with key as (${key}), finished as (
        delete from ${windows} as w using key where w.api_key_id = key.id and w.window_start < ${windowStart}
      ), slot as (
        insert into ${windows} (api_key_id, window_start, used)
        select id, ${windowStart}, 1 from key
        on conflict (api_key_id, window_start) do update set used = ${windows}.used + 1
        returning api_key_id, used, extract(epoch from (window_start + make_interval(secs => ${window}) - ${now})) as reset_seconds
      )
      select slot.api_key_id as id, key.own_limit, slot.used, slot.reset_seconds from slot join key on key.id = slot.api_key_id
    `.execute(db);
    const row = result.rows[0];
    if (!row) return undefined;
    const used = Number(row.used);
    const limit = row.own_limit ?? policy.limit;
    return {
      id: row.id,
      decision: {
        allowed: used <= limit,
        limit,
        remaining: Math.max(0, limit - used),
        resetSeconds: Math.max(1, Math.ceil(Number(row.reset_seconds))),
      },
    };
  }

  return {
    policy,
    async take(apiKeyId) {
      const slot = await takeSlot(
        keyOwnLimit
          ? sql`select given.id, k.rate_limit as own_limit from (select ${apiKeyId}::uuid as id) as given left join api_keys as k on k.id = given.id`
          : sql`select ${apiKeyId}::uuid as id, null::integer as own_limit`,
      );
      return slot!.decision;
    },
    async authenticateAndTake(rawKey) {
      if (!rawKey) return undefined;
      const slot = await takeSlot(sql`select id, ${ownLimit} as own_limit from api_keys where key_hash = ${hashApiKey(rawKey)} and revoked_at is null`);
      return slot && { apiKey: { id: slot.id }, decision: slot.decision };
    },
  };
}
