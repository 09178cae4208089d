// `users …` and the seed admin as an operator meets them: real processes on a real embedded
// database, passwords from the environment or stdin, and a real server signing the seed admin in.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createSession } from '../../src/auth/sessions.ts';
import { findCredentials, verifyPassword } from '../../src/auth/users.ts';
import { openPglite } from '../../src/db/connect.ts';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every password this file typed: none may be printed by any command. */
const passwords: string[] = [];
const outputs: Run[] = [];
after(() => {
  for (const output of outputs) {
    for (const password of passwords) assert.equal(`${output.stdout}${output.stderr}`.includes(password), false, 'a password was printed');
  }
});

function cli(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const run = { code, stdout, stderr };
      outputs.push(run);
      resolve(run);
    });
    child.stdin.end(stdin);
  });
}

const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** Opens the embedded database the CLI used (it released the lock on exit). */
async function withDb<T>(dataDir: string, work: (db: Awaited<ReturnType<typeof openPglite>>['db']) => Promise<T>): Promise<T> {
  const handle = await openPglite(dataDir);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

interface UserJson {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  disabledAt: string | null;
}

test('an email holding terminal controls is refused by users create; one stored before that rule is printed escaped', async () => {
  const env = { AUDIT_DATA_DIR: tempDir('audit-users-escape-'), AUDIT_NEW_USER_PASSWORD: 'escape test passphrase' };
  passwords.push(env.AUDIT_NEW_USER_PASSWORD);
  const email = 'ops\u001b[2j\u0007\u202e@example.com';
  const printed = 'ops\\x1b[2j\\x07\\u202e@example.com';
  const refused = await cli(['users', 'create', '--email', email, '--role', 'member'], env);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /control or bidirectional characters \(found U\+001B\)/);
  assert.doesNotMatch(refused.stderr, /[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/, 'the refusal does not echo the controls');
  const created = await cli(['users', 'create', '--email', 'ops@example.com', '--role', 'member'], env);
  assert.equal(created.code, 0, created.stderr);
  await withDb(env.AUDIT_DATA_DIR, (db) => db.updateTable('users').set({ email }).where('email', '=', 'ops@example.com').execute());
  const listed = await cli(['users', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.split('\n')[1]!.split('\t')[1], printed);
  const disabled = await cli(['users', 'disable', email], env);
  assert.equal(disabled.stdout, `Disabled ${printed}; its sessions are ended.\n`);
  const json = await cli(['users', 'list', '--json'], env);
  assert.equal((JSON.parse(json.stdout) as UserJson[])[0]!.email, email, 'JSON parses back to the stored email');
  for (const output of [listed, disabled, json]) {
    assert.doesNotMatch(output.stdout.replaceAll('\n', '').replaceAll('\t', ''), /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  }
});

test('users create, list, set-role, disable, enable and set-password on the embedded database', async () => {
  const env = { AUDIT_DATA_DIR: tempDir('audit-users-') };
  const adminPassword = 'first admin passphrase';
  const memberPassword = 'member passphrase from env';
  const newPassword = 'a replaced passphrase';
  passwords.push(adminPassword, memberPassword, newPassword);

  // Password on stdin (first line; the newline is not part of it).
  const created = await cli(['users', 'create', '--email', 'Ops@Example.com', '--role', 'admin'], env, `${adminPassword}\n`);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^Created admin ops@example\.com \([0-9a-f-]{36}\)\.\n$/);

  const duplicate = await cli(['users', 'create', '--email', 'OPS@example.com', '--role', 'member'], env, 'another passphrase\n');
  assert.equal(duplicate.code, 1);
  assert.equal(duplicate.stderr, 'A user with email ops@example.com already exists.\n');

  // Password from the environment.
  const member = await cli(['users', 'create', '--email', 'viewer@example.com', '--role', 'member'], { ...env, AUDIT_NEW_USER_PASSWORD: memberPassword });
  assert.equal(member.code, 0, member.stderr);

  const listed = await cli(['users', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'id\temail\trole\tcreated\tdisabled');
  assert.match(lines[1]!, /^[0-9a-f-]{36}\tops@example\.com\tadmin\t\d{4}-\d\d-\d\dT[^\t]+Z\t-$/);
  assert.match(lines[2]!, /\tviewer@example\.com\tmember\t/);

  const setRole = await cli(['users', 'set-role', 'viewer@example.com', 'admin'], env);
  assert.equal(setRole.code, 0, setRole.stderr);
  assert.equal(setRole.stdout, 'viewer@example.com is now admin.\n');
  assert.equal((await cli(['users', 'set-role', 'viewer@example.com', 'admin'], env)).stdout, 'viewer@example.com was already admin.\n');

  // A session of the user to be disabled: disabling ends it.
  const sessionId = await withDb(env.AUDIT_DATA_DIR, async (db) => {
    const { user } = (await findCredentials(db, 'viewer@example.com'))!;
    return (await createSession(db, user)).session.sessionId;
  });
  const disabled = await cli(['users', 'disable', 'Viewer@Example.com'], env);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.equal(disabled.stdout, 'Disabled Viewer@Example.com; its sessions are ended.\n');
  assert.equal((await cli(['users', 'disable', 'viewer@example.com'], env)).stdout, 'viewer@example.com was already disabled.\n');
  const json = await cli(['users', 'list', '--json'], env);
  const users = JSON.parse(json.stdout) as UserJson[];
  assert.deepEqual(Object.keys(users[0]!), ['id', 'email', 'role', 'createdAt', 'disabledAt']);
  const viewer = users.find((u) => u.email === 'viewer@example.com')!;
  assert.equal(new Date(viewer.disabledAt!).toISOString(), viewer.disabledAt);
  assert.equal(users.find((u) => u.email === 'ops@example.com')!.disabledAt, null);
  await withDb(env.AUDIT_DATA_DIR, async (db) => {
    const session = await db.selectFrom('sessions').select('ended_at').where('id', '=', sessionId).executeTakeFirstOrThrow();
    assert.ok(session.ended_at instanceof Date, 'the session was ended');
  });
  assert.equal((await cli(['users', 'enable', 'viewer@example.com'], env)).stdout, 'Enabled viewer@example.com.\n');

  const replaced = await cli(['users', 'set-password', 'ops@example.com'], env, `${newPassword}\r\nignored second line\n`);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.equal(replaced.stdout, 'Replaced the password of ops@example.com; its sessions are ended.\n');

  await withDb(env.AUDIT_DATA_DIR, async (db) => {
    const ops = (await findCredentials(db, 'ops@example.com'))!;
    assert.equal(await verifyPassword(ops.password, newPassword), true, 'the stdin line without its CRLF');
    assert.equal(await verifyPassword(ops.password, adminPassword), false);
    assert.equal(ops.password.params.N, 2 ** 17, 'the CLI hashes at the default cost');
    const viewerCredentials = (await findCredentials(db, 'viewer@example.com'))!;
    assert.equal(await verifyPassword(viewerCredentials.password, memberPassword), true);
  });

  for (const args of [['users', 'disable', 'nobody@example.com'], ['users', 'enable', 'nobody@example.com'], ['users', 'set-role', 'nobody@example.com', 'member']]) {
    const missing = await cli(args, env);
    assert.equal(missing.code, 1, args.join(' '));
    assert.equal(missing.stderr, 'No user with email nobody@example.com.\n');
  }
  const missing = await cli(['users', 'set-password', 'nobody@example.com'], { ...env, AUDIT_NEW_USER_PASSWORD: 'long enough password' });
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, 'No user with email nobody@example.com.\n');
});

describe('refused input: exit 1, one line, nothing changed', () => {
  const dataDir = tempDir('audit-users-refused-');
  const cases: [string, string[], Record<string, string>, string, RegExp][] = [
    ['a short password on stdin', ['users', 'create', '--email', 'a@example.com', '--role', 'admin'], {}, 'elevenchars\n', /^error: the password must be at least 12 characters long \(got 11\); nothing was changed\n$/],
    ['a short password in the environment', ['users', 'create', '--email', 'a@example.com', '--role', 'admin'], { AUDIT_NEW_USER_PASSWORD: 'short' }, '', /^error: the password must be at least 12 characters long \(got 5\)/],
    ['a short new password', ['users', 'set-password', 'a@example.com'], {}, 'tiny\n', /^error: the password must be at least 12/],
    ['no password at all', ['users', 'create', '--email', 'a@example.com', '--role', 'admin'], {}, '', /^error: no password: set AUDIT_NEW_USER_PASSWORD, or pipe the password on stdin/],
    ['an empty first line', ['users', 'create', '--email', 'a@example.com', '--role', 'admin'], {}, '\nsecond line is not used\n', /^error: no password/],
    ['a malformed email', ['users', 'create', '--email', 'not-an-email', '--role', 'admin'], {}, 'long enough password\n', /^error: email must be an email address/],
  ];
  for (const [name, args, env, stdin, message] of cases) {
    test(name, async () => {
      const result = await cli(args, { AUDIT_DATA_DIR: dataDir, ...env }, stdin);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.split('\n').length, 2, 'one line');
      assert.equal(result.stdout, '');
    });
  }

  test('…and nothing was created', async () => {
    const listed = await cli(['users', 'list', '--json'], { AUDIT_DATA_DIR: dataDir });
    assert.deepEqual(JSON.parse(listed.stdout), []);
  });
});

// Usage mistakes exit 2 before any database is opened or any password read.
const usageCases: { args: string[]; error: RegExp }[] = [
  { args: ['users'], error: /^users needs a subcommand: create, list, disable, enable, set-role or set-password$/ },
  { args: ['users', 'rename'], error: /^Unknown command 'users rename'$/ },
  { args: ['users', 'create', '--role', 'admin'], error: /^users create needs --email$/ },
  { args: ['users', 'create', '--email', 'a@example.com'], error: /^--role is required: admin or member$/ },
  { args: ['users', 'create', '--email', 'a@example.com', '--role', 'owner'], error: /^--role must be admin or member, got 'owner'$/ },
  { args: ['users', 'create', '--email', 'a@example.com', '--role', 'admin', '--password', 'hunter2hunter2'], error: /^Unknown option '--password'/ },
  { args: ['users', 'create', '--email', 'a@example.com', '--role', 'admin', 'hunter2hunter2'], error: /^Unexpected argument 'hunter2hunter2'/ },
  { args: ['users', 'set-password', 'a@example.com', 'hunter2hunter2'], error: /^Unexpected argument 'hunter2hunter2'$/ },
  { args: ['users', 'disable'], error: /^users disable needs <email>$/ },
  { args: ['users', 'set-role', 'a@example.com'], error: /^users set-role needs <role>$/ },
  { args: ['users', 'set-role', 'a@example.com', 'root'], error: /^<role> must be admin or member, got 'root'$/ },
  { args: ['users', 'list', '--bogus'], error: /^Unknown option '--bogus'/ },
];
for (const { args, error } of usageCases) {
  test(`\`${args.join(' ')}\` exits 2`, async () => {
    const dataDir = path.join(tempDir('audit-users-usage-'), 'data');
    const result = await cli(args, { AUDIT_DATA_DIR: dataDir }, 'a password nobody should read\n');
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, '');
    const [first, ...usage] = result.stderr.split('\n');
    assert.match(first!.slice('error: '.length), error);
    assert.match(usage.join('\n'), /^Usage: /);
    for (const command of ['users create', 'users list', 'users disable <email>', 'users set-role <email> <role>', 'users set-password <email>']) {
      assert.ok(result.stderr.includes(`  ${command}`), `usage lists ${command}`);
    }
    assert.equal(fs.existsSync(dataDir), false, 'no database was opened');
  });
}

