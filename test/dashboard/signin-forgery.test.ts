// Sign-in forgery (issue 17, section 2): a page on another port or a sibling subdomain of the
// dashboard's host must not sign the browser in as someone else (swapping an admin's session for
// the attacker's member session), neither through the dashboard's form nor POST /api/v1/session.
// First through the HTTP stack: every refusal, each with a near miss that passes, and that a
// refusal never reaches the throttle or the password. Then in real Chromium, against attacker
// pages served on another loopback port and on a sibling host name.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseSetCookie } from 'cookie';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestUser } from '../support/admin.ts';
import { browserSuite, launchBrowser } from '../support/browser.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { FORM, form, openSignInPage } from './support.ts';

let database: TestDatabase;
/** Production cookie settings: the sign-in cookie is `__Host-svc_login`. */
let service: TestService;
/** AUDIT_COOKIE_SECURE=false (plain HTTP on a host name): `svc_login`, no prefix possible. */
let insecure: TestService;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, delivery: { enabled: false } });
  insecure = await startTestService({ database, routes: {}, delivery: { enabled: false }, env: { AUDIT_COOKIE_SECURE: 'false' } });
});
after(async () => {
  await service?.close();
  await insecure?.close();
  await database?.close();
});

/** The Host the HTTP-level tests reach the service by, and so its origin. */
const HOST = 'dash.example.test:3000';
const SERVICE_ORIGIN = `http://${HOST}`;

const failedAttempts = async (email: string) =>
  (await database.db.selectFrom('login_attempts').select('id').where('email', '=', email).execute()).length;
