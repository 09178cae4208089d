// Versioned migrations, applied at every start. Kysely's migrator takes a database lock while it
// runs, so several processes starting together on PostgreSQL apply each migration once.
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import * as initial from './migrations/0001_initial.ts';
import * as keyDisplay from './migrations/0002_key_display.ts';

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_key_display': keyDisplay,
};

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`);
  }
}
