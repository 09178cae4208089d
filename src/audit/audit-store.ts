// Persists a finished audit (snapshot facts, every control's outcome, the findings, its failed
// occurrences' identities, its outbox rows) in one statement: a client never sees a 201 for an
// audit that is only partly stored. Reads it back as the same snapshot the 201 was built from, and
// lists a key's audits newest first.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { AuditControlsTable, Database, FindingsTable } from '../db/schema.ts';
import { pageOf, POSITION_FORMAT, type ListPosition } from '../db/keyset.ts';
import type { PreviousAudit } from '../alerts/matching.ts';
import { newFailuresRegistered, notifyWhenQueued, queueFailureEvents } from '../alerts/outbox.ts';
import { isSerializationFailure, updateTickets } from '../report/tickets.ts';
import { aiGovernanceControls } from './ai-governance/index.ts';
import type { Branch, Control, Location, Severity, WcagStandard } from './control.ts';
import type { CrawledPage } from './crawl.ts';
import type { AiUse, AuditResult, CheckedControl, Finding, Totals } from './findings.ts';
import { failedOccurrences } from './identity.ts';
import { privacyControls } from './privacy/index.ts';

export interface AuditRequest {
  apiKeyId: string;
  /** The requested URL, already checked against the address policy. */
  url: URL;
  branch: Branch;
  standard: WcagStandard | undefined;
  includeWarnings: boolean;
  /** A monitor's scheduled run (src/monitors/): the monitor and its slot, unique among audits. Absent: an API request. */
  monitor?: { id: string; slot: Date } | undefined;
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
  /** What started it: a request to POST /api/v1/audit, or a monitor's scheduled run (`monitorId`). */
  trigger: 'api' | 'monitor';
  monitorId?: string;
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
  /** Called before the statement runs again after meeting a concurrent audit (never expected: see saveAudit). */
  onConflict?(attempt: number): void;
}

/**
 * How often the store runs again when it still meets a concurrent audit of the same origin and
 * pillar (src/report/tickets.ts): a safety net, since the advisory lock below orders those audits.
 * Waits grow from 5 ms with jitter, so retries do not meet again in step.
 */
const SAVE_ATTEMPTS = 10;
const SAVE_RETRY_FIRST_MS = 5;

/**
 * Stores the audit (its row, every control's outcome, the findings), its failure events for the
 * key's matching webhook registrations (the outbox) and its remediation tickets in ONE statement:
 * data-modifying CTEs over `unnest`, so an event can never be lost between the commit and the send,
 * and the NOTIFY for worker processes commits with them.
 *
 * The statement runs in a short transaction after a transaction-scoped advisory lock on the
 * audit's origin and pillar. Audits of one site then take turns at the tickets, and each statement's
 * snapshot, taken after the lock, already sees the audit before it: without the lock, concurrent
 * audits of one site on PostgreSQL failed the tickets' consistency check (40001) faster than
 * retries could absorb (1 in 300 answered 500 at concurrency 64). Different sites never wait for
 * each other.
 */
export async function saveAudit(db: Kysely<Database>, audit: NewAudit, hooks: SaveHooks = {}): Promise<AuditSnapshot> {
  const id = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      const { snapshot, queued } = db.isTransaction
        ? await insertAudit(db, id, audit, await previousAuditIfWanted(db, id, audit))
        : await db.transaction().execute(async (trx) => {
            // The lock's statement also asks whether a new-failures registration needs the
            // previous audit: only then does the audit pay a round trip for reading it.
            const locked = await sql<{ wanted: boolean }>`
              select pg_advisory_xact_lock(hashtextextended(${`audit-save:${audit.branch}:${audit.url.origin}`}, 0)),
                     ${newFailuresRegistered(audit.apiKeyId, audit.branch)} as wanted
            `.execute(trx);
            return insertAudit(trx, id, audit, await previousAuditIfWanted(trx, id, audit, locked.rows[0]!.wanted));
          });
      // After the commit: a worker woken earlier would find nothing to claim.
      if (queued > 0) hooks.onEventsQueued?.(queued);
      return snapshot;
    } catch (error) {
      // Nothing of a failed statement was stored, so running it again with the same id is safe;
      // inside a caller's transaction it is not: the failure aborted that transaction.
      if (!isSerializationFailure(error) || db.isTransaction || attempt === SAVE_ATTEMPTS) throw error;
      hooks.onConflict?.(attempt);
      const pause = SAVE_RETRY_FIRST_MS * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    }
  }
}

