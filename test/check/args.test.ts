// The check client's command line: what each option becomes, and every usage mistake as exit 2
// with a message that names it (main() end to end, its streams captured).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseArgs, USAGE } from '../../packages/check/src/args.ts';
import type { CliOptions } from '../../packages/check/src/args.ts';
import { main, packageVersion } from '../../packages/check/src/cli.ts';
import type { RunIO, RunOptions, RunResult } from '../../packages/check/src/model.ts';
import { auditedPage, contrast, emptyHeading, notAuditedPage, runOf } from './support-hand-made.ts';

const ENV = { AUDIT_SERVER_URL: 'https://audit.example.test/', AUDIT_API_KEY: 'k-123' };
const DEFAULTS: CliOptions = {
  server: 'https://audit.example.test',
  apiKey: 'k-123',
  urls: ['https://a.test/'],
  urlsFiles: [],
  sitemaps: [],
  maxPages: 500,
  branches: ['wcag'],
  includeWarnings: false,
  concurrency: 4,
  failOn: 'error',
};

const parsed: [name: string, argv: string[], env: Record<string, string>, expected: Partial<CliOptions>][] = [
  ['defaults: wcag, errors only, concurrency 4, fail on error', ['https://a.test/'], ENV, {}],
  ['--server wins over AUDIT_SERVER_URL, trailing slashes dropped', ['--server', 'http://127.0.0.1:8080/base//', 'https://a.test/'], ENV, { server: 'http://127.0.0.1:8080/base' }],
  ['--opt=value form', ['--server=https://s.test', '--concurrency=32', 'https://a.test/'], ENV, { server: 'https://s.test', concurrency: 32 }],
  ['--branch repeatable and comma lists, deduplicated, in order', ['--branch', 'privacy', '--branch', 'wcag,privacy', '--branch=ai-governance', 'https://a.test/'], ENV, { branches: ['privacy', 'wcag', 'ai-governance'] }],
  ['--standard with wcag', ['--standard', 'WCAG22AA', 'https://a.test/'], ENV, { standard: 'WCAG22AA' }],
  ['--include-warnings', ['--include-warnings', 'https://a.test/'], ENV, { includeWarnings: true }],
  ['--fail-on new with --baseline', ['--fail-on', 'new', '--baseline', 'b.json', 'https://a.test/'], ENV, { failOn: 'new', baseline: 'b.json' }],
  ['--fail-on none', ['--fail-on', 'none', 'https://a.test/'], ENV, { failOn: 'none' }],
  ['--fail-on warning asks for warnings', ['--fail-on', 'warning', 'https://a.test/'], ENV, { failOn: 'warning', includeWarnings: true }],
  ['outputs', ['--json', 'o/r.json', '--junit', 'j.xml', '--sarif', 's.sarif', '--write-baseline', 'w.json', 'https://a.test/'], ENV, { json: 'o/r.json', junit: 'j.xml', sarif: 's.sarif', writeBaseline: 'w.json' }],
  ['targets from files and sitemaps only', ['--urls-file', 'a.txt', '--urls-file', 'b.txt', '--sitemap', 'https://a.test/sitemap.xml'], ENV, { urls: [], urlsFiles: ['a.txt', 'b.txt'], sitemaps: ['https://a.test/sitemap.xml'] }],
  ['--max-pages', ['--max-pages', '3', 'https://a.test/'], ENV, { maxPages: 3 }],
  ['-- ends the options', ['--', '--not-an-option'], ENV, { urls: ['--not-an-option'] }],
  ['key trimmed', ['https://a.test/'], { ...ENV, AUDIT_API_KEY: ' k-123\n' }, {}],
];
for (const [name, argv, env, expected] of parsed) {
  test(`parseArgs: ${name}`, () => {
    assert.deepEqual(parseArgs(argv, env), { kind: 'run', options: { ...DEFAULTS, ...expected } });
  });
}

test('parseArgs: --help, -h and --version win over any mistake', () => {
  assert.deepEqual(parseArgs(['--bogus', '-h'], {}), { kind: 'help' });
  assert.deepEqual(parseArgs(['--help'], {}), { kind: 'help' });
  assert.deepEqual(parseArgs(['--version', '--key', 'x'], {}), { kind: 'version' });
});

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

function stream() {
  const chunks: string[] = [];
  return { chunks, write: (text: string) => chunks.push(text) > 0 };
}

async function runMain(argv: string[], env: Record<string, string> = ENV, run?: (o: RunOptions, io: RunIO) => Promise<RunResult>): Promise<Captured> {
  const stdout = stream();
  const stderr = stream();
  const code = await main(argv, env, { stdout, stderr: stderr as unknown as RunIO['stderr'], ...(run === undefined ? {} : { run }) });
  return { code, stdout: stdout.chunks.join(''), stderr: stderr.chunks.join('') };
}

const notCalled = async (): Promise<RunResult> => assert.fail('the run must not start on a usage mistake');

