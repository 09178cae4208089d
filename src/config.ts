// Environment → typed, validated configuration. Every variable is documented in the README's
// table; a bad value stops the process at start with a message naming the variable.
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION, DEFAULT_MAX_IN_FLIGHT_PER_KEY } from './alerts/delivery-worker.ts';
import { DEFAULT_CRAWL_LIMITS } from './audit/crawl.ts';
import { emailProblem, normaliseEmail, passwordProblem } from './auth/users.ts';
import type { DatabaseBounds } from './db/connect.ts';
import { parseCidrList, parseStaticResolve, type Cidr } from './net/address-policy.ts';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Bounds on every wait for PostgreSQL (AUDIT_DB_*); unused by the embedded database. */
  database: DatabaseBounds;
  seedApiKey: string | undefined;
  rateLimit: { limit: number; windowSeconds: number };
  crawl: { timeoutMs: number; maxBytes: number; maxRedirects: number };
  analysis: AnalysisConfig;
  /** The WCAG branch's AI step; undefined when AUDIT_AI_BASE_URL is unset (deterministic rules only). */
  ai: AiConfig | undefined;
  allowPrivateNetworks: Cidr[];
  /**
   * Reverse proxies (addresses or CIDRs) whose X-Forwarded-For names the client; empty: the TCP
   * peer is the client and the header is ignored, so a client cannot choose its own address.
   */
  trustProxy: string[];
  staticResolve: Map<string, string[]>;
  /** Bounds on how long a client may take to send a request, and to keep an idle connection. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  logLevel: string;
  webhooks: WebhookConfig;
  monitors: MonitorConfig;
  admin: AdminConfig;
  /** Values that were accepted but changed (e.g. clamped): the server logs each at start, at warn. */
  notices: string[];
}

export interface WebhookConfig {
  /** Verification ping and every delivery try: the whole request, DNS to last body byte. */
  timeoutMs: number;
  /** Registration attempts per key and fixed window. */
  rateLimit: { limit: number; windowSeconds: number };
  maxPerKey: number;
  /** Delay before each retry, in order; a delivery gets 1 + retrySchedule.length tries in all. */
  retryScheduleMs: number[];
  /** `inline`: the server process delivers too; `off`: only `worker` processes do (PostgreSQL only). */
  worker: 'inline' | 'off';
  /** Fallback polling of the outbox when no wake-up arrives. */
  pollIntervalMs: number;
  /** Delivery tries in flight at once per destination URL and per API key, all processes together. */
  maxInFlightPerDestination: number;
  maxInFlightPerKey: number;
}

/** Monitors (issue 19): pages re-audited on a schedule by the processes that deliver webhooks. */
export interface MonitorConfig {
  /** Monitors one key may hold (a 409 beyond). */
  maxPerKey: number;
  /** The shortest `every` allowed. */
  minIntervalMs: number;
  /** Registration attempts per key and fixed window (POST /api/v1/monitors), apart from the audit route's. */
  rateLimit: { limit: number; windowSeconds: number };
  /** Monitor audits one process runs at once, fairly across keys. */
  concurrency: number;
  /** Fallback polling for due monitors; the process also wakes when the next one falls due. */
  pollIntervalMs: number;
  /** How long a claimed run is its process's before another may take it over (a crashed process's runs). */
  leaseMs: number;
}

/** Where page analysis runs (issue 16): worker threads, a bounded queue, a time budget per task. */
export interface AnalysisConfig {
  /** AUDIT_ANALYSIS_THREADS: threads, so analyses running at once. */
  threads: number;
  /** AUDIT_ANALYSIS_QUEUE: analyses that may wait for a thread; one more is answered 503. */
  queue: number;
  /** AUDIT_ANALYSIS_TIMEOUT_MS: an analysis's time in its thread; over it, 422 and the thread is replaced. */
  timeoutMs: number;
}

export const ANALYSIS_QUEUE_DEFAULT = 64;
export const ANALYSIS_TIMEOUT_DEFAULT_MS = 5000;

