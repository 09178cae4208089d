// The command line: `check [options] [URL...]`. Parsing only: reading files and fetching
// sitemaps is targets.ts's, the baseline's shape is baseline.ts's. Every mistake is a UsageError
// (exit 2) whose message names the option and what it accepts.
import type { Branch, FailOn } from './model.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export const BRANCHES: readonly Branch[] = ['wcag', 'privacy', 'ai-governance'];
export const STANDARDS = ['WCAG21A', 'WCAG21AA', 'WCAG22AA'] as const;
export const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'new', 'none'];
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 32;
export const DEFAULT_MAX_PAGES = 500;
export const MAX_MAX_PAGES = 100_000;

/** What the command line asks for, before the targets are read. */
export interface CliOptions {
  server: string;
  apiKey: string;
  /** URL arguments, as typed (validated by targets.ts with the rest). */
  urls: string[];
  urlsFiles: string[];
  sitemaps: string[];
  maxPages: number;
  branches: Branch[];
  standard?: string;
  includeWarnings: boolean;
  concurrency: number;
  failOn: FailOn;
  baseline?: string;
  writeBaseline?: string;
  json?: string;
  junit?: string;
  sarif?: string;
}

export type ParsedArgs = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: CliOptions };

export const USAGE = `Usage: check [options] [URL...]

Audits each page through a running audit service (POST /api/v1/audit) and fails the
build when findings exceed the threshold.

The service:
  --server URL          the service's base URL (or env AUDIT_SERVER_URL)
  env AUDIT_API_KEY     the API key; only from the environment, never a flag, so that
                        it stays out of CI logs and shell history

Targets (any combination; deduplicated, in order; each an absolute https URL):
  URL...                pages as arguments
  --urls-file FILE      one URL per line; blank lines and lines starting with # ignored
  --sitemap URL         a sitemap (http or https) fetched by check itself; sitemap
                        index files are followed (at most 50 sitemap files, 10 MB each)
  --max-pages N         refuse to start (exit 2) with more than N pages (default ${DEFAULT_MAX_PAGES})

What to audit:
  --branch B            wcag, privacy or ai-governance; repeatable (default wcag)
  --standard S          WCAG21A, WCAG21AA or WCAG22AA (wcag only; the service's default
                        is WCAG21AA)
  --include-warnings    ask for warning findings too (without it only errors are
                        requested: includeWarnings false; --fail-on warning implies it)
  --concurrency N       audits in flight at once, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})

When to fail:
  --fail-on LEVEL       error (default): any failed error finding
                        warning: any failed finding, errors or warnings (asks for
                        warnings: implies --include-warnings)
                        new: any failure whose identity the baseline lacks (needs --baseline)
                        none: never fail on findings
  --baseline FILE       known failures (written by --write-baseline)
  --write-baseline FILE write this run's failures as a baseline

Reports (the summary always goes to stdout; files are replaced atomically):
  --json FILE           the audits as the service returned them, with the comparison
  --junit FILE          JUnit XML
  --sarif FILE          SARIF 2.1.0

  -h, --help            this text
  --version             the client's version

Exit codes:
  0  nothing over the threshold
  1  failures over the threshold
  2  usage mistake (unknown option, bad value, no targets, unreadable file, bad baseline,
     missing AUDIT_API_KEY or server)
  3  the service or a target could not be audited (the targets are listed)
`;

/** Options that take a value, by name. */
const VALUED = new Set([
  '--server',
  '--urls-file',
  '--sitemap',
  '--max-pages',
  '--branch',
  '--standard',
  '--concurrency',
  '--fail-on',
  '--baseline',
  '--write-baseline',
  '--json',
  '--junit',
  '--sarif',
]);
const FLAGS = new Set(['--include-warnings', '--help', '-h', '--version']);
/** Spellings of a key option someone may try: refused, with the reason. */
const KEY_FLAGS = new Set(['--key', '--api-key', '--apikey', '--api_key', '--token', '--audit-api-key', '-k']);

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${name} takes a whole number from ${min} to ${max}, not "${text}"`);
  }
  return Number(text);
}

function oneOf<T extends string>(name: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) throw new UsageError(`${name} takes ${allowed.join(', ')}; not "${text}"`);
  return text as T;
}

/** The service's base URL without trailing slashes: http or https (a service on the CI's own network may be plain http). */
export function serverUrl(text: string, from: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${from} is not an absolute URL: "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${from} must be an http or https URL, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${from} must not carry a user name or password (the key goes in AUDIT_API_KEY)`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`${from} must be the service's base URL, without a query or fragment`);
  return url.href.replace(/\/+$/, '');
}

