// Which database errors mean "the database cannot be reached or cannot answer now" rather than a
// fault in a statement: a restart, a reset or refused connection, a partition that hit a timeout,
// a server refusing connections. The HTTP layer answers those with 503 and Retry-After (the work
// was not done; try again), the start-up wait retries them, and nothing else is treated so.

/** SQLSTATEs of a server that is going away, starting, full, or cancelled a statement on its timeout. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: "terminating connection due to administrator command" (restart, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '57014', // query_canceled: statement_timeout (AUDIT_DB_STATEMENT_TIMEOUT_MS) ran out
  '53300', // too_many_connections
  '55P03', // lock_not_available: a lock wait ran out
]);

/** Socket errors on the way to the database. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres reports these without a code: its own timeouts (connect, pool wait, query read)
 * and a connection that ended under a query.
 */
const UNAVAILABLE_MESSAGES = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'connection timeout',
  'is not queryable',
  'Connection terminated unexpectedly',
];

/** Thrown by code of ours that gives up on the database (the readiness probe's own bound). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code) || code.startsWith('08')) return true;
    }
    if (UNAVAILABLE_MESSAGES.some((message) => current.message.includes(message))) return true;
    // An AggregateError (several addresses refused) carries the socket errors in `errors`.
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