function loadAnalysisConfig(env: Env): AnalysisConfig {
  return {
    // One thread per core: analysis is CPU-bound, so more threads than cores only share them.
    threads: integer(env, 'AUDIT_ANALYSIS_THREADS', os.availableParallelism(), 1, 256),
    queue: integer(env, 'AUDIT_ANALYSIS_QUEUE', ANALYSIS_QUEUE_DEFAULT, 0, 100_000),
    timeoutMs: integer(env, 'AUDIT_ANALYSIS_TIMEOUT_MS', ANALYSIS_TIMEOUT_DEFAULT_MS, 100, 600_000),
  };
}

/** Dashboard users and their sessions (issue 11). */
export interface AdminConfig {
  /** AUDIT_ADMIN_EMAIL and AUDIT_ADMIN_PASSWORD: both or neither; the admin is created when missing. */
  email?: string;
  password?: string;
  /** The session cookie's Secure attribute; off only with AUDIT_COOKIE_SECURE=false. */
  cookieSecure: boolean;
  /** A session unused for this long ends. */
  idleTimeoutMs: number;
  /** A session ends this long after login, however busy; also the cookie's Max-Age. */
  absoluteTimeoutMs: number;
  loginThrottle: LoginThrottleConfig;
}

/** Failed logins counted over a sliding window, per (email, client address), per address and per email. */
export interface LoginThrottleConfig {
  windowSeconds: number;
  /** The low limit: one client guessing at one email. */
  maxFailuresPerEmailAndAddress: number;
  maxFailuresPerAddress: number;
  /** The ceiling for guesses at one email from all clients together; far above the pair's limit. */
  maxFailuresPerEmail: number;
}

/**
 * The per-email ceiling's default, per 15-minute window: 50 × 96 windows = 4,800 guesses a day at
 * most, from 10 or more addresses. The README's "Throttle" paragraph sets it against the minimum
 * password strength.
 */
export const DEFAULT_LOGIN_MAX_FAILURES_PER_EMAIL = 50;

/** The spec's bound on the verification (and, here, delivery) timeout. */
export const MAX_WEBHOOK_TIMEOUT_MS = 15_000;
/** Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first try. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

function parseWorkerMode(value: string): 'inline' | 'off' {
  if (value === 'inline' || value === 'off') return value;
  throw new Error(`must be inline or off, got "${value}"`);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `AUDIT_WEBHOOK_RETRY_SCHEDULE`: comma-separated delays, each a whole number and a unit (`ms`,
 * `s`, `m`, `h`, `d`), e.g. `5s,5m,30m`; `none` for no retries. At most 20 steps of at most 7 days.
 */
export function parseRetrySchedule(value: string): number[] {
  if (value.toLowerCase() === 'none') return [];
  const steps = value.split(',').map((part) => part.trim());
  if (steps.length > 20) throw new Error(`at most 20 delays, got ${steps.length}`);
  return steps.map((step) => {
    const ms = parseDuration(step);
    if (ms === undefined) throw new Error(`"${step}" is not a delay such as 5s, 5m, 2h (or use none)`);
    if (ms < 1 || ms > 7 * DURATION_UNITS.d!) throw new Error(`"${step}" must be between 1ms and 7d`);
    return ms;
  });
}

/**
 * A duration as the retry schedule and monitor intervals write it: a whole number and a unit
 * (`ms`, `s`, `m`, `h`, `d`), e.g. `15m`, `6h`, `1d`. Milliseconds, or undefined for anything else.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text);
  return match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : undefined;
}

/** `AUDIT_MONITOR_MIN_INTERVAL`: one duration of at least a minute (a monitor may never run more often). */
function parseMinInterval(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`"${value}" is not a duration such as 15m, 1h`);
  if (ms < 60_000 || ms > MONITOR_MAX_INTERVAL_MS) throw new Error(`"${value}" must be between 1m and 31d`);
  return ms;
}

/** The longest interval a monitor may have: a month, for monthly reviews. */
export const MONITOR_MAX_INTERVAL_MS = 31 * 86_400_000;

export class ConfigError extends Error {}

