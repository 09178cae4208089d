// Test databases. On PostgreSQL (TEST_DATABASE_URL set) each test file gets its own schema on the
// shared server, dropped when the whole run ends (see dropRunSchemas). On PGlite each gets an in-memory copy of one migrated template, because creating
// a PGlite database takes seconds while loading a dumped one takes a fraction of a second.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPostgres, wrapPglite, type DatabaseHandle } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const root = path.resolve(import.meta.dirname, '../..');
const migrationsDir = path.join(root, 'src/db/migrations');

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

function templatePath(): string {
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(migrationsDir).sort()) hash.update(file).update(fs.readFileSync(path.join(migrationsDir, file)));
  hash.update(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  return path.join(root, '.tmp', `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Creates the migrated PGlite template if it is missing (global setup calls this once). */
export async function ensurePgliteTemplate(): Promise<string> {
  const target = templatePath();
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const pglite = await PGlite.create();
  const handle = wrapPglite(pglite);
  await migrateToLatest(handle.db);
  const dump = await pglite.dumpDataDir('none');
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(temp, target); // atomic: parallel workers never read a half-written template
  await handle.close();
  return target;
}

export interface TestDatabase extends DatabaseHandle {
  /** PostgreSQL only: a second, independent pool on the same schema, as another process would have. */
  connectAgain?: (pool?: pg.PoolConfig) => Promise<DatabaseHandle>;
  /** PostgreSQL only: a connection string that lands in this file's schema, for child processes. */
  connectionString?: string;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const run = process.env[RUN_ENV];
    const schema = `test_${run ?? 'solo'}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const connect = (pool: pg.PoolConfig = {}) => openPostgres(url, { pool: { options: `-c search_path=${schema}`, ...pool } });
    const handle = await connect();
    await admin.end();
    await migrateToLatest(handle.db, { schema });
    return {
      ...handle,
      connectAgain: connect,
      connectionString: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      async close() {
        await handle.close();
        // Within a run the global teardown drops the schema: see dropRunSchemas.
        if (run === undefined) await dropSchemas(url, [schema]);
      },
    };
  }
  const template = await ensurePgliteTemplate();
  const pglite = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(template)]) });
  return wrapPglite(pglite);
}

/**
 * A schema dropped while another test file migrates fails that migration: Kysely's migrator lists
 * the tables of every schema (`has_schema_privilege(nspname, …)` per row), and a schema that
 * vanishes between the listing's snapshot and that lookup is an error ("schema … does not exist").
 * So within a run no schema is dropped until every file is done: the global setup names the run
 * (its process id, which every test file's process inherits in this variable) and the global
 * teardown drops the run's schemas, with those of earlier runs whose process is gone.
 */
const RUN_ENV = 'AUDIT_TEST_SCHEMA_RUN';

export function nameSchemaRun(): void {
  process.env[RUN_ENV] = String(process.pid);
}

export async function dropRunSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 'test\\_%'`);
    for (const { nspname } of rows) {
      const owner = /^test_(\d+)_[0-9a-f]+$/.exec(nspname)?.[1];
      if (owner !== undefined && (owner === String(process.pid) || !processAlive(Number(owner)))) await client.query(`drop schema if exists ${nspname} cascade`);
    }
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  await withClient(url, async (client) => {
    for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
  });
}

async function withClient(url: string, use: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
