// The dashboard's pages through the real HTTP stack and a real database (no browser): who gets
// which page, the CSRF check on every form, the security headers on every answer, key creation
// and revocation, the webhook and audit data shown, HTML escaping, and no secret in any log line.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseSetCookie } from 'cookie';
import { createApiKey, getApiKey } from '../../src/auth/api-keys.ts';
import { createAdminCookie, createTestUser, type TestAdmin } from '../support/admin.ts';
import { readPdf } from '../support/pdf.ts';
import { FORM, form, formOnce, HOSTILE, openSignInPage, startDashboardFixture, type DashboardFixture } from './support.ts';

let fx: DashboardFixture;
let admin: TestAdmin;
/** Raw keys, passwords and session tokens this file used: none may reach a log line. */
const secrets: string[] = [];

before(async () => {
  fx = await startDashboardFixture({ AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '3' });
  admin = await createAdminCookie(fx.database.db);
  secrets.push(fx.owner.rawKey, admin.password, admin.cookie.split('=')[1]!);
});
after(async () => {
  const logs = fx.service.rawLogs.join('\n');
  for (const secret of secrets) assert.equal(logs.includes(secret), false, 'a secret reached the log');
  // No page failed along the way (a refusal is info or warn, never error).
  assert.deepEqual(fx.service.logs.filter((line) => Number(line.level) >= 50), []);
  await fx?.close();
});

const app = () => fx.service.app;
type Inject = { method: 'GET' | 'POST'; url: string; cookie?: string; payload?: string; headers?: Record<string, string> };

async function request({ method, url, cookie, payload, headers = {} }: Inject) {
  return app().inject({ method, url, payload, headers: { ...(cookie ? { cookie } : {}), ...(payload !== undefined ? FORM : {}), ...headers } });
}

const main = (body: string) => body.slice(body.indexOf('<main'), body.indexOf('</main>'));

/** A sign-in as the form sends it: with the sign-in page's cookie and token (test/dashboard/signin-forgery.test.ts refuses the rest). */
async function signIn(fields: Record<string, string>) {
  const { cookie, token } = await openSignInPage(app());
  return request({ method: 'POST', url: '/dashboard/login', cookie, payload: form({ _csrf: token, ...fields }) });
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

function assertSecurityHeaders(res: { headers: Record<string, unknown> }, what: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers[name], value, `${what}: ${name}`);
  const csp = String(res.headers['content-security-policy']);
  for (const directive of ["default-src 'self'", "script-src 'none'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'"]) {
    assert.ok(csp.includes(directive), `${what}: CSP has ${directive}`);
  }
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, `${what}: inline style admitted by its hash only`);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, what);
}

describe('who sees what', () => {
  const pages = () => [`/dashboard`, `/dashboard/webhooks/${fx.webhook.id}`, `/dashboard/report?target=site.test`];

  test('no session, an unknown token, a malformed cookie: every page redirects to the sign-in page', async () => {
    for (const cookie of [undefined, 'svc_session=' + 'A'.repeat(43), 'svc_session=<script>', 'other=1']) {
      for (const url of pages()) {
        const res = await request({ method: 'GET', url, cookie });
        assert.equal(res.statusCode, 303, `${url} with ${cookie}`);
        assert.equal(res.headers.location, '/dashboard/login');
        assertSecurityHeaders(res, `303 of ${url}`);
      }
    }
  });

  test('an expired, ended or disabled user’s session redirects; a live admin session gets the page', async () => {
    const idle = await createAdminCookie(fx.database.db, { now: new Date(Date.now() - 31 * 60_000) });
    const old = await createAdminCookie(fx.database.db, { now: new Date(Date.now() - 13 * 3_600_000) });
    for (const session of [idle, old]) {
      const res = await request({ method: 'GET', url: '/dashboard', cookie: session.cookie });
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/dashboard/login');
    }
    const live = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    assert.equal(live.statusCode, 200);
    assert.match(String(live.headers['content-type']), /^text\/html; charset=utf-8/);
    assertSecurityHeaders(live, 'the overview');
  });

  test('a member’s session gets a 403 page on every admin page, saying why, and can log out', async () => {
    const member = await createAdminCookie(fx.database.db, { role: 'member' });
    // The overview is a member's too (test/dashboard/access.test.ts has every route).
    for (const url of pages().filter((url) => url !== '/dashboard')) {
      const res = await request({ method: 'GET', url, cookie: member.cookie });
      assert.equal(res.statusCode, 403, url);
      assert.match(main(res.body), /This page is for admins/);
      assert.ok(res.body.includes(member.email));
      assert.equal(/href="\/dashboard#(keys|report)"/.test(res.body), false, 'no section links a member cannot open');
      assertSecurityHeaders(res, `403 of ${url}`);
    }
    const created = await request({ method: 'POST', url: '/dashboard/keys', cookie: member.cookie, payload: form({ _csrf: member.csrfToken, _once: formOnce(), label: 'member' }) });
    assert.equal(created.statusCode, 403);
    assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', 'member').execute()).length, 0);
    const out = await request({ method: 'POST', url: '/dashboard/logout', cookie: member.cookie, payload: form({ _csrf: member.csrfToken }) });
    assert.equal(out.statusCode, 303);
    assert.equal((await request({ method: 'GET', url: '/dashboard', cookie: member.cookie })).headers.location, '/dashboard/login');
  });

  test('unknown pages under /dashboard are an HTML 404 with the same headers', async () => {
    for (const cookie of [undefined, admin.cookie]) {
      const res = await request({ method: 'GET', url: '/dashboard/nothing-here', cookie });
      assert.equal(res.statusCode, 404);
      assert.match(res.body, /Page not found/);
      assertSecurityHeaders(res, '404');
    }
  });
});

