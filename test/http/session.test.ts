// POST/GET/DELETE /api/v1/session through the real HTTP stack and a real database: the cookie's
// attributes, one answer for every wrong credential, the throttle, logout, and which sessions an
// admin endpoint refuses.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseSetCookie } from 'cookie';
import { disableUser, setRole } from '../../src/auth/users.ts';
import { createAdminCookie, createTestUser } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

const MAX_PER_EMAIL = 3;
const MAX_PER_ADDRESS = 6;

let database: TestDatabase;
let service: TestService;
/** Every password and token this file used: none may appear in a log line or a response body. */
const secrets: string[] = [];
const bodies: string[] = [];

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    routes: {},
    delivery: { enabled: false },
    env: {
      AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: String(MAX_PER_EMAIL),
      AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: String(MAX_PER_ADDRESS),
      AUDIT_SESSION_MAX_HOURS: '8',
    },
  });
});
after(async () => {
  const logs = service.rawLogs.join('\n');
  for (const secret of secrets) {
    assert.equal(logs.includes(secret), false, 'a password or token reached the log');
    assert.equal(bodies.some((body) => body.includes(secret)), false, 'a password or token reached a response body');
  }
  await service.close();
  await database.close();
});

let addressCounter = 0;
/** A client address no other test uses, so the per-address budget of one test never touches another's. */
const freshAddress = () => `192.0.2.${++addressCounter}`;

async function signIn(email: string, password: string, remoteAddress = freshAddress(), app = service.app, headers: Record<string, string> = {}) {
  secrets.push(password);
  const res = await app.inject({ method: 'POST', url: '/api/v1/session', payload: { email, password }, remoteAddress, headers });
  bodies.push(res.body);
  return res;
}

function sessionCookieOf(res: { headers: Record<string, unknown> }) {
  const header = res.headers['set-cookie'];
  assert.equal(typeof header, 'string', 'exactly one Set-Cookie');
  const parsed = parseSetCookie(header as string);
  return { raw: header as string, parsed: { ...parsed, value: parsed.value ?? '' } };
}

async function adminList(cookie: string | undefined) {
  const res = await service.app.inject({ method: 'GET', url: '/api/v1/alerts/webhooks', headers: cookie === undefined ? {} : { cookie } });
  bodies.push(res.body);
  return res;
}

