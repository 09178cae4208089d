// Sessions on a real database with an injected clock: expiry, the last-seen refresh, logout,
// CSRF, the work done for an unknown email, and the throttle's window as time passes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyRequest } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { clientKey } from '../../src/auth/login-throttle.ts';
import {
  attemptLogin,
  checkCsrf,
  createSession,
  login,
  logout,
  readSession,
  requireAdmin,
  requireCsrfHeader,
  type AdminSession,
} from '../../src/auth/sessions.ts';
import { DEFAULT_SCRYPT, disableUser, verifyPassword, type StoredPassword } from '../../src/auth/users.ts';
import { createAdminCookie, createTestUser } from '../support/admin.ts';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../support/db.ts';

const config = loadConfig({
  AUDIT_SESSION_IDLE_MINUTES: '30',
  AUDIT_SESSION_MAX_HOURS: '12',
  AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '2',
  AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: '4',
  AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES: '10',
});
const MINUTE = 60_000;
const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

/** readSession reads only the Cookie header. */
const requestWith = (cookie: string | undefined) => ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;

const lastSeen = async (sessionId: string) =>
  (await database.db.selectFrom('sessions').select('last_seen_at').where('id', '=', sessionId).executeTakeFirstOrThrow()).last_seen_at;

describe('readSession', () => {
  test('an open session reads back as the user with role and CSRF token', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    const session = await readSession(database.db, requestWith(admin.cookie), config, at(1));
    assert.deepEqual(session, { sessionId: admin.sessionId, userId: admin.userId, email: admin.email, role: 'admin', csrfToken: admin.csrfToken });
    const member = await createAdminCookie(database.db, { role: 'member', now: T0 });
    assert.equal((await readSession(database.db, requestWith(member.cookie), config, at(1)))?.role, 'member');
  });

  test('idle timeout: used every 20 minutes it lives on; 30 minutes unused ends it, for good', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    const request = requestWith(admin.cookie);
    for (const minute of [20, 40, 60, 80]) assert.ok(await readSession(database.db, request, config, at(minute)), `minute ${minute}`);
    assert.ok(await readSession(database.db, request, config, at(80 + 29.99)), 'just under 30 minutes idle');
    assert.equal(await readSession(database.db, request, config, at(80 + 29.99 + 30)), undefined, 'idle for 30 minutes');
    assert.equal(await readSession(database.db, request, config, at(80 + 30 + 1)), undefined, 'ended: an earlier clock does not revive it');
  });

  test('absolute timeout: 12 hours after sign-in it ends, however busy', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    const request = requestWith(admin.cookie);
    for (let minute = 25; minute < 12 * 60; minute += 25) assert.ok(await readSession(database.db, request, config, at(minute)), `minute ${minute}`);
    assert.ok(await readSession(database.db, request, config, at(12 * 60 - 1)));
    assert.equal(await readSession(database.db, request, config, at(12 * 60)), undefined);
  });

  test('last-seen is written at most once a minute', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    const request = requestWith(admin.cookie);
    await readSession(database.db, request, config, at(0.5));
    assert.deepEqual(await lastSeen(admin.sessionId), T0, 'under a minute: no write');
    await readSession(database.db, request, config, at(1));
    assert.deepEqual(await lastSeen(admin.sessionId), at(1));
    await readSession(database.db, request, config, at(1.9));
    assert.deepEqual(await lastSeen(admin.sessionId), at(1));
  });

  test('a disabled user’s session is gone; logout ends one and leaves the others', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    const { user } = await createTestUser(database.db);
    const one = await createSession(database.db, user, T0);
    const two = await createSession(database.db, user, T0);
    await logout(database.db, requestWith(`svc_session=${one.token}`), at(1));
    assert.equal(await readSession(database.db, requestWith(`svc_session=${one.token}`), config, at(2)), undefined);
    assert.ok(await readSession(database.db, requestWith(`svc_session=${two.token}`), config, at(2)));
    await disableUser(database.db, admin.email, at(3));
    assert.equal(await readSession(database.db, requestWith(admin.cookie), config, at(4)), undefined);
    await logout(database.db, requestWith(undefined)); // no cookie: nothing to do, no error
  });

  test('the cookie among others, and a duplicate: the first svc_session counts', async () => {
    const admin = await createAdminCookie(database.db, { now: T0 });
    assert.ok(await readSession(database.db, requestWith(`theme=dark; ${admin.cookie}; lang=en`), config, at(1)));
    assert.ok(await readSession(database.db, requestWith(`${admin.cookie}; svc_session=${'B'.repeat(43)}`), config, at(1)));
  });
});