function parseBoolean(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`must be true or false, got "${value}"`);
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function parsed<T>(env: Env, name: string, parse: (value: string) => T, fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  try {
    return parse(raw);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
}

// ---- AUDIT_ALLOW_PRIVATE_NETWORKS: entries that open far more than an intranet (issue 17) ------
// The allow-list exists for intranet audits. An entry that reaches this machine, the cloud's
// credential endpoints or the whole address space turns every API key into a way into them, and is
// nearly always a typo or a copied example: it stops the start unless a second setting says it is
// meant. The acknowledgement is a separate variable, not a suffix on the entry, so that a list
// pasted from elsewhere cannot carry its own consent.

export const UNSAFE_ACKNOWLEDGEMENT = 'AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE';

interface RiskyRange {
  readonly range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  /** What an entry overlapping this range opens, for the message. */
  readonly what: string;
}

const risky = (cidr: string, what: string): RiskyRange => ({ range: ipaddr.parseCIDR(cidr), what });

// Metadata addresses serve the instance's cloud credentials to any process that asks:
// 169.254.169.254 (AWS, Google Cloud, Azure, Oracle, DigitalOcean, OpenStack), AWS's IPv6 one and
// its container credential endpoints (ECS task role, EKS Pod Identity), Alibaba Cloud's.
const RISKY_RANGES: readonly RiskyRange[] = [
  risky('::ffff:0:0/96', 'every IPv4 address (IPv4-mapped ::ffff:0:0/96)'),
  risky('0.0.0.0/32', 'the unspecified address 0.0.0.0 (Linux dials it as this machine)'),
  risky('::/128', 'the unspecified address :: (dialled as this machine)'),
  risky('127.0.0.0/8', 'loopback 127.0.0.0/8 (this machine)'),
  risky('::1/128', 'loopback ::1 (this machine)'),
  risky('169.254.169.254/32', 'the cloud metadata address 169.254.169.254 (instance credentials)'),
  risky('fd00:ec2::254/128', 'the AWS metadata address fd00:ec2::254 (instance credentials)'),
  risky('169.254.170.2/32', 'the AWS ECS credential address 169.254.170.2'),
  risky('169.254.170.23/32', 'the AWS EKS Pod Identity address 169.254.170.23'),
  risky('fd00:ec2::23/128', 'the AWS EKS Pod Identity address fd00:ec2::23'),
  risky('100.100.100.200/32', 'the Alibaba Cloud metadata address 100.100.100.200'),
];

/** Wider than this many prefix bits (a /8 of IPv4, a /32 of IPv6) is logged at start. */
const WIDE_PREFIX = { ipv4: 8, ipv6: 32 } as const;

/** Whether CIDR `outer` contains every address of `inner`. */
function contains(outer: RiskyRange['range'], inner: RiskyRange['range']): boolean {
  return outer[0].kind() === inner[0].kind() && outer[1] <= inner[1] && inner[0].match(outer);
}

/** Whether two CIDRs share an address: one of them contains the other. */
const overlaps = (a: RiskyRange['range'], b: RiskyRange['range']) => contains(a, b) || contains(b, a);

/** What an allow-list entry opens beyond an intranet, or an empty list. */
function risksOf(entry: Cidr): string[] {
  const kind = entry.range[0].kind();
  if (entry.range[1] === 0) return [kind === 'ipv4' ? 'every IPv4 address' : 'every IPv6 address'];
  return RISKY_RANGES.filter((row) => overlaps(entry.range, row.range)).map((row) => row.what);
}

const listed = (items: string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * Refuses dangerous entries unless acknowledged; returns the start-up warnings: acknowledged
 * dangerous entries, wide ones, and an acknowledgement with nothing to acknowledge (left set, it
 * would silently let a later mistake through).
 */
function checkAllowList(entries: Cidr[], acknowledged: boolean): string[] {
  const notices: string[] = [];
  let needed = false;
  for (const entry of entries) {
    const risks = risksOf(entry);
    if (risks.length > 0) {
      needed = true;
      const covers = `AUDIT_ALLOW_PRIVATE_NETWORKS entry ${entry.text} covers ${listed(risks)}`;
      if (!acknowledged) {
        throw new ConfigError(
          `${covers}: audited URLs could reach it, which is almost always a mistake. ` +
            `Remove the entry, or set ${UNSAFE_ACKNOWLEDGEMENT}=true to allow it anyway`,
        );
      }
      notices.push(`${covers}; allowed because ${UNSAFE_ACKNOWLEDGEMENT}=true`);
    } else if (entry.range[1] < WIDE_PREFIX[entry.range[0].kind()]) {
      const unit = entry.range[0].kind() === 'ipv4' ? '/8' : '/32';
      notices.push(`AUDIT_ALLOW_PRIVATE_NETWORKS entry ${entry.text} is wider than a ${unit}: check that it is the network you meant`);
    }
  }
  if (acknowledged && !needed) {
    notices.push(`${UNSAFE_ACKNOWLEDGEMENT}=true acknowledges nothing (no entry needs it): unset it, so that a mistaken entry added later is refused`);
  }
  return notices;
}

const SEED_API_KEY_MIN_LENGTH = 32;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

// ---- Dashboard users and sessions (issue 11) -------------------------------------------------
// No message below ever contains the password, only its length.

function loadAdminConfig(env: Env, notices: string[]): AdminConfig {
  const email = env.AUDIT_ADMIN_EMAIL?.trim() || undefined;
  // Not trimmed: spaces may be part of a password. An empty value counts as unset.
  const password = env.AUDIT_ADMIN_PASSWORD || undefined;
  if ((email === undefined) !== (password === undefined)) {
    const [set, unset] = email === undefined ? ['AUDIT_ADMIN_PASSWORD', 'AUDIT_ADMIN_EMAIL'] : ['AUDIT_ADMIN_EMAIL', 'AUDIT_ADMIN_PASSWORD'];
    throw new ConfigError(`${set} is set but ${unset} is not; set both to create the first admin, or neither`);
  }
  if (email !== undefined) {
    const problem = emailProblem(email);
    if (problem) throw new ConfigError(`AUDIT_ADMIN_EMAIL ${problem}`);
    const weak = passwordProblem(password!);
    if (weak) throw new ConfigError(`AUDIT_ADMIN_PASSWORD ${weak}`);
  }
  return {
    ...(email === undefined ? {} : { email: normaliseEmail(email), password }),
    cookieSecure: parsed(env, 'AUDIT_COOKIE_SECURE', parseBoolean, true),
    idleTimeoutMs: integer(env, 'AUDIT_SESSION_IDLE_MINUTES', 30, 1, 24 * 60) * 60_000,
    absoluteTimeoutMs: integer(env, 'AUDIT_SESSION_MAX_HOURS', 12, 1, 30 * 24) * 3_600_000,
    loginThrottle: loadLoginThrottleConfig(env, notices),
  };
}

function loadLoginThrottleConfig(env: Env, notices: string[]): LoginThrottleConfig {
  const throttle: LoginThrottleConfig = {
    windowSeconds: integer(env, 'AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES', 15, 1, 24 * 60) * 60,
    maxFailuresPerEmailAndAddress: integer(env, 'AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS', 5, 1, 1000),
    maxFailuresPerAddress: integer(env, 'AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 100_000),
    maxFailuresPerEmail: integer(env, 'AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL', DEFAULT_LOGIN_MAX_FAILURES_PER_EMAIL, 1, 100_000),
  };
  // Accepted, since it was once the default and only trades lock-out risk for fewer guesses, but
  // said aloud: with a ceiling no higher than one client's budget, one client locks the email out.
  if (throttle.maxFailuresPerEmail <= throttle.maxFailuresPerEmailAndAddress) {
    notices.push(
      `AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL (${throttle.maxFailuresPerEmail}) is not above ` +
        `AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS (${throttle.maxFailuresPerEmailAndAddress}): ` +
        'failures from a single client address can lock that email out for everyone',
    );
  }
  return throttle;
}

// ---- AI step (issue 10): an OpenAI-compatible chat-completions endpoint -----------------------
// The endpoint is operator configuration, not a user-supplied target, so the address policy does
// not apply to it (a local Ollama on 127.0.0.1 is the common case). No message below ever echoes
// the API key, nor a URL that might carry credentials.

export interface AiConfig {
  /** Base URL including `/v1`, as in the OpenAI SDKs, without a trailing slash. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; local servers usually need none. */
  apiKey: string | undefined;
  model: string;
  /** Bound on one chat-completions call; the step makes at most two. */
  timeoutMs: number;
}

export const AI_TIMEOUT_DEFAULT_MS = 20_000;

function loadAiConfig(env: Env): AiConfig | undefined {
  const base = env.AUDIT_AI_BASE_URL?.trim();
  const apiKey = env.AUDIT_AI_API_KEY?.trim() || undefined;
  const model = env.AUDIT_AI_MODEL?.trim();
  if (!base) {
    // A model or key without an endpoint is a half-done configuration, not a wish to run without AI.
    for (const name of ['AUDIT_AI_MODEL', 'AUDIT_AI_API_KEY'] as const) {
      if (env[name]?.trim()) throw new ConfigError(`${name} is set but AUDIT_AI_BASE_URL is not; set both, or neither to run without the AI step`);
    }
    return undefined;
  }
  const example = 'e.g. http://127.0.0.1:11434/v1';
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigError(`AUDIT_AI_BASE_URL must be an absolute http(s) URL (${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`AUDIT_AI_BASE_URL must use http or https, got "${url.protocol}" (${example})`);
  }
  // Credentials in the URL would end up in logs and error texts; the key has its own variable.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('AUDIT_AI_BASE_URL must not contain credentials; put the key in AUDIT_AI_API_KEY');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`AUDIT_AI_BASE_URL must not have a query or fragment: "/chat/completions" is appended to it (${example})`);
  }
  // Printable ASCII without spaces: anything else cannot travel in an HTTP header intact.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError('AUDIT_AI_API_KEY must be printable ASCII without spaces');
  }
  if (!model) throw new ConfigError(`AUDIT_AI_MODEL is required when AUDIT_AI_BASE_URL is set (the model name the server knows, e.g. "llama3.1:8b")`);
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey,
    model,
    timeoutMs: integer(env, 'AUDIT_AI_TIMEOUT_MS', AI_TIMEOUT_DEFAULT_MS, 100, 300_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const seed = env.AUDIT_SEED_API_KEY?.trim();
  // The seed is a secret anyone who guesses it can spend; 32 characters is what a generator gives
  // (`openssl rand -hex 16` and up), not what a person types as an example.
  if (seed && seed.length < SEED_API_KEY_MIN_LENGTH) {
    throw new ConfigError(
      `AUDIT_SEED_API_KEY must be at least ${SEED_API_KEY_MIN_LENGTH} characters long (got ${seed.length}): ` +
        'a short key can be guessed; generate one with `openssl rand -hex 32`',
    );
  }
  const http = {
    headersTimeoutMs: integer(env, 'AUDIT_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: integer(env, 'AUDIT_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    keepAliveTimeoutMs: integer(env, 'AUDIT_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
  };
  // Node refuses a headers timeout longer than the whole-request one; say so in our own words.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError(
      `AUDIT_HEADERS_TIMEOUT_MS (${http.headersTimeoutMs}) must not exceed AUDIT_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`,
    );
  }
  const notices: string[] = [];
  // Above the spec's maximum the value is clamped, not refused: a longer wait is a wish we can
  // partly grant, where a non-number is a mistake.
  let webhookTimeoutMs = integer(env, 'AUDIT_WEBHOOK_TIMEOUT_MS', 5000, 100, 3_600_000);
  if (webhookTimeoutMs > MAX_WEBHOOK_TIMEOUT_MS) {
    notices.push(`AUDIT_WEBHOOK_TIMEOUT_MS ${webhookTimeoutMs} is above the maximum; using ${MAX_WEBHOOK_TIMEOUT_MS}`);
    webhookTimeoutMs = MAX_WEBHOOK_TIMEOUT_MS;
  }
  const webhooks: WebhookConfig = {
    timeoutMs: webhookTimeoutMs,
    rateLimit: {
      limit: integer(env, 'AUDIT_WEBHOOK_RATE_LIMIT', 10, 1, 1_000_000),
      windowSeconds: integer(env, 'AUDIT_WEBHOOK_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    maxPerKey: integer(env, 'AUDIT_MAX_WEBHOOKS_PER_KEY', 25, 1, 10_000),
    retryScheduleMs: parsed(env, 'AUDIT_WEBHOOK_RETRY_SCHEDULE', parseRetrySchedule, parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)),
    worker: parsed(env, 'AUDIT_WEBHOOK_WORKER', parseWorkerMode, 'inline'),
    pollIntervalMs: integer(env, 'AUDIT_WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 600_000),
    maxInFlightPerDestination: integer(env, 'AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION', DEFAULT_MAX_IN_FLIGHT_PER_DESTINATION, 1, 10_000),
    maxInFlightPerKey: integer(env, 'AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY', DEFAULT_MAX_IN_FLIGHT_PER_KEY, 1, 10_000),
  };
  const crawl = {
    timeoutMs: integer(env, 'AUDIT_CRAWL_TIMEOUT_MS', DEFAULT_CRAWL_LIMITS.timeoutMs, 100, 120_000),
    maxBytes: integer(env, 'AUDIT_CRAWL_MAX_BYTES', DEFAULT_CRAWL_LIMITS.maxBytes, 1024, 64 * 1024 * 1024),
    maxRedirects: DEFAULT_CRAWL_LIMITS.maxRedirects,
  };
  const analysis = loadAnalysisConfig(env);
  const ai = loadAiConfig(env);
  const monitors: MonitorConfig = {
    maxPerKey: integer(env, 'AUDIT_MONITOR_MAX_PER_KEY', 100, 1, 100_000),
    minIntervalMs: parsed(env, 'AUDIT_MONITOR_MIN_INTERVAL', parseMinInterval, 15 * 60_000),
    rateLimit: {
      limit: integer(env, 'AUDIT_MONITOR_RATE_LIMIT', 10, 1, 1_000_000),
      windowSeconds: integer(env, 'AUDIT_MONITOR_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    concurrency: integer(env, 'AUDIT_MONITOR_CONCURRENCY', 2, 1, 1000),
    pollIntervalMs: integer(env, 'AUDIT_MONITOR_POLL_INTERVAL_MS', 1000, 10, 600_000),
    // The longest a run can take, twice over: the page and the privacy branch's policy page (each a
    // crawl), two analysis budgets, and the WCAG AI step's two model calls, plus a minute for the
    // queue and the database. A run outliving its lease is harmless (its slot's audit is unique).
    leaseMs: integer(env, 'AUDIT_MONITOR_LEASE_MS', 2 * (2 * crawl.timeoutMs + 2 * analysis.timeoutMs + 2 * (ai?.timeoutMs ?? 0)) + 60_000, 1000, 86_400_000),
  };
  const allowPrivateNetworks = parsed(env, 'AUDIT_ALLOW_PRIVATE_NETWORKS', parseCidrList, []);
  notices.push(...checkAllowList(allowPrivateNetworks, parsed(env, UNSAFE_ACKNOWLEDGEMENT, parseBoolean, false)));
  // The embedded database admits one process: with delivery off in the server, nothing would send.
  if (webhooks.worker === 'off' && !env.DATABASE_URL?.trim()) {
    throw new ConfigError('AUDIT_WEBHOOK_WORKER=off needs DATABASE_URL: on the embedded database delivery runs in the server process');
  }
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dataDir: path.resolve(env.AUDIT_DATA_DIR?.trim() || './data'),
    database: {
      connectTimeoutMs: integer(env, 'AUDIT_DB_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
      statementTimeoutMs: integer(env, 'AUDIT_DB_STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
      startTimeoutMs: integer(env, 'AUDIT_DB_START_TIMEOUT_MS', 60_000, 0, 3_600_000),
    },
    seedApiKey: seed || undefined,
    rateLimit: {
      limit: integer(env, 'AUDIT_RATE_LIMIT', 10, 1, 1_000_000),
      windowSeconds: integer(env, 'AUDIT_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    crawl,
    analysis,
    ai,
    allowPrivateNetworks,
    trustProxy: parsed(env, 'AUDIT_TRUST_PROXY', (value) => parseCidrList(value).map((cidr) => cidr.text), []),
    staticResolve: parsed(env, 'AUDIT_RESOLVE', parseStaticResolve, new Map()),
    http,
    logLevel,
    webhooks,
    monitors,
    admin: loadAdminConfig(env, notices),
    notices,
  };
}

