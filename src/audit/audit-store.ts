// Persists a finished audit (snapshot facts, every control's outcome, the findings) in one
// transaction: a client never sees a 201 for an audit that is only partly stored. Reads it back
// as the same snapshot the 201 was built from, and lists a key's audits newest first.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditControlsTable, Database, FindingsTable } from '../db/schema.ts';
import type { ListPosition } from '../http/cursor.ts';
import { queueFailureEvents } from '../alerts/outbox.ts';
import { aiGovernanceControls } from './ai-governance/index.ts';
import type { Branch, Control, Location, WcagStandard } from './control.ts';
import type { CrawledPage } from './crawl.ts';
import type { AiUse, AuditResult, CheckedControl, Finding, Totals } from './findings.ts';
import { privacyControls } from './privacy/index.ts';

export interface AuditRequest {
  apiKeyId: string;
  /** The requested URL, already checked against the address policy. */
  url: URL;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
}

export interface NewAudit extends AuditRequest {
  crawled: CrawledPage;
  result: AuditResult;
}

/** What a list of audits shows of each. */
export interface AuditSummary {
  id: string;
  /** The requested URL (WHATWG-normalised). */
  url: string;
  branch: Branch;
  standard: WcagStandard | undefined;
  createdAt: Date;
  totals: Totals;
}

/** An audit as stored: what the 201 returns, and what reading it back returns again. */
export interface AuditSnapshot extends AuditSummary {
  finalUrl: string;
  findings: Finding[];
  controls: CheckedControl[];
  /** WCAG only: whether the AI judgement step ran. */
  ai?: AiUse;
}

export interface SaveHooks {
  /** Called after the commit when failure events were queued: wakes the delivery worker. */
  onEventsQueued?(count: number): void;
}

/**
 * Stores the audit, and in the same transaction its failure events for the key's matching webhook
 * registrations (the outbox), so an event can never be lost between the commit and the send.
 */
export async function saveAudit(db: Kysely<Database>, audit: NewAudit, hooks: SaveHooks = {}): Promise<AuditSnapshot> {
  const id = randomUUID();
  const { crawled, result } = audit;
  let queued = 0;
  const createdAt = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('audits')
      .values({
        id,
        api_key_id: audit.apiKeyId,
        branch: audit.branch,
        standard: audit.standard ?? null,
        include_warnings: audit.includeWarnings,
        requested_url: audit.url.href,
        final_url: crawled.finalUrl,
        origin: audit.url.origin,
        http_status: crawled.status,
        redirect_chain: JSON.stringify(crawled.redirectChain.map(({ url, status }) => ({ url, status }))),
        fetched_at: crawled.fetchedAt,
        byte_count: crawled.byteCount,
        body_sha256: crawled.bodySha256,
        errors: result.totals.errors,
        warnings: result.totals.warnings,
        inconclusive: result.totals.inconclusive,
        ai: result.ai === undefined ? null : JSON.stringify(result.ai),
      })
      .returning('created_at')
      .executeTakeFirstOrThrow();
    if (result.controls.length > 0) {
      await trx
        .insertInto('audit_controls')
        .values(
          result.controls.map((c, position) => ({
            audit_id: id,
            position,
            control: c.control,
            outcome: c.outcome,
            evidence: c.evidence,
            framework: c.framework,
            requirement: c.requirement,
            severity: c.severity,
            selector: c.location?.selector ?? null,
            snippet: c.location?.snippet ?? null,
          })),
        )
        .execute();
    }
    if (result.findings.length > 0) {
      await trx
        .insertInto('findings')
        .values(
          result.findings.map((f, position) => ({
            audit_id: id,
            position,
            control: f.control,
            status: f.status,
            severity: f.severity,
            evidence: f.evidence,
            selector: f.location?.selector ?? null,
            snippet: f.location?.snippet ?? null,
            occurrences: f.occurrences === undefined ? null : JSON.stringify(f.occurrences),
            rules: f.rules === undefined ? null : JSON.stringify(f.rules),
            act_rules: f.actRules === undefined ? null : JSON.stringify(f.actRules),
            source: f.source ?? null,
          })),
        )
        .execute();
    }
    queued = await queueFailureEvents(trx, {
      id,
      apiKeyId: audit.apiKeyId,
      url: audit.url.href,
      branch: audit.branch,
      createdAt: row.created_at,
      totals: result.totals,
      findings: result.findings,
    });
    return row.created_at;
  });
  if (queued > 0) hooks.onEventsQueued?.(queued);
  return {
    id,
    url: audit.url.href,
    finalUrl: crawled.finalUrl,
    branch: audit.branch,
    standard: audit.standard,
    createdAt,
    totals: result.totals,
    findings: result.findings,
    controls: result.controls,
    ...(result.ai === undefined ? {} : { ai: result.ai }),
  };
}