describe('sign in', () => {
  test('204 with an HttpOnly, SameSite=Strict, Secure, Path=/ cookie whose Max-Age is the absolute timeout; only its SHA-256 is stored', async () => {
    const { email, password, user } = await createTestUser(database.db);
    const res = await signIn(email, password);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    const { raw, parsed } = sessionCookieOf(res);
    secrets.push(parsed.value);
    assert.equal(parsed.name, 'svc_session');
    assert.match(parsed.value, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
    assert.match(raw, /; HttpOnly(;|$)/);
    assert.match(raw, /; SameSite=Strict(;|$)/);
    assert.match(raw, /; Secure(;|$)/);
    assert.match(raw, /; Path=\/(;|$)/);
    assert.equal(parsed.maxAge, 8 * 3600);

    const rows = await database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.token_sha256, createHash('sha256').update(parsed.value).digest('hex'));
    assert.equal(JSON.stringify(rows).includes(parsed.value), false, 'the token itself is stored nowhere');

    const cookie = `svc_session=${parsed.value}`;
    assert.equal((await adminList(cookie)).statusCode, 200, 'the cookie opens admin endpoints');
    const me = await service.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json(), { email, role: 'admin', csrfToken: rows[0]!.csrf_token });
  });

  test('AUDIT_COOKIE_SECURE=false: the same cookie without Secure', async () => {
    const plain = await startTestService({ database, routes: {}, delivery: { enabled: false }, env: { AUDIT_COOKIE_SECURE: 'false' } });
    try {
      const { email, password } = await createTestUser(database.db);
      const res = await signIn(email, password, freshAddress(), plain.app);
      assert.equal(res.statusCode, 204, res.body);
      const { raw, parsed } = sessionCookieOf(res);
      secrets.push(parsed.value);
      assert.doesNotMatch(raw, /Secure/i);
      assert.match(raw, /; HttpOnly; SameSite=Strict$/);
      assert.equal(parsed.maxAge, 12 * 3600, 'the default absolute timeout');
    } finally {
      await plain.close();
    }
  });

  test('the email is compared case-insensitively and trimmed', async () => {
    const { email, password } = await createTestUser(database.db);
    assert.equal((await signIn(` ${email.toUpperCase()} `, password)).statusCode, 204);
  });

  test('a member signs in too (the role decides what the session opens, not whether it starts)', async () => {
    const { email, password } = await createTestUser(database.db, 'member');
    const res = await signIn(email, password);
    assert.equal(res.statusCode, 204);
    const { parsed } = sessionCookieOf(res);
    secrets.push(parsed.value);
    const list = await adminList(`svc_session=${parsed.value}`);
    assert.equal(list.statusCode, 403);
    assert.equal(list.body, '{"error":"forbidden"}');
  });

  test('unknown email, wrong password, a near-miss password and a disabled user: the same 401, no cookie', async () => {
    const { email, password } = await createTestUser(database.db);
    const disabled = await createTestUser(database.db);
    await disableUser(database.db, disabled.email);
    const cases: [string, string, string][] = [
      ['unknown email', `nobody-${email}`, password],
      ['wrong password', email, 'a-wrong-password-123'],
      ['password with one character less', email, password.slice(0, -1)],
      ['password in another case', email, password.toUpperCase()],
      ['disabled user, right password', disabled.email, disabled.password],
    ];
    const answers = [];
    for (const [name, who, secret] of cases) {
      const res = await signIn(who, secret);
      assert.equal(res.statusCode, 401, name);
      assert.equal(res.headers['set-cookie'], undefined, name);
      answers.push({ body: res.body, type: res.headers['content-type'] });
    }
    for (const answer of answers) assert.deepEqual(answer, { body: '{"error":"invalid credentials"}', type: 'application/json; charset=utf-8' });
  });

  const badBodies: [string, unknown, Record<string, string>][] = [
    ['no password', { email: 'a@example.com' }, { password: 'is required' }],
    ['no email', { password: 'x'.repeat(12) }, { email: 'is required' }],
    ['an unknown field', { email: 'a@example.com', password: 'x'.repeat(12), role: 'admin' }, { role: 'is not a known field' }],
    ['a number as password', { email: 'a@example.com', password: 123456789012 }, { password: 'must be string' }],
    ['an empty password', { email: 'a@example.com', password: '' }, { password: 'must NOT have fewer than 1 characters' }],
    ['an array body', [], { body: 'must be a JSON object' }],
  ];
  for (const [name, payload, errors] of badBodies) {
    test(`400 for ${name}`, async () => {
      const res = await service.app.inject({ method: 'POST', url: '/api/v1/session', payload: payload as object, remoteAddress: freshAddress() });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { errors });
    });
  }

  test('400 for a body that is not JSON, and for a form post', async () => {
    const notJson = await service.app.inject({ method: 'POST', url: '/api/v1/session', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    assert.equal(notJson.statusCode, 400);
    assert.deepEqual(notJson.json(), { errors: { body: 'is not valid JSON' } });
    const form = await service.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=xxxxxxxxxxxx',
    });
    assert.equal(form.statusCode, 400, 'a cross-site form cannot sign anyone in');
    assert.deepEqual(form.json(), { errors: { body: 'Content-Type must be application/json' } });
  });
});

