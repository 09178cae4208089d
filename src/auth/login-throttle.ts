// The login throttle: failed logins over a sliding window per (email, client address) pair, per
// client address, and per email, stored in the database so every process on one PostgreSQL counts
// the same attempts.
//
// Why three counts (OWASP Authentication Cheat Sheet, "Protect Against Automated Attacks"): a low
// per-email limit alone is a lock-out switch, since anyone who knows an email could spend its
// budget from anywhere and the owner's correct password would be refused everywhere. So the low
// limit is per pair: one client guessing at an email stops only itself. The per-address limit
// stops one client spraying many emails, and the far higher per-email ceiling bounds a guesser
// spread over many addresses, which the README's sizing turns into guesses per day.
//
// An attempt is recorded *before* the password is checked, and removed again when it succeeds.
// So attempts still being checked count too: a burst of parallel guesses gets no more than the
// limit through, where counting finished failures only would let the whole burst in.
import { randomUUID } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { sql, type Kysely } from 'kysely';
import type { LoginThrottleConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';

/**
 * The client key of an address: IPv4 as is, IPv6 by its /64 prefix (one subscriber usually holds
 * a whole /64, so per-address counting would give them 2^64 budgets), an IPv4-mapped IPv6 address
 * as the IPv4 address it carries.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

export type Reservation = { attemptId: string } | { retryAfterSeconds: number };

/**
 * Records an attempt for this email and client unless the pair, the client or the email is at its
 * limit; then answers how long until one of the counted attempts leaves the window. The answer
 * never depends on whether the email is a user's: the throttle does not look. Serialised per email
 * and per client by transaction-scoped advisory locks, always taken in that order, so two
 * processes cannot both see room for one last attempt and deadlock is impossible.
 */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  email: string,
  client: string,
  now: Date,
  policy: LoginThrottleConfig,
): Promise<Reservation> {
  const since = new Date(now.getTime() - policy.windowSeconds * 1000);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`login-email:${email}`}, 0))`.execute(trx);
    await sql`select pg_advisory_xact_lock(hashtextextended(${`login-client:${client}`}, 0))`.execute(trx);
    // Attempts outside every window are of no further use.
    await trx.deleteFrom('login_attempts').where('attempted_at', '<=', since).execute();
    const scopes = [
      { match: { email, client_address: client }, limit: policy.maxFailuresPerEmailAndAddress },
      { match: { client_address: client }, limit: policy.maxFailuresPerAddress },
      { match: { email }, limit: policy.maxFailuresPerEmail },
    ];
    let retryAfterMs = 0;
    for (const scope of scopes) {
      // The newest `limit` attempts: when the oldest of them leaves the window, one more is allowed.
      const recent = await trx
        .selectFrom('login_attempts')
        .select('attempted_at')
        .where((eb) => eb.and(scope.match))
        .where('attempted_at', '>', since)
        .orderBy('attempted_at', 'desc')
        .limit(scope.limit)
        .execute();
      if (recent.length < scope.limit) continue;
      const freedAt = recent[scope.limit - 1]!.attempted_at.getTime() + policy.windowSeconds * 1000;
      retryAfterMs = Math.max(retryAfterMs, freedAt - now.getTime());
    }
    if (retryAfterMs > 0) return { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    const attemptId = randomUUID();
    await trx.insertInto('login_attempts').values({ id: attemptId, email, client_address: client, attempted_at: now }).execute();
    return { attemptId };
  });
}

/**
 * A successful login: its own attempt and this client's earlier failures for the email are
 * forgotten (someone here knows the password: typos, not guesses). Failures for the email from
 * other clients, and this client's failures on other emails, stay counted.
 */
export async function forgetFailures(db: Kysely<Database>, email: string, client: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('email', '=', email).where('client_address', '=', client).execute();
}