/** The audit with this id if `apiKeyId` owns it; another key's audit is as absent as an unknown id. */
export async function findAudit(db: Kysely<Database>, apiKeyId: string, id: string): Promise<AuditSnapshot | undefined> {
  const audit = await db
    .selectFrom('audits')
    .selectAll()
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirst();
  if (!audit) return undefined;
  // A stored audit never changes, so the three reads need no shared transaction.
  const [controls, findings] = await Promise.all([
    db.selectFrom('audit_controls').selectAll().where('audit_id', '=', id).orderBy('position').execute(),
    db.selectFrom('findings').selectAll().where('audit_id', '=', id).orderBy('position').execute(),
  ]);
  return {
    id: audit.id,
    url: audit.requested_url,
    finalUrl: audit.final_url,
    branch: audit.branch as Branch,
    standard: (audit.standard ?? undefined) as WcagStandard | undefined,
    createdAt: audit.created_at,
    totals: totalsOf(audit),
    findings: findings.map(findingOf),
    controls: controls.map(checkedControlOf),
    ...(audit.ai === null || audit.ai === undefined ? {} : { ai: audit.ai as AiUse }),
  };
}

// Every control of every available branch, by id. Ids never change meaning and are never reused,
// so a control row stored before migration 0003 gets its framework, requirement and severity here.
const REGISTERED_CONTROLS = new Map<string, Control<string, never>>(
  [...aiGovernanceControls, ...privacyControls].map((control) => [control.id, control]),
);

function registeredControl(id: string): Control<string, never> {
  const control = REGISTERED_CONTROLS.get(id);
  if (!control) throw new Error(`stored audit names control ${id}, which is not registered`);
  return control;
}

function checkedControlOf(row: Selectable<AuditControlsTable>): CheckedControl {
  const registered = row.framework === null || row.requirement === null || row.severity === null ? registeredControl(row.control) : undefined;
  const control: CheckedControl = {
    control: row.control,
    framework: row.framework ?? registered!.framework,
    requirement: row.requirement ?? registered!.requirement,
    outcome: row.outcome as CheckedControl['outcome'],
    severity: (row.severity ?? registered!.severity) as CheckedControl['severity'],
    evidence: row.evidence,
  };
  const location = locationOf(row);
  if (location) control.location = location;
  return control;
}

function findingOf(row: Selectable<FindingsTable>): Finding {
  const finding: Finding = {
    control: row.control,
    status: row.status as Finding['status'],
    severity: row.severity as Finding['severity'],
    evidence: row.evidence,
  };
  const location = locationOf(row);
  if (location) finding.location = location;
  if (row.occurrences !== null && row.occurrences !== undefined) finding.occurrences = row.occurrences as Finding['occurrences'];
  if (row.rules !== null && row.rules !== undefined) finding.rules = row.rules as string[];
  if (row.act_rules !== null && row.act_rules !== undefined) finding.actRules = row.act_rules as string[];
  if (row.source !== null && row.source !== undefined) finding.source = row.source as Finding['source'];
  return finding;
}

function locationOf(row: { selector: string | null; snippet: string | null }): Location | undefined {
  return row.selector !== null && row.snippet !== null ? { selector: row.selector, snippet: row.snippet } : undefined;
}

function totalsOf(row: { errors: number; warnings: number; inconclusive: number }): Totals {
  return { errors: row.errors, warnings: row.warnings, inconclusive: row.inconclusive };
}


export interface AuditFilter {
  /** An HTTPS origin as `URL.origin` spells it (the stored `origin` column). */
  origin?: string;
  branch?: Branch;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

/** One page of the key's audits, newest first, and where the next page starts (null at the end). */
export async function listAudits(
  db: Kysely<Database>,
  apiKeyId: string,
  filter: AuditFilter,
  page: { limit: number; after?: ListPosition },
): Promise<{ audits: AuditSummary[]; next: ListPosition | null }> {
  const { origin, branch, since, until } = filter;
  const { limit, after } = page;
  const rows = await db
    .selectFrom('audits')
    .select(['id', 'requested_url', 'branch', 'standard', 'created_at', 'errors', 'warnings', 'inconclusive'])
    .select(sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('position'))
    .where('api_key_id', '=', apiKeyId)
    .$if(origin !== undefined, (q) => q.where('origin', '=', origin!))
    .$if(branch !== undefined, (q) => q.where('branch', '=', branch!))
    .$if(since !== undefined, (q) => q.where('created_at', '>=', since!))
    .$if(until !== undefined, (q) => q.where('created_at', '<', until!))
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1) // one more than asked: whether a next page exists, without a count
    .execute();
  const audits = rows.slice(0, limit);
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  return {
    audits: audits.map((row) => ({
      id: row.id,
      url: row.requested_url,
      branch: row.branch as Branch,
      standard: (row.standard ?? undefined) as WcagStandard | undefined,
      createdAt: row.created_at,
      totals: totalsOf(row),
    })),
    next: last ? { createdAt: last.position, id: last.id } : null,
  };
}
