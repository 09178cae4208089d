import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

test('defaults match the README table', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.dataDir, path.resolve('./data'));
  assert.deepEqual(config.rateLimit, { limit: 10, windowSeconds: 60 });
  assert.deepEqual(config.crawl, { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 });
  assert.deepEqual(config.allowPrivateNetworks, []);
  assert.equal(config.staticResolve.size, 0);
  assert.equal(config.logLevel, 'info');
});

test('values are read and parsed', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '8080',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    AUDIT_SEED_API_KEY: 'a-seed-key-of-exactly-32-chars-x',
    AUDIT_RATE_LIMIT: '1000',
    AUDIT_RATE_WINDOW_SECONDS: '1',
    AUDIT_RESOLVE: 'a.test=127.0.0.1,a.test=::1',
    AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8, ::1/128',
    AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
  });
  assert.equal(config.port, 8080);
  assert.equal(config.seedApiKey, 'a-seed-key-of-exactly-32-chars-x');
  assert.deepEqual(config.rateLimit, { limit: 1000, windowSeconds: 1 });
  assert.deepEqual(config.staticResolve.get('a.test'), ['127.0.0.1', '::1']);
  assert.equal(config.allowPrivateNetworks.length, 2);
});

// Each entry alone: refused without the acknowledgement, with a message naming the entry, what it
// covers and the setting; accepted with it, and then logged at start.
const dangerous: [entry: string, covers: RegExp][] = [
  ['0.0.0.0/0', /every IPv4 address/],
  ['::/0', /every IPv6 address/],
  ['0::0/0', /every IPv6 address/],
  ['::ffff:0:0/95', /every IPv4 address \(IPv4-mapped/],
  ['169.254.169.254/32', /cloud metadata address 169\.254\.169\.254/],
  ['169.254.169.254', /cloud metadata address 169\.254\.169\.254/],
  ['169.254.0.0/16', /cloud metadata address 169\.254\.169\.254/],
  ['169.254.169.0/24', /cloud metadata address 169\.254\.169\.254/],
  ['128.0.0.0/1', /cloud metadata address 169\.254\.169\.254/],
  ['fd00:ec2::254', /AWS metadata address fd00:ec2::254/],
  ['fd00::/8', /AWS metadata address fd00:ec2::254/],
  ['169.254.170.2', /AWS ECS credential address/],
  ['100.64.0.0/10', /Alibaba Cloud metadata address 100\.100\.100\.200/],
  ['127.0.0.0/8', /loopback 127\.0\.0\.0\/8/],
  ['127.0.0.1', /loopback 127\.0\.0\.0\/8/],
  ['127.10.0.0/16', /loopback 127\.0\.0\.0\/8/],
  ['::1', /loopback ::1/],
  ['::1/128', /loopback ::1/],
  ['0.0.0.0', /unspecified address 0\.0\.0\.0/],
  ['0.0.0.0/8', /unspecified address 0\.0\.0\.0/],
  ['::', /unspecified address ::/],
  ['::/64', /every IPv4 address \(IPv4-mapped.*unspecified address ::.* loopback ::1/],
  ['fc00::/7', /AWS metadata address fd00:ec2::254/],
];
for (const [entry, covers] of dangerous) {
  test(`AUDIT_ALLOW_PRIVATE_NETWORKS=${entry} stops the start unless AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE=true`, () => {
    const env = { AUDIT_ALLOW_PRIVATE_NETWORKS: `10.20.0.0/16, ${entry}` };
    assert.throws(
      () => loadConfig(env),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith(`AUDIT_ALLOW_PRIVATE_NETWORKS entry ${entry} covers `) &&
        covers.test(error.message) &&
        /set AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE=true to allow it anyway$/.test(error.message),
    );
    for (const refused of ['false', '']) {
      assert.throws(() => loadConfig({ ...env, AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: refused }), ConfigError, `UNSAFE=${refused}`);
    }
    const config = loadConfig({ ...env, AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true' });
    assert.deepEqual(config.allowPrivateNetworks.map((cidr) => cidr.text), ['10.20.0.0/16', entry]);
    assert.equal(config.notices.length, 1, config.notices.join('\n'));
    assert.match(config.notices[0]!, new RegExp(`^AUDIT_ALLOW_PRIVATE_NETWORKS entry ${entry.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} covers .*; allowed because AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE=true$`));
    assert.match(config.notices[0]!, covers);
  });
}

test('allow-list entries short of those: accepted, silently up to a /8 (IPv4) or /32 (IPv6), with one warning when wider', () => {
  const cases: [entry: string, warning: RegExp | undefined][] = [
    ['10.0.0.0/8', undefined],
    ['10.20.0.0/16, fd00:1::/32', undefined],
    ['169.254.169.253/32', undefined],
    ['169.254.169.255', undefined],
    ['169.254.168.0/24', undefined],
    ['169.254.170.3', undefined],
    ['126.255.255.255/32', undefined],
    ['128.0.0.0/8', undefined],
    ['::2', undefined],
    ['fd00:ec2::253', undefined],
    ['100.100.100.201', undefined],
    ['0.0.0.1', undefined],
    ['10.0.0.0/7', /^AUDIT_ALLOW_PRIVATE_NETWORKS entry 10\.0\.0\.0\/7 is wider than a \/8: check that it is the network you meant$/],
    ['192.0.0.0/2', /entry 192\.0\.0\.0\/2 is wider than a \/8/],
    ['fd12:3400::/24', /entry fd12:3400::\/24 is wider than a \/32/],
    ['2001:db8::/16', /entry 2001:db8::\/16 is wider than a \/32/],
    ['fd00:1::/31', /entry fd00:1::\/31 is wider than a \/32/],
  ];
  for (const [entries, warning] of cases) {
    const config = loadConfig({ AUDIT_ALLOW_PRIVATE_NETWORKS: entries });
    assert.deepEqual(config.notices, warning ? [config.notices[0]] : [], entries);
    if (warning) assert.match(config.notices[0]!, warning);
  }
  // Left set with nothing to acknowledge, the acknowledgement would let a later mistake through.
  for (const entries of [undefined, '10.0.0.0/8']) {
    const env = { AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true', ...(entries ? { AUDIT_ALLOW_PRIVATE_NETWORKS: entries } : {}) };
    assert.deepEqual(loadConfig(env).notices, [
      'AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE=true acknowledges nothing (no entry needs it): unset it, so that a mistaken entry added later is refused',
    ]);
  }
  assert.throws(() => loadConfig({ AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: '1' }), /AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: must be true or false/);
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['port out of range', { PORT: '70000' }, /^PORT/],
  ['port not a number', { PORT: 'http' }, /^PORT/],
  ['zero rate limit', { AUDIT_RATE_LIMIT: '0' }, /^AUDIT_RATE_LIMIT/],
  ['fractional window', { AUDIT_RATE_WINDOW_SECONDS: '1.5' }, /^AUDIT_RATE_WINDOW_SECONDS/],
  ['short seed key', { AUDIT_SEED_API_KEY: 'short' }, /^AUDIT_SEED_API_KEY/],
  ['seed key one short of 32', { AUDIT_SEED_API_KEY: 'x'.repeat(31) }, /^AUDIT_SEED_API_KEY must be at least 32 characters long \(got 31\)/],
  ['bad CIDR', { AUDIT_ALLOW_PRIVATE_NETWORKS: '10.0.0.0/33' }, /^AUDIT_ALLOW_PRIVATE_NETWORKS/],
  ['bad resolve entry', { AUDIT_RESOLVE: 'a.test' }, /^AUDIT_RESOLVE/],
  ['bad resolve address', { AUDIT_RESOLVE: 'a.test=not-an-ip' }, /^AUDIT_RESOLVE/],
  ['unknown log level', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL/],
];
for (const [name, env, message] of bad) {
  test(`a bad value stops start-up with a message naming the variable: ${name}`, () => {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  });
}

test('request bounds: defaults, values, and a headers timeout longer than the request timeout refused', () => {
  assert.deepEqual(loadConfig({}).http, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 });
  const set = loadConfig({ AUDIT_HEADERS_TIMEOUT_MS: '500', AUDIT_REQUEST_TIMEOUT_MS: '2000', AUDIT_KEEP_ALIVE_TIMEOUT_MS: '1000' });
  assert.deepEqual(set.http, { headersTimeoutMs: 500, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000 });
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_REQUEST_TIMEOUT_MS: '0' }, /^AUDIT_REQUEST_TIMEOUT_MS/],
    [{ AUDIT_HEADERS_TIMEOUT_MS: '1.5' }, /^AUDIT_HEADERS_TIMEOUT_MS/],
    [{ AUDIT_KEEP_ALIVE_TIMEOUT_MS: 'long' }, /^AUDIT_KEEP_ALIVE_TIMEOUT_MS/],
    [{ AUDIT_HEADERS_TIMEOUT_MS: '20000', AUDIT_REQUEST_TIMEOUT_MS: '10000' }, /^AUDIT_HEADERS_TIMEOUT_MS .* must not exceed AUDIT_REQUEST_TIMEOUT_MS/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('analysis settings: threads default to the cores, a queue of 64, a 5 s budget; values read; bad values refused by name', () => {
  assert.deepEqual(loadConfig({}).analysis, { threads: os.availableParallelism(), queue: 64, timeoutMs: 5000 });
  const set = loadConfig({ AUDIT_ANALYSIS_THREADS: '3', AUDIT_ANALYSIS_QUEUE: '0', AUDIT_ANALYSIS_TIMEOUT_MS: '250' });
  assert.deepEqual(set.analysis, { threads: 3, queue: 0, timeoutMs: 250 });
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_ANALYSIS_THREADS: '0' }, /^AUDIT_ANALYSIS_THREADS must be an integer between 1 and 256, got "0"/],
    [{ AUDIT_ANALYSIS_THREADS: 'all' }, /^AUDIT_ANALYSIS_THREADS/],
    [{ AUDIT_ANALYSIS_QUEUE: '-1' }, /^AUDIT_ANALYSIS_QUEUE/],
    [{ AUDIT_ANALYSIS_QUEUE: '1.5' }, /^AUDIT_ANALYSIS_QUEUE/],
    [{ AUDIT_ANALYSIS_TIMEOUT_MS: '99' }, /^AUDIT_ANALYSIS_TIMEOUT_MS must be an integer between 100 and 600000/],
    [{ AUDIT_ANALYSIS_TIMEOUT_MS: '5s' }, /^AUDIT_ANALYSIS_TIMEOUT_MS/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('monitor settings: defaults, values, a lease that follows the crawl, analysis and AI bounds; bad values refused by name', () => {
  assert.deepEqual(loadConfig({}).monitors, {
    maxPerKey: 100,
    minIntervalMs: 15 * 60_000,
    rateLimit: { limit: 10, windowSeconds: 60 },
    concurrency: 2,
    pollIntervalMs: 1000,
    leaseMs: 2 * (2 * 10_000 + 2 * 5000) + 60_000,
  });
  const set = loadConfig({
    AUDIT_MONITOR_MAX_PER_KEY: '5',
    AUDIT_MONITOR_MIN_INTERVAL: '2h',
    AUDIT_MONITOR_RATE_LIMIT: '3',
    AUDIT_MONITOR_RATE_WINDOW_SECONDS: '600',
    AUDIT_MONITOR_CONCURRENCY: '8',
    AUDIT_MONITOR_POLL_INTERVAL_MS: '250',
    AUDIT_MONITOR_LEASE_MS: '5000',
  });
  assert.deepEqual(set.monitors, { maxPerKey: 5, minIntervalMs: 2 * 3_600_000, rateLimit: { limit: 3, windowSeconds: 600 }, concurrency: 8, pollIntervalMs: 250, leaseMs: 5000 });
  // The default lease grows with what a run may take.
  const slow = loadConfig({ AUDIT_CRAWL_TIMEOUT_MS: '30000', AUDIT_AI_BASE_URL: 'http://127.0.0.1:11434/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_TIMEOUT_MS: '40000' });
  assert.equal(slow.monitors.leaseMs, 2 * (2 * 30_000 + 2 * 5000 + 2 * 40_000) + 60_000);
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_MONITOR_MIN_INTERVAL: '30s' }, /^AUDIT_MONITOR_MIN_INTERVAL.*between 1m and 31d/],
    [{ AUDIT_MONITOR_MIN_INTERVAL: '15 minutes' }, /^AUDIT_MONITOR_MIN_INTERVAL.*not a duration/],
    [{ AUDIT_MONITOR_MIN_INTERVAL: '60d' }, /^AUDIT_MONITOR_MIN_INTERVAL/],
    [{ AUDIT_MONITOR_MAX_PER_KEY: '0' }, /^AUDIT_MONITOR_MAX_PER_KEY/],
    [{ AUDIT_MONITOR_CONCURRENCY: 'many' }, /^AUDIT_MONITOR_CONCURRENCY/],
    [{ AUDIT_MONITOR_LEASE_MS: '999' }, /^AUDIT_MONITOR_LEASE_MS/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env));
  }
});

test('webhook settings: defaults, values, the timeout clamped to 15 s with a notice, bad values refused', () => {
  const defaults = loadConfig({}).webhooks;
  assert.deepEqual(defaults, {
    timeoutMs: 5000,
    rateLimit: { limit: 10, windowSeconds: 60 },
    maxPerKey: 25,
    retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    worker: 'inline',
    pollIntervalMs: 1000,
    maxInFlightPerDestination: 8,
    maxInFlightPerKey: 12,
  });
  assert.deepEqual(loadConfig({}).notices, []);
  const set = loadConfig({
    AUDIT_WEBHOOK_TIMEOUT_MS: '2500',
    AUDIT_WEBHOOK_RATE_LIMIT: '3',
    AUDIT_WEBHOOK_RATE_WINDOW_SECONDS: '10',
    AUDIT_MAX_WEBHOOKS_PER_KEY: '2',
    AUDIT_WEBHOOK_RETRY_SCHEDULE: '500ms, 1s,2m,1h,1d',
    AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: '16',
    AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY: '1',
  });
  assert.deepEqual(set.webhooks, {
    timeoutMs: 2500,
    rateLimit: { limit: 3, windowSeconds: 10 },
    maxPerKey: 2,
    retryScheduleMs: [500, 1000, 120_000, 3_600_000, 86_400_000],
    worker: 'inline',
    pollIntervalMs: 1000,
    maxInFlightPerDestination: 16,
    maxInFlightPerKey: 1,
  });
  const separate = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', AUDIT_WEBHOOK_WORKER: 'off', AUDIT_WEBHOOK_POLL_INTERVAL_MS: '250' });
  assert.equal(separate.webhooks.worker, 'off');
  assert.equal(separate.webhooks.pollIntervalMs, 250);
  assert.deepEqual(loadConfig({ AUDIT_WEBHOOK_RETRY_SCHEDULE: 'none' }).webhooks.retryScheduleMs, []);
  const clamped = loadConfig({ AUDIT_WEBHOOK_TIMEOUT_MS: '60000' });
  assert.equal(clamped.webhooks.timeoutMs, 15_000);
  assert.match(clamped.notices.join('\n'), /AUDIT_WEBHOOK_TIMEOUT_MS 60000 is above the maximum; using 15000/);
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_WEBHOOK_TIMEOUT_MS: 'soon' }, /^AUDIT_WEBHOOK_TIMEOUT_MS/],
    [{ AUDIT_WEBHOOK_TIMEOUT_MS: '0' }, /^AUDIT_WEBHOOK_TIMEOUT_MS/],
    [{ AUDIT_WEBHOOK_RATE_LIMIT: '0' }, /^AUDIT_WEBHOOK_RATE_LIMIT/],
    [{ AUDIT_WEBHOOK_RATE_WINDOW_SECONDS: 'x' }, /^AUDIT_WEBHOOK_RATE_WINDOW_SECONDS/],
    [{ AUDIT_MAX_WEBHOOKS_PER_KEY: '-1' }, /^AUDIT_MAX_WEBHOOKS_PER_KEY/],
    [{ AUDIT_WEBHOOK_RETRY_SCHEDULE: '5,10' }, /^AUDIT_WEBHOOK_RETRY_SCHEDULE: "5" is not a delay/],
    [{ AUDIT_WEBHOOK_RETRY_SCHEDULE: '5s,,5m' }, /^AUDIT_WEBHOOK_RETRY_SCHEDULE/],
    [{ AUDIT_WEBHOOK_RETRY_SCHEDULE: '8d' }, /^AUDIT_WEBHOOK_RETRY_SCHEDULE: "8d" must be between/],
    [{ AUDIT_WEBHOOK_RETRY_SCHEDULE: '0s' }, /^AUDIT_WEBHOOK_RETRY_SCHEDULE/],
    [{ AUDIT_WEBHOOK_WORKER: 'separate' }, /^AUDIT_WEBHOOK_WORKER: must be inline or off/],
    [{ AUDIT_WEBHOOK_WORKER: 'off' }, /^AUDIT_WEBHOOK_WORKER=off needs DATABASE_URL/],
    [{ AUDIT_WEBHOOK_POLL_INTERVAL_MS: '5' }, /^AUDIT_WEBHOOK_POLL_INTERVAL_MS/],
    [{ AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: '0' }, /^AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION must be an integer between 1 and 10000/],
    [{ AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION: '2.5' }, /^AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION/],
    [{ AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY: 'many' }, /^AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY must be an integer/],
    [{ AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY: '10001' }, /^AUDIT_WEBHOOK_MAX_IN_FLIGHT_PER_KEY/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('database bounds: defaults, values, and bad values refused by name', () => {
  assert.deepEqual(loadConfig({}).database, { connectTimeoutMs: 2000, statementTimeoutMs: 5000, startTimeoutMs: 60_000 });
  assert.deepEqual(
    loadConfig({ AUDIT_DB_CONNECT_TIMEOUT_MS: '750', AUDIT_DB_STATEMENT_TIMEOUT_MS: '30000', AUDIT_DB_START_TIMEOUT_MS: '0' }).database,
    { connectTimeoutMs: 750, statementTimeoutMs: 30_000, startTimeoutMs: 0 },
  );
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_DB_CONNECT_TIMEOUT_MS: '0' }, /^AUDIT_DB_CONNECT_TIMEOUT_MS must be an integer between 100 and 60000/],
    [{ AUDIT_DB_CONNECT_TIMEOUT_MS: '2s' }, /^AUDIT_DB_CONNECT_TIMEOUT_MS/],
    [{ AUDIT_DB_STATEMENT_TIMEOUT_MS: '99' }, /^AUDIT_DB_STATEMENT_TIMEOUT_MS/],
    [{ AUDIT_DB_START_TIMEOUT_MS: '-1' }, /^AUDIT_DB_START_TIMEOUT_MS/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('admin sessions: defaults, values, and bad values refused by name without echoing a password', () => {
  assert.deepEqual(loadConfig({}).admin, {
    cookieSecure: true,
    idleTimeoutMs: 30 * 60_000,
    absoluteTimeoutMs: 12 * 3_600_000,
    loginThrottle: { windowSeconds: 15 * 60, maxFailuresPerEmailAndAddress: 5, maxFailuresPerAddress: 20, maxFailuresPerEmail: 50 },
  });
  const set = loadConfig({
    AUDIT_ADMIN_EMAIL: ' Root@Example.com ',
    // Not trimmed: spaces can be part of a password.
    AUDIT_ADMIN_PASSWORD: ' twelve chars ',
    AUDIT_COOKIE_SECURE: 'false',
    AUDIT_SESSION_IDLE_MINUTES: '5',
    AUDIT_SESSION_MAX_HOURS: '1',
    AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES: '60',
    AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '3',
    AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '200',
    AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: '50',
  });
  assert.deepEqual(set.admin, {
    email: 'root@example.com',
    password: ' twelve chars ',
    cookieSecure: false,
    idleTimeoutMs: 5 * 60_000,
    absoluteTimeoutMs: 3_600_000,
    loginThrottle: { windowSeconds: 3600, maxFailuresPerEmailAndAddress: 3, maxFailuresPerAddress: 50, maxFailuresPerEmail: 200 },
  });
  assert.deepEqual(set.notices, []);
  // A ceiling no higher than one client's budget is accepted (it was the default) but said aloud;
  // one above it is not.
  const lockable = loadConfig({ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '5' });
  assert.equal(lockable.admin.loginThrottle.maxFailuresPerEmail, 5);
  assert.match(lockable.notices.join('\n'), /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL \(5\) is not above AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS \(5\)/);
  assert.deepEqual(loadConfig({ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '6' }).notices, []);
  assert.deepEqual(loadConfig({ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '100000' }).admin.loginThrottle.maxFailuresPerEmail, 100_000);
  assert.equal(loadConfig({ AUDIT_COOKIE_SECURE: 'true' }).admin.cookieSecure, true);
  assert.deepEqual(loadConfig({}).trustProxy, []);
  assert.deepEqual(loadConfig({ AUDIT_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
  const secret = 'elevenchars';
  const refused: [Record<string, string>, RegExp][] = [
    [{ AUDIT_ADMIN_EMAIL: 'root@example.com' }, /^AUDIT_ADMIN_EMAIL is set but AUDIT_ADMIN_PASSWORD is not/],
    [{ AUDIT_ADMIN_PASSWORD: 'twelve chars' }, /^AUDIT_ADMIN_PASSWORD is set but AUDIT_ADMIN_EMAIL is not/],
    [{ AUDIT_ADMIN_EMAIL: 'root@example.com', AUDIT_ADMIN_PASSWORD: secret }, /^AUDIT_ADMIN_PASSWORD must be at least 12 characters long \(got 11\)$/],
    [{ AUDIT_ADMIN_EMAIL: 'root', AUDIT_ADMIN_PASSWORD: 'twelve chars' }, /^AUDIT_ADMIN_EMAIL must be an email address/],
    [{ AUDIT_COOKIE_SECURE: 'no' }, /^AUDIT_COOKIE_SECURE: must be true or false, got "no"/],
    [{ AUDIT_COOKIE_SECURE: '0' }, /^AUDIT_COOKIE_SECURE/],
    [{ AUDIT_SESSION_IDLE_MINUTES: '0' }, /^AUDIT_SESSION_IDLE_MINUTES must be an integer between 1 and 1440/],
    [{ AUDIT_SESSION_MAX_HOURS: '1.5' }, /^AUDIT_SESSION_MAX_HOURS/],
    [{ AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES: 'x' }, /^AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '0' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: '-3' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '100001' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL must be an integer between 1 and 100000/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '0' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS must be an integer between 1 and 1000/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '2.5' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS/],
    [{ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '1001' }, /^AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS/],
    [{ AUDIT_TRUST_PROXY: 'proxy.internal' }, /^AUDIT_TRUST_PROXY: "proxy.internal" is not an IPv4 or IPv6 CIDR/],
  ];
  for (const [env, message] of refused) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes(secret),
      JSON.stringify(env),
    );
  }
});

test('the service itself refuses a dangerous allow-list at start: exit 1, one line naming the entry and the setting', () => {
  const main = path.resolve(import.meta.dirname, '../src/main.ts');
  const run = spawnSync(process.execPath, [main, 'serve'], {
    env: { PATH: process.env.PATH ?? '', AUDIT_DATA_DIR: path.join(os.tmpdir(), 'never-opened'), AUDIT_ALLOW_PRIVATE_NETWORKS: '169.254.169.254/32' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(
    run.stderr,
    /^error: AUDIT_ALLOW_PRIVATE_NETWORKS entry 169\.254\.169\.254\/32 covers the cloud metadata address 169\.254\.169\.254 .* set AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE=true to allow it anyway\n$/,
  );
});
