// One SQL dialect, two stores: PostgreSQL through DATABASE_URL, or the embedded PGlite in
// AUDIT_DATA_DIR. Both are driven through Kysely's PostgresDialect over a node-postgres Pool
// (PGlite ships a node-postgres-compatible connection), so every query and migration is shared.
//
// PostgreSQL is a network service that restarts, resets connections and sits behind partitions.
// So every wait on it is bounded (the connection attempt and the wait for a pooled connection,
// each statement on the server and on the client), a connection that dies is dropped and replaced
// on the next use rather than taking the process down, and a process that starts while the
// database is away waits for it, with a bounded back-off, before giving up.
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './dir-lock.ts';
import { migrateToLatest } from './migrate.ts';
import { PREPARED_MARK } from './prepared.ts';
import type { Database } from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** What the database's own problems are reported to: the operator's log. */
export interface DatabaseLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const SILENT: DatabaseLog = { info() {}, warn() {} };

/** The bounds on every wait for PostgreSQL (config.ts: AUDIT_DB_*). */
export interface DatabaseBounds {
  /** A new connection's attempt, and a request's wait for a free pooled connection. */
  connectTimeoutMs: number;
  /** One statement: the server cancels it at this bound, the client gives up 1 s later. */
  statementTimeoutMs: number;
  /** How long a starting process waits for the database before it gives up. */
  startTimeoutMs: number;
}

export const DEFAULT_DATABASE_BOUNDS: DatabaseBounds = { connectTimeoutMs: 2000, statementTimeoutMs: 5000, startTimeoutMs: 60_000 };

// node-postgres returns bigint (int8) as strings; every count we read is small enough for a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * A client that drops its connection when a statement's answer does not come in time. node-postgres
 * rejects the query on `query_timeout` but keeps the connection, with the statement still
 * outstanding on it: the pool would hand out a connection that answers nothing (a partition) for
 * every later statement. Destroying the socket marks the client unusable, so the pool discards it.
 */
class BoundedClient extends pg.Client {
  override query(...args: unknown[]): any {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') {
          (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        }
      });
    }
    return result;
  }
}

/** Pool settings that bound every wait; the client-side bound leaves the server time to cancel first. */
export function boundedPoolOptions(bounds: DatabaseBounds): pg.PoolConfig {
  return {
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    query_timeout: bounds.statementTimeoutMs + 1000,
    // A transaction left open by a client that went away does not hold its locks for long.
    idle_in_transaction_session_timeout: Math.max(10_000, bounds.statementTimeoutMs * 2),
    // Dead peers are noticed on idle connections too.
    keepAlive: true,
    Client: BoundedClient as unknown as typeof pg.Client,
  };
}

/**
 * Makes connection failures recoverable: without a listener, an `error` event from an idle pooled
 * client (the server restarted: 57P01, or ECONNRESET) or from a checked-out one between statements
 * is an unhandled 'error' event and ends the process. The pool drops the dead client either way.
 */
function survivePoolErrors(pool: pg.Pool, log: DatabaseLog): void {
  pool.on('error', (error) => log.warn({ err: error }, 'database connection lost; it is replaced on next use'));
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn({ err: error }, 'database connection lost during use'));
  });
}

/**
 * Sends the statements marked with PREPARED (src/db/prepared.ts) as named prepared statements:
 * the delivery claim is planned in about 1.2 ms on the embedded database and runs once per batch.
 * The name carries a hash of the text, since node-postgres reuses a name it has prepared on a
 * connection without comparing the text.
 */
function prepareMarkedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    if (!text.startsWith(PREPARED_MARK)) return undefined;
    let name = names.get(text);
    if (name === undefined) {
      name = `${text.slice(PREPARED_MARK.length, text.indexOf(' */'))}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof config === 'string' ? nameOf(config) : undefined;
      if (name === undefined) return query(config, values, callback);
      return query({ name, text: config, values }, callback);
    };
  });
}

export interface PostgresOptions {
  bounds?: DatabaseBounds | undefined;
  log?: DatabaseLog | undefined;
  /** Extra node-postgres settings (tests set the schema through `options`). */
  pool?: pg.PoolConfig | undefined;
}

export async function openPostgres(connectionString: string, options: PostgresOptions = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: 10, ...boundedPoolOptions(options.bounds ?? DEFAULT_DATABASE_BOUNDS), ...options.pool });
  survivePoolErrors(pool, options.log ?? SILENT);
  prepareMarkedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Opens (creating if needed) the embedded database, holding an exclusive lock on its directory. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const lock = await lockDataDir(dataDir);
  try {
    const pglite = await PGlite.create(dataDir);
    return wrapPglite(pglite, lock.release);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Wraps an already open PGlite instance (tests open in-memory copies of a migrated template). */
export function wrapPglite(pglite: PGlite, onClose: () => void = () => {}): DatabaseHandle {
  const pool = new pg.Pool(createPgConfig(pglite) as pg.PoolConfig);
  prepareMarkedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      await pglite.close();
      onClose();
    },
  };
}

export interface DatabaseConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  database?: DatabaseBounds | undefined;
}

/** The start-up wait: 250 ms doubling to 5 s between tries. */
const START_RETRY_FIRST_MS = 250;
const START_RETRY_MAX_MS = 5000;

/**
 * Opens the configured store and brings its schema to the latest migration. PostgreSQL that cannot
 * be reached is waited for, each try logged, until `startTimeoutMs`; then the last error is thrown.
 */
export async function openDatabase(config: DatabaseConfig, log: DatabaseLog = SILENT): Promise<DatabaseHandle> {
  if (!config.databaseUrl) {
    const handle = await openPglite(config.dataDir);
    return closedOnFailure(handle, () => migrateToLatest(handle.db));
  }
  const bounds = config.database ?? DEFAULT_DATABASE_BOUNDS;
  const url = config.databaseUrl;
  const deadline = Date.now() + bounds.startTimeoutMs;
  for (let attempt = 1, pause = START_RETRY_FIRST_MS; ; attempt++, pause = Math.min(pause * 2, START_RETRY_MAX_MS)) {
    try {
      // Migrations run on a connection of their own without the statement bound: building an
      // index on a large table may rightly take longer than any request's statement.
      const migrator = await openPostgres(url, { bounds: { ...bounds, statementTimeoutMs: 0 }, log, pool: { max: 1, query_timeout: undefined } });
      try {
        await migrateToLatest(migrator.db);
      } finally {
        await migrator.close();
      }
      const handle = await openPostgres(url, { bounds, log });
      return await closedOnFailure(handle, () => sql`select 1`.execute(handle.db));
    } catch (error) {
      const left = deadline - Date.now();
      if (!isDatabaseUnavailable(error) || left <= 0) throw error;
      const wait = Math.min(pause, left);
      log.warn({ err: error, attempt, retryInMs: wait }, 'database not reachable at start; waiting for it');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The handle once `check` has passed; closed, and the error thrown, when it fails. */
async function closedOnFailure(handle: DatabaseHandle, check: () => Promise<unknown>): Promise<DatabaseHandle> {
  try {
    await check();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
