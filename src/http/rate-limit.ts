// Fixed-window limiter per API key, exact under concurrency and across processes: one atomic
// upsert both takes the slot and reports the count, so there is no read-then-write to race.
// The window is aligned to the database clock (floor(now / window)), which every process shares.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  policy: RateLimitPolicy;
  take(apiKeyId: string): Promise<RateLimitDecision>;
}

/** The tables of the same shape that hold a budget's windows: one per budget. */
export type RateLimitTable = 'rate_limit_windows' | 'webhook_rate_limit_windows';

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
  return {
    policy,
    async take(apiKeyId) {
      const now = clock ? sql`${clock().toISOString()}::timestamptz` : sql`now()`;
      const windowStart = sql`to_timestamp(floor(extract(epoch from ${now}) / ${window}) * ${window})`;
      // The CTE drops this key's finished windows so the table stays one row per active key.
      const result = await sql<{ used: number; reset_seconds: string }>`
        with finished as (
          delete from ${windows} where api_key_id = ${apiKeyId} and window_start < ${windowStart}
        )
        insert into ${windows} (api_key_id, window_start, used)
        values (${apiKeyId}, ${windowStart}, 1)
        on conflict (api_key_id, window_start) do update set used = ${windows}.used + 1
        returning used, extract(epoch from (window_start + make_interval(secs => ${window}) - ${now})) as reset_seconds
      `.execute(db);
      const row = result.rows[0]!;
      const used = Number(row.used);
      return {
        allowed: used <= policy.limit,
        limit: policy.limit,
        remaining: Math.max(0, policy.limit - used),
        resetSeconds: Math.max(1, Math.ceil(Number(row.reset_seconds))),
      };
    },
  };
}
