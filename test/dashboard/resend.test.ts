// The dashboard's resend button on a webhook's attempts page: shown once per finished delivery, a
// POST form with the session's CSRF token; without it (or with another's), a 403 page and nothing
// requeued; with it, the delivery is sent again through the real worker and the page says so.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { FORM, form, startDashboardFixture, type DashboardFixture } from './support.ts';

let fx: DashboardFixture;
let admin: TestAdmin;

before(async () => {
  fx = await startDashboardFixture();
  admin = await createAdminCookie(fx.database.db);
});
after(async () => {
  assert.deepEqual(fx.service.logs.filter((line) => Number(line.level) >= 50), [], 'no page failed');
  await fx?.close();
});

/** Posts the form as a browser would, with the admin's cookie unless another (or null: none) is given. */
const post = (url: string, fields: Record<string, string>, cookie: string | null = admin.cookie) =>
  fx.service.app.inject({ method: 'POST', url, payload: form(fields), headers: { ...FORM, ...(cookie ? { cookie } : {}) } });
const page = () => fx.service.app.inject({ method: 'GET', url: `/dashboard/webhooks/${fx.webhook.id}`, headers: { cookie: admin.cookie } });
const delivery = () => fx.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', fx.webhook.id).executeTakeFirstOrThrow();
const attemptCount = async () => (await fx.database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', fx.webhook.id).execute()).length;

/** The resend forms on the page: their action and CSRF field. */
function resendForms(body: string) {
  return [...body.matchAll(/<form class="inline" method="post" action="([^"]+\/resend)"><input type="hidden" name="_csrf" value="([^"]*)">/g)].map((m) => ({ action: m[1]!, csrf: m[2]! }));
}

/** The page's one resend form. */
async function theForm() {
  const forms = resendForms((await page()).body);
  assert.equal(forms.length, 1);
  return forms[0]!;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('the attempts page offers one resend form per finished delivery, carrying the session’s CSRF token', async () => {
  const res = await page();
  assert.equal(res.statusCode, 200);
  const [attempt] = await fx.database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', fx.webhook.id).execute();
  assert.deepEqual(resendForms(res.body), [{ action: `/dashboard/webhooks/${fx.webhook.id}/attempts/${attempt!.id}/resend`, csrf: admin.csrfToken }]);
  assert.match(res.body, /<button type="submit" class="secondary" aria-label="Resend the event of audit [0-9a-f-]+ \(after try 1\)">Resend<\/button>/);
});

test('a missing, wrong or other session’s CSRF token: 403 page, nothing requeued; no session: to sign-in; a member: 403', async () => {
  const { action } = await theForm();
  const before = await delivery();
  const other = await createAdminCookie(fx.database.db);
  const member = await createAdminCookie(fx.database.db, { role: 'member' });
  for (const [why, fields] of [
    ['missing', {}],
    ['wrong', { _csrf: 'A'.repeat(admin.csrfToken.length) }],
    ['another admin’s', { _csrf: other.csrfToken }],
  ] as const) {
    const res = await post(action, fields);
    assert.equal(res.statusCode, 403, why);
    assert.match(res.body, /The form was refused/, why);
  }
  const memberRes = await post(action, { _csrf: member.csrfToken }, member.cookie);
  assert.equal(memberRes.statusCode, 403);
  const anonymous = await post(action, { _csrf: admin.csrfToken }, null);
  assert.equal(anonymous.statusCode, 303);
  assert.equal(anonymous.headers.location, '/dashboard/login');
  assert.deepEqual(await delivery(), before, 'nothing requeued');
  assert.equal(await attemptCount(), 1);
});

test('the button resends: redirect to the page with a notice, a new try appended and shown', async () => {
  const { action, csrf } = await theForm();
  const res = await post(action, { _csrf: csrf });
  assert.equal(res.statusCode, 303, res.body);
  assert.equal(res.headers.location, `/dashboard/webhooks/${fx.webhook.id}?notice=resent#attempts`);
  await until('the resent try', async () => (await attemptCount()) === 2 && (await delivery()).state === 'delivered');
  const shown = await fx.service.app.inject({ method: 'GET', url: res.headers.location!.replace('#attempts', ''), headers: { cookie: admin.cookie } });
  assert.match(shown.body, /<p class="notice" role="status">The event is queued to be sent again/);
  assert.equal((shown.body.match(/<span class="delivered">delivered<\/span>/g) ?? []).length, 2);
  const forms = resendForms(shown.body);
  assert.equal(forms.length, 1, 'one form per delivery: on its newest try');
  const newest = await fx.database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', fx.webhook.id).where('attempt_number', '=', 2).executeTakeFirstOrThrow();
  assert.ok(forms[0]!.action.includes(newest.id));
});

test('a pending delivery is a 409 page and shows no form; unknown or malformed ids are a 404 page', async () => {
  const { action } = await theForm();
  const { id } = await delivery();
  await fx.database.db.updateTable('webhook_deliveries').set({ state: 'pending', next_attempt_at: new Date(Date.now() + 86_400_000) }).where('id', '=', id).execute();
  try {
    const before = await delivery();
    const res = await post(action, { _csrf: admin.csrfToken });
    assert.equal(res.statusCode, 409);
    assert.match(res.body, /This delivery is still pending/);
    assert.deepEqual(await delivery(), before);
    const shown = await page();
    assert.deepEqual(resendForms(shown.body), []);
    assert.match(shown.body, /Pending: another try is due/);
  } finally {
    await fx.database.db.updateTable('webhook_deliveries').set({ state: 'delivered', next_attempt_at: new Date() }).where('id', '=', id).execute();
  }
  for (const url of [
    `/dashboard/webhooks/${fx.webhook.id}/attempts/${randomUUID()}/resend`,
    `/dashboard/webhooks/${randomUUID()}/attempts/${action.split('/').at(-2)}/resend`,
    `/dashboard/webhooks/${fx.webhook.id}/attempts/nope/resend`,
  ]) {
    const res = await post(url, { _csrf: admin.csrfToken });
    assert.equal(res.statusCode, 404, url);
    assert.match(res.body, /Attempt not found/);
  }
});
