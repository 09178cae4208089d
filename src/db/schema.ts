// Table types for Kysely. Migrations define the tables; these describe what the app reads and writes.
import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  /** `ask_` + 4 characters of a generated key, or `sha256:` + 8 hex characters of a seed's hash. */
  display: string;
  label: string | null;
  created_at: CreatedAt;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Migration 0014: the key's own audit budget per window; NULL means AUDIT_RATE_LIMIT. */
  rate_limit: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface RateLimitWindowsTable {
  api_key_id: string;
  window_start: Date;
  used: number;
}

export interface AuditsTable {
  id: string;
  api_key_id: string;
  branch: string;
  standard: string | null;
  include_warnings: boolean;
  requested_url: string;
  final_url: string;
  origin: string;
  http_status: number;
  redirect_chain: ColumnType<unknown, string, never>;
  fetched_at: Date;
  byte_count: number;
  body_sha256: string;
  errors: number;
  warnings: number;
  inconclusive: number;
  /** WCAG only (migration 0005): `{ used, note }` of the AI judgement step. */
  ai: ColumnType<unknown, string | null | undefined, never>;
  created_at: CreatedAt;
  /** Migration 0012: `api` or `monitor`. */
  trigger: ColumnType<string, string | undefined, never>;
  /** The monitor whose scheduled slot this audit is (`trigger` monitor); the pair is unique. */
  monitor_id: ColumnType<string | null, string | null | undefined, never>;
  monitor_slot: ColumnType<Date | null, Date | null | undefined, never>;
}

export interface AuditControlsTable {
  audit_id: string;
  position: number;
  control: string;
  outcome: string;
  evidence: string;
  /** NULL on rows written before migration 0003: re-derived from the control registry. */
  framework: string | null;
  requirement: string | null;
  severity: string | null;
  /** Location of the outcome, when it was an element. */
  selector: string | null;
  snippet: string | null;
}

export interface FindingsTable {
  audit_id: string;
  position: number;
  control: string;
  status: string;
  severity: string;
  evidence: string;
  selector: string | null;
  snippet: string | null;
  /** WCAG only (migration 0005): JSON arrays; NULL otherwise. */
  occurrences: ColumnType<unknown, string | null | undefined, never>;
  rules: ColumnType<unknown, string | null | undefined, never>;
  act_rules: ColumnType<unknown, string | null | undefined, never>;
  /** WCAG only (migration 0006): `rules` or `ai`; NULL otherwise. */
  source: ColumnType<string | null, string | null | undefined, never>;
}

export interface WebhooksTable {
  id: string;
  api_key_id: string;
  url: string;
  trigger_severity: string;
  trigger_branch: string;
  /** The signing secret; NULL on a legacy registration. Never leaves the server. */
  challenge: string | null;
  verified_at: Date;
  created_at: CreatedAt;
  latest_attempt_id: string | null;
  /** Set while an admin has paused the registration: the delivery worker claims none of its rows. */
  paused_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Migration 0013: `every-audit` (every registration stored before it) or `new-failures`. */
  trigger_on: ColumnType<string, string | undefined, string>;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  audit_id: string;
  event: ColumnType<unknown, string, never>;
  state: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  locked_until: Date | null;
  lease: string | null;
  created_at: CreatedAt;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  attempt_number: number;
  outcome: string;
  status_code: number | null;
  reason: string | null;
  duration_ms: number;
  response_body: string | null;
  attempted_at: Date;
}

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  role: 'admin' | 'member';
  /** scrypt output, base64. */
  password_hash: string;
  /** base64. */
  password_salt: string;
  scrypt_n: number;
  scrypt_r: number;
  scrypt_p: number;
  scrypt_keylen: number;
  disabled_at: Date | null;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  /** Hex SHA-256 of the cookie's token; the token itself is never stored. */
  token_sha256: string;
  user_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  ended_at: Date | null;
}

export interface LoginAttemptsTable {
  id: string;
  /** Lower-cased, whether or not a user has it. */
  email: string;
  /** The throttle's client key: an IPv4 address or an IPv6 /64 prefix. */
  client_address: string;
  attempted_at: Date;
}

/** Migration 0008: one row per failed control per origin and pillar while it fails (src/report/tickets.ts). */
export interface RemediationTicketsTable {
  id: string;
  origin: string;
  branch: string;
  control: string;
  requirement: string;
  severity: string;
  /** `open` or `resolved`. */
  status: string;
  opened_at: Date;
  last_failed_at: Date;
  last_audit_id: string;
  resolved_at: Date | null;
  resolved_by_audit_id: string | null;
  evidence: string;
  fail_count: number;
}

/** Migration 0008: the newest audit of each origin and pillar, which alone may change its tickets. */
export interface RemediationHeadsTable {
  origin: string;
  branch: string;
  audit_id: string;
  audit_created_at: Date;
  previous_audit_id: string | null;
}

/** Migration 0012: a page re-audited on a schedule (src/monitors/). */
export interface MonitorsTable {
  id: string;
  api_key_id: string;
  url: string;
  branch: string;
  standard: string | null;
  include_warnings: boolean;
  /** The interval as written (`6h`). */
  every: string;
  every_seconds: number;
  paused_at: Date | null;
  created_at: CreatedAt;
  /** The next slot: when it falls due. */
  next_run_at: Date;
  locked_until: Date | null;
  lease: string | null;
  last_run: ColumnType<unknown, string | null | undefined, string | null>;
}

/**
 * Migration 0013: one row per audit, written by the statement that stores it: its failed
 * occurrences as [identity, control, severity] (src/audit/identity.ts), in failedOccurrences' order.
 */
export interface AuditIdentitiesTable {
  audit_id: string;
  occurrences: ColumnType<[string, string, string][], string, never>;
}

/** Migration 0013: an identity that an audit of a page has and the previous audit of the page did not. */
export interface IdentityAppearancesTable {
  /** `audit_page_key(key, URL, branch, standard)`. */
  page_key: string;
  identity: string;
  audit_created_at: Date;
  audit_id: string;
}

/** Migration 0013: audits stored before it that have failures (no audit_identities row). */
export interface IdentityBacklogTable {
  audit_id: string;
  page_key: string;
  audit_created_at: Date;
}

export interface Database {
  api_keys: ApiKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  audits: AuditsTable;
  audit_controls: AuditControlsTable;
  findings: FindingsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_rate_limit_windows: RateLimitWindowsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  remediation_tickets: RemediationTicketsTable;
  remediation_heads: RemediationHeadsTable;
  monitors: MonitorsTable;
  monitor_rate_limit_windows: RateLimitWindowsTable;
  audit_identities: AuditIdentitiesTable;
  identity_appearances: IdentityAppearancesTable;
  identity_backlog: IdentityBacklogTable;
}