describe('CSRF', () => {
  const session = { csrfToken: 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhmb29iYXJiYXpxdXg' } as AdminSession;
  const cases: [string, unknown, boolean][] = [
    ['the token', session.csrfToken, true],
    ['one character changed', `${session.csrfToken.slice(0, -1)}y`, false],
    ['a prefix', session.csrfToken.slice(0, 20), false],
    ['the token twice', session.csrfToken + session.csrfToken, false],
    ['empty', '', false],
    ['missing', undefined, false],
    ['an array holding it', [session.csrfToken], false],
  ];
  for (const [name, submitted, ok] of cases) {
    test(`${name}: ${ok ? 'accepted' : 'refused'}`, () => assert.equal(checkCsrf(session, submitted), ok));
  }

  test('every session has its own random token', async () => {
    const tokens = await Promise.all([1, 2, 3].map(async () => (await createAdminCookie(database.db)).csrfToken));
    assert.equal(new Set(tokens).size, 3);
    for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  });
});

test('requireAdmin then requireCsrfHeader: a JSON admin change needs the session’s token in X-CSRF-Token', async () => {
  const app = Fastify();
  app.post('/change', { preHandler: [requireAdmin(database.db, config), requireCsrfHeader] }, async (request) => ({ by: request.adminSession!.email }));
  const admin = await createAdminCookie(database.db);
  const member = await createAdminCookie(database.db, { role: 'member' });
  const other = await createAdminCookie(database.db);
  const cases: [string, Record<string, string>, number][] = [
    ['the admin with its token', { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken }, 200],
    ['no token', { cookie: admin.cookie }, 403],
    ['another session’s token', { cookie: admin.cookie, 'x-csrf-token': other.csrfToken }, 403],
    ['the token in another header', { cookie: admin.cookie, 'x-xsrf-token': admin.csrfToken }, 403],
    ['a member with its own token', { cookie: member.cookie, 'x-csrf-token': member.csrfToken }, 403],
    ['the token without a session', { 'x-csrf-token': admin.csrfToken }, 403],
  ];
  for (const [name, headers, status] of cases) {
    const res = await app.inject({ method: 'POST', url: '/change', headers });
    assert.equal(res.statusCode, status, name);
    assert.equal(res.body, status === 200 ? JSON.stringify({ by: admin.email }) : '{"error":"forbidden"}', name);
  }
  await app.close();
});

describe('login', () => {
  function countingVerifier() {
    const calls: StoredPassword[] = [];
    return {
      calls,
      verify: async (stored: StoredPassword, password: string) => {
        calls.push(stored);
        return verifyPassword(stored, password);
      },
    };
  }

  test('an unknown email costs one scrypt verification at the default cost, as a known one does', async () => {
    const known = await createTestUser(database.db);
    const counter = countingVerifier();
    assert.equal(await login(database.db, config, 'nobody@example.test', 'some password!', '198.51.100.1', { now: T0, verifyPassword: counter.verify }), 'invalid');
    assert.equal(counter.calls.length, 1, 'the unknown email was verified against something');
    assert.deepEqual(counter.calls[0]!.params, DEFAULT_SCRYPT, 'at the cost a real user’s password has');
    assert.equal(await login(database.db, config, known.email, 'wrong password!', '198.51.100.2', { now: T0, verifyPassword: counter.verify }), 'invalid');
    assert.equal(counter.calls.length, 2);
    const disabled = await createTestUser(database.db);
    await disableUser(database.db, disabled.email);
    assert.equal(await login(database.db, config, disabled.email, disabled.password, '198.51.100.3', { now: T0, verifyPassword: counter.verify }), 'invalid');
    assert.equal(counter.calls.length, 3, 'a disabled user is verified too');
  });

  test('while throttled no password is verified at all', async () => {
    const { email, password } = await createTestUser(database.db);
    const counter = countingVerifier();
    for (const n of [1, 2]) await login(database.db, config, email, `wrong password ${n}`, '198.51.100.10', { now: T0, verifyPassword: counter.verify });
    assert.equal(counter.calls.length, 2);
    assert.equal(await login(database.db, config, email, password, '198.51.100.11', { now: at(1), verifyPassword: counter.verify }), 'throttled');
    assert.equal(counter.calls.length, 2);
  });

  test('a successful login returns the token and the session, which reads back', async () => {
    const { email, password, user } = await createTestUser(database.db);
    const result = await login(database.db, config, email, password, '198.51.100.20', { now: T0 });
    assert.ok(typeof result === 'object');
    assert.equal(result.session.userId, user.id);
    assert.deepEqual(await readSession(database.db, requestWith(`svc_session=${result.token}`), config, at(1)), result.session);
  });

  test('the window slides: retryAfterSeconds counts down to the oldest counted failure leaving it', async () => {
    const { email, password } = await createTestUser(database.db);
    const client = '198.51.100.30';
    assert.equal((await attemptLogin(database.db, config, email, 'wrong password a', client, { now: at(0) })).outcome, 'invalid');
    assert.equal((await attemptLogin(database.db, config, email, 'wrong password b', client, { now: at(4) })).outcome, 'invalid');
    assert.deepEqual(await attemptLogin(database.db, config, email, password, client, { now: at(5) }), { outcome: 'throttled', retryAfterSeconds: 5 * 60 });
    assert.deepEqual(await attemptLogin(database.db, config, email, password, client, { now: at(9.5) }), { outcome: 'throttled', retryAfterSeconds: 30 });
    // At minute 10 the first failure leaves the window: one attempt is allowed again.
    assert.equal((await attemptLogin(database.db, config, email, password, client, { now: at(10) })).outcome, 'signed-in');
  });

  test('refused attempts while throttled are not counted: the wait does not grow by retrying', async () => {
    const { email, password } = await createTestUser(database.db);
    const client = '198.51.100.40';
    for (const minute of [0, 0]) await attemptLogin(database.db, config, email, 'wrong password c', client, { now: at(minute) });
    for (const minute of [1, 2, 3, 9]) {
      assert.equal((await attemptLogin(database.db, config, email, 'wrong password d', client, { now: at(minute) })).outcome, 'throttled');
    }
    assert.equal((await attemptLogin(database.db, config, email, password, client, { now: at(10) })).outcome, 'signed-in');
  });

  test('parallel guesses: no more than the limit are checked', async () => {
    const { email } = await createTestUser(database.db);
    const counter = countingVerifier();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => attemptLogin(database.db, config, email, `parallel guess ${i}`, `198.51.100.${50 + i}`, { now: T0, verifyPassword: counter.verify })),
    );
    assert.equal(counter.calls.length, 2);
    assert.equal(outcomes.filter((o) => o.outcome === 'throttled').length, 6);
  });

  test('two processes on one PostgreSQL share the count exactly', { skip: usingPostgres ? false : 'PostgreSQL only (TEST_DATABASE_URL)' }, async () => {
    const other = await database.connectAgain!();
    try {
      const { email } = await createTestUser(database.db);
      const counter = countingVerifier();
      const outcomes = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          attemptLogin(i % 2 ? other.db : database.db, config, email, `guess ${i} from two pools`, `198.51.100.${100 + i}`, { now: T0, verifyPassword: counter.verify }),
        ),
      );
      assert.equal(counter.calls.length, 2, 'the per-email limit, whichever process took the attempts');
      assert.equal(outcomes.filter((o) => o.outcome === 'throttled').length, 14);
    } finally {
      await other.close();
    }
  });
});

describe('clientKey', () => {
  const cases: [string, string][] = [
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
    ['not-an-address', 'not-an-address'],
  ];
  for (const [address, key] of cases) test(`${address} → ${key}`, () => assert.equal(clientKey(address), key));
});
