// Versioned migrations, applied at every start. Kysely's migrator takes a database lock while it
// runs, so several processes starting together on PostgreSQL apply each migration once.
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import * as initial from './migrations/0001_initial.ts';
import * as keyDisplay from './migrations/0002_key_display.ts';
import * as auditReadback from './migrations/0003_audit_readback.ts';
import * as webhooks from './migrations/0004_webhooks.ts';
import * as wcagFindings from './migrations/0005_wcag_findings.ts';
import * as findingSource from './migrations/0006_finding_source.ts';
import * as usersSessions from './migrations/0007_users_sessions.ts';
import * as remediationTickets from './migrations/0008_remediation_tickets.ts';
import * as deliveryFairness from './migrations/0009_delivery_fairness.ts';
import * as webhookPause from './migrations/0011_webhook_pause.ts';
import * as monitors from './migrations/0012_monitors.ts';
import * as findingIdentities from './migrations/0013_finding_identities.ts';
import * as keyRateLimit from './migrations/0014_key_rate_limit.ts';

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_key_display': keyDisplay,
  '0003_audit_readback': auditReadback,
  '0004_webhooks': webhooks,
  '0005_wcag_findings': wcagFindings,
  '0006_finding_source': findingSource,
  '0007_users_sessions': usersSessions,
  '0008_remediation_tickets': remediationTickets,
  '0009_delivery_fairness': deliveryFairness,
  '0011_webhook_pause': webhookPause,
  '0012_monitors': monitors,
  '0013_finding_identities': findingIdentities,
  '0014_key_rate_limit': keyRateLimit,
};

/**
 * `schema` names the schema of Kysely's own bookkeeping tables. Without it Kysely looks for them by
 * name in every schema of the database, so a database holding another migrated schema (the tests'
 * one-schema-per-file PostgreSQL) would find that one's and never create its own.
 */
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  // Unordered: migrations written in parallel branches land in either order, and a database that
  // already ran a later-numbered one must still accept an earlier one that arrives afterwards.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`, { cause: error });
  }
}