/** An audit's page and place in its history, as SQL values (parameters or another query's columns). */
export interface PageRef {
  apiKeyId: RawBuilder<unknown>;
  url: RawBuilder<unknown>;
  branch: RawBuilder<unknown>;
  standard: RawBuilder<unknown>;
  createdAt: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
}

/** The page of an audit about to be stored, with the id it will have, created at the transaction's start (now()). */
function pageOfNew(audit: NewAudit, id: string): PageRef {
  return {
    apiKeyId: sql`${audit.apiKeyId}::uuid`,
    url: sql`${audit.url.href}::text`,
    branch: sql`${audit.branch}::text`,
    standard: sql`${audit.standard ?? null}::text`,
    // The `audit` CTE's created_at defaults to now(): the transaction's start, the same in every statement.
    createdAt: sql`now()`,
    id: sql`${id}::uuid`,
  };
}

/**
 * A scalar subquery: the id of the previous audit of a page (same key, URL, branch and standard;
 * the newest created before it, by created_at then id), found by the audits_page_idx index. The
 * page key is an md5, so the columns are compared too.
 */
export function previousAuditId(page: PageRef): RawBuilder<string | null> {
  return sql`(
    select p.id from audits as p
    where audit_page_key(p.api_key_id, p.requested_url, p.branch, p.standard) = audit_page_key(${page.apiKeyId}, ${page.url}, ${page.branch}, ${page.standard})
      and ${isAuditOf(sql`p`, page)} and p.created_at <= ${page.createdAt} and (p.created_at, p.id) < (${page.createdAt}, ${page.id})
    order by p.created_at desc, p.id desc
    limit 1
  )`;
}

/** Whether the audit `alias` is of the page (key, URL, branch, standard). */
export function isAuditOf(alias: RawBuilder<unknown>, page: PageRef): RawBuilder<boolean> {
  return sql<boolean>`(${alias}.api_key_id = ${page.apiKeyId} and ${alias}.requested_url = ${page.url} and ${alias}.branch = ${page.branch}
    and ${alias}.standard is not distinct from ${page.standard})`;
}

/**
 * The previous audit of the page with its failed occurrences, for new-failures registrations; null
 * when there is none, undefined when the key has no such registration (`wanted`: when the caller
 * already asked). Read after the advisory lock, which orders the audits of the origin and branch,
 * so the audit it finds is the one committed last. An audit stored before migration 0013 (or by a
 * process still running older code) has no identities stored: they come from its findings.
 */
async function previousAuditIfWanted(
  db: Kysely<Database>,
  id: string,
  audit: NewAudit,
  wanted?: boolean,
): Promise<PreviousAudit | null | undefined> {
  if (wanted === false) return undefined;
  const { rows } = await sql<{
    wanted: boolean;
    id: string | null;
    include_warnings: boolean | null;
    occurrences: [identity: string, control: string, severity: Severity][] | null;
  }>`
    with wanted as (
      select ${wanted === undefined ? newFailuresRegistered(audit.apiKeyId, audit.branch) : sql<boolean>`true`} as yes
    )
    select wanted.yes as wanted, p.id, p.include_warnings, i.occurrences
    from wanted
    left join audits as p on wanted.yes and p.id = ${previousAuditId(pageOfNew(audit, id))}
    left join audit_identities as i on i.audit_id = p.id
  `.execute(db);
  const previous = rows[0]!;
  if (!previous.wanted) return undefined;
  if (previous.id === null) return null;
  const occurrences =
    previous.occurrences?.map(([identity, control, severity]) => ({ identity, control, severity })) ??
    failedOccurrences(await storedFailures(db, previous.id));
  return { id: previous.id, includeWarnings: previous.include_warnings!, occurrences };
}

