// Users and their passwords on a real database: the scrypt record, the password and email rules,
// the changes that end sessions, and the seed admin from the environment.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createUser,
  DEFAULT_SCRYPT,
  disableUser,
  emailProblem,
  enableUser,
  ensureSeedAdmin,
  findCredentials,
  hashPassword,
  listUsers,
  passwordProblem,
  setPassword,
  setRole,
  verifyPassword,
} from '../../src/auth/users.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { TEST_SCRYPT } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

describe('scrypt', () => {
  test('hash and verify: the right password matches, near misses do not', async () => {
    const stored = await hashPassword('correct horse battery', TEST_SCRYPT);
    assert.equal(await verifyPassword(stored, 'correct horse battery'), true);
    for (const wrong of ['correct horse batter', 'correct horse battery ', 'Correct horse battery', '']) {
      assert.equal(await verifyPassword(stored, wrong), false, JSON.stringify(wrong));
    }
  });

  test('the same password twice: different salts, different hashes, both verify', async () => {
    const a = await hashPassword('the same password', TEST_SCRYPT);
    const b = await hashPassword('the same password', TEST_SCRYPT);
    assert.notEqual(a.salt, b.salt);
    assert.notEqual(a.hash, b.hash);
    assert.equal(Buffer.from(a.salt, 'base64').length, 16);
    assert.equal(Buffer.from(a.hash, 'base64').length, TEST_SCRYPT.keylen);
    assert.equal(await verifyPassword(a, 'the same password'), true);
    assert.equal(await verifyPassword(b, 'the same password'), true);
  });

  test('a password is normalised (NFKC): composed and decomposed forms are the same password', async () => {
    const stored = await hashPassword('caf\u00e9-passphrase', TEST_SCRYPT);
    assert.equal(await verifyPassword(stored, 'cafe\u0301-passphrase'), true);
  });

  test('the default parameters are OWASP’s minimum, and verify with them works', async () => {
    assert.deepEqual(DEFAULT_SCRYPT, { N: 131072, r: 8, p: 1, keylen: 32 });
    const stored = await hashPassword('a default-cost password');
    assert.equal(await verifyPassword(stored, 'a default-cost password'), true);
  });

  test('the parameters are stored with each user, and used to verify', async () => {
    const cheap = { N: 2048, r: 4, p: 2, keylen: 48 };
    const user = await createUser(database.db, { email: 'params@example.test', role: 'member', password: 'stored params pw' }, cheap);
    assert.notEqual(user, 'email taken');
    const row = await database.db.selectFrom('users').selectAll().where('email', '=', 'params@example.test').executeTakeFirstOrThrow();
    assert.deepEqual([row.scrypt_n, row.scrypt_r, row.scrypt_p, row.scrypt_keylen], [2048, 4, 2, 48]);
    assert.notEqual(row.password_hash, 'stored params pw');
    const credentials = await findCredentials(database.db, 'PARAMS@example.test');
    assert.deepEqual(credentials!.password.params, cheap);
    assert.equal(await verifyPassword(credentials!.password, 'stored params pw'), true);
  });
});

describe('input rules', () => {
  const passwords: [string, string | undefined][] = [
    ['', 'must be at least 12 characters long (got 0)'],
    ['elevenchars', 'must be at least 12 characters long (got 11)'],
    ['twelve chars', undefined],
    // Characters, not bytes or UTF-16 units: 11 emoji are 11 characters.
    ['😀'.repeat(11), 'must be at least 12 characters long (got 11)'],
    ['😀'.repeat(12), undefined],
    ['x'.repeat(1025), 'must be at most 1024 characters long'],
  ];
  for (const [password, problem] of passwords) {
    test(`password of ${[...password].length} characters: ${problem ?? 'accepted'}`, () => {
      assert.equal(passwordProblem(password), problem);
    });
  }

  const emails: [string, boolean][] = [
    ['admin@example.com', true],
    ['  Admin@Example.COM ', true],
    ['admin', false],
    ['admin@', false],
    ['@example.com', false],
    ['ad min@example.com', false],
    [`${'a'.repeat(250)}@x.io`, false],
    // Printed by the CLI and shown in the dashboard: no terminal escapes, no display reordering.
    ['ad\u001b[31mmin@example.com', false],
    ['admin\u0007@example.com', false],
    ['invoice\u202Efdp@example.com', false],
    ['admin\u2066@example.com', false],
    ['admin\u0085@example.com', false],
    ['josé@exämple.com', true],
    ['ädmin+tag@例え.jp', true],
  ];
  for (const [email, ok] of emails) {
    test(`email ${JSON.stringify(email.slice(0, 30))}: ${ok ? 'accepted' : 'refused'}`, () => {
      assert.equal(emailProblem(email) === undefined, ok);
    });
  }

  test('createUser and setPassword refuse a short password and store nothing', async () => {
    await assert.rejects(createUser(database.db, { email: 'short@example.test', role: 'admin', password: 'short' }, TEST_SCRYPT), /at least 12/);
    assert.equal(await findCredentials(database.db, 'short@example.test'), undefined);
    await createUser(database.db, { email: 'short2@example.test', role: 'admin', password: 'long enough pw' }, TEST_SCRYPT);
    await assert.rejects(setPassword(database.db, 'short2@example.test', 'short', TEST_SCRYPT), /at least 12/);
  });
});