/**
 * The command line and the environment as options. `--help` or `--version` anywhere wins over
 * any mistake. Values may follow as the next argument or after `=`; `--` ends the options.
 */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedArgs {
  const positional: string[] = [];
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  let help = false;
  let version = false;
  let mistake: UsageError | undefined;
  const fail = (message: string) => void (mistake ??= new UsageError(message));

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    if (KEY_FLAGS.has(name) || KEY_FLAGS.has(name.toLowerCase())) {
      // Never echo what followed it: that is the key.
      fail(`${name} is refused: a key on the command line lands in CI logs and shell history. Put it in the environment variable AUDIT_API_KEY (a CI secret) instead.`);
      if (eq === -1 && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (name === '--help' || name === '-h') help = true;
    else if (name === '--version') version = true;
    if (FLAGS.has(name)) {
      if (eq !== -1) fail(`${name} takes no value`);
      flags.add(name);
      continue;
    }
    if (!VALUED.has(name)) {
      // A short option's tail may be a value typed against it (`-kSECRET`): only its letter is named.
      fail(`unknown option ${name.startsWith('--') ? name : name.slice(0, 2)}`);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined || value === '') {
      fail(`${name} needs a value`);
      continue;
    }
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  if (help) return { kind: 'help' };
  if (version) return { kind: 'version' };
  if (mistake !== undefined) throw mistake;

  const single = (name: string): string | undefined => {
    const list = values.get(name);
    if (list !== undefined && list.length > 1) throw new UsageError(`${name} given ${list.length} times; it takes one value`);
    return list?.[0];
  };

  const branches: Branch[] = [];
  for (const value of values.get('--branch') ?? []) {
    for (const part of value.split(',')) {
      const branch = oneOf('--branch', part.trim(), BRANCHES);
      if (!branches.includes(branch)) branches.push(branch);
    }
  }
  if (branches.length === 0) branches.push('wcag');

  const standardText = single('--standard');
  const standard = standardText === undefined ? undefined : oneOf('--standard', standardText, STANDARDS);
  if (standard !== undefined && !branches.includes('wcag')) throw new UsageError('--standard applies to the wcag branch only, and --branch does not include wcag');

  const failOnText = single('--fail-on');
  const failOn = failOnText === undefined ? 'error' : oneOf('--fail-on', failOnText, FAIL_ON);
  const baseline = single('--baseline');
  if (failOn === 'new' && baseline === undefined) throw new UsageError('--fail-on new needs --baseline FILE (the failures known so far; make one with --write-baseline)');

  const concurrencyText = single('--concurrency');
  const maxPagesText = single('--max-pages');
  const options: CliOptions = {
    server: '',
    apiKey: '',
    urls: positional,
    urlsFiles: values.get('--urls-file') ?? [],
    sitemaps: values.get('--sitemap') ?? [],
    maxPages: maxPagesText === undefined ? DEFAULT_MAX_PAGES : integer('--max-pages', maxPagesText, 1, MAX_MAX_PAGES),
    branches,
    // Failing on warnings needs them asked for: `--fail-on warning` alone would have nothing to fail on.
    includeWarnings: flags.has('--include-warnings') || failOn === 'warning',
    concurrency: concurrencyText === undefined ? DEFAULT_CONCURRENCY : integer('--concurrency', concurrencyText, 1, MAX_CONCURRENCY),
    failOn,
  };
  if (standard !== undefined) options.standard = standard;
  if (baseline !== undefined) options.baseline = baseline;
  for (const [name, field] of [
    ['--write-baseline', 'writeBaseline'],
    ['--json', 'json'],
    ['--junit', 'junit'],
    ['--sarif', 'sarif'],
  ] as const) {
    const file = single(name);
    if (file !== undefined) options[field] = file;
  }

  const serverText = single('--server') ?? env['AUDIT_SERVER_URL'];
  if (serverText === undefined || serverText.trim() === '') throw new UsageError('no service given: use --server URL or set AUDIT_SERVER_URL');
  options.server = serverUrl(serverText.trim(), single('--server') === undefined ? 'AUDIT_SERVER_URL' : '--server');
  const apiKey = env['AUDIT_API_KEY'];
  if (apiKey === undefined || apiKey.trim() === '') throw new UsageError('no API key: set the environment variable AUDIT_API_KEY (a CI secret; never a flag)');
  options.apiKey = apiKey.trim();

  if (options.urls.length === 0 && options.urlsFiles.length === 0 && options.sitemaps.length === 0) {
    throw new UsageError('no targets: give URLs as arguments, --urls-file FILE or --sitemap URL');
  }
  return { kind: 'run', options };
}
