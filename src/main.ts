#!/usr/bin/env node
// Process entry: `serve` (default), `migrate`, `help`, `keys create|list|show|revoke|set-rate-limit` and
// `users create|list|disable|enable|set-role|set-password`. `npm start` runs `serve`;
// `npm run cli -- keys create` manages API keys. A usage mistake exits 2
// with one line and the usage on stderr; a failure exits 1 with one line; `--help` exits 0.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { buildApp } from './app.ts';
import {
  checkApiKeyLabel,
  checkApiKeyRateLimit,
  createApiKey,
  ensureSeedKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyRateLimit,
  type ApiKeyRow,
} from './auth/api-keys.ts';
import {
  createUser,
  disableUser,
  emailProblem,
  enableUser,
  ensureSeedAdmin,
  isRole,
  listUsers,
  passwordProblem,
  PASSWORD_MIN_LENGTH,
  ROLES,
  setPassword,
  setRole,
  type Role,
  type User,
} from './auth/users.ts';
import { PasswordInputError, readNewPassword } from './cli/read-password.ts';
import { terminalJson, terminalText } from './cli/terminal-text.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connect.ts';
import { DataDirLockedError } from './db/dir-lock.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { createAddressPolicy } from './net/address-policy.ts';
import { createSafeFetcher } from './net/safe-fetch.ts';
import pino from 'pino';
import { loggerOptions } from './app.ts';
import { createDeliveryWorker } from './alerts/delivery-worker.ts';
import { listenForDeliveries, type Listener } from './alerts/listen.ts';
import { AnalysisPool } from './audit/analysis/pool.ts';
import { runAudit, type AuditDeps } from './audit/run-audit.ts';
import { createChatClient } from './audit/wcag/ai-step/index.ts';
import { createMonitorScheduler } from './monitors/scheduler.ts';