const sessionsOf = async (userId: string) =>
  (await database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

interface OriginCase {
  name: string;
  headers: Record<string, string>;
  passes: boolean;
}

/** Who sent the request, as Origin and Sec-Fetch-Site say; a request that passes still needs the right token and password. */
const ORIGIN_CASES: OriginCase[] = [
  { name: 'neither header (curl, a script)', headers: {}, passes: true },
  { name: 'the service’s own page', headers: { origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-origin' }, passes: true },
  { name: 'Sec-Fetch-Site: none (the user’s own navigation)', headers: { 'sec-fetch-site': 'none' }, passes: true },
  { name: 'the service’s Origin, no Sec-Fetch-Site (an older browser)', headers: { origin: SERVICE_ORIGIN }, passes: true },
  { name: 'another port of the host', headers: { origin: 'http://dash.example.test:4000', 'sec-fetch-site': 'same-site' }, passes: false },
  { name: 'a sibling subdomain', headers: { origin: 'http://evil.example.test:3000', 'sec-fetch-site': 'same-site' }, passes: false },
  { name: 'another site', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, passes: false },
  { name: 'same-site without Origin', headers: { 'sec-fetch-site': 'same-site' }, passes: false },
  { name: 'an unknown Sec-Fetch-Site value', headers: { 'sec-fetch-site': 'same-origin-ish' }, passes: false },
  { name: 'the service’s Origin but Sec-Fetch-Site: same-site', headers: { origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-site' }, passes: false },
  { name: 'another port, no Sec-Fetch-Site', headers: { origin: 'http://dash.example.test:4000' }, passes: false },
  { name: 'the parent domain, no Sec-Fetch-Site', headers: { origin: 'http://example.test:3000' }, passes: false },
  { name: 'the other scheme', headers: { origin: 'https://dash.example.test:3000' }, passes: false },
  { name: 'Origin: null (a sandboxed frame, a data: URL)', headers: { origin: 'null' }, passes: false },
  { name: 'the service’s origin with a path (not an Origin)', headers: { origin: `${SERVICE_ORIGIN}/` }, passes: false },
];

describe('POST /dashboard/login: Origin and Sec-Fetch-Site', () => {
  for (const c of ORIGIN_CASES) {
    test(`${c.name}: ${c.passes ? 'signs in' : '403 page, before the throttle and the password'}`, async () => {
      const { user, email, password } = await createTestUser(database.db, 'member');
      const send = async (pass: string) => {
        const { cookie, token } = await openSignInPage(service.app);
        return service.app.inject({
          method: 'POST',
          url: '/dashboard/login',
          headers: { host: HOST, cookie, ...FORM, ...c.headers },
          payload: form({ _csrf: token, email, password: pass }),
        });
      };
      const wrong = await send(`${password}x`);
      const right = await send(password);
      if (c.passes) {
        assert.equal(wrong.statusCode, 401);
        assert.equal(right.statusCode, 303);
        assert.match(String(right.headers['set-cookie']), /svc_session=[A-Za-z0-9_-]{43};/);
        return;
      }
      for (const res of [wrong, right]) {
        assert.equal(res.statusCode, 403, res.body);
        assert.match(res.body, /The sign-in was refused/);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.equal(res.headers['set-cookie'], undefined, 'no cookie of any kind');
        assert.equal(res.headers['cache-control'], 'no-store');
      }
      assert.equal(await failedAttempts(email), 0, 'the throttle never saw the wrong password');
      assert.equal(await sessionsOf(user.id), 0, 'the right password signed nobody in');
    });
  }

  test('the refusal is logged for the operator with what the request said (the page shows none of it)', async () => {
    const res = await service.app.inject({
      method: 'POST',
      url: '/dashboard/login',
      headers: { host: HOST, ...FORM, origin: 'http://dash.example.test:4000' },
      payload: form({ email: 'someone@example.test', password: 'x' }),
    });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body.includes('4000'), false);
    const line = service.logs.find((entry) => entry.requestId === res.headers['x-request-id'] && entry.msg === 'sign-in refused: sent from another page');
    assert.deepEqual(
      { level: line?.level, route: line?.route, reason: line?.reason, origin: line?.origin, serviceOrigin: line?.serviceOrigin },
      { level: 40, route: '/dashboard/login', reason: 'Origin is not the service’s', origin: 'http://dash.example.test:4000', serviceOrigin: SERVICE_ORIGIN },
    );
  });
});

describe('POST /dashboard/login: the sign-in token', () => {
  async function post(cookie: string | undefined, fields: Record<string, string>, app = service.app) {
    return app.inject({
      method: 'POST',
      url: '/dashboard/login',
      headers: { host: HOST, origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-origin', ...FORM, ...(cookie ? { cookie } : {}) },
      payload: form(fields),
    });
  }

  test('the sign-in page sets a fresh __Host- cookie each time, with the session cookie’s attributes, and a token derived from it', async () => {
    const first = await service.app.inject({ method: 'GET', url: '/dashboard/login' });
    const second = await service.app.inject({ method: 'GET', url: '/dashboard/login' });
    for (const res of [first, second]) {
      assert.match(String(res.headers['set-cookie']), /^__Host-svc_login=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    }
    const [a, b] = [parseSetCookie(String(first.headers['set-cookie'])), parseSetCookie(String(second.headers['set-cookie']))];
    assert.notEqual(a.value, b.value);
    for (const [res, cookie] of [[first, a], [second, b]] as const) {
      assert.equal(res.body.includes(cookie.value!), false, 'the page never shows the cookie itself');
    }
  });

  test('AUDIT_COOKIE_SECURE=false: `svc_login` without Secure (the prefix needs it), otherwise alike', async () => {
    const res = await insecure.app.inject({ method: 'GET', url: '/dashboard/login' });
    assert.match(String(res.headers['set-cookie']), /^svc_login=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  test('missing, empty, mismatched or stale tokens and cookies: 403 page, before the throttle and the password; the matching pair signs in', async () => {
    const { user, email, password } = await createTestUser(database.db, 'member');
    const mine = await openSignInPage(service.app);
    const other = await openSignInPage(service.app);
    const cookieValue = mine.cookie.slice(mine.cookie.indexOf('=') + 1);
    const flipped = `${mine.token.slice(0, -1)}${mine.token.endsWith('A') ? 'B' : 'A'}`;
    const refused: { name: string; cookie: string | undefined; token: string | undefined }[] = [
      { name: 'no token', cookie: mine.cookie, token: undefined },
      { name: 'an empty token', cookie: mine.cookie, token: '' },
      { name: 'one character changed', cookie: mine.cookie, token: flipped },
      { name: 'another sign-in page’s token', cookie: mine.cookie, token: other.token },
      { name: 'the cookie’s value as the token', cookie: mine.cookie, token: cookieValue },
      { name: 'no cookie (expired after an hour)', cookie: undefined, token: mine.token },
      { name: 'the cookie without its prefix (as a sibling subdomain could set it)', cookie: `svc_login=${cookieValue}`, token: mine.token },
      { name: 'a malformed cookie', cookie: '__Host-svc_login=<script>', token: mine.token },
    ];
    for (const c of refused) {
      for (const pass of [`${password}x`, password]) {
        const res = await post(c.cookie, { ...(c.token === undefined ? {} : { _csrf: c.token }), email, password: pass });
        assert.equal(res.statusCode, 403, c.name);
        assert.match(res.body, /The sign-in was refused/, c.name);
        assert.equal(res.headers['set-cookie'], undefined, c.name);
      }
    }
    assert.equal(await failedAttempts(email), 0, 'the throttle never saw the wrong password');
    assert.equal(await sessionsOf(user.id), 0, 'the right password signed nobody in');

    // Near misses: the page's own pair, also after a wrong password (the form comes back with it).
    const wrong = await post(mine.cookie, { _csrf: mine.token, email, password: `${password}x` });
    assert.equal(wrong.statusCode, 401);
    assert.ok(wrong.body.includes(`name="_csrf" value="${mine.token}"`));
    const res = await post(mine.cookie, { _csrf: mine.token, email, password });
    assert.equal(res.statusCode, 303);
    const cookies = (res.headers['set-cookie'] as string[]).map((header) => parseSetCookie(header));
    assert.deepEqual(
      cookies.map((cookie) => [cookie.name, cookie.maxAge === 0 ? 'dropped' : 'set']),
      [['__Host-svc_login', 'dropped'], ['svc_session', 'set']],
    );
    // The other service (no Secure) reads `svc_login`, and only that name.
    const plain = await insecure.app.inject({ method: 'GET', url: '/dashboard/login' });
    const pair = { cookie: `svc_login=${parseSetCookie(String(plain.headers['set-cookie'])).value}`, token: /name="_csrf" value="([^"]+)"/.exec(plain.body)![1]! };
    assert.equal((await post(`__Host-${pair.cookie}`, { _csrf: pair.token, email, password }, insecure.app)).statusCode, 403);
    assert.equal((await post(pair.cookie, { _csrf: pair.token, email, password }, insecure.app)).statusCode, 303);
  });
});

describe('POST /api/v1/session: Origin and Sec-Fetch-Site', () => {
  for (const c of ORIGIN_CASES) {
    test(`${c.name}: ${c.passes ? '204' : '403 {"error":"forbidden"}, before the throttle and the password'}`, async () => {
      const { user, email, password } = await createTestUser(database.db, 'member');
      const send = (pass: string) =>
        service.app.inject({ method: 'POST', url: '/api/v1/session', headers: { host: HOST, ...c.headers }, payload: { email, password: pass } });
      const wrong = await send(`${password}x`);
      const right = await send(password);
      if (c.passes) {
        assert.equal(wrong.statusCode, 401);
        assert.equal(right.statusCode, 204);
        return;
      }
      for (const res of [wrong, right]) {
        assert.equal(res.statusCode, 403, res.body);
        assert.deepEqual(res.json(), { error: 'forbidden' });
        assert.equal(res.headers['set-cookie'], undefined);
      }
      assert.equal(await failedAttempts(email), 0, 'the throttle never saw the wrong password');
      assert.equal(await sessionsOf(user.id), 0, 'the right password signed nobody in');
    });
  }

  test('a refused request is answered before its body is read: even a malformed one is a 403', async () => {
    const res = await service.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { host: HOST, origin: 'http://dash.example.test:4000', 'content-type': 'text/plain' },
      payload: '{"email":',
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'forbidden' });
  });
});

describe('behind a reverse proxy in AUDIT_TRUST_PROXY, the service’s origin is the one the proxy names', () => {
  let proxied: TestService;
  before(async () => {
    proxied = await startTestService({ database, routes: {}, delivery: { enabled: false }, env: { AUDIT_TRUST_PROXY: '127.0.0.1' } });
  });
  after(async () => proxied?.close());

  test('X-Forwarded-Proto and X-Forwarded-Host from the proxy are the origin; from anyone else they are ignored', async () => {
    const { email, password } = await createTestUser(database.db, 'member');
    const send = (remoteAddress: string) =>
      proxied.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        remoteAddress,
        headers: { host: '10.0.0.5:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.com', origin: 'https://dash.example.com', 'sec-fetch-site': 'same-origin' },
        payload: { email, password },
      });
    assert.equal((await send('192.0.2.7')).statusCode, 403, 'not the proxy: the origin is http://10.0.0.5:3000');
    assert.equal((await send('127.0.0.1')).statusCode, 204);
  });
});

// ---- In Chromium ---------------------------------------------------------------------------

/** The attacker's site: pages by path, each with the cookies it sets on its own host. */
interface AttackerPage {
  body: string;
  setCookie?: string;
}

describe('in Chromium: pages on another loopback port and on a sibling host name', browserSuite(), () => {
  let browser: Browser;
  let attacker: http.Server;
  let attackerPort: number;
  const attackerPages = new Map<string, AttackerPage>();
  /** The admin's browser and the attacker's account. */
  let admin: { email: string; password: string };
  let member: { email: string; password: string; user: { id: string } };

  before(async () => {
    admin = await createTestUser(database.db, 'admin');
    member = await createTestUser(database.db, 'member');
    attacker = http.createServer((req, res) => {
      const found = attackerPages.get(new URL(req.url ?? '/', 'http://attacker').pathname);
      if (!found) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(found.setCookie ? { 'set-cookie': found.setCookie } : {}) });
      res.end(found.body);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerPort = (attacker.address() as AddressInfo).port;
    // dash.site.test (the dashboard) and evil.site.test (the attacker) are one site: site.test.
    browser = await launchBrowser(['--host-resolver-rules=MAP *.site.test 127.0.0.1']);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  /** A cookie and token pair as anyone can fetch it from the sign-in page; none before the fix. */
  async function fetchPair(base: string) {
    const res = await fetch(`${base}/dashboard/login`);
    const cookie = res.headers.getSetCookie()[0];
    return {
      cookie: cookie ? parseSetCookie(cookie) : undefined,
      token: /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? '',
    };
  }

  /** An attacker page that posts the attacker's credentials to the dashboard's form as soon as it loads. */
  function autoSubmit(path: string, base: string, extra: { token?: string; setCookie?: string } = {}) {
    const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
    attackerPages.set(path, {
      body:
        `<!doctype html><title>Win a prize</title><form method="post" action="${base}/dashboard/login">` +
        `${field('email', member.email)}${field('password', member.password)}${extra.token ? field('_csrf', extra.token) : ''}</form>` +
        `<script>document.forms[0].submit()</script>`,
      ...(extra.setCookie ? { setCookie: extra.setCookie } : {}),
    });
  }

  /** An attacker page that fetch()es the JSON sign-in with credentials, and writes the outcome into its title. */
  function fetchSignIn(path: string, base: string, init: string) {
    const body = JSON.stringify({ email: member.email, password: member.password });
    attackerPages.set(path, {
      body:
        `<!doctype html><title>loading</title><script>fetch(${JSON.stringify(`${base}/api/v1/session`)}, ` +
        `{ method: 'POST', credentials: 'include', body: ${JSON.stringify(body)}, ${init} })` +
        `.then((r) => { document.title = 'done: ' + r.type + ' ' + r.status; }, (e) => { document.title = 'done: ' + e.name; });</script>`,
    });
  }

  async function signInThroughTheForm(page: Page, base: string) {
    await page.goto(`${base}/dashboard/login`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in' }).click()]);
    assert.equal(await page.locator('h1').textContent(), 'Dashboard');
  }

  async function sessionCookie(context: BrowserContext, host: string) {
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session' && c.domain === host);
    assert.ok(cookie, 'the browser holds a session cookie');
    return cookie.value;
  }

  /** The browser's session cookie is the one it had, and it is still the admin's session. */
  async function assertStillAdmin(context: BrowserContext, host: string, before: string, app: TestService['app']) {
    assert.equal(await sessionCookie(context, host), before, 'the session cookie is unchanged');
    const res = await app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: `svc_session=${before}` } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual({ email: res.json().email, role: res.json().role }, { email: admin.email, role: 'admin' });
    assert.equal(await sessionsOf(member.user.id), 0, 'the attacker’s account was never signed in');
  }

  /** Opens the attacker's page and waits for its form to land on the dashboard. */
  async function submittedFrom(page: Page, url: string, base: string) {
    await Promise.all([page.waitForURL((landed) => landed.href.startsWith(base), { timeout: 10_000 }), page.goto(url, { waitUntil: 'commit' })]);
    await page.waitForLoadState();
  }

  async function fetchedFrom(page: Page, url: string) {
    await page.goto(url);
    await page.waitForFunction(() => document.title.startsWith('done'), undefined, { timeout: 10_000 });
    return page.title();
  }

  test('another port of 127.0.0.1: its forms and fetches leave the admin signed in as the admin', async () => {
    const base = await service.app.listen({ host: '127.0.0.1', port: 0 });
    const evil = `http://127.0.0.1:${attackerPort}`;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInThroughTheForm(page, base);
      const before = await sessionCookie(context, '127.0.0.1');

      autoSubmit('/form', base);
      await submittedFrom(page, `${evil}/form`, base);
      assert.match(await page.locator('main').innerText(), /The sign-in was refused/);
      await assertStillAdmin(context, '127.0.0.1', before, service.app);

      // Cookies ignore ports, so this page can plant a sign-in cookie (with its prefix: loopback is
      // a secure context) and post the token that goes with it, fetched from the sign-in page.
      const pair = await fetchPair(base);
      const planted = pair.cookie ? `${pair.cookie.name}=${pair.cookie.value}; Path=/; Secure; HttpOnly; SameSite=Strict` : undefined;
      autoSubmit('/planted', base, { token: pair.token, ...(planted ? { setCookie: planted } : {}) });
      await submittedFrom(page, `${evil}/planted`, base);
      assert.match(await page.locator('main').innerText(), /The sign-in was refused/);
      await assertStillAdmin(context, '127.0.0.1', before, service.app);

      // JSON: the browser preflights (and the service grants no CORS), so the POST is never sent;
      // without the preflight (no-cors) the service refuses it for its Origin before reading it.
      fetchSignIn('/fetch', base, `headers: { 'content-type': 'application/json' }`);
      assert.equal(await fetchedFrom(page, `${evil}/fetch`), 'done: TypeError');
      await assertStillAdmin(context, '127.0.0.1', before, service.app);
      const jsonRefusals = () => service.logs.filter((line) => line.msg === 'sign-in refused: sent from another page' && line.route === '/api/v1/session');
      const refusalsBefore = jsonRefusals().length;
      fetchSignIn('/no-cors', base, `mode: 'no-cors', headers: { 'content-type': 'text/plain' }`);
      assert.equal(await fetchedFrom(page, `${evil}/no-cors`), 'done: opaque 0');
      await assertStillAdmin(context, '127.0.0.1', before, service.app);
      const refusals = jsonRefusals();
      assert.equal(refusals.length, refusalsBefore + 1);
      assert.equal(refusals.at(-1)?.reason, 'Sec-Fetch-Site: same-site', 'Chromium calls another port of the host same-site');

      // Near miss: the real form in the same browser still signs in (and out, and in again).
      await page.goto(`${base}/dashboard`);
      await Promise.all([page.waitForURL(`${base}/dashboard/login`), page.getByRole('button', { name: 'Log out' }).click()]);
      await signInThroughTheForm(page, base);
      assert.notEqual(await sessionCookie(context, '127.0.0.1'), before, 'a new session');
    } finally {
      await context.close();
    }
  });

  test('a sibling host name (dash.site.test and evil.site.test over plain HTTP): tossing the cookie to the parent domain does not help', async () => {
    const listening = await insecure.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://dash.site.test:${new URL(listening).port}`;
    const evil = `http://evil.site.test:${attackerPort}`;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInThroughTheForm(page, base);
      const before = await sessionCookie(context, 'dash.site.test');

      autoSubmit('/form', base);
      await submittedFrom(page, `${evil}/form`, base);
      assert.match(await page.locator('main').innerText(), /The sign-in was refused/);
      await assertStillAdmin(context, 'dash.site.test', before, insecure.app);

      // Without Secure there is no prefix: the sibling sets the cookie for all of site.test (the
      // pair comes from the same server; Node reaches it by its address).
      const pair = await fetchPair(listening);
      const tossed = pair.cookie ? `${pair.cookie.name}=${pair.cookie.value}; Domain=site.test; Path=/; SameSite=Strict` : undefined;
      autoSubmit('/tossed', base, { token: pair.token, ...(tossed ? { setCookie: tossed } : {}) });
      await submittedFrom(page, `${evil}/tossed`, base);
      if (tossed) assert.ok((await context.cookies()).some((c) => c.name === 'svc_login' && c.domain === '.site.test'), 'the tossed cookie took');
      assert.match(await page.locator('main').innerText(), /The sign-in was refused/);
      await assertStillAdmin(context, 'dash.site.test', before, insecure.app);
      // Chromium sends Sec-Fetch-Site only to secure origins, and plain HTTP on a name is none:
      // here the Origin check is what refuses.
      const refusal = insecure.logs.findLast((line) => line.msg === 'sign-in refused: sent from another page' && line.route === '/dashboard/login');
      assert.deepEqual({ reason: refusal?.reason, origin: refusal?.origin }, { reason: 'Origin is not the service’s', origin: evil });

      fetchSignIn('/fetch', base, `headers: { 'content-type': 'application/json' }`);
      assert.equal(await fetchedFrom(page, `${evil}/fetch`), 'done: TypeError');
      fetchSignIn('/no-cors', base, `mode: 'no-cors', headers: { 'content-type': 'text/plain' }`);
      assert.equal(await fetchedFrom(page, `${evil}/no-cors`), 'done: opaque 0');
      await assertStillAdmin(context, 'dash.site.test', before, insecure.app);
    } finally {
      await context.close();
    }
  });
});