async function insertAudit(
  db: Kysely<Database>,
  id: string,
  audit: NewAudit,
  previous: PreviousAudit | null | undefined,
): Promise<{ snapshot: AuditSnapshot; queued: number }> {
  const { crawled, result } = audit;
  const controls = result.controls;
  const findings = result.findings;
  const occurrences = failedOccurrences(findings);
  const page = pageOfNew(audit, id);
  const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => rows.map(pick);
  const tickets = updateTickets({ origin: audit.url.origin, branch: audit.branch, controls });
  const saved = await sql<{ created_at: Date; queued: number }>`
    with audit as (
      insert into audits (id, api_key_id, branch, standard, include_warnings, requested_url, final_url, origin, http_status,
                          redirect_chain, fetched_at, byte_count, body_sha256, errors, warnings, inconclusive, ai,
                          trigger, monitor_id, monitor_slot)
      values (${id}, ${audit.apiKeyId}, ${audit.branch}, ${audit.standard ?? null}, ${audit.includeWarnings}, ${audit.url.href},
              ${crawled.finalUrl}, ${audit.url.origin}, ${crawled.status},
              ${JSON.stringify(crawled.redirectChain.map(({ url, status }) => ({ url, status })))}::jsonb, ${crawled.fetchedAt},
              ${crawled.byteCount}, ${crawled.bodySha256}, ${result.totals.errors}, ${result.totals.warnings}, ${result.totals.inconclusive},
              ${result.ai === undefined ? null : JSON.stringify(result.ai)}::jsonb,
              ${audit.monitor === undefined ? 'api' : 'monitor'}, ${audit.monitor?.id ?? null}::uuid, ${audit.monitor?.slot ?? null}::timestamptz)
      returning id, created_at
    ), controls as (
      insert into audit_controls (audit_id, position, control, outcome, evidence, framework, requirement, severity, selector, snippet)
      select audit.id, c.position - 1, c.control, c.outcome, c.evidence, c.framework, c.requirement, c.severity, c.selector, c.snippet
      from audit, unnest(
        ${column(controls, (c) => c.control)}::text[], ${column(controls, (c) => c.outcome)}::text[],
        ${column(controls, (c) => c.evidence)}::text[], ${column(controls, (c) => c.framework)}::text[],
        ${column(controls, (c) => c.requirement)}::text[], ${column(controls, (c) => c.severity)}::text[],
        ${column(controls, (c) => c.location?.selector ?? null)}::text[], ${column(controls, (c) => c.location?.snippet ?? null)}::text[]
      ) with ordinality as c(control, outcome, evidence, framework, requirement, severity, selector, snippet, position)
    ), findings as (
      insert into findings (audit_id, position, control, status, severity, evidence, selector, snippet, occurrences, rules, act_rules, source)
      select audit.id, f.position - 1, f.control, f.status, f.severity, f.evidence, f.selector, f.snippet,
             f.occurrences::jsonb, f.rules::jsonb, f.act_rules::jsonb, f.source
      from audit, unnest(
        ${column(findings, (f) => f.control)}::text[], ${column(findings, (f) => f.status)}::text[],
        ${column(findings, (f) => f.severity)}::text[], ${column(findings, (f) => f.evidence)}::text[],
        ${column(findings, (f) => f.location?.selector ?? null)}::text[], ${column(findings, (f) => f.location?.snippet ?? null)}::text[],
        ${column(findings, (f) => (f.occurrences === undefined ? null : JSON.stringify(f.occurrences)))}::text[],
        ${column(findings, (f) => (f.rules === undefined ? null : JSON.stringify(f.rules)))}::text[],
        ${column(findings, (f) => (f.actRules === undefined ? null : JSON.stringify(f.actRules)))}::text[],
        ${column(findings, (f) => f.source ?? null)}::text[]
      ) with ordinality as f(control, status, severity, evidence, selector, snippet, occurrences, rules, act_rules, source, position)
    ), identities as (
      -- The failed occurrences by identity, in failedOccurrences' order: GET …/changes and
      -- new-failures read them back onto the findings instead of hashing them again.
      insert into audit_identities (audit_id, occurrences)
      select audit.id, ${JSON.stringify(occurrences.map((o) => [o.identity, o.control, o.severity]))}::json from audit
    ), appearances as (
      -- The identities that the previous audit of the page did not have: when each appeared, for
      -- GET …/changes' regressed. An unchanged page writes nothing here; a first audit, or one after
      -- an audit stored before migration 0013 (no identities row), writes all of its identities.
      insert into identity_appearances (page_key, identity, audit_created_at, audit_id)
      select audit_page_key(${page.apiKeyId}, ${page.url}, ${page.branch}, ${page.standard}), n.identity, audit.created_at, audit.id
      from audit, (
        select unnest(${column(occurrences, (o) => o.identity)}::text[]) as identity
        except
        select json_array_elements(i.occurrences) ->> 0 from audit_identities as i where i.audit_id = ${previousAuditId(page)}
      ) as n
    ), queued as (
      ${queueFailureEvents({
        id,
        apiKeyId: audit.apiKeyId,
        url: audit.url.href,
        branch: audit.branch,
        totals: result.totals,
        findings,
        includeWarnings: audit.includeWarnings,
        occurrences,
        previous,
      })}
    ), ${tickets.ctes}
    select audit.created_at, (select count(*) from queued) as queued, ${notifyWhenQueued()} as notified,
           ${tickets.check} as tickets_checked
    from audit
  `.execute(db);
  const row = saved.rows[0]!;
  const snapshot: AuditSnapshot = {
    id,
    url: audit.url.href,
    finalUrl: crawled.finalUrl,
    branch: audit.branch,
    standard: audit.standard,
    createdAt: row.created_at,
    totals: result.totals,
    findings: result.findings,
    controls: result.controls,
    ...(result.ai === undefined ? {} : { ai: result.ai }),
    ...triggerOf({ trigger: audit.monitor === undefined ? 'api' : 'monitor', monitor_id: audit.monitor?.id ?? null }),
  };
  return { snapshot, queued: Number(row.queued) };
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
    ...triggerOf(audit),
  };
}

