// The CLI as an operator runs it: a real process on a real embedded database.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openPglite } from '../../src/db/connect.ts';
import { lockDataDir } from '../../src/db/dir-lock.ts';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      timeout: 60_000, // a command that never ends (a server started by mistake) fails, not hangs
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface KeyJson {
  id: string;
  display: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
  rateLimit: number | null;
  effectiveRateLimit: number;
}

test('keys create, list, show and revoke on the embedded database', async () => {
  const env = { AUDIT_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-')) };

  const created = await cli(['keys', 'create', '--label', 'ci pipeline'], env);
  assert.equal(created.code, 0, created.stderr);
  const lines = created.stdout.trimEnd().split('\n');
  const rawKey = lines.at(-1)!;
  assert.match(rawKey, /^ask_[A-Za-z0-9_-]{43}$/, 'the raw key is alone on the last line');
  const id = /Created API key ([0-9a-f-]{36})/.exec(created.stdout)?.[1];
  assert.ok(id);
  const display = rawKey.slice(0, 8);

  const listed = await cli(['keys', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.split('\n')[0], 'id\tdisplay\tcreated\trevoked\tlabel\trate-limit');
  const row = listed.stdout.split('\n').find((line) => line.startsWith(id));
  assert.match(row ?? listed.stdout, new RegExp(`^${id}\\t${display}\\t\\d{4}-\\d\\d-\\d\\dT[^\\t]+Z\\t-\\tci pipeline\\tdefault \\(10\\)$`));

  const json = await cli(['keys', 'list', '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  const keys = JSON.parse(json.stdout) as KeyJson[];
  assert.deepEqual(Object.keys(keys[0]!), ['id', 'display', 'label', 'createdAt', 'revokedAt', 'rateLimit', 'effectiveRateLimit']);
  const key = keys.find((k) => k.id === id);
  assert.deepEqual({ ...key, createdAt: undefined }, { id, display, label: 'ci pipeline', createdAt: undefined, revokedAt: null, rateLimit: null, effectiveRateLimit: 10 });
  assert.equal(new Date(key!.createdAt).toISOString(), key!.createdAt);

  const shownJson = await cli(['keys', 'show', id, '--json'], env);
  assert.equal(shownJson.code, 0, shownJson.stderr);
  assert.deepEqual(JSON.parse(shownJson.stdout), key);
  const shown = await cli(['keys', 'show', id], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`^id +${id}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`^display +${display}$`, 'm'));
  assert.match(shown.stdout, /^revokedAt +-$/m);
  assert.match(shown.stdout, /^rateLimit +default \(10\)$/m);

  for (const output of [listed, json, shownJson, shown]) assert.equal(output.stdout.includes(rawKey), false, 'never the raw key');

  const revoked = await cli(['keys', 'revoke', id], env);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stdout, /Revoked/);
  const afterRevoke = JSON.parse((await cli(['keys', 'show', id, '--json'], env)).stdout) as KeyJson;
  assert.equal(new Date(afterRevoke.revokedAt!).toISOString(), afterRevoke.revokedAt);

  for (const command of ['revoke', 'show']) {
    const unknown = await cli(['keys', command, '00000000-0000-4000-8000-000000000000'], env);
    assert.equal(unknown.code, 1, command);
    assert.match(unknown.stderr, /^No key with id 00000000-0000-4000-8000-000000000000\.\n$/, command);
  }
});

test('keys create --rate-limit and keys set-rate-limit: a key’s own audit budget, or the default, in list and show (text and JSON)', async () => {
  // The default's figure and the window come from the command's environment, as the server's do.
  const env = { AUDIT_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-budget-')), AUDIT_RATE_LIMIT: '25', AUDIT_RATE_WINDOW_SECONDS: '3600' };
  const created = await cli(['keys', 'create', '--label', 'ci', '--rate-limit', '200'], env);
  assert.equal(created.code, 0, created.stderr);
  const lines = created.stdout.trimEnd().split('\n');
  assert.equal(lines[1], 'Its own audit budget: 200 requests per 3600-second window.');
  assert.match(lines.at(-1)!, /^ask_[A-Za-z0-9_-]{43}$/, 'the raw key is still alone on the last line');
  const ci = /Created API key ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
  const plain = await cli(['keys', 'create', '--label', 'dashboard'], env);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout.includes('budget'), false, 'no budget line without --rate-limit');
  const dashboard = /Created API key ([0-9a-f-]{36})/.exec(plain.stdout)![1]!;

  const listed = await cli(['keys', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const rowOf = (id: string) => listed.stdout.split('\n').find((line) => line.startsWith(id))!.split('\t');
  assert.deepEqual(rowOf(ci).slice(4), ['ci', '200']);
  assert.deepEqual(rowOf(dashboard).slice(4), ['dashboard', 'default (25)']);
  const json = JSON.parse((await cli(['keys', 'list', '--json'], env)).stdout) as KeyJson[];
  const budgets = (keys: KeyJson[]) => Object.fromEntries(keys.map((key) => [key.label, [key.rateLimit, key.effectiveRateLimit]]));
  assert.deepEqual(budgets(json), { ci: [200, 200], dashboard: [null, 25] });

  const set = await cli(['keys', 'set-rate-limit', dashboard, '5'], env);
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stdout, `Key ${dashboard} now has its own audit budget: 5 requests per 3600-second window (from its next request).\n`);
  const again = await cli(['keys', 'set-rate-limit', dashboard, '5'], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, `Key ${dashboard} already had its own audit budget: 5 requests per 3600-second window.\n`);
  const shown = await cli(['keys', 'show', dashboard], env);
  assert.match(shown.stdout, /^rateLimit +5$/m);
  assert.doesNotMatch(shown.stdout, /effective/, 'one figure in text');
  const shownJson = JSON.parse((await cli(['keys', 'show', dashboard, '--json'], env)).stdout) as KeyJson;
  assert.deepEqual([shownJson.rateLimit, shownJson.effectiveRateLimit], [5, 5]);

  const reset = await cli(['keys', 'set-rate-limit', ci, 'default'], env);
  assert.equal(reset.code, 0, reset.stderr);
  assert.equal(reset.stdout, `Key ${ci} now has the default audit budget: AUDIT_RATE_LIMIT, 25 requests per 3600-second window (from its next request).\n`);
  const resetJson = JSON.parse((await cli(['keys', 'show', ci, '--json'], env)).stdout) as KeyJson;
  assert.deepEqual([resetJson.rateLimit, resetJson.effectiveRateLimit], [null, 25]);

  const unknown = await cli(['keys', 'set-rate-limit', '00000000-0000-4000-8000-000000000000', '5'], env);
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, '');
  assert.equal(unknown.stderr, 'No key with id 00000000-0000-4000-8000-000000000000.\n');
});

/** Anything a terminal would act on, or that would split a tab-separated line, other than the separators. */
const TERMINAL_ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

test('a label stored raw before labels were checked is printed escaped: one line per key, nothing a terminal acts on', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-escape-'));
  const env = { AUDIT_DATA_DIR: dataDir };
  const hostile = await cli(['keys', 'create', '--label', 'placeholder'], env);
  assert.equal(hostile.code, 0, hostile.stderr);
  const hostileId = /Created API key ([0-9a-f-]{36})/.exec(hostile.stdout)![1]!;
  const plain = await cli(['keys', 'create', '--label', 'Zoë’s build 🚀 東京'], env);
  assert.equal(plain.code, 0, plain.stderr);
  const raw = 'ops\tteam\nfake\trow \u001b[2J\u001b[31mred\u0007 \u009b31m invoice \u202Efdp.exe C:\\keys';
  const printed = 'ops\\tteam\\nfake\\trow \\x1b[2J\\x1b[31mred\\x07 \\x9b31m invoice \\u202efdp.exe C:\\\\keys';
  const handle = await openPglite(dataDir);
  try {
    await handle.db.updateTable('api_keys').set({ label: raw }).where('id', '=', hostileId).execute();
  } finally {
    await handle.close();
  }

  const listed = await cli(['keys', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.split('\n');
  assert.equal(lines.length, 4, 'a header, one line per key, and the final newline');
  assert.equal(lines.at(-1), '');
  for (const line of lines.slice(0, -1)) assert.equal(line.split('\t').length, 6, line);
  assert.equal(lines.find((line) => line.startsWith(hostileId))!.split('\t')[4], printed);
  assert.match(listed.stdout, /\tZoë’s build 🚀 東京\tdefault \(10\)\n/, 'ordinary Unicode is printed as it is');
  assert.doesNotMatch(listed.stdout, TERMINAL_ACTIVE);

  const shown = await cli(['keys', 'show', hostileId], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes(`\nlabel      ${printed}\n`), shown.stdout);
  assert.doesNotMatch(shown.stdout.replaceAll('\n', ''), TERMINAL_ACTIVE);

  // JSON escapes every such character too, and parses back to the label as stored.
  for (const args of [['keys', 'list', '--json'], ['keys', 'show', hostileId, '--json']]) {
    const json = await cli(args, env);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout.replaceAll('\n', ''), TERMINAL_ACTIVE, args.join(' '));
    const parsed = JSON.parse(json.stdout) as KeyJson | KeyJson[];
    assert.equal((Array.isArray(parsed) ? parsed.find((key) => key.id === hostileId)! : parsed).label, raw, args.join(' '));
  }
});

test('keys create refuses a label with a control or text-direction character, or over 200 characters: exit 1, one line, no key', async () => {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-label-')), 'data');
  const cases: [label: string, message: RegExp][] = [
    ['ci\tpipeline', /^error: --label must not contain control or text-direction characters .*found U\+0009; no key was created\n$/],
    ['invoice \u202Efdp.exe', /^error: --label must not contain .*found U\+202E; no key was created\n$/],
    ['\u001b[31mred', /found U\+001B; no key was created\n$/],
    ['x'.repeat(201), /^error: --label must be at most 200 characters long \(got 201\); no key was created\n$/],
  ];
  for (const [label, message] of cases) {
    const result = await cli(['keys', 'create', '--label', label], { AUDIT_DATA_DIR: dataDir });
    assert.equal(result.code, 1, JSON.stringify(label));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr.replace(/\n$/, ''), TERMINAL_ACTIVE, 'the label is not echoed raw');
  }
  assert.equal(fs.existsSync(dataDir), false, 'refused before the database was opened');
});

// How the CLI answers being asked for help or called wrongly. None of these opens the database or
// reads the configuration, so a broken environment does not hide the usage.
const usageCases: { args: string[]; code: 0 | 2; error?: RegExp }[] = [
  { args: ['--help'], code: 0 },
  { args: ['-h'], code: 0 },
  { args: ['help'], code: 0 },
  { args: ['serve', '--help'], code: 0 },
  { args: ['keys', '--help'], code: 0 },
  { args: ['keys', 'list', '--help'], code: 0 },
  { args: ['keys', 'revoke', '-h'], code: 0 },
  { args: ['--bogus'], code: 2, error: /^Unknown option '--bogus'/ },
  { args: ['keys', 'list', '--bogus'], code: 2, error: /^Unknown option '--bogus'/ },
  { args: ['keys', 'show', '--bogus'], code: 2, error: /^Unknown option '--bogus'/ },
  { args: ['keys', 'list', '--json=yes'], code: 2, error: /^Option '--json' does not take an argument/ },
  { args: ['keys', 'create', '--label'], code: 2, error: /^Option '--label <value>' argument missing/ },
  { args: ['keys', 'create', 'ci'], code: 2, error: /^Unexpected argument 'ci'/ },
  { args: ['frobnicate'], code: 2, error: /^Unknown command 'frobnicate'$/ },
  { args: ['keys', 'rotate'], code: 2, error: /^Unknown command 'keys rotate'$/ },
  { args: ['keys'], code: 2, error: /^keys needs a subcommand/ },
  { args: ['keys', 'show'], code: 2, error: /^keys show needs <id>$/ },
  { args: ['keys', 'revoke', 'a', 'b'], code: 2, error: /^Unexpected argument 'b'$/ },
  { args: ['help', 'keys'], code: 2, error: /^Unexpected argument 'keys'/ },
  { args: ['keys', 'set-rate-limit', '-h'], code: 0 },
  { args: ['keys', 'set-rate-limit'], code: 2, error: /^keys set-rate-limit needs <id>$/ },
  { args: ['keys', 'set-rate-limit', '00000000-0000-4000-8000-000000000000'], code: 2, error: /^keys set-rate-limit needs <limit>$/ },
  { args: ['keys', 'set-rate-limit', 'a', '5', '6'], code: 2, error: /^Unexpected argument '6'$/ },
  ...['0', '1000001', '1.5', '1e3', 'many', '', ' ', '-5'].map((limit) => ({
    args: ['keys', 'set-rate-limit', '00000000-0000-4000-8000-000000000000', '--', limit],
    code: 2 as const,
    error: new RegExp(`^<limit> must be a whole number from 1 to 1,000,000, or default, got '${limit.replace('.', '\\.')}'$`),
  })),
  { args: ['keys', 'create', '--rate-limit', 'lots'], code: 2, error: /^--rate-limit must be a whole number from 1 to 1,000,000, or default, got 'lots'$/ },
  { args: ['keys', 'create', '--rate-limit', '0', '--label', 'ci'], code: 2, error: /^--rate-limit must be a whole number/ },
  { args: ['keys', 'create', '--rate-limit'], code: 2, error: /^Option '--rate-limit <value>' argument missing/ },
];

for (const { args, code, error } of usageCases) {
  test(`\`${args.join(' ')}\` exits ${code}`, async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-usage-')), 'data');
    const result = await cli(args, { AUDIT_DATA_DIR: dataDir, AUDIT_RATE_LIMIT: 'many' });
    assert.equal(result.code, code, result.stderr);
    if (code === 0) {
      assert.match(result.stdout, /^Usage: /);
      assert.equal(result.stderr, '');
    } else {
      assert.equal(result.stdout, '');
      const [first, ...usage] = result.stderr.split('\n');
      assert.match(first!, /^error: /);
      assert.match(first!.slice('error: '.length), error!);
      assert.match(usage.join('\n'), /^Usage: /, 'the usage follows the one line');
      assert.equal(result.stderr.includes('    at '), false, 'no stack trace');
    }
    for (const command of ['keys create', 'keys list', 'keys show <id>', 'keys revoke <id>', 'keys set-rate-limit <id> <limit>', 'migrate', 'serve', 'help']) {
      assert.ok((result.stdout || result.stderr).includes(`  ${command}`), `usage lists ${command}`);
    }
    assert.equal(fs.existsSync(dataDir), false, 'no database was opened');
  });
}

test('the CLI says clearly when the server holds the embedded database', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-locked-'));
  const lock = await lockDataDir(dir); // stands in for a running server: the same lock file
  try {
    const result = await cli(['keys', 'list'], { AUDIT_DATA_DIR: dir });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: The embedded database in .* is in use by another process \(pid \d+\)/);
    assert.equal(result.stderr.includes('    at '), false, 'a message, not a stack trace');
  } finally {
    lock.release();
  }
});

test('a bad environment value is reported by name', async () => {
  const result = await cli(['keys', 'list'], { AUDIT_RATE_LIMIT: 'many' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: AUDIT_RATE_LIMIT must be an integer/);
});

test('the service refuses to start with a short seed key, saying why', async () => {
  const result = await cli(['serve'], { AUDIT_SEED_API_KEY: 'change-me-please' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: AUDIT_SEED_API_KEY must be at least 32 characters long \(got 16\)/);
  assert.equal(result.stderr.includes('change-me-please'), false, 'the key itself is not echoed');
});