describe('throttle', () => {
  function assertThrottled(res: Awaited<ReturnType<typeof signIn>>) {
    assert.equal(res.statusCode, 429, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['error', 'retryAfterSeconds']);
    assert.equal(body.error, 'too many login attempts');
    assert.ok(Number.isInteger(body.retryAfterSeconds) && body.retryAfterSeconds > 0 && body.retryAfterSeconds <= 15 * 60);
    assert.equal(res.headers['retry-after'], String(body.retryAfterSeconds));
    assert.equal(res.headers['set-cookie'], undefined);
  }

  test(`per email: after ${MAX_PER_EMAIL} failures from any addresses, 429, even with the right password`, async () => {
    const { email, password } = await createTestUser(database.db);
    for (let i = 0; i < MAX_PER_EMAIL; i++) assert.equal((await signIn(email, `wrong-password-${i}`)).statusCode, 401);
    assertThrottled(await signIn(email, 'wrong-password-again'));
    assertThrottled(await signIn(email, password));
    assertThrottled(await signIn(email.toUpperCase(), password, freshAddress()));
    // Another user is untouched.
    const other = await createTestUser(database.db);
    assert.equal((await signIn(other.email, other.password)).statusCode, 204);
  });

  test(`per address: after ${MAX_PER_ADDRESS} failures on any emails, 429 for every email from it, even a right password`, async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX_PER_ADDRESS; i++) {
      assert.equal((await signIn(`guess-${i}@example.test`, 'wrong-password-x', address)).statusCode, 401);
    }
    const { email, password } = await createTestUser(database.db);
    assertThrottled(await signIn(email, password, address));
    assert.equal((await signIn(email, password, freshAddress())).statusCode, 204, 'the same user from another address');
  });

  test('IPv6 clients are counted per /64', async () => {
    for (let i = 0; i < MAX_PER_ADDRESS; i++) {
      assert.equal((await signIn(`v6-${i}@example.test`, 'wrong-password-x', `2001:db8:1:2::${i + 1}`)).statusCode, 401);
    }
    const { email, password } = await createTestUser(database.db);
    assertThrottled(await signIn(email, password, '2001:db8:1:2:ffff::9'));
    assert.equal((await signIn(email, password, '2001:db8:1:3::1')).statusCode, 204, 'the next /64 is another client');
  });

  test('X-Forwarded-For is ignored without AUDIT_TRUST_PROXY: rotating it does not escape the per-address budget', async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX_PER_ADDRESS; i++) {
      const res = await signIn(`xff-${i}@example.test`, 'wrong-password-x', address, service.app, { 'x-forwarded-for': `203.0.113.${i}` });
      assert.equal(res.statusCode, 401);
    }
    const { email, password } = await createTestUser(database.db);
    assertThrottled(await signIn(email, password, address, service.app, { 'x-forwarded-for': '203.0.113.200' }));
  });

  test('behind a proxy named in AUDIT_TRUST_PROXY, the forwarded client address is the one counted', async () => {
    const proxy = '198.18.0.1';
    const proxied = await startTestService({
      database,
      routes: {},
      delivery: { enabled: false },
      env: { AUDIT_TRUST_PROXY: '198.18.0.0/15', AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: '2' },
    });
    try {
      for (const i of [1, 2]) {
        const res = await signIn(`proxied-${i}@example.test`, 'wrong-password-x', proxy, proxied.app, { 'x-forwarded-for': '203.0.113.7' });
        assert.equal(res.statusCode, 401);
      }
      const { email, password } = await createTestUser(database.db);
      assertThrottled(await signIn(email, password, proxy, proxied.app, { 'x-forwarded-for': '203.0.113.7' }));
      const other = await signIn(email, password, proxy, proxied.app, { 'x-forwarded-for': '203.0.113.8' });
      assert.equal(other.statusCode, 204, 'another client behind the same proxy');
      secrets.push(sessionCookieOf(other).parsed.value);
    } finally {
      await proxied.close();
    }
  });

  test('a success forgets the failures that came before it from that address', async () => {
    const { email, password } = await createTestUser(database.db);
    const address = freshAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_PER_EMAIL - 1; i++) assert.equal((await signIn(email, 'wrong-password-y', address)).statusCode, 401);
      assert.equal((await signIn(email, password, address)).statusCode, 204, `round ${round}`);
    }
  });
});