/** `trigger` and, for a monitor's run, `monitorId`. */
function triggerOf(row: { trigger: string; monitor_id: string | null }): Pick<AuditSummary, 'trigger' | 'monitorId'> {
  return row.monitor_id === null ? { trigger: row.trigger as AuditSummary['trigger'] } : { trigger: 'monitor', monitorId: row.monitor_id };
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

/** The failed findings of a stored audit, in order. */
async function storedFailures(db: Kysely<Database>, auditId: string): Promise<Finding[]> {
  const rows = await db.selectFrom('findings').selectAll().where('audit_id', '=', auditId).where('status', '=', 'fail').orderBy('position').execute();
  return rows.map(findingOf);
}

/** A stored finding as the 201 returned it (also how GET …/changes reads findings). */
export function findingOf(row: Selectable<FindingsTable>): Finding {
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
  /** Only the runs of this monitor. */
  monitorId?: string;
}

/** One page of the key's audits, newest first, and where the next page starts (null at the end). */
export async function listAudits(
  db: Kysely<Database>,
  apiKeyId: string,
  filter: AuditFilter,
  page: { limit: number; after?: ListPosition },
): Promise<{ audits: AuditSummary[]; next: ListPosition | null }> {
  const { origin, branch, since, until, monitorId } = filter;
  const { limit, after } = page;
  const rows = await db
    .selectFrom('audits')
    .select(['id', 'requested_url', 'branch', 'standard', 'created_at', 'errors', 'warnings', 'inconclusive', 'trigger', 'monitor_id'])
    .select(sql<string>`to_char(created_at at time zone 'UTC', ${sql.raw(POSITION_FORMAT)})`.as('position'))
    .where('api_key_id', '=', apiKeyId)
    .$if(origin !== undefined, (q) => q.where('origin', '=', origin!))
    .$if(branch !== undefined, (q) => q.where('branch', '=', branch!))
    .$if(since !== undefined, (q) => q.where('created_at', '>=', since!))
    .$if(until !== undefined, (q) => q.where('created_at', '<', until!))
    .$if(monitorId !== undefined, (q) => q.where('monitor_id', '=', monitorId!))
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1) // see pageOf
    .execute();
  const { rows: audits, next } = pageOf(rows, limit);
  return { audits: audits.map(summaryOf), next };
}

/** The newest audit of one origin in one branch, as the admin dashboard shows it. */
export interface LatestPillarAudit {
  id: string;
  url: string;
  standard: WcagStandard | undefined;
  createdAt: Date;
  totals: Totals;
}

