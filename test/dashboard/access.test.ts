// Who may open what: every dashboard route (as the OpenAPI description lists them, so a new route
// without a row here fails) against no session, a member's and an admin's, each with the status
// it must answer. Then what a member's overview leaves out, that a member's posts to admin forms
// change nothing (with the member's own valid CSRF token: refused for the role, not the token), and
// that the admin-only JSON routes stay `403 {"error":"forbidden"}` for members.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { FORM, form, formOnce, startDashboardFixture, type DashboardFixture } from './support.ts';

let fx: DashboardFixture;
let admin: TestAdmin;
let member: TestAdmin;
let auditId: string;
let origin: string;

before(async () => {
  fx = await startDashboardFixture();
  admin = await createAdminCookie(fx.database.db);
  member = await createAdminCookie(fx.database.db, { role: 'member' });
  ({ id: auditId, origin } = await fx.database.db.selectFrom('audits').select(['id', 'origin']).where('branch', '=', 'privacy').executeTakeFirstOrThrow());
});
after(async () => {
  assert.deepEqual(fx.service.logs.filter((line) => Number(line.level) >= 50), [], 'no page failed');
  await fx?.close();
});

type Role = 'none' | 'member' | 'admin';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

interface Row {
  /** As the OpenAPI description names the route. */
  route: string;
  /** The request made for it. */
  url: () => string;
  /** A form post, with the role's own CSRF token added. */
  fields?: () => Record<string, string>;
  expect: Record<Role, number>;
}

/**
 * Admin forms are sent at unknown ids (a 404 proves the admin got through without changing
 * anything); the member's 403 comes before the id is looked at.
 */
