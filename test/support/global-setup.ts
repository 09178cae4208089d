// Runs once around the test files: builds the migrated PGlite template they all load, or on
// PostgreSQL names the run whose per-file schemas the teardown drops (see test/support/db.ts).
import { dropRunSchemas, ensurePgliteTemplate, nameSchemaRun, usingPostgres } from './db.ts';

export async function globalSetup(): Promise<void> {
  if (!usingPostgres) return void (await ensurePgliteTemplate());
  nameSchemaRun();
  await dropRunSchemas(); // and those left by runs that were killed
}

export async function globalTeardown(): Promise<void> {
  if (usingPostgres) await dropRunSchemas();
}