async function serve(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  const database = await openDatabase(config, log.child({ component: 'database' }));
  const policy = createAddressPolicy(config.allowPrivateNetworks);
  const fetcher = createSafeFetcher({ policy, staticResolve: config.staticResolve });
  const app = await buildApp({ config, db: database.db, fetcher, logger: log });
  for (const notice of config.notices) app.log.warn(notice);
  if (config.seedApiKey) {
    await ensureSeedKey(database.db, config.seedApiKey, app.log);
  } else {
    app.log.warn('AUDIT_SEED_API_KEY is not set; create a key with `npm run cli -- keys create`');
  }
  if (config.admin.email && config.admin.password) {
    await ensureSeedAdmin(database.db, config.admin.email, config.admin.password, app.log);
  }
  if (database.kind === 'pglite') {
    app.log.info({ dataDir: config.dataDir }, 'embedded PGlite database (fsync off: set DATABASE_URL to use PostgreSQL in production)');
  }

  // Audits committed by other server processes on the same PostgreSQL wake this one's worker too.
  const worker = app.deliveryWorker;
  let listener: Listener | undefined;
  if (worker && database.kind === 'postgres') {
    listener = await listenForDeliveries(config.databaseUrl!, () => worker.notify(), app.log.child({ component: 'delivery-worker' }), {
      connectTimeoutMs: config.database.connectTimeoutMs,
    });
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await listener?.close();
    await app.close();
    await fetcher.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
}

/**
 * `worker`: webhook delivery and monitors' scheduled audits without the HTTP API, so API and
 * background processes scale apart on one PostgreSQL (each claims with SKIP LOCKED). Delivery is
 * woken by LISTEN/NOTIFY at every audit commit; both poll as a fallback. On the embedded database
 * the server holds the directory, and does both itself.
 */
async function runWorker(config: Config): Promise<number> {
  const log = pino(loggerOptions(config.logLevel)).child({ component: 'delivery-worker' });
  for (const notice of config.notices) log.warn(notice);
  const database = await openDatabase(config, log.child({ component: 'database' }));
  const fetcher = createSafeFetcher({ policy: createAddressPolicy(config.allowPrivateNetworks), staticResolve: config.staticResolve });
  const worker = createDeliveryWorker({
    db: database.db,
    fetcher,
    timeoutMs: config.webhooks.timeoutMs,
    retryScheduleMs: config.webhooks.retryScheduleMs,
    pollIntervalMs: config.webhooks.pollIntervalMs,
    maxInFlightPerDestination: config.webhooks.maxInFlightPerDestination,
    maxInFlightPerKey: config.webhooks.maxInFlightPerKey,
    claimLock: database.kind === 'postgres',
    log,
  });
  const listener =
    database.kind === 'postgres'
      ? await listenForDeliveries(config.databaseUrl!, () => worker.notify(), log, { connectTimeoutMs: config.database.connectTimeoutMs })
      : undefined;
  // Monitor runs analyse pages here too: in this process's own threads, under the same budget.
  const analysisPool = new AnalysisPool({
    ...config.analysis,
    onError: (err) => log.error({ err, component: 'analysis-pool' }, 'analysis thread failed outside a task'),
  });
  const schedulerLog = log.child({ component: 'monitor-scheduler' });
  const auditDeps: AuditDeps = {
    db: database.db,
    fetcher,
    crawlLimits: config.crawl,
    analysisPool,
    onEventsQueued: () => worker.notify(),
    ai: config.ai ? { client: createChatClient(config.ai), model: config.ai.model } : undefined,
  };
  const scheduler = createMonitorScheduler({
    db: database.db,
    audit: (request) => runAudit(auditDeps, request, schedulerLog),
    log: schedulerLog,
    concurrency: config.monitors.concurrency,
    leaseMs: config.monitors.leaseMs,
    pollIntervalMs: config.monitors.pollIntervalMs,
  });
  worker.start();
  scheduler.start();
  log.info({ database: database.kind }, 'delivery worker started');
  schedulerLog.info({ concurrency: config.monitors.concurrency }, 'monitor scheduler started');
  return new Promise<number>((resolve) => {
    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      log.info({ signal }, 'delivery worker and monitor scheduler stopping: no new claims; tries and runs in flight are recorded');
      await listener?.close();
      await scheduler.stop();
      await analysisPool.close();
      await worker.stop();
      await fetcher.close();
      await database.close();
      resolve(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  });
}

/** A command's waits for an unreachable database, on stderr (stdout may be piped: `keys create`). */
const commandLog = { info() {}, warn: (_fields: object, message: string) => console.error(message) };

async function withDatabase<T>(work: (database: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config, commandLog);
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}

async function migrate(): Promise<number> {
  await withDatabase(async () => {});
  console.log('Database is at the latest migration.');
  return 0;
}

/** A key's audit budget as typed (`--rate-limit`, `set-rate-limit`): a number in bounds or `default`, else a usage mistake. */
function rateLimitArgument(value: string, what: string): number | null {
  const checked = checkApiKeyRateLimit(value);
  if (!checked.ok) throw new UsageError(`${what} ${checked.problem}, got '${terminalText(value)}'`);
  return checked.rateLimit;
}

/** `200 requests per 60-second window`: a budget in words, with the window it applies to. */
function budgetText(limit: number, config: Config): string {
  return `${limit} request${limit === 1 ? '' : 's'} per ${config.rateLimit.windowSeconds}-second window`;
}

async function createKey(rawLabel: string | undefined, rawRateLimit: string | undefined): Promise<number> {
  const rateLimit = rawRateLimit === undefined ? null : rateLimitArgument(rawRateLimit, '--rate-limit');
  const checked = checkApiKeyLabel(rawLabel);
  if (!checked.ok) throw new InputError(`--label ${checked.problem}; no key was created`);
  const { created, config } = await withDatabase(async (d, config) => ({ created: await createApiKey(d.db, checked.label, rateLimit), config }));
  console.log(`Created API key ${created.id}. Store it now: it is shown only once and cannot be recovered.`);
  if (rateLimit !== null) console.log(`Its own audit budget: ${budgetText(rateLimit, config)}.`);
  console.log(created.rawKey);
  return 0;
}

/**
 * The machine-readable form of a key, for `--json`: dates in ISO 8601, absent values null.
 * `rateLimit` is the key's own audit budget (null: the default); `effectiveRateLimit` the one that
 * applies, its own or AUDIT_RATE_LIMIT as this command's environment sets it.
 */
function keyJson(row: ApiKeyRow, config: Config) {
  return {
    id: row.id,
    display: row.display,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    rateLimit: row.rateLimit,
    effectiveRateLimit: row.rateLimit ?? config.rateLimit.limit,
  };
}

/** A key's budget in the text listings: its own figure, or `default (10)`. */
function rateLimitText(key: ReturnType<typeof keyJson>): string {
  return key.rateLimit === null ? `default (${key.effectiveRateLimit})` : String(key.rateLimit);
}

function printJson(value: unknown): void {
  console.log(terminalJson(value));
}

async function listKeys(json: boolean | undefined): Promise<number> {
  const rows = await withDatabase(async (d, config) => (await listApiKeys(d.db)).map((row) => keyJson(row, config)));
  if (json) {
    printJson(rows);
    return 0;
  }
  // The budget is last, after the label, so scripts that cut the first five columns still work.
  console.log(['id', 'display', 'created', 'revoked', 'label', 'rate-limit'].join('\t'));
  for (const row of rows) {
    console.log([row.id, row.display, row.createdAt, row.revokedAt ?? '-', row.label ?? '', rateLimitText(row)].map(terminalText).join('\t'));
  }
  return 0;
}

async function showKey(id: string, json: boolean | undefined): Promise<number> {
  const key = await withDatabase(async (d, config) => {
    const row = await getApiKey(d.db, id);
    return row && keyJson(row, config);
  });
  if (!key) {
    console.error(`No key with id ${terminalText(id)}.`);
    return 1;
  }
  if (json) {
    printJson(key);
    return 0;
  }
  // One figure in text: its own, or `default (10)`.
  const { effectiveRateLimit: _shownInRateLimit, ...fields } = { ...key, rateLimit: rateLimitText(key) };
  for (const [field, value] of Object.entries(fields)) console.log(`${field.padEnd(11)}${terminalText(value ?? '-')}`);
  return 0;
}

async function setKeyRateLimit(id: string, value: string): Promise<number> {
  const rateLimit = rateLimitArgument(value, '<limit>');
  const { result, config } = await withDatabase(async (d, config) => ({ result: await setApiKeyRateLimit(d.db, id, rateLimit), config }));
  const budget = rateLimit === null
    ? `the default audit budget: AUDIT_RATE_LIMIT, ${budgetText(config.rateLimit.limit, config)}`
    : `its own audit budget: ${budgetText(rateLimit, config)}`;
  return report(result, {
    updated: `Key ${id} now has ${budget} (from its next request).`,
    unchanged: `Key ${id} already had ${budget}.`,
    'not-found': `No key with id ${id}.`,
  });
}

async function revokeKey(id: string): Promise<number> {
  const result = await withDatabase((d) => revokeApiKey(d.db, id));
  return report(result, { revoked: `Revoked ${id}.`, 'already-revoked': `${id} was already revoked.`, 'not-found': `No key with id ${id}.` });
}

// ---- users: dashboard accounts. Passwords come from AUDIT_NEW_USER_PASSWORD or stdin, never argv.

/** The role an operator typed, or a usage mistake. */
function roleArgument(value: string | undefined, what: string): Role {
  if (value === undefined) throw new UsageError(`${what} is required: ${ROLES.join(' or ')}`);
  if (!isRole(value)) throw new UsageError(`${what} must be ${ROLES.join(' or ')}, got '${value}'`);
  return value;
}

/** A value the operator must correct (a malformed email, a weak password): one line, exit 1. */
class InputError extends Error {}

function checkedEmail(email: string): string {
  const problem = emailProblem(email);
  if (problem) throw new InputError(`email ${problem}`);
  return email;
}

async function newPassword(label: string): Promise<string> {
  const password = await readNewPassword(process.env, label);
  const problem = passwordProblem(password);
  if (problem) throw new InputError(`the password ${problem}; nothing was changed`);
  return password;
}

async function createUserCommand(values: CommandValues): Promise<number> {
  if (values.email === undefined) throw new UsageError('users create needs --email');
  const role = roleArgument(values.role, '--role');
  const email = checkedEmail(values.email);
  const password = await newPassword(email);
  const created = await withDatabase((d) => createUser(d.db, { email, role, password }));
  if (created === 'email taken') {
    console.error(`A user with email ${terminalText(email.trim().toLowerCase())} already exists.`);
    return 1;
  }
  console.log(`Created ${created.role} ${terminalText(created.email)} (${created.id}).`);
  return 0;
}

/** The machine-readable form of a user, for `--json`: dates in ISO 8601, absent values null. */
function userJson(user: User) {
  return { id: user.id, email: user.email, role: user.role, createdAt: user.createdAt.toISOString(), disabledAt: user.disabledAt?.toISOString() ?? null };
}

async function listUsersCommand(json: boolean | undefined): Promise<number> {
  const rows = (await withDatabase((d) => listUsers(d.db))).map(userJson);
  if (json) {
    printJson(rows);
    return 0;
  }
  console.log(['id', 'email', 'role', 'created', 'disabled'].join('\t'));
  for (const row of rows) console.log([row.id, row.email, row.role, row.createdAt, row.disabledAt ?? '-'].map(terminalText).join('\t'));
  return 0;
}

/** Prints the outcome's message (escaped: it names what the operator typed); `not-found` goes to stderr and exits 1. */
function report(result: string, messages: Record<string, string>): number {
  (result === 'not-found' ? console.error : console.log)(terminalText(messages[result]!));
  return result === 'not-found' ? 1 : 0;
}

const noUser = (email: string) => `No user with email ${email}.`;

async function disableUserCommand(email: string): Promise<number> {
  const result = await withDatabase((d) => disableUser(d.db, email));
  return report(result, {
    disabled: `Disabled ${email}; its sessions are ended.`,
    'already-disabled': `${email} was already disabled.`,
    'not-found': noUser(email),
  });
}

async function enableUserCommand(email: string): Promise<number> {
  const result = await withDatabase((d) => enableUser(d.db, email));
  return report(result, { enabled: `Enabled ${email}.`, 'already-enabled': `${email} was not disabled.`, 'not-found': noUser(email) });
}

async function setRoleCommand(email: string, roleValue: string): Promise<number> {
  const role = roleArgument(roleValue, '<role>');
  const result = await withDatabase((d) => setRole(d.db, email, role));
  return report(result, { updated: `${email} is now ${role}.`, unchanged: `${email} was already ${role}.`, 'not-found': noUser(email) });
}

async function setPasswordCommand(email: string): Promise<number> {
  const password = await newPassword(email);
  const result = await withDatabase((d) => setPassword(d.db, email, password));
  return report(result, { updated: `Replaced the password of ${email}; its sessions are ended.`, 'not-found': noUser(email) });
}

/** The options any command takes, as parseArgs returns them (each command declares its own). */
type CommandValues = { label?: string; 'rate-limit'?: string; json?: boolean; email?: string; role?: string };

interface Command {
  /** How it is called, for the usage text. */
  synopsis: string;
  summary: string;
  options?: ParseArgsOptionsConfig;
  /** Names of its positional arguments, all required. */
  args?: string[];
  run(values: CommandValues, args: string[]): Promise<number>;
}

const jsonOption: ParseArgsOptionsConfig = { json: { type: 'boolean' } };

const COMMANDS: Record<string, Command> = {
  serve: {
    synopsis: 'serve',
    summary: 'run the HTTP service (the default; npm start)',
    run: async () => {
      await serve(loadConfig());
      return 0;
    },
  },
  worker: {
    synopsis: 'worker',
    summary: 'deliver webhook events without the HTTP API (PostgreSQL: LISTEN/NOTIFY; until SIGTERM)',
    run: () => runWorker(loadConfig()),
  },
  migrate: { synopsis: 'migrate', summary: 'apply database migrations and exit', run: migrate },
  'keys create': {
    synopsis: 'keys create [--label L] [--rate-limit N]',
    summary: 'create an API key; prints the raw key once, alone on the last line',
    options: { label: { type: 'string' }, 'rate-limit': { type: 'string' } },
    run: (values) => createKey(values.label, values['rate-limit']),
  },
  'keys list': {
    synopsis: 'keys list [--json]',
    summary: 'list keys: id, display, created, revoked, label, rate limit',
    options: jsonOption,
    run: (values) => listKeys(values.json),
  },
  'keys show': {
    synopsis: 'keys show <id> [--json]',
    summary: 'show one key',
    options: jsonOption,
    args: ['id'],
    run: (values, [id]) => showKey(id!, values.json),
  },
  'keys revoke': { synopsis: 'keys revoke <id>', summary: 'revoke a key by id', args: ['id'], run: (_, [id]) => revokeKey(id!) },
  'keys set-rate-limit': {
    synopsis: 'keys set-rate-limit <id> <limit>',
    summary: `give a key its own audit budget per window (1 to 1000000), or 'default' for AUDIT_RATE_LIMIT`,
    args: ['id', 'limit'],
    run: (_, [id, limit]) => setKeyRateLimit(id!, limit!),
  },
  'users create': {
    synopsis: 'users create --email E --role R',
    summary: 'create a dashboard user (admin or member); password from AUDIT_NEW_USER_PASSWORD or stdin',
    options: { email: { type: 'string' }, role: { type: 'string' } },
    run: (values) => createUserCommand(values),
  },
  'users list': {
    synopsis: 'users list [--json]',
    summary: 'list users: id, email, role, created, disabled',
    options: jsonOption,
    run: (values) => listUsersCommand(values.json),
  },
  'users disable': {
    synopsis: 'users disable <email>',
    summary: 'disable a user and end their sessions',
    args: ['email'],
    run: (_, [email]) => disableUserCommand(email!),
  },
  'users enable': { synopsis: 'users enable <email>', summary: 'enable a disabled user', args: ['email'], run: (_, [email]) => enableUserCommand(email!) },
  'users set-role': {
    synopsis: 'users set-role <email> <role>',
    summary: 'make a user admin or member (from their next request)',
    args: ['email', 'role'],
    run: (_, [email, role]) => setRoleCommand(email!, role!),
  },
  'users set-password': {
    synopsis: 'users set-password <email>',
    summary: 'replace a password (AUDIT_NEW_USER_PASSWORD or stdin); ends their sessions',
    args: ['email'],
    run: (_, [email]) => setPasswordCommand(email!),
  },
  help: { synopsis: 'help', summary: 'print this usage (so does --help after any command)', run: async () => printUsage() },
};

const SYNOPSIS_WIDTH = Math.max(...Object.values(COMMANDS).map((command) => command.synopsis.length)) + 2;

const USAGE = [
  'Usage: node src/main.ts <command> [options]     (npm run cli -- <command> [options])',
  '',
  ...Object.values(COMMANDS).map((command) => `  ${command.synopsis.padEnd(SYNOPSIS_WIDTH)}${command.summary}`),
  '',
  'The database is DATABASE_URL, or the embedded one in AUDIT_DATA_DIR, as for the server.',
  'A new password is read from AUDIT_NEW_USER_PASSWORD, else from stdin (first line; typed twice at a',
  `terminal), never from an argument; it must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
].join('\n');

function printUsage(): number {
  console.log(USAGE);
  return 0;
}

/** A mistake in how the command was called: reported in one line, then the usage, exit 2. */
class UsageError extends Error {}

/** Commands of two words: `keys create`, `users list`, … */
const GROUPS = ['keys', 'users'];

function findCommand(argv: string[]): { name: string; command: Command | undefined; rest: string[] } {
  // No command, or options first, means `serve`: `node src/main.ts --help` prints the usage.
  if (argv.length === 0 || argv[0]!.startsWith('-')) return { name: 'serve', command: COMMANDS.serve, rest: argv };
  const words = GROUPS.includes(argv[0]!) && argv[1] !== undefined && !argv[1].startsWith('-') ? 2 : 1;
  const name = argv.slice(0, words).join(' ');
  return { name, command: COMMANDS[name], rest: argv.slice(words) };
}

function parseCommandLine(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: Boolean(command.args),
      strict: true,
    });
  } catch (error) {
    // parseArgs reports unknown options, missing values and stray arguments with these codes.
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message);
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  const { name, command, rest } = findCommand(argv);
  if (!command) {
    if (rest.includes('--help') || rest.includes('-h')) return printUsage();
    const subcommands = Object.keys(COMMANDS).filter((known) => known.startsWith(`${name} `)).map((known) => known.slice(name.length + 1));
    if (subcommands.length > 0) throw new UsageError(`${name} needs a subcommand: ${subcommands.slice(0, -1).join(', ')} or ${subcommands.at(-1)}`);
    throw new UsageError(`Unknown command '${name}'`);
  }
  const { values, positionals } = parseCommandLine(command, rest);
  if (values.help) return printUsage();
  const expected = command.args ?? [];
  if (positionals.length < expected.length) throw new UsageError(`${name} needs <${expected[positionals.length]}>`);
  if (positionals.length > expected.length) throw new UsageError(`Unexpected argument '${positionals[expected.length]}'`);
  return command.run(values as CommandValues, positionals);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      console.error(USAGE);
      process.exit(2);
    }
    if (isDatabaseUnavailable(error)) {
      console.error(`error: the database could not be reached (${(error as Error).message}); gave up after AUDIT_DB_START_TIMEOUT_MS`);
    } else if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof InputError || error instanceof PasswordInputError) {
      console.error(`error: ${error.message}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