describe('sign out', () => {
  test('204, the session ends and the cookie is cleared; a second logout is 204 too', async () => {
    const admin = await createAdminCookie(database.db);
    assert.equal((await adminList(admin.cookie)).statusCode, 200);
    const res = await service.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 204);
    const { raw, parsed } = sessionCookieOf(res);
    assert.equal(parsed.name, 'svc_session');
    assert.equal(parsed.value, '');
    assert.equal(parsed.maxAge, 0);
    assert.match(raw, /; HttpOnly/);
    const ended = await database.db.selectFrom('sessions').select('ended_at').where('id', '=', admin.sessionId).executeTakeFirstOrThrow();
    assert.ok(ended.ended_at instanceof Date);
    const list = await adminList(admin.cookie);
    assert.equal(list.statusCode, 403, 'the old cookie no longer works');
    const me = await service.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: admin.cookie } });
    assert.equal(me.statusCode, 401);
    assert.deepEqual(me.json(), { error: 'not signed in' });
    const again = await service.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: { cookie: admin.cookie } });
    assert.equal(again.statusCode, 204);
  });

  test('204 without any cookie', async () => {
    const res = await service.app.inject({ method: 'DELETE', url: '/api/v1/session' });
    assert.equal(res.statusCode, 204);
  });
});

describe('an admin endpoint refuses every session that is not an open admin one, with exactly {"error":"forbidden"}', () => {
  const cases: [string, () => Promise<string | undefined>][] = [
    ['no cookie', async () => undefined],
    ['an empty cookie', async () => 'svc_session='],
    ['garbage', async () => 'svc_session=%00%ff<script>'],
    ['a well-formed token nobody was given', async () => `svc_session=${'A'.repeat(43)}`],
    ['a token one character short', async () => (await createAdminCookie(database.db)).cookie.slice(0, -1)],
    ['the cookie under another name', async () => (await createAdminCookie(database.db)).cookie.replace('svc_session', 'session')],
    ['a member’s session', async () => (await createAdminCookie(database.db, { role: 'member' })).cookie],
    [
      'an admin demoted to member after signing in',
      async () => {
        const admin = await createAdminCookie(database.db);
        await setRole(database.db, admin.email, 'member');
        return admin.cookie;
      },
    ],
    [
      'a disabled user’s session',
      async () => {
        const admin = await createAdminCookie(database.db);
        await disableUser(database.db, admin.email);
        return admin.cookie;
      },
    ],
    [
      'a session idle for longer than the idle timeout',
      async () => {
        const admin = await createAdminCookie(database.db);
        const idle = new Date(Date.now() - 31 * 60_000);
        await database.db.updateTable('sessions').set({ last_seen_at: idle }).where('id', '=', admin.sessionId).execute();
        return admin.cookie;
      },
    ],
    ['a session older than the absolute timeout', async () => (await createAdminCookie(database.db, { now: new Date(Date.now() - 8 * 3600_000 - 1000) })).cookie],
  ];
  for (const [name, cookie] of cases) {
    test(name, async () => {
      const res = await adminList(await cookie());
      assert.equal(res.statusCode, 403);
      assert.equal(res.body, '{"error":"forbidden"}');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    });
  }

  test('near miss: an admin session that is almost idle still passes', async () => {
    const admin = await createAdminCookie(database.db);
    const almost = new Date(Date.now() - 29 * 60_000);
    await database.db.updateTable('sessions').set({ last_seen_at: almost }).where('id', '=', admin.sessionId).execute();
    assert.equal((await adminList(admin.cookie)).statusCode, 200);
  });
});