/** An audited origin with the newest audit of each branch it has one of. */
export interface OriginOverview {
  origin: string;
  /** When the origin was last audited, in any branch. */
  lastAuditedAt: Date;
  latest: Partial<Record<Branch, LatestPillarAudit>>;
}

/**
 * Every key's audits, admin-wide: the `limit` most recently audited origins, newest first, each
 * with the newest audit per branch. Both steps walk the (origin, branch, created_at) index.
 */
export async function latestAuditsByOrigin(db: Kysely<Database>, limit: number): Promise<OriginOverview[]> {
  const recentOrigins = db
    .selectFrom('audits')
    .select('origin')
    .select((eb) => eb.fn.max('created_at').as('last_audited_at'))
    .groupBy('origin')
    .orderBy('last_audited_at', 'desc')
    .orderBy('origin')
    .limit(limit)
    .as('o');
  const rows = await db
    .selectFrom(recentOrigins)
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('audits as a')
          .select(['a.id', 'a.branch', 'a.requested_url', 'a.standard', 'a.created_at', 'a.errors', 'a.warnings', 'a.inconclusive'])
          .whereRef('a.origin', '=', 'o.origin')
          .distinctOn('a.branch')
          .orderBy('a.branch')
          .orderBy('a.created_at', 'desc')
          .orderBy('a.id', 'desc')
          .as('l'),
      (join) => join.onTrue(),
    )
    .selectAll('l')
    .select(['o.origin', 'o.last_audited_at'])
    .orderBy('o.last_audited_at', 'desc')
    .orderBy('o.origin')
    .execute();
  const origins = new Map<string, OriginOverview>();
  for (const row of rows) {
    let overview = origins.get(row.origin);
    if (!overview) {
      overview = { origin: row.origin, lastAuditedAt: new Date(row.last_audited_at), latest: {} };
      origins.set(row.origin, overview);
    }
    overview.latest[row.branch as Branch] = {
      id: row.id,
      url: row.requested_url,
      standard: (row.standard ?? undefined) as WcagStandard | undefined,
      createdAt: row.created_at,
      totals: totalsOf(row),
    };
  }
  return [...origins.values()];
}

// ---- Admin-wide reads: the dashboard's audit page and origin history --------------------------

/** Any key's audit with this id, for the admin-wide dashboard; undefined when there is none. */
export async function findAnyAudit(db: Kysely<Database>, id: string): Promise<AuditSnapshot | undefined> {
  const owner = await auditOwner(db, id);
  return owner === undefined ? undefined : findAudit(db, owner, id);
}

/** The key that owns the audit with this id; undefined when there is none. */
export async function auditOwner(db: Kysely<Database>, id: string): Promise<string | undefined> {
  return (await db.selectFrom('audits').select('api_key_id').where('id', '=', id).executeTakeFirst())?.api_key_id;
}

/**
 * One page of an origin's audits in one branch, every key's, newest first: the dashboard's history
 * of a site. Walks the (origin, branch, created_at) index.
 */
export async function listOriginAudits(
  db: Kysely<Database>,
  origin: string,
  branch: Branch,
  page: { limit: number; after?: ListPosition },
): Promise<{ audits: AuditSummary[]; next: ListPosition | null }> {
  const { limit, after } = page;
  const rows = await db
    .selectFrom('audits')
    .select(['id', 'requested_url', 'branch', 'standard', 'created_at', 'errors', 'warnings', 'inconclusive', 'trigger', 'monitor_id'])
    .select(sql<string>`to_char(created_at at time zone 'UTC', ${sql.raw(POSITION_FORMAT)})`.as('position'))
    .where('origin', '=', origin)
    .where('branch', '=', branch)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1) // see pageOf
    .execute();
  const { rows: audits, next } = pageOf(rows, limit);
  return { audits: audits.map(summaryOf), next };
}

function summaryOf(row: {
  id: string;
  requested_url: string;
  branch: string;
  standard: string | null;
  created_at: Date;
  errors: number;
  warnings: number;
  inconclusive: number;
  trigger: string;
  monitor_id: string | null;
}): AuditSummary {
  return {
    id: row.id,
    url: row.requested_url,
    branch: row.branch as Branch,
    standard: (row.standard ?? undefined) as WcagStandard | undefined,
    createdAt: row.created_at,
    totals: totalsOf(row),
    ...triggerOf(row),
  };
}
