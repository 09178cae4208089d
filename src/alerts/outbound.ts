// One webhook POST (verification ping or delivery try) through the safe fetcher, reduced to what
// may be shown: an outcome, a status code and a reason from a fixed set. The fetcher's error
// detail (addresses, ranges, socket and TLS codes) goes to the operator log only.
import type { SafeFetcher } from '../net/safe-fetch.ts';
import { OutboundError, type OutboundReason } from '../net/safe-fetch.ts';

/**
 * Every reason an attempt or a failed verification can carry: stable, documented in the README,
 * and free of network detail. `non-2xx response (status N)` carries the receiver's status.
 *
 * `unreachable` covers a refused host or address and every way its name can fail to resolve (it
 * does not exist, the resolver failed, no answer in time) alike: the client chooses the name, and
 * telling "resolves to an internal address" from "does not exist" would let it map the names that
 * exist inside the operator's network. The operator log keeps the difference.
 */
export const FAILURE_REASONS = {
  unreachable: 'destination not reachable or not allowed',
  timeout: 'timeout',
  redirect: 'redirect',
  tls: 'TLS error',
  connection: 'connection failed',
  legacy: 'no signing secret (legacy registration)',
  /** Recorded at revocation for each of the key's pending deliveries, nothing sent (src/auth/api-keys.ts). */
  revoked: 'API key revoked',
} as const;

export const nonSuccessReason = (status: number): string => `non-2xx response (status ${status})`;

const REASON_OF: Record<OutboundReason, string> = {
  'bad-url': FAILURE_REASONS.unreachable,
  'blocked-address': FAILURE_REASONS.unreachable,
  'no-such-host': FAILURE_REASONS.unreachable,
  dns: FAILURE_REASONS.unreachable, // a resolver failure, or no answer before the deadline
  connect: FAILURE_REASONS.connection,
  tls: FAILURE_REASONS.tls,
  timeout: FAILURE_REASONS.timeout,
  'too-large': FAILURE_REASONS.connection,
  'bad-encoding': FAILURE_REASONS.connection,
  redirect: FAILURE_REASONS.redirect,
  'too-many-redirects': FAILURE_REASONS.redirect,
  downgrade: FAILURE_REASONS.redirect,
  'http-status': FAILURE_REASONS.connection, // not raised: failOnHttpError is off
  network: FAILURE_REASONS.connection,
  aborted: FAILURE_REASONS.connection,
  'not-html': FAILURE_REASONS.connection, // the crawl's, never the fetcher's
  'invalid-request': FAILURE_REASONS.connection,
};

/** The reason an attempt records for an outbound failure: a fixed text, never the network's detail. */
export const failureReason = (reason: OutboundReason): string => REASON_OF[reason];

/** Reasons recorded before `unreachable` replaced them; attempts stored then still hold them. */
const RETIRED_REASONS: ReadonlyMap<string, string> = new Map([
  ['unsafe destination', FAILURE_REASONS.unreachable],
  ['DNS failure', FAILURE_REASONS.unreachable],
]);

/** A stored attempt's reason as clients see it: a retired reason reads as the one that replaced it. */
export const currentReason = (stored: string | null): string | null => (stored === null ? null : (RETIRED_REASONS.get(stored) ?? stored));

/** At most this much of a receiver's answer is kept with the attempt. */
export const RESPONSE_BODY_BYTES = 1024;

export interface PostOutcome {
  outcome: 'delivered' | 'failed';
  statusCode: number | null;
  reason: string | null;
  /** ≤ 1 KiB of the answer, as UTF-8 (lossy); null when there was no answer. */
  responseBody: string | null;
  /** Retry-After of the answer, in ms from now, when it had a usable one. */
  retryAfterMs: number | undefined;
  durationMs: number;
}

export interface OperatorLog {
  info(obj: object, msg: string): void;
}

/** POSTs JSON once: no redirect followed, the whole exchange bounded by `timeoutMs`. */
export async function postWebhook(
  fetcher: SafeFetcher,
  url: URL,
  request: { body: string; headers: Record<string, string>; timeoutMs: number; signal?: AbortSignal },
  log: OperatorLog,
  now: () => number = Date.now,
): Promise<PostOutcome> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    const res = await fetcher.request(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      maxRedirects: 0,
      timeoutMs: request.timeoutMs,
      maxBytes: RESPONSE_BODY_BYTES,
      overflow: 'truncate',
      failOnHttpError: false,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const ok = res.status >= 200 && res.status < 300;
    // A 3xx that is not a redirect status (300, 304) arrives here: still never followed, a redirect.
    const reason = ok ? null : res.status >= 300 && res.status < 400 ? FAILURE_REASONS.redirect : nonSuccessReason(res.status);
    return {
      outcome: ok ? 'delivered' : 'failed',
      statusCode: res.status,
      reason,
      responseBody: res.body.toString('utf8'),
      retryAfterMs: ok ? undefined : retryAfterMs(res.headers['retry-after'], now()),
      durationMs: duration(),
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    log.info({ reason: error.reason, detail: error.message }, 'webhook request failed');
    return {
      outcome: 'failed',
      statusCode: error.status ?? null,
      reason: failureReason(error.reason),
      responseBody: null,
      retryAfterMs: undefined,
      durationMs: duration(),
    };
  }
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110, 10.2.3), in ms from `nowMs`. */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d{1,10}$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