const ROWS: Row[] = [
  { route: 'GET /dashboard/login', url: () => '/dashboard/login', expect: { none: 200, member: 303, admin: 303 } },
  { route: 'GET /dashboard', url: () => '/dashboard', expect: { none: 303, member: 200, admin: 200 } },
  { route: 'GET /dashboard/audits/{id}', url: () => `/dashboard/audits/${auditId}`, expect: { none: 303, member: 200, admin: 200 } },
  { route: 'GET /dashboard/audits/{id}', url: () => `/dashboard/audits/${UNKNOWN}`, expect: { none: 303, member: 404, admin: 404 } },
  { route: 'GET /dashboard/origins/{origin}', url: () => `/dashboard/origins/${encodeURIComponent(origin)}`, expect: { none: 303, member: 200, admin: 200 } },
  { route: 'GET /dashboard/origins/{origin}', url: () => `/dashboard/origins/${encodeURIComponent('http://site.test')}`, expect: { none: 303, member: 400, admin: 400 } },
  { route: 'GET /dashboard/monitors', url: () => '/dashboard/monitors', expect: { none: 303, member: 200, admin: 200 } },
  { route: 'POST /dashboard/monitors/{id}/pause', url: () => `/dashboard/monitors/${UNKNOWN}/pause`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/monitors/{id}/resume', url: () => `/dashboard/monitors/${UNKNOWN}/resume`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/monitors/{id}/delete', url: () => `/dashboard/monitors/${UNKNOWN}/delete`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'GET /dashboard/webhooks/{id}', url: () => `/dashboard/webhooks/${fx.webhook.id}`, expect: { none: 303, member: 403, admin: 200 } },
  { route: 'POST /dashboard/webhooks/{id}/pause', url: () => `/dashboard/webhooks/${UNKNOWN}/pause`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/webhooks/{id}/resume', url: () => `/dashboard/webhooks/${UNKNOWN}/resume`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/webhooks/{id}/delete', url: () => `/dashboard/webhooks/${UNKNOWN}/delete`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  {
    route: 'POST /dashboard/webhooks/{id}/attempts/{deliveryId}/resend',
    url: () => `/dashboard/webhooks/${fx.webhook.id}/attempts/${UNKNOWN}/resend`,
    fields: () => ({}),
    expect: { none: 303, member: 403, admin: 404 },
  },
  { route: 'GET /dashboard/report', url: () => `/dashboard/report?target=${encodeURIComponent(origin)}`, expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/keys', url: () => '/dashboard/keys', fields: () => ({ _once: formOnce(), label: 'access table' }), expect: { none: 303, member: 403, admin: 201 } },
  { route: 'POST /dashboard/keys/{id}/revoke', url: () => `/dashboard/keys/${UNKNOWN}/revoke`, fields: () => ({}), expect: { none: 303, member: 403, admin: 404 } },
  { route: 'POST /dashboard/keys/{id}/rate-limit', url: () => `/dashboard/keys/${UNKNOWN}/rate-limit`, fields: () => ({ rateLimit: '50' }), expect: { none: 303, member: 403, admin: 404 } },
  // Ends the session: each role's request uses a session of its own.
  { route: 'POST /dashboard/logout', url: () => '/dashboard/logout', fields: () => ({}), expect: { none: 303, member: 303, admin: 303 } },
  // Refused as a forged sign-in (no sign-in page's token) whoever is signed in: see signin-forgery.test.ts.
  { route: 'POST /dashboard/login', url: () => '/dashboard/login', fields: () => ({ email: 'x@example.test', password: 'x' }), expect: { none: 403, member: 403, admin: 403 } },
];

async function send(row: Row, role: Role) {
  const session = role === 'none' ? undefined : row.route === 'POST /dashboard/logout' ? await createAdminCookie(fx.database.db, { role }) : role === 'admin' ? admin : member;
  const headers: Record<string, string> = session ? { cookie: session.cookie } : {};
  if (!row.fields) return fx.service.app.inject({ method: 'GET', url: row.url(), headers });
  const fields = { ...row.fields(), ...(session && row.route !== 'POST /dashboard/login' ? { _csrf: session.csrfToken } : {}) };
  return fx.service.app.inject({ method: 'POST', url: row.url(), headers: { ...headers, ...FORM }, payload: form(fields) });
}

describe('every dashboard route × role', () => {
  test('the table covers every dashboard route in the OpenAPI description', async () => {
    const spec = (await fx.service.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/dashboard'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    assert.deepEqual([...new Set(ROWS.map((row) => row.route))].sort(), documented.sort());
  });

  for (const role of ['none', 'member', 'admin'] as const) {
    test(`${role === 'none' ? 'no session' : `a ${role}’s session`}: each route’s status`, async () => {
      const answered: string[] = [];
      const expected: string[] = [];
      for (const row of ROWS) {
        const res = await send(row, role);
        answered.push(`${row.route} (${row.url()}) ${res.statusCode}`);
        expected.push(`${row.route} (${row.url()}) ${row.expect[role]}`);
        if (res.statusCode === 303 && row.expect[role] === 303 && role === 'none' && row.route !== 'POST /dashboard/logout') assert.equal(res.headers.location, '/dashboard/login');
        if (res.statusCode === 403 && role === 'member' && row.route !== 'POST /dashboard/login') {
          assert.match(res.body, /<h1>This page is for admins<\/h1>/, row.route);
        }
      }
      assert.deepEqual(answered, expected);
    });
  }
});

describe('a member', () => {
  const memberPage = async (url: string) => {
    const res = await fx.service.app.inject({ method: 'GET', url, headers: { cookie: member.cookie } });
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };

  test('sees the overview without API keys, the report form, webhook paths, owner keys or any form but log out', async () => {
    const body = await memberPage('/dashboard');
    const keys = await fx.database.db.selectFrom('api_keys').select(['display', 'label']).execute();
    for (const key of keys) assert.equal(body.includes(key.display), false, `no key display (${key.display})`);
    assert.equal(body.includes('id="keys"'), false, 'no API keys section');
    assert.equal(body.includes('id="report"'), false, 'no report form');
    assert.deepEqual([...body.matchAll(/<form [^>]*action="([^"]+)"/g)].map((m) => m[1]), ['/dashboard/logout'], 'no form but log out');
    assert.equal(/href="\/dashboard#(keys|report)"/.test(body), false, 'no link to sections it cannot see');
    assert.equal(body.includes('/dashboard/webhooks/'), false, 'no link to webhook pages');
    // The webhook: its origin only, never its path and query (where receivers keep their secrets).
    const { origin: hookOrigin, pathname } = new URL(fx.webhook.url);
    assert.ok(body.includes(`<th scope="row" class="url">${hookOrigin}/…</th>`));
    assert.equal(body.includes(pathname), false);
    assert.equal(body.includes('team=a'), false);
    assert.match(body, /<span class="delivered">delivered<\/span>/, 'the latest attempt’s outcome');
    // What a member is there for: the audits and tickets, with their links.
    assert.ok(body.includes(`<a href="/dashboard/origins/${encodeURIComponent(origin)}"`));
    assert.ok(body.includes(`<a href="/dashboard/audits/${auditId}">`));
    assert.match(body, /<h2 id="tickets">Open remediation tickets<\/h2>/);
    assert.match(body, /last <a href="\/dashboard\/audits\/[0-9a-f-]{36}"><time/);
    assert.equal(body.includes(fx.owner.rawKey), false);
  });

  test('opens an audit and an origin’s history, with no form but log out', async () => {
    for (const url of [`/dashboard/audits/${auditId}`, `/dashboard/origins/${encodeURIComponent(origin)}`]) {
      const body = await memberPage(url);
      assert.deepEqual([...body.matchAll(/<form [^>]*action="([^"]+)"/g)].map((m) => m[1]), ['/dashboard/logout'], url);
    }
  });

  test('signing in as a member lands on the overview', async () => {
    const page = await fx.service.app.inject({ method: 'GET', url: '/dashboard/login', headers: { cookie: member.cookie } });
    assert.equal(page.statusCode, 303);
    assert.equal(page.headers.location, '/dashboard');
  });

  test('posts to admin forms with its own valid token: 403, and nothing changes', async () => {
    const key = await createApiKey(fx.database.db, 'member target');
    const { id: attemptId } = await fx.database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', fx.webhook.id).executeTakeFirstOrThrow();
    const posts = [
      [`/dashboard/keys/${key.id}/revoke`, {}],
      [`/dashboard/keys/${key.id}/rate-limit`, { rateLimit: '500' }],
      ['/dashboard/keys', { _once: formOnce(), label: 'made by a member' }],
      [`/dashboard/webhooks/${fx.webhook.id}/pause`, {}],
      [`/dashboard/webhooks/${fx.webhook.id}/attempts/${attemptId}/resend`, {}],
      [`/dashboard/webhooks/${fx.webhook.id}/delete`, {}],
    ] as const;
    const deliveries = async () => fx.database.db.selectFrom('webhook_deliveries').select(['id', 'state', 'attempts']).where('webhook_id', '=', fx.webhook.id).execute();
    const before = await deliveries();
    for (const [url, fields] of posts) {
      const res = await fx.service.app.inject({ method: 'POST', url, headers: { cookie: member.cookie, ...FORM }, payload: form({ _csrf: member.csrfToken, ...fields }) });
      assert.equal(res.statusCode, 403, url);
    }
    const stored = await fx.database.db.selectFrom('api_keys').select(['revoked_at', 'rate_limit']).where('id', '=', key.id).executeTakeFirstOrThrow();
    assert.equal(stored.revoked_at, null, 'not revoked');
    assert.equal(stored.rate_limit, null, 'no budget of its own');
    assert.equal((await fx.database.db.selectFrom('api_keys').select('id').where('label', '=', 'made by a member').execute()).length, 0, 'no key made');
    const webhook = await fx.database.db.selectFrom('webhooks').select('paused_at').where('id', '=', fx.webhook.id).executeTakeFirst();
    assert.ok(webhook, 'not deleted');
    assert.equal(webhook.paused_at, null, 'not paused');
    assert.deepEqual(await deliveries(), before, 'nothing resent');
  });

  test('the admin-only JSON routes stay 403 {"error":"forbidden"}; the session route answers the member', async () => {
    for (const url of ['/api/v1/alerts/webhooks', `/api/v1/audit/report?domain=${encodeURIComponent(new URL(origin).host)}`]) {
      const res = await fx.service.app.inject({ method: 'GET', url, headers: { cookie: member.cookie } });
      assert.equal(res.statusCode, 403, url);
      assert.deepEqual(res.json(), { error: 'forbidden' });
    }
    const session = await fx.service.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: member.cookie } });
    assert.equal(session.statusCode, 200);
    assert.equal(session.json().role, 'member');
  });
});