const mistakes: [name: string, argv: string[], env: Record<string, string>, message: RegExp][] = [
  ['unknown option', ['--frobnicate', 'https://a.test/'], ENV, /unknown option --frobnicate/],
  ['unknown short option names only its letter', ['-xSECRET', 'https://a.test/'], ENV, /unknown option -x\n/],
  ['--key refused with why', ['--key', 'sekrit', 'https://a.test/'], ENV, /--key is refused: a key on the command line lands in CI logs and shell history.*AUDIT_API_KEY/],
  ['--api-key=… refused', ['--api-key=sekrit', 'https://a.test/'], ENV, /--api-key is refused/],
  ['no key', ['https://a.test/'], { AUDIT_SERVER_URL: 'https://s.test' }, /no API key: set the environment variable AUDIT_API_KEY/],
  ['blank key', ['https://a.test/'], { ...ENV, AUDIT_API_KEY: '  ' }, /no API key/],
  ['no server', ['https://a.test/'], { AUDIT_API_KEY: 'k' }, /no service given: use --server URL or set AUDIT_SERVER_URL/],
  ['server not a URL', ['--server', 'audit', 'https://a.test/'], ENV, /--server is not an absolute URL/],
  ['server with credentials', ['https://a.test/'], { ...ENV, AUDIT_SERVER_URL: 'https://u:p@s.test' }, /AUDIT_SERVER_URL must not carry a user name or password/],
  ['server ftp', ['--server', 'ftp://s.test', 'https://a.test/'], ENV, /must be an http or https URL/],
  ['no targets', [], ENV, /no targets/],
  ['bad branch', ['--branch', 'seo', 'https://a.test/'], ENV, /--branch takes wcag, privacy, ai-governance; not "seo"/],
  ['bad standard', ['--standard', 'WCAG20AA', 'https://a.test/'], ENV, /--standard takes WCAG21A, WCAG21AA, WCAG22AA/],
  ['standard without wcag', ['--standard', 'WCAG21A', '--branch', 'privacy', 'https://a.test/'], ENV, /--standard applies to the wcag branch only/],
  ['concurrency 0', ['--concurrency', '0', 'https://a.test/'], ENV, /--concurrency takes a whole number from 1 to 32, not "0"/],
  ['concurrency 33', ['--concurrency', '33', 'https://a.test/'], ENV, /from 1 to 32/],
  ['concurrency not a number', ['--concurrency', '4x', 'https://a.test/'], ENV, /from 1 to 32, not "4x"/],
  ['max-pages 0', ['--max-pages', '0', 'https://a.test/'], ENV, /--max-pages takes a whole number from 1/],
  ['bad fail-on', ['--fail-on', 'errors', 'https://a.test/'], ENV, /--fail-on takes error, warning, new, none/],
  ['fail-on new without baseline', ['--fail-on', 'new', 'https://a.test/'], ENV, /--fail-on new needs --baseline FILE/],
  ['value missing at the end', ['https://a.test/', '--json'], ENV, /--json needs a value/],
  ['empty value', ['--json=', 'https://a.test/'], ENV, /--json needs a value/],
  ['single-valued option twice', ['--json', 'a', '--json', 'b', 'https://a.test/'], ENV, /--json given 2 times/],
  ['flag with a value', ['--include-warnings=yes', 'https://a.test/'], ENV, /--include-warnings takes no value/],
  ['http page', ['http://a.test/'], ENV, /argument 1: "http:\/\/a.test\/" is not https/],
  ['relative page', ['https://a.test/', '/about'], ENV, /argument 2: "\/about" is not an absolute URL/],
  ['page with credentials', ['https://u:p@a.test/'], ENV, /carries a user name or password/],
  ['page URL too long', [`https://a.test/${'x'.repeat(2100)}`], ENV, /longer than 2048 characters/],
  ['unreadable urls file', ['--urls-file', '/nonexistent/urls.txt'], ENV, /cannot read --urls-file \/nonexistent\/urls.txt: ENOENT/],
  ['unreadable baseline', ['--baseline', '/nonexistent/b.json', 'https://a.test/'], ENV, /cannot read --baseline \/nonexistent\/b.json: ENOENT/],
  ['a bad value with terminal controls is escaped', ['--branch', 'x\u001b[2J\u202e'], ENV, /not "x\\x1b\[2J\\u202e"/],
];
for (const [name, argv, env, message] of mistakes) {
  test(`main: usage mistake, exit 2: ${name}`, async () => {
    const out = await runMain(argv, env, notCalled);
    assert.equal(out.code, 2);
    assert.match(out.stderr, message);
    assert.match(out.stderr, /Run check --help for usage\./);
    assert.equal(out.stdout, '');
    assert.doesNotMatch(out.stderr, /sekrit|SECRET/, 'a key typed on the command line is never echoed');
    assert.doesNotMatch(out.stderr, /\u001b|\u202e/);
  });
}

