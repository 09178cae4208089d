// The monitors page: every key's monitors with interval, next run and last outcome (linked to its
// audit); an admin's pause, resume and delete forms (CSRF-checked) change any key's monitor; a
// member sees the list without keys or forms and cannot post them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { FORM, form, startDashboardFixture, type DashboardFixture } from './support.ts';

let fx: DashboardFixture;
let admin: TestAdmin;
let member: TestAdmin;

before(async () => {
  fx = await startDashboardFixture();
  admin = await createAdminCookie(fx.database.db);
  member = await createAdminCookie(fx.database.db, { role: 'member' });
});
after(async () => {
  assert.deepEqual(fx.service.logs.filter((line) => Number(line.level) >= 50), [], 'no page failed');
  await fx?.close();
});

async function createMonitor(path: string, every = '6h'): Promise<string> {
  const response = await fx.service.app.inject({
    method: 'POST',
    url: '/api/v1/monitors',
    headers: { 'x-api-key': fx.owner.rawKey, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: fx.service.pageUrl(path), every }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().id;
}

const open = (session: TestAdmin, url = '/dashboard/monitors') => fx.service.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
const post = (session: TestAdmin, url: string, fields: Record<string, string>) =>
  fx.service.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, ...FORM }, payload: form(fields) });
const pausedAt = async (id: string) => (await fx.database.db.selectFrom('monitors').select('paused_at').where('id', '=', id).executeTakeFirst())?.paused_at;

describe('the list', () => {
  test('an admin sees each monitor with its key, interval, next run, and its last run linked to the audit', async () => {
    const id = await createMonitor('/tracked');
    // Run it now through the server's own scheduler: its slot is moved to the past first. The
    // scheduler's background loop may claim the slot before drain() does (a race CI met on
    // PostgreSQL); drain() waits for this process's runs either way, so the audit is there after it.
    await fx.database.db.updateTable('monitors').set({ next_run_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
    await fx.service.app.monitorScheduler!.drain();
    const run = await fx.database.db.selectFrom('audits').select('id').where('monitor_id', '=', id).executeTakeFirst();
    assert.ok(run !== undefined, 'the monitor ran once its slot was due');
    const res = await open(admin);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`<a href="/dashboard/audits/${run.id}"[^>]*>audited</a>`));
    assert.ok(res.body.includes('<td>6h</td>'));
    assert.ok(res.body.includes('<code>'), 'the owner key’s display form');
    assert.ok(!res.body.includes('<script>alert'), 'the key’s hostile label is escaped');
    assert.ok(res.body.includes(`action="/dashboard/monitors/${id}/pause"`));
    assert.ok(res.body.includes(`action="/dashboard/monitors/${id}/delete"`));
  });

  test('a member sees the monitors without owner keys or forms', async () => {
    const id = await createMonitor('/governed');
    const res = await open(member);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(fx.service.pageUrl('/governed')));
    assert.ok(!res.body.includes('Owner key'));
    assert.ok(!res.body.includes(`/dashboard/monitors/${id}/`), 'no form');
  });
});

describe('the forms', () => {
  test('pause, resume, delete: each redirects to the page, which says so', async () => {
    const id = await createMonitor('/governed', '1d');
    const paused = await post(admin, `/dashboard/monitors/${id}/pause`, { _csrf: admin.csrfToken });
    assert.equal(paused.statusCode, 303);
    assert.equal(paused.headers.location, '/dashboard/monitors?notice=paused');
    assert.ok(await pausedAt(id));
    assert.match((await open(admin, paused.headers.location)).body, /The monitor is paused/);
    assert.ok((await open(admin)).body.includes(`action="/dashboard/monitors/${id}/resume"`));
    assert.equal((await post(admin, `/dashboard/monitors/${id}/resume`, { _csrf: admin.csrfToken })).statusCode, 303);
    assert.equal(await pausedAt(id), null);
    assert.equal((await post(admin, `/dashboard/monitors/${id}/delete`, { _csrf: admin.csrfToken })).headers.location, '/dashboard/monitors?notice=deleted');
    assert.equal(await pausedAt(id), undefined, 'deleted');
    assert.equal((await post(admin, `/dashboard/monitors/${id}/delete`, { _csrf: admin.csrfToken })).statusCode, 404);
  });

  test('a missing or wrong CSRF token, or a member’s session: 403 and nothing changes', async () => {
    const id = await createMonitor('/governed', '1d');
    for (const [session, fields] of [[admin, {}], [admin, { _csrf: 'wrong' }], [member, { _csrf: member.csrfToken }]] as const) {
      const res = await post(session, `/dashboard/monitors/${id}/pause`, fields);
      assert.equal(res.statusCode, 403);
      assert.equal(await pausedAt(id), null);
    }
  });
});