describe('the seed admin at start (AUDIT_ADMIN_EMAIL, AUDIT_ADMIN_PASSWORD)', () => {
  const seedPassword = 'seed admin passphrase';
  passwords.push(seedPassword);

  /** Starts `serve`, resolves with its URL and log lines once it listens; stops it on `stop()`. */
  async function serve(env: Record<string, string>) {
    const child = spawn(process.execPath, [main, 'serve'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0', AUDIT_WEBHOOK_POLL_INTERVAL_MS: '60000', ...env },
    });
    let output = '';
    child.stderr.on('data', (chunk) => (output += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    return {
      url,
      output: () => output,
      async stop() {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        outputs.push({ code: 0, stdout: output, stderr: '' });
      },
    };
  }

  test('created at the first start, left as is at the next; the admin signs in over HTTP', async () => {
    const env = { AUDIT_DATA_DIR: tempDir('audit-seed-admin-'), AUDIT_ADMIN_EMAIL: 'Root@Example.com', AUDIT_ADMIN_PASSWORD: seedPassword, AUDIT_COOKIE_SECURE: 'false' };
    const first = await serve(env);
    try {
      assert.match(first.output(), /"email":"root@example\.com".*"msg":"admin user created from AUDIT_ADMIN_EMAIL"/);
      const signIn = await fetch(`${first.url}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'root@example.com', password: seedPassword }),
      });
      assert.equal(signIn.status, 204);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const list = await fetch(`${first.url}/api/v1/alerts/webhooks`, { headers: { cookie } });
      assert.equal(list.status, 200);
      assert.deepEqual(await list.json(), { items: [], nextCursor: null });
      passwords.push(cookie.slice('svc_session='.length));
    } finally {
      await first.stop();
    }
    const second = await serve({ ...env, AUDIT_ADMIN_PASSWORD: 'a different passphrase' });
    try {
      assert.match(second.output(), /"msg":"admin user from AUDIT_ADMIN_EMAIL already exists; left as is/);
      assert.doesNotMatch(second.output(), /admin user created/);
    } finally {
      await second.stop();
    }
    const users = JSON.parse((await cli(['users', 'list', '--json'], { AUDIT_DATA_DIR: env.AUDIT_DATA_DIR })).stdout) as UserJson[];
    assert.deepEqual(users.map((u) => [u.email, u.role]), [['root@example.com', 'admin']]);
  });

  const badStarts: [string, Record<string, string>, RegExp][] = [
    ['only the email', { AUDIT_ADMIN_EMAIL: 'root@example.com' }, /^error: AUDIT_ADMIN_EMAIL is set but AUDIT_ADMIN_PASSWORD is not/],
    ['only the password', { AUDIT_ADMIN_PASSWORD: seedPassword }, /^error: AUDIT_ADMIN_PASSWORD is set but AUDIT_ADMIN_EMAIL is not/],
    ['a password of 11 characters', { AUDIT_ADMIN_EMAIL: 'root@example.com', AUDIT_ADMIN_PASSWORD: 'elevenchars' }, /^error: AUDIT_ADMIN_PASSWORD must be at least 12 characters long \(got 11\)\n$/],
    ['a malformed email', { AUDIT_ADMIN_EMAIL: 'root', AUDIT_ADMIN_PASSWORD: seedPassword }, /^error: AUDIT_ADMIN_EMAIL must be an email address/],
  ];
  for (const [name, env, message] of badStarts) {
    test(`the server refuses to start with ${name}, naming the variable and never the password`, async () => {
      passwords.push('elevenchars');
      const dataDir = path.join(tempDir('audit-seed-bad-'), 'data');
      const result = await cli(['serve'], { AUDIT_DATA_DIR: dataDir, PORT: '0', ...env });
      assert.equal(result.code, 1);
      assert.match(result.stderr, message);
      assert.equal(fs.existsSync(dataDir), false, 'stopped before opening the database');
    });
  }
});