describe('sign-in form', () => {
  test('the form is labelled; a signed-in admin is sent on to the dashboard', async () => {
    const res = await request({ method: 'GET', url: '/dashboard/login' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<label for="email">Email<\/label>/);
    assert.match(res.body, /<label for="password">Password<\/label>/);
    assertSecurityHeaders(res, 'the sign-in page');
    assert.match(res.body, /<input type="hidden" name="_csrf" value="[A-Za-z0-9_-]{43}">/);
    const again = await request({ method: 'GET', url: '/dashboard/login', cookie: admin.cookie });
    assert.equal(again.statusCode, 303);
    assert.equal(again.headers.location, '/dashboard');
  });

  test('right password: 303 to /dashboard with the session cookie, which opens the dashboard', async () => {
    const user = await createTestUser(fx.database.db);
    secrets.push(user.password);
    const res = await signIn({ email: user.email.toUpperCase(), password: user.password });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard');
    // The sign-in cookie has done its work and is dropped; then the session cookie.
    const [dropped, session] = res.headers['set-cookie'] as string[];
    assert.match(dropped!, /^__Host-svc_login=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const cookie = parseSetCookie(session!);
    assert.equal(cookie.name, 'svc_session');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'strict');
    assert.equal(cookie.secure, true);
    secrets.push(cookie.value!);
    const page = await request({ method: 'GET', url: '/dashboard', cookie: `svc_session=${cookie.value}` });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(user.email));
  });

  test('refusals re-render the form with its token: one message for a wrong password and an unknown email, 400 for blanks', async () => {
    const user = await createTestUser(fx.database.db);
    const cases = [
      { name: 'wrong password', fields: { email: user.email, password: `${user.password}x` }, status: 401, says: /The email or the password is wrong/ },
      { name: 'unknown email', fields: { email: `nobody-${user.email}`, password: user.password }, status: 401, says: /The email or the password is wrong/ },
      { name: 'blank password', fields: { email: user.email, password: '' }, status: 400, says: /Enter your email and your password/ },
      { name: 'blank email', fields: { email: '  ', password: 'x' }, status: 400, says: /Enter your email and your password/ },
    ];
    for (const c of cases) {
      const { cookie, token } = await openSignInPage(app());
      const res = await request({ method: 'POST', url: '/dashboard/login', cookie, payload: form({ _csrf: token, ...c.fields }) });
      assert.equal(res.statusCode, c.status, c.name);
      assert.ok(res.body.includes(`name="_csrf" value="${token}"`), `${c.name}: the same token, so the form can be sent again`);
      assert.match(main(res.body), c.says, c.name);
      assert.equal(res.headers['set-cookie'], undefined, c.name);
      assertSecurityHeaders(res, c.name);
      // The typed email comes back in the field (escaped); the password never does.
      assert.equal(res.body.includes(user.password), false, c.name);
    }
  });

  test('after repeated failures for one email: 429 with Retry-After, even for the right password', async () => {
    const user = await createTestUser(fx.database.db);
    for (let i = 0; i < 3; i++) {
      const res = await signIn({ email: user.email, password: 'wrong password' });
      assert.equal(res.statusCode, 401);
    }
    const res = await signIn({ email: user.email, password: user.password });
    assert.equal(res.statusCode, 429);
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.match(main(res.body), /Too many failed sign-ins\. Try again in \d+ minutes?\./);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  test('the typed email is escaped when the form comes back', async () => {
    const res = await signIn({ email: `"><script>alert(1)</script>`, password: 'x' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body.includes('<script>alert(1)'), false);
    assert.ok(res.body.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
  });
});

describe('CSRF: every form that changes something needs the session’s token', () => {
  const forms = (): { name: string; url: string; fields: Record<string, string> }[] => [
    { name: 'create key', url: '/dashboard/keys', fields: { _once: formOnce(), label: 'csrf probe' } },
    { name: 'revoke key', url: `/dashboard/keys/${fx.owner.id}/revoke`, fields: {} },
    { name: 'set a key’s budget', url: `/dashboard/keys/${fx.owner.id}/rate-limit`, fields: { rateLimit: '77' } },
    { name: 'return a key to the default budget', url: `/dashboard/keys/${fx.owner.id}/rate-limit`, fields: { rateLimit: 'default' } },
    { name: 'log out', url: '/dashboard/logout', fields: {} },
    { name: 'delete webhook', url: `/dashboard/webhooks/${fx.webhook.id}/delete`, fields: {} },
    { name: 'pause webhook', url: `/dashboard/webhooks/${fx.webhook.id}/pause`, fields: {} },
  ];
  /** The fixture's webhook is still there and not paused. */
  const webhookKept = async () =>
    (await fx.database.db.selectFrom('webhooks').select('paused_at').where('id', '=', fx.webhook.id).executeTakeFirst())?.paused_at === null;

  test('missing, empty, near-miss, another session’s token: 403 page, nothing changed', async () => {
    const other = await createAdminCookie(fx.database.db);
    const tokens: [string, string | undefined][] = [
      ['missing', undefined],
      ['empty', ''],
      ['one character off', admin.csrfToken.slice(0, -1) + (admin.csrfToken.endsWith('A') ? 'B' : 'A')],
      ['truncated', admin.csrfToken.slice(0, -1)],
      ['another admin’s', other.csrfToken],
    ];
    for (const f of forms()) {
      for (const [what, token] of tokens) {
        const fields = token === undefined ? f.fields : { ...f.fields, _csrf: token };
        const res = await request({ method: 'POST', url: f.url, cookie: admin.cookie, payload: form(fields) });
        assert.equal(res.statusCode, 403, `${f.name}, ${what}`);
        assert.match(main(res.body), /The form was refused/);
        assertSecurityHeaders(res, `${f.name}, ${what}`);
      }
    }
    assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', 'csrf probe').execute()).length, 0);
    assert.equal((await getApiKey(fx.database.db, fx.owner.id))!.revokedAt, null);
    assert.equal((await getApiKey(fx.database.db, fx.owner.id))!.rateLimit, null, 'no budget set');
    assert.ok(await webhookKept());
    assert.equal((await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie })).statusCode, 200, 'still signed in');
  });

  test('a form without a session redirects to sign-in and changes nothing', async () => {
    for (const f of forms()) {
      const res = await request({ method: 'POST', url: f.url, payload: form({ ...f.fields, _csrf: admin.csrfToken }) });
      assert.equal(res.statusCode, 303, f.name);
      assert.equal(res.headers.location, '/dashboard/login');
    }
    assert.equal((await getApiKey(fx.database.db, fx.owner.id))!.revokedAt, null);
    assert.equal((await getApiKey(fx.database.db, fx.owner.id))!.rateLimit, null, 'no budget set');
    assert.ok(await webhookKept());
  });

  test('only small HTML forms are read: JSON is 415, a repeated or unknown field or an overlong label is 400', async () => {
    const cases = [
      { name: 'JSON body', payload: JSON.stringify({ _csrf: admin.csrfToken }), headers: { 'content-type': 'application/json' }, status: 415 },
      { name: 'repeated _csrf', payload: `_csrf=${admin.csrfToken}&_csrf=${admin.csrfToken}`, status: 400 },
      { name: 'unknown field', payload: form({ _csrf: admin.csrfToken, owner: 'x' }), status: 400 },
      { name: 'label over 200 characters', payload: form({ _csrf: admin.csrfToken, label: 'x'.repeat(201) }), status: 400 },
      { name: 'body over 8 KiB', payload: form({ _csrf: admin.csrfToken, label: 'x'.repeat(9000) }), status: 413 },
    ];
    for (const c of cases) {
      const res = await app().inject({ method: 'POST', url: '/dashboard/keys', payload: c.payload, headers: { cookie: admin.cookie, ...FORM, ...c.headers } });
      assert.equal(res.statusCode, c.status, c.name);
      assert.match(String(res.headers['content-type']), /^text\/html/, c.name);
      assert.match(main(res.body), /The request was refused/, c.name);
      assertSecurityHeaders(res, c.name);
    }
    // A 200-character label is fine (the near miss of the 201 above).
    const ok = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, _once: formOnce(), label: 'y'.repeat(200) }) });
    assert.equal(ok.statusCode, 201);
  });
});