test('main: --help prints the usage with the exit codes, exit 0; --version the package version', async () => {
  const help = await runMain(['--help'], {}, notCalled);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, USAGE);
  assert.match(help.stdout, /Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n(.*\n)* {2}3 /);
  const version = await runMain(['--version'], {}, notCalled);
  assert.equal(version.code, 0);
  const pkg = JSON.parse(await readFile(new URL('../../packages/check/package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(version.stdout, `${pkg.version}\n`);
  assert.equal(packageVersion(), pkg.version);
});

test('main: what reaches the run (targets resolved, options mapped), summary on stdout, the run exit code returned', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-args-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'urls.txt'), '# pages\nhttps://b.test/\n\n  https://a.test  \n');
  let seen: RunOptions | undefined;
  const out = await runMain(
    ['--urls-file', join(dir, 'urls.txt'), 'https://a.test/', '--branch', 'wcag', '--branch', 'privacy', '--standard', 'WCAG22AA', '--include-warnings', '--concurrency', '2'],
    ENV,
    async (options) => {
      seen = options;
      return runOf([auditedPage('https://a.test/', 'wcag', [contrast, emptyHeading])]);
    },
  );
  assert.deepEqual(seen, {
    server: 'https://audit.example.test',
    apiKey: 'k-123',
    urls: ['https://a.test/', 'https://b.test/'],
    branches: ['wcag', 'privacy'],
    standard: 'WCAG22AA',
    includeWarnings: true,
    concurrency: 2,
    failOn: 'error',
  });
  assert.equal(out.code, 1);
  assert.match(out.stdout, /^FAIL https:\/\/a\.test\/ \[wcag\]/);
  assert.match(out.stdout, /exit 1: 2 failures over the threshold/);
});

test('main: --baseline read into the run options; a bad baseline is exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-args-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const good = join(dir, 'good.json');
  await writeFile(good, JSON.stringify({ version: 1, createdAt: 'x', pages: [{ url: 'https://a.test', branch: 'wcag', identities: ['0123456789abcdef0123456789abcdef'] }] }));
  let seen: RunOptions | undefined;
  const ok = await runMain(['--baseline', good, '--fail-on', 'new', 'https://a.test/'], ENV, async (options) => {
    seen = options;
    return runOf([auditedPage('https://a.test/', 'wcag', [])], { failOn: 'new', baseline: good });
  });
  assert.equal(ok.code, 0);
  assert.deepEqual(seen?.baseline, { file: good, identities: new Map([['wcag https://a.test/', new Set(['0123456789abcdef0123456789abcdef'])]]) });
  const bad = join(dir, 'bad.json');
  await writeFile(bad, '{"version":2,"pages":[]}');
  const refused = await runMain(['--baseline', bad, 'https://a.test/'], ENV, notCalled);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /is not a baseline file: version 2, expected 1/);
});

test('main: --json, --write-baseline written atomically into new folders; not-audited pages listed, exit 3', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-args-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const run = runOf([auditedPage('https://a.test/', 'wcag', [contrast]), notAuditedPage('https://b.test/', 'wcag', 422, 'unreachable or blocked')]);
  const out = await runMain(['--json', join(dir, 'deep/er/report.json'), '--write-baseline', join(dir, 'b/baseline.json'), 'https://a.test/', 'https://b.test/'], ENV, async () => run);
  assert.equal(out.code, 3);
  assert.match(out.stdout, /NOT AUDITED https:\/\/b\.test\/ \[wcag\]: 422 unreachable or blocked/);
  assert.match(out.stdout, /Not audited \(1\):\n {2}https:\/\/b\.test\/ \[wcag\]\n/);
  assert.match(out.stderr, /--write-baseline .* leaves out 1 page audit\(s\) that could not be made:\n {2}https:\/\/b\.test\/ \[wcag\]/);
  const report = JSON.parse(await readFile(join(dir, 'deep/er/report.json'), 'utf8')) as { exitCode: number; pages: { url: string }[] };
  assert.equal(report.exitCode, 3);
  assert.deepEqual(report.pages.map((p) => p.url), ['https://a.test/', 'https://b.test/']);
  const baseline = JSON.parse(await readFile(join(dir, 'b/baseline.json'), 'utf8')) as { pages: { url: string }[] };
  assert.deepEqual(baseline.pages.map((p) => p.url), ['https://a.test/']);
});

test('main: an output that cannot be written is reported and exits 2, the other outputs still written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-args-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'file'), 'not a folder');
  const run = runOf([auditedPage('https://a.test/', 'wcag', [])]);
  const out = await runMain(['--json', join(dir, 'file/report.json'), '--write-baseline', join(dir, 'baseline.json'), 'https://a.test/'], ENV, async () => run);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /cannot write --json .*file\/report\.json: (ENOTDIR|EEXIST)/);
  assert.match(await readFile(join(dir, 'baseline.json'), 'utf8'), /"version": 1/);
});

test('main: a run that throws is exit 3 with the reason on stderr', async () => {
  const out = await runMain(['https://a.test/'], ENV, async () => {
    throw new Error('boom');
  });
  assert.equal(out.code, 3);
  assert.match(out.stderr, /check: the run failed: boom/);
});
