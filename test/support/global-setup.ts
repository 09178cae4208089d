// Runs once before the test files: builds the migrated PGlite template they all load.
import { ensurePgliteTemplate, usingPostgres } from './db.ts';

export async function globalSetup(): Promise<void> {
  if (!usingPostgres) await ensurePgliteTemplate();
}