describe('API keys', () => {
  test('create: the raw key is on the 201 page once, works on the API, and no later page shows it', async () => {
    const res = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, _once: formOnce(), label: `  build ${HOSTILE} ` }) });
    assert.equal(res.statusCode, 201);
    assertSecurityHeaders(res, 'the new key page');
    const rawKey = /<output class="key" id="raw-key"[^>]*>(ask_[A-Za-z0-9_-]{43})<\/output>/.exec(res.body)?.[1];
    assert.ok(rawKey, 'the raw key is on the page');
    secrets.push(rawKey);
    assert.equal(res.body.includes(HOSTILE), false, 'the label is escaped');
    assert.ok(res.body.includes('build &lt;script&gt;'));
    const api = await app().inject({ method: 'GET', url: '/api/v1/audits', headers: { 'x-api-key': rawKey } });
    assert.equal(api.statusCode, 200, 'the key authenticates');
    const overview = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    assert.equal(overview.body.includes(rawKey), false);
    assert.ok(overview.body.includes(`<code>${rawKey.slice(0, 8)}</code>`), 'listed by its display prefix');
    const stored = await fx.database.db.selectFrom('api_keys').selectAll().where('display', '=', rawKey.slice(0, 8)).executeTakeFirstOrThrow();
    assert.equal(stored.label, `build ${HOSTILE}`, 'label trimmed');
    assert.equal(JSON.stringify(stored).includes(rawKey), false, 'only the hash is stored');
  });

  test('the same form sent twice (a reload) makes one key and does not show it again: 409', async () => {
    const once = formOnce();
    const post = (session: TestAdmin, value = once) =>
      request({ method: 'POST', url: '/dashboard/keys', cookie: session.cookie, payload: form({ _csrf: session.csrfToken, _once: value, label: 'reloaded' }) });
    const first = await post(admin);
    assert.equal(first.statusCode, 201);
    const rawKey = /id="raw-key"[^>]*>([^<]+)</.exec(first.body)![1]!;
    secrets.push(rawKey);
    const again = await post(admin);
    assert.equal(again.statusCode, 409);
    assert.match(main(again.body), /This key was already created/);
    assert.equal(again.body.includes(rawKey), false);
    assert.equal(again.body.includes('ask_'), false, 'no key value at all');
    const count = async () => (await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', 'reloaded').execute()).length;
    assert.equal(await count(), 1);
    // Another submission id, or another session with the same one, is another form: another key.
    assert.equal((await post(admin, formOnce())).statusCode, 201);
    const other = await createAdminCookie(fx.database.db);
    assert.equal((await post(other)).statusCode, 201);
    assert.equal(await count(), 3);
  });

  test('a missing or malformed submission id is a 400 page and makes no key', async () => {
    for (const once of [undefined, '', 'short', 'x'.repeat(23), `${'a'.repeat(21)}!`]) {
      const fields: Record<string, string> = { _csrf: admin.csrfToken, label: 'no once' };
      if (once !== undefined) fields._once = once;
      const res = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form(fields) });
      assert.equal(res.statusCode, 400, String(once));
      assert.match(main(res.body), /The form is incomplete/);
    }
    assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', 'no once').execute()).length, 0);
  });

  test('a label with a control or text-direction character is a 400 page saying so, and makes no key; other Unicode is fine', async () => {
    const refused: [label: string, codePoint: string][] = [
      ['invoice \u202Efdp.exe', 'U+202E'],
      ['tab\there', 'U+0009'],
      ['two\nlines', 'U+000A'],
      ['\u001b[31mred', 'U+001B'],
      ['bell\u0007', 'U+0007'],
      ['c1\u009bcsi', 'U+009B'],
      ['isolate \u2067x', 'U+2067'],
    ];
    for (const [label, codePoint] of refused) {
      const res = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, _once: formOnce(), label }) });
      assert.equal(res.statusCode, 400, JSON.stringify(label));
      assertSecurityHeaders(res, 'the refused label page');
      assert.match(main(res.body), /The label was refused/);
      assert.match(main(res.body), /The label must not contain control or text-direction characters/);
      assert.ok(main(res.body).includes(`found ${codePoint}. No key was created`), codePoint);
      assert.equal(res.body.includes('ask_'), false, 'no key value at all');
      assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', label.trim()).execute()).length, 0, JSON.stringify(label));
    }
    for (const label of ['Zoë’s build – 東京 🚀', 'عربي ci', 'with  two  spaces']) {
      const res = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, _once: formOnce(), label }) });
      assert.equal(res.statusCode, 201, label);
      secrets.push(/id="raw-key"[^>]*>([^<]+)</.exec(res.body)![1]!);
      assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', label).execute()).length, 1, label);
    }
  });

  test('a blank label stores none', async () => {
    const res = await request({ method: 'POST', url: '/dashboard/keys', cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, _once: formOnce(), label: '   ' }) });
    assert.equal(res.statusCode, 201);
    assert.match(res.body, /<dt>Label<\/dt>\s*<dd>\(none\)<\/dd>/);
  });

  test('revoke: 303 back to the list, which says so; the key gets 401 at once; again says already revoked', async () => {
    const { id, rawKey } = await createApiKey(fx.database.db, 'to revoke');
    secrets.push(rawKey);
    const res = await request({ method: 'POST', url: `/dashboard/keys/${id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard?notice=key-revoked#keys');
    assertSecurityHeaders(res, 'revoke');
    const api = await app().inject({ method: 'GET', url: '/api/v1/audits', headers: { 'x-api-key': rawKey } });
    assert.equal(api.statusCode, 401);
    const list = await request({ method: 'GET', url: '/dashboard?notice=key-revoked', cookie: admin.cookie });
    assert.match(main(list.body), /The key is revoked: requests that carry it now get 401\./);
    assert.equal(list.body.includes(`/dashboard/keys/${id}/revoke`), false, 'no revoke button for a revoked key');
    const again = await request({ method: 'POST', url: `/dashboard/keys/${id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(again.headers.location, '/dashboard?notice=key-already-revoked#keys');
  });

  test('revoking an unknown or malformed id is a 404 page', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%3Cscript%3E']) {
      const res = await request({ method: 'POST', url: `/dashboard/keys/${id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
      assert.equal(res.statusCode, 404, id);
      assert.match(main(res.body), /Key not found/);
      assert.equal(res.body.includes('<script>'), false);
    }
  });

  test('audit budget: the list shows each key’s; set one (303, the list says so), the key’s answers carry it; back to default', async () => {
    const { id, rawKey } = await createApiKey(fx.database.db, 'budgeted');
    secrets.push(rawKey);
    const row = (body: string) => {
      const start = body.indexOf(`<th scope="row" id="key-${id}">`);
      return body.slice(start, body.indexOf('</tr>', start));
    };
    const before = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    // The fixture's default is AUDIT_RATE_LIMIT=1000 per 60 s.
    assert.match(main(before.body), /per 60-second window: its own, or the default of 1000 \(<code>AUDIT_RATE_LIMIT<\/code>\)/);
    assert.ok(main(before.body).includes('<th scope="col" id="budget-column">Audit budget</th>'));
    assert.match(row(before.body), /<span class="budget-now">default \(1000\)<\/span>/);
    assert.ok(row(before.body).includes(`<form class="budget-set" method="post" action="/dashboard/keys/${id}/rate-limit"><input type="hidden" name="_csrf" value="${admin.csrfToken}">`));
    assert.ok(row(before.body).includes(`aria-labelledby="budget-column key-${id}"`), 'labelled by its column and row headers');
    assert.equal(row(before.body).includes('Use default'), false, 'already on the default');

    const set = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, rateLimit: ' 3 ' }) });
    assert.equal(set.statusCode, 303);
    assert.equal(set.headers.location, '/dashboard?notice=key-budget-set#keys');
    assertSecurityHeaders(set, 'set budget');
    assert.equal((await getApiKey(fx.database.db, id))!.rateLimit, 3);
    const after = await request({ method: 'GET', url: '/dashboard?notice=key-budget-set', cookie: admin.cookie });
    assert.match(main(after.body), /The key’s audit budget is saved\. It applies from the key’s next request/);
    assert.match(row(after.body), /<span class="budget-now">3<\/span>/);
    assert.ok(row(after.body).includes('<input type="hidden" name="rateLimit" value="default"><button type="submit" class="secondary" aria-label="Use default budget for '));
    // The audit route's answers carry the key's figure (the fixture's limiter runs on the real clock, so only the policy is compared).
    const audit = await app().inject({ method: 'POST', url: '/api/v1/audit', headers: { 'x-api-key': rawKey, 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(audit.statusCode, 400);
    assert.equal(audit.headers['ratelimit-limit'], '3');
    assert.equal(audit.headers['ratelimit-policy'], '3;w=60');
    // The same value again is no change, and says the same.
    const same = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, rateLimit: '3' }) });
    assert.equal(same.headers.location, '/dashboard?notice=key-budget-set#keys');

    const reset = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, rateLimit: 'default' }) });
    assert.equal(reset.statusCode, 303);
    assert.equal(reset.headers.location, '/dashboard?notice=key-budget-default#keys');
    assert.equal((await getApiKey(fx.database.db, id))!.rateLimit, null);
    const list = await request({ method: 'GET', url: '/dashboard?notice=key-budget-default', cookie: admin.cookie });
    assert.match(main(list.body), /The key is on the default audit budget from its next request/);
    assert.match(row(list.body), /<span class="budget-now">default \(1000\)<\/span>/);
    const again = await app().inject({ method: 'POST', url: '/api/v1/audit', headers: { 'x-api-key': rawKey, 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(again.headers['ratelimit-policy'], '1000;w=60');
  });

  test('audit budget: a value that is not a whole number from 1 to 1,000,000 nor default is a 400 page, and nothing changes', async () => {
    const { id } = await createApiKey(fx.database.db, 'budget probe', 40);
    for (const value of ['', ' ', '0', '1000001', '1.5', '1e3', '-3', 'many', '<b>9</b>']) {
      const res = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, rateLimit: value }) });
      assert.equal(res.statusCode, 400, JSON.stringify(value));
      assertSecurityHeaders(res, 'the refused budget page');
      assert.match(main(res.body), /The budget was refused/);
      assert.match(main(res.body), /The audit budget must be a whole number from 1 to 1,000,000, or default\. Nothing was changed/);
      assert.equal(res.body.includes('<b>'), false, 'the value is not echoed');
    }
    // Without the field, or with it repeated or too long: the form is not read.
    for (const payload of [form({ _csrf: admin.csrfToken }), `_csrf=${admin.csrfToken}&rateLimit=5&rateLimit=6`, form({ _csrf: admin.csrfToken, rateLimit: '1'.repeat(21) })]) {
      const res = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload });
      assert.equal(res.statusCode, 400, payload);
    }
    assert.equal((await getApiKey(fx.database.db, id))!.rateLimit, 40);
  });

  test('audit budget: an unknown or malformed key id is a 404 page; a revoked key shows its budget without the forms', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await request({ method: 'POST', url: `/dashboard/keys/${id}/rate-limit`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken, rateLimit: '5' }) });
      assert.equal(res.statusCode, 404, id);
      assert.match(main(res.body), /Key not found/);
    }
    const { id } = await createApiKey(fx.database.db, 'revoked with a budget', 9);
    await request({ method: 'POST', url: `/dashboard/keys/${id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    const list = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    const start = list.body.indexOf(`<th scope="row" id="key-${id}">`);
    const row = list.body.slice(start, list.body.indexOf('</tr>', start));
    assert.match(row, /<td>9<\/td>/);
    assert.equal(row.includes('<form'), false, 'no form for a revoked key');
  });

  test('an unknown notice shows nothing: only the fixed messages can be asked for', async () => {
    const res = await request({ method: 'GET', url: `/dashboard?notice=${encodeURIComponent('<b>phish</b>')}`, cookie: admin.cookie });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body.includes('phish'), false);
    assert.equal(res.body.includes('class="notice"'), false);
  });
});

describe('webhooks of a revoked key', () => {
  /** A key with a registration and one delivery waiting for a later retry (not due: the worker leaves it). */
  async function keyWithPendingDelivery(label: string) {
    const key = await createApiKey(fx.database.db, label);
    const registered = await app().inject({
      method: 'POST',
      url: '/api/v1/alerts/webhook',
      headers: { 'x-api-key': key.rawKey },
      payload: { url: fx.service.pageUrl(`/receiver?for=${label}`), trigger: { severity: 'medium', branch: 'privacy' } },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const webhookId = registered.json().id as string;
    const { id: auditId } = await fx.database.db.selectFrom('audits').select('id').executeTakeFirstOrThrow();
    const deliveryId = randomUUID();
    await fx.database.db
      .insertInto('webhook_deliveries')
      .values({ id: deliveryId, webhook_id: webhookId, audit_id: auditId, event: '{}', next_attempt_at: new Date(Date.now() + 3_600_000) })
      .execute();
    return { key, webhookId, deliveryId };
  }
  const deliveriesOf = (webhookId: string) =>
    fx.database.db.selectFrom('webhook_deliveries').select(['id', 'state']).where('webhook_id', '=', webhookId).orderBy('created_at').execute();

  test('revoking the key fails its pending delivery (“API key revoked”, nothing sent); its audits queue nothing more', async () => {
    const { key, webhookId, deliveryId } = await keyWithPendingDelivery('revoked-owner');
    const other = await keyWithPendingDelivery('other-owner');
    const sentBefore = fx.service.fixture.requests.length;
    const res = await request({ method: 'POST', url: `/dashboard/keys/${key.id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(res.statusCode, 303);
    const list = await request({ method: 'GET', url: '/dashboard?notice=key-revoked', cookie: admin.cookie });
    assert.match(main(list.body), /Its webhooks send nothing more/);

    assert.deepEqual(await deliveriesOf(webhookId), [{ id: deliveryId, state: 'failed' }]);
    assert.deepEqual(await deliveriesOf(other.webhookId), [{ id: other.deliveryId, state: 'pending' }], 'another key’s delivery is untouched');
    const page = main((await request({ method: 'GET', url: `/dashboard/webhooks/${webhookId}`, cookie: admin.cookie })).body);
    assert.match(page, /<span class="failed">failed<\/span><br>API key revoked/);
    assert.equal(page.includes('/resend'), false, 'no Resend: a revoked key’s deliveries are never sent');
    assert.match(page, /<td>Key revoked: not resent<\/td>/);
    const attemptId = (await fx.database.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', deliveryId).executeTakeFirstOrThrow()).id;
    const resend = await request({ method: 'POST', url: `/dashboard/webhooks/${webhookId}/attempts/${attemptId}/resend`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(resend.statusCode, 409);
    assert.match(main(resend.body), /The webhook’s key is revoked/);
    assert.deepEqual(await deliveriesOf(webhookId), [{ id: deliveryId, state: 'failed' }], 'nothing requeued');

    const audit = await app().inject({ method: 'POST', url: '/api/v1/audit', headers: { 'x-api-key': key.rawKey }, payload: { branch: 'privacy', url: fx.service.pageUrl('/tracked') } });
    assert.equal(audit.statusCode, 401);
    assert.equal((await deliveriesOf(webhookId)).length, 1, 'nothing queued');
    assert.equal(fx.service.fixture.requests.length, sentBefore, 'nothing sent');
  });

  test('an admin deletes any key’s webhook from its page: 303 to the overview, which says so; gone with its deliveries', async () => {
    const { key, webhookId } = await keyWithPendingDelivery('deleted-hook');
    await request({ method: 'POST', url: `/dashboard/keys/${key.id}/revoke`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    const page = await request({ method: 'GET', url: `/dashboard/webhooks/${webhookId}`, cookie: admin.cookie });
    assert.ok(main(page.body).includes(`<form method="post" action="/dashboard/webhooks/${webhookId}/delete"><input type="hidden" name="_csrf" value="${admin.csrfToken}">`));

    const res = await request({ method: 'POST', url: `/dashboard/webhooks/${webhookId}/delete`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard?notice=webhook-deleted#webhooks');
    assertSecurityHeaders(res, 'delete webhook');
    const overview = await request({ method: 'GET', url: '/dashboard?notice=webhook-deleted', cookie: admin.cookie });
    assert.match(main(overview.body), /The webhook is deleted, with its pending deliveries and its attempts\./);
    assert.equal(overview.body.includes(`/dashboard/webhooks/${webhookId}`), false);
    assert.deepEqual(await deliveriesOf(webhookId), []);
    assert.equal((await request({ method: 'GET', url: `/dashboard/webhooks/${webhookId}`, cookie: admin.cookie })).statusCode, 404);
  });

  test('pause: nothing is sent to the webhook, new audits’ events wait; resume: they are sent', async () => {
    const key = await createApiKey(fx.database.db, 'paused-owner');
    const path = '/receiver?for=paused';
    const registered = await app().inject({
      method: 'POST',
      url: '/api/v1/alerts/webhook',
      headers: { 'x-api-key': key.rawKey },
      payload: { url: fx.service.pageUrl(path), trigger: { severity: 'medium', branch: 'privacy' } },
    });
    const webhookId = registered.json().id as string;
    const events = () => fx.service.fixture.requests.filter((r) => r.path === path && JSON.parse(r.body).type === 'svc.audit.failure');

    const paused = await request({ method: 'POST', url: `/dashboard/webhooks/${webhookId}/pause`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(paused.statusCode, 303);
    assert.equal(paused.headers.location, `/dashboard/webhooks/${webhookId}?notice=paused`);
    const page = main((await request({ method: 'GET', url: paused.headers.location, cookie: admin.cookie })).body);
    assert.match(page, /The webhook is paused: nothing is sent to it until it is resumed\./);
    assert.match(page, /Paused since <time/);
    assert.match(page, /Resume deliveries/);

    const audit = await app().inject({ method: 'POST', url: '/api/v1/audit', headers: { 'x-api-key': key.rawKey }, payload: { branch: 'privacy', url: fx.service.pageUrl('/tracked') } });
    assert.equal(audit.statusCode, 201);
    assert.equal(await fx.service.app.deliveryWorker!.drain(), 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual((await deliveriesOf(webhookId)).map((d) => d.state), ['pending'], 'queued, waiting');
    assert.equal(events().length, 0, 'nothing sent while paused');

    const resumed = await request({ method: 'POST', url: `/dashboard/webhooks/${webhookId}/resume`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
    assert.equal(resumed.statusCode, 303);
    assert.equal(resumed.headers.location, `/dashboard/webhooks/${webhookId}?notice=resumed`);
    const deadline = Date.now() + 10_000;
    while ((await deliveriesOf(webhookId))[0]!.state !== 'delivered') {
      assert.ok(Date.now() < deadline, 'delivered after the resume');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(events().length, 1);
    assert.match(main((await request({ method: 'GET', url: `/dashboard/webhooks/${webhookId}`, cookie: admin.cookie })).body), /Pause deliveries/);
  });

  test('deleting, pausing or resuming an unknown or malformed webhook is a 404 page', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      for (const action of ['delete', 'pause', 'resume']) {
        const res = await request({ method: 'POST', url: `/dashboard/webhooks/${id}/${action}`, cookie: admin.cookie, payload: form({ _csrf: admin.csrfToken }) });
        assert.equal(res.statusCode, 404, `${action} ${id}`);
        assert.match(main(res.body), /Webhook not found/);
      }
    }
  });
});

describe('what the overview and the webhook page show', () => {
  test('the webhook with its latest attempt and owner key; everything from the database escaped', async () => {
    const res = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    const body = main(res.body);
    const url = fx.webhook.url.replaceAll('&', '&amp;');
    assert.ok(body.includes(`<th scope="row" class="url">${url}</th>`), 'the URL, & escaped');
    assert.match(body, /<span class="delivered">delivered<\/span>\s*HTTP 200/);
    const display = (await getApiKey(fx.database.db, fx.owner.id))!.display;
    assert.ok(body.includes(`<code>${display}</code><br>ops &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;`));
    assert.equal(res.body.includes('<script'), false, 'no markup from data anywhere');
    assert.equal(res.body.includes('<img'), false);
    assert.ok(body.includes(`href="/dashboard/webhooks/${fx.webhook.id}"`));
    // No secret of the registration: not the challenge, not the owner's raw key.
    const { challenge } = await fx.database.db.selectFrom('webhooks').select('challenge').where('id', '=', fx.webhook.id).executeTakeFirstOrThrow();
    assert.equal(res.body.includes(challenge!), false);
    assert.equal(res.body.includes(fx.owner.rawKey), false);
  });

  test('recent audits: one row per origin, the newest audit of each pillar, “not audited” where there is none; the origin links its history, the totals their audit', async () => {
    const res = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    const origin = new URL(fx.webhook.url).origin;
    const history = `/dashboard/origins/${encodeURIComponent(origin)}`;
    const audit = '<a href="/dashboard/audits/([0-9a-f-]{36})">';
    const row = new RegExp(
      `<th scope="row" class="url"><a href="${history}" aria-label="History of ${origin}">${origin}</a></th>\\s*<td>not audited</td>\\s*` +
        `<td>${audit}(\\d+) errors?, (\\d+) warnings? \\((\\d+) inconclusive\\)</a><br><time[^>]*>[^<]+</time></td>\\s*` +
        `<td>${audit}0 errors, (\\d+) warnings? \\(0 inconclusive\\)</a>`,
    ).exec(res.body);
    assert.ok(row, 'WCAG not audited, privacy and ai-governance with their totals');
    const newest = (branch: string) => fx.database.db.selectFrom('audits').where('branch', '=', branch).where('origin', '=', origin).orderBy('created_at', 'desc').limit(1);
    const privacy = await newest('privacy').select(['id', 'errors', 'warnings', 'inconclusive']).executeTakeFirstOrThrow();
    const governance = await newest('ai-governance').select('id').executeTakeFirstOrThrow();
    assert.deepEqual(row.slice(2, 5).map(Number), [privacy.errors, privacy.warnings, privacy.inconclusive]);
    assert.deepEqual([row[1], row[5]], [privacy.id, governance.id], 'each pillar links its audit');
  });

  test('the webhook page lists its attempts, the receiver’s answer as text', async () => {
    const res = await request({ method: 'GET', url: `/dashboard/webhooks/${fx.webhook.id}`, cookie: admin.cookie });
    assert.equal(res.statusCode, 200);
    assertSecurityHeaders(res, 'the webhook page');
    const body = main(res.body);
    assert.match(body, /<span class="delivered">delivered<\/span> HTTP 200/);
    assert.ok(body.includes('<td class="url">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</td>'));
    assert.equal(res.body.includes('<script'), false);
    assert.equal(res.body.includes('Older attempts'), false, 'one page only');
  });

  test('the webhook page: unknown id, malformed id, foreign cursor → 404 page', async () => {
    const cases = ['/dashboard/webhooks/00000000-0000-4000-8000-000000000000', '/dashboard/webhooks/nope', `/dashboard/webhooks/${fx.webhook.id}?cursor=garbage`];
    for (const url of cases) {
      const res = await request({ method: 'GET', url, cookie: admin.cookie });
      assert.equal(res.statusCode, 404, url);
      assert.match(main(res.body), /Webhook not found/);
    }
  });
});

describe('open tickets and the report form', () => {
  test('the open tickets of the failing audits are listed, errors first', async () => {
    const res = await request({ method: 'GET', url: '/dashboard', cookie: admin.cookie });
    const section = res.body.slice(res.body.indexOf('id="tickets"'), res.body.indexOf('id="report"'));
    const rows = [...section.matchAll(/<tr>\s*<td class="url">([^<]+)<\/td>\s*<td>([^<]+)<\/td>\s*<th scope="row"><code>([^<]+)<\/code><br><span class="requirement">[^<]*<\/span><\/th>\s*<td>(error|warning)<\/td>/g)];
    const stored = await fx.database.db.selectFrom('remediation_tickets').select(['origin', 'branch', 'control', 'severity']).where('status', '=', 'open').execute();
    assert.ok(stored.some((t) => t.branch === 'privacy' && t.severity === 'error'), 'the privacy audit opened error tickets');
    const name: Record<string, string> = { privacy: 'Privacy', 'ai-governance': 'AI governance', wcag: 'Accessibility (WCAG)' };
    assert.deepEqual(
      rows.map((row) => `${row[1]} ${row[2]} ${row[3]} ${row[4]}`).sort(),
      stored.map((t) => `${t.origin} ${name[t.branch]} ${t.control} ${t.severity}`).sort(),
    );
    const severities = rows.map((row) => row[4]);
    assert.deepEqual(severities, [...severities].sort(), 'errors before warnings');
  });

  test('an unreadable target: 400, the overview with the reason beside the form and the target kept (escaped)', async () => {
    for (const target of ['http://site.test/', 'ftp://site.test', 'https://user:pw@site.test/', '   ', '"><script>x</script>']) {
      const res = await request({ method: 'GET', url: `/dashboard/report?target=${encodeURIComponent(target)}`, cookie: admin.cookie });
      assert.equal(res.statusCode, 400, target);
      assert.match(main(res.body), /<p class="error" id="report-error" role="alert">Enter a domain such as example.com or an https URL: this one [^<]+\.<\/p>/, target);
      assert.equal(res.body.includes('<script>x'), false);
      assertSecurityHeaders(res, target);
    }
  });

  test('a pillar without an audit: 404 naming it; then, with all three, the PDF the API route gives', async () => {
    const origin = new URL(fx.webhook.url).origin;
    const host = new URL(origin).host; // with the fixture's port
    const missing = await request({ method: 'GET', url: `/dashboard/report?target=${encodeURIComponent(host)}`, cookie: admin.cookie });
    assert.equal(missing.statusCode, 404);
    assert.ok(main(missing.body).includes(`No report for ${origin} yet: it has no audit in Accessibility (WCAG). Audit it in every pillar first.`));
    assert.ok(missing.body.includes(`value="${host}"`), 'the target stays in the field');

    const audited = await app().inject({
      method: 'POST',
      url: '/api/v1/audit',
      headers: { 'x-api-key': fx.owner.rawKey },
      payload: { branch: 'wcag', url: fx.service.pageUrl('/governed') },
    });
    assert.equal(audited.statusCode, 201);
    for (const target of [host, `${origin}/any/page?q=1`, `HTTPS://${host.toUpperCase()}`]) {
      const res = await request({ method: 'GET', url: `/dashboard/report?target=${encodeURIComponent(target)}`, cookie: admin.cookie });
      assert.equal(res.statusCode, 200, target);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="svc-audit-site.test.pdf"');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
      const pdf = await readPdf(res.rawPayload);
      assert.equal(pdf.pages, 1);
      assert.ok(pdf.text.includes(origin), 'the report names the origin');
      // The API route's PDF for the same origin says the same, but for its generation time.
      const api = await app().inject({ method: 'GET', url: `/api/v1/audit/report?domain=${encodeURIComponent(host)}`, headers: { cookie: admin.cookie } });
      assert.equal(api.statusCode, 200);
      const withoutTime = (text: string) => text.replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?( UTC|Z)?/g, '<time>');
      assert.equal(withoutTime(pdf.text), withoutTime((await readPdf(api.rawPayload)).text));
    }
  });

  test('the report form is an admin’s: no session redirects, a member gets the 403 page', async () => {
    const member = await createAdminCookie(fx.database.db, { role: 'member' });
    assert.equal((await request({ method: 'GET', url: '/dashboard/report?target=site.test' })).statusCode, 303);
    assert.equal((await request({ method: 'GET', url: '/dashboard/report?target=site.test', cookie: member.cookie })).statusCode, 403);
  });
});

describe('log out', () => {
  test('ends the session and clears the cookie; the old cookie no longer opens the dashboard', async () => {
    const session = await createAdminCookie(fx.database.db);
    const res = await request({ method: 'POST', url: '/dashboard/logout', cookie: session.cookie, payload: form({ _csrf: session.csrfToken }) });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/login');
    const cleared = parseSetCookie(String(res.headers['set-cookie']));
    assert.equal(cleared.name, 'svc_session');
    assert.equal(cleared.value, '');
    const after = await request({ method: 'GET', url: '/dashboard', cookie: session.cookie });
    assert.equal(after.statusCode, 303);
    // Without a session, log out is a no-op that still lands on the sign-in page.
    const again = await request({ method: 'POST', url: '/dashboard/logout', payload: form({}) });
    assert.equal(again.statusCode, 303);
    assert.equal(again.headers.location, '/dashboard/login');
  });
});
