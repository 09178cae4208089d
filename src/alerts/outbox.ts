// The transactional outbox: its rows are written by the statement that stores an audit, so the
// audit and its failure events commit together or not at all. One delivery row per matching
// verified registration of the same key; nothing when nothing matches.
//
// Which failures a threshold admits is decided here, once per threshold and trigger (matching.ts);
// which registrations exist is decided by the database in that same statement, so the outbox costs
// the audit no round trip of its own. A new-failures event needs the previous audit of the page:
// the caller reads it (saveAudit, under its lock) only when the key has such a registration.
import { sql, type RawBuilder } from 'kysely';
import type { Branch } from '../audit/control.ts';
import type { Finding, Totals } from '../audit/findings.ts';
import type { FailedOccurrence } from '../audit/identity.ts';
import { EVENT_BRANCH, matchingFailures, newFailures, TRIGGER_SEVERITIES, type PreviousAudit, type TriggerOn } from './matching.ts';
import type { StoredEvent } from './signing.ts';

/** The LISTEN/NOTIFY channel that announces committed deliveries to worker processes. */
export const DELIVERY_CHANNEL = 'svc_webhook_deliveries';

export interface PersistedAudit {
  id: string;
  apiKeyId: string;
  /** The requested URL. */
  url: string;
  branch: Branch;
  totals: Totals;
  findings: readonly Finding[];
  includeWarnings: boolean;
  /** The failed occurrences of `findings` (src/audit/identity.ts). */
  occurrences: readonly FailedOccurrence[];
  /**
   * For new-failures registrations: the previous audit of the page, null when there is none.
   * Undefined when the key had no new-failures registration for the branch: none is built.
   */
  previous?: PreviousAudit | null;
}

/**
 * The data-modifying statement that writes the audit's delivery rows, for a CTE of the audit's
 * own statement: `audit` must be an earlier CTE with the new row's `id` and `created_at`. It
 * returns one row (`id`) per delivery queued. Each event is complete but for `audit.createdAt`,
 * which only the database knows before the commit: it is set from `audit.created_at` in the
 * form `Date.toISOString` gives (milliseconds, UTC).
 */
export function queueFailureEvents(audit: PersistedAudit): RawBuilder<unknown> {
  const branch = EVENT_BRANCH[audit.branch];
  const summary = { id: audit.id, url: audit.url, branch, totals: { errors: audit.totals.errors, warnings: audit.totals.warnings } };
  const events: { severity: string; on: TriggerOn; event: string }[] = [];
  for (const severity of TRIGGER_SEVERITIES) {
    const add = (on: TriggerOn, event: Omit<StoredEvent, 'audit'> & { audit: Omit<StoredEvent['audit'], 'createdAt'> }) => {
      if (event.failures.length > 0) events.push({ severity, on, event: JSON.stringify(event) });
    };
    add('every-audit', { audit: summary, failures: matchingFailures(audit.findings, severity) });
    if (audit.previous !== undefined) add('new-failures', { audit: summary, ...newFailures(audit, audit.previous, severity) });
  }
  return sql`
    insert into webhook_deliveries (id, webhook_id, audit_id, event)
    select gen_random_uuid(), w.id, audit.id,
           jsonb_set(e.event, '{audit,createdAt}', to_jsonb(to_char(audit.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
    from audit
    cross join unnest(${events.map((e) => e.severity)}::text[], ${events.map((e) => e.on)}::text[], ${events.map((e) => e.event)}::jsonb[])
      as e(severity, trigger_on, event)
    join webhooks as w on w.trigger_severity = e.severity and w.trigger_on = e.trigger_on
    -- A key revoked while its audit ran gets no events: its revocation failed what was pending
    -- then, and a row queued after it would wait for ever (the worker never claims its rows).
    join api_keys as k on k.id = w.api_key_id and k.revoked_at is null
    where w.api_key_id = ${audit.apiKeyId} and w.trigger_branch = ${branch}
    returning id
  `;
}

/**
 * A boolean scalar: whether the key has a new-failures registration for the audit's branch. Only
 * then does saveAudit read the previous audit of the page, so other keys' audits pay nothing for it.
 */
export function newFailuresRegistered(apiKeyId: string, branch: Branch): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from webhooks
    where api_key_id = ${apiKeyId} and trigger_branch = ${EVENT_BRANCH[branch]} and trigger_on = ${'new-failures' satisfies TriggerOn}
  )`;
}

/**
 * A scalar for the audit statement's select list: NOTIFYs the delivery channel once when `queued`
 * (the CTE above) wrote a row. PostgreSQL delivers it at the commit, and only then, so worker
 * processes LISTENing wake at once.
 */
export function notifyWhenQueued(): RawBuilder<unknown> {
  return sql`(select count(*) from (select pg_notify(${DELIVERY_CHANNEL}, '') from queued limit 1) as notified)`;
}
