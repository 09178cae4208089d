// The transactional outbox: called inside the transaction that stores an audit, so the audit and
// its failure events commit together or not at all. One delivery row per matching verified
// registration of the same key; nothing when nothing matches.
import { sql, type Kysely } from 'kysely';
import type { Branch } from '../audit/control.ts';
import type { Finding, Totals } from '../audit/findings.ts';
import type { Database } from '../db/schema.ts';
import { randomUUID } from 'node:crypto';
import { EVENT_BRANCH, matchingFailures, type TriggerSeverity } from './matching.ts';
import type { StoredEvent } from './signing.ts';

/** The LISTEN/NOTIFY channel that announces committed deliveries to worker processes. */
export const DELIVERY_CHANNEL = 'svc_webhook_deliveries';

export interface PersistedAudit {
  id: string;
  apiKeyId: string;
  /** The requested URL. */
  url: string;
  branch: Branch;
  createdAt: Date;
  totals: Totals;
  findings: readonly Finding[];
}

/** Writes the audit's delivery rows with `trx` (the audit's own transaction); returns how many. */
export async function queueFailureEvents(trx: Kysely<Database>, audit: PersistedAudit): Promise<number> {
  // No fail finding, no event: skip even the registration lookup (most audits of most keys).
  if (!audit.findings.some((f) => f.status === 'fail')) return 0;
  const branch = EVENT_BRANCH[audit.branch];
  const registrations = await trx
    .selectFrom('webhooks')
    .select(['id', 'trigger_severity'])
    .where('api_key_id', '=', audit.apiKeyId)
    .where('trigger_branch', '=', branch)
    .execute();
  const rows = registrations.flatMap((registration) => {
    const failures = matchingFailures(audit.findings, registration.trigger_severity as TriggerSeverity);
    if (failures.length === 0) return [];
    const event: StoredEvent = {
      audit: {
        id: audit.id,
        url: audit.url,
        branch,
        createdAt: audit.createdAt.toISOString(),
        totals: { errors: audit.totals.errors, warnings: audit.totals.warnings },
      },
      failures,
    };
    return [{ id: randomUUID(), webhook_id: registration.id, audit_id: audit.id, event: JSON.stringify(event) }];
  });
  if (rows.length > 0) {
    await trx.insertInto('webhook_deliveries').values(rows).execute();
    // Delivered by PostgreSQL at commit, and only then: worker processes LISTENing wake at once.
    await sql`select pg_notify(${DELIVERY_CHANNEL}, '')`.execute(trx);
  }
  return rows.length;
}