describe('changes', () => {
  test('emails are unique regardless of case, and stored lower-cased', async () => {
    const first = await createUser(database.db, { email: 'Unique@Example.test', role: 'admin', password: 'first password' }, TEST_SCRYPT);
    assert.notEqual(first, 'email taken');
    assert.equal((first as { email: string }).email, 'unique@example.test');
    assert.equal(await createUser(database.db, { email: 'UNIQUE@example.TEST', role: 'member', password: 'second password' }, TEST_SCRYPT), 'email taken');
    const listed = (await listUsers(database.db)).filter((u) => u.email === 'unique@example.test');
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.role, 'admin');
  });

  async function openSessions(userId: string) {
    return database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).where('ended_at', 'is', null).execute();
  }

  test('disable ends every session; disabling twice says so; enable lifts it', async () => {
    const user = (await createUser(database.db, { email: 'disable@example.test', role: 'admin', password: 'disable me please' }, TEST_SCRYPT)) as { id: string; email: string; role: 'admin' };
    await createSession(database.db, user);
    await createSession(database.db, user);
    assert.equal((await openSessions(user.id)).length, 2);
    assert.equal(await disableUser(database.db, 'DISABLE@example.test'), 'disabled');
    assert.equal((await openSessions(user.id)).length, 0);
    assert.equal(await disableUser(database.db, 'disable@example.test'), 'already-disabled');
    assert.equal(await disableUser(database.db, 'nobody@example.test'), 'not-found');
    assert.equal(await enableUser(database.db, 'disable@example.test'), 'enabled');
    assert.equal(await enableUser(database.db, 'disable@example.test'), 'already-enabled');
    assert.equal((await findCredentials(database.db, 'disable@example.test'))!.user.disabledAt, null);
  });

  test('set-role: updated, unchanged, not found', async () => {
    await createUser(database.db, { email: 'role@example.test', role: 'member', password: 'role password x' }, TEST_SCRYPT);
    assert.equal(await setRole(database.db, 'role@example.test', 'admin'), 'updated');
    assert.equal(await setRole(database.db, 'role@example.test', 'admin'), 'unchanged');
    assert.equal(await setRole(database.db, 'none@example.test', 'admin'), 'not-found');
  });

  test('set-password replaces the password and ends the sessions', async () => {
    const user = (await createUser(database.db, { email: 'pw@example.test', role: 'admin', password: 'the old password' }, TEST_SCRYPT)) as { id: string; email: string; role: 'admin' };
    await createSession(database.db, user);
    assert.equal(await setPassword(database.db, 'pw@example.test', 'the new password', TEST_SCRYPT), 'updated');
    assert.equal((await openSessions(user.id)).length, 0);
    const { password } = (await findCredentials(database.db, 'pw@example.test'))!;
    assert.equal(await verifyPassword(password, 'the new password'), true);
    assert.equal(await verifyPassword(password, 'the old password'), false);
    assert.equal(await setPassword(database.db, 'none@example.test', 'the new password', TEST_SCRYPT), 'not-found');
  });
});

describe('seed admin (AUDIT_ADMIN_EMAIL / AUDIT_ADMIN_PASSWORD)', () => {
  function recorder() {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    return { lines, log: { info: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }) } };
  }

  test('created once; later starts leave it as it is, even with another password or after a change of role', async () => {
    const first = recorder();
    assert.equal(await ensureSeedAdmin(database.db, 'Seed@Example.test', 'seed password 1', first.log as never, TEST_SCRYPT), 'created');
    const created = (await findCredentials(database.db, 'seed@example.test'))!;
    assert.equal(created.user.role, 'admin');
    assert.match(first.lines[0]!.message, /created/);

    await setRole(database.db, 'seed@example.test', 'member');
    const second = recorder();
    assert.equal(await ensureSeedAdmin(database.db, 'seed@example.test', 'another password', second.log as never, TEST_SCRYPT), 'present');
    const after = (await findCredentials(database.db, 'seed@example.test'))!;
    assert.equal(after.user.id, created.user.id);
    assert.equal(after.user.role, 'member', 'left as is');
    assert.deepEqual(after.password, created.password, 'the password is not replaced');
    assert.match(second.lines[0]!.message, /already exists; left as is/);
    assert.equal(second.lines[0]!.fields.role, 'member');
    for (const line of [...first.lines, ...second.lines]) {
      const text = JSON.stringify(line);
      assert.equal(text.includes('seed password 1') || text.includes('another password'), false, 'no password in a log line');
    }
  });

  test('several processes starting at once create one user', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => ensureSeedAdmin(database.db, 'race@example.test', 'race password x', recorder().log as never, TEST_SCRYPT)),
    );
    assert.equal(results.filter((r) => r === 'created').length, 1);
    assert.equal((await listUsers(database.db)).filter((u) => u.email === 'race@example.test').length, 1);
  });
});
