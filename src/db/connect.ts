// One SQL dialect, two stores: PostgreSQL through DATABASE_URL, or the embedded PGlite in
// AUDIT_DATA_DIR. Both are driven through Kysely's PostgresDialect over a node-postgres Pool
// (PGlite ships a node-postgres-compatible connection), so every query and migration is shared.
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './dir-lock.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

// node-postgres returns bigint (int8) as strings; every count we read is small enough for a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export async function openPostgres(connectionString: string, poolOptions: pg.PoolConfig = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: 10, ...poolOptions });
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
}

/** Opens the configured store and brings its schema to the latest migration. */
export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  const handle = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
