// trigger.on through the whole service: two loopback HTTPS receivers registered by the API, one
// new-failures and one every-audit, and real audits of a fixture page that changes between them
// (unchanged, a fix, the failure back). The new-failures receiver gets the first audit's failures,
// nothing for the unchanged re-audit or the fix, and after the regression only the failure that
// came back, with `changes`; the every-audit receiver gets the spec's event after every audit.
// "Nothing sent" is read from the outbox, which the audit's statement writes before its 201.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import type { RecordedRequest } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Image `a` loses its alt text when `broken`; `c` and the button always fail. */
const shop = (broken: boolean) => `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<main><h1>Shop</h1>
<img src="/a.png"${broken ? '' : ' alt="Apples"'}>
<img src="/b.png" alt="Bread">
<img src="/c.png">
<button></button>
</main></body></html>`;

let page = '';
let database: TestDatabase;
let service: TestService;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    delivery: { pollIntervalMs: 3_600_000 },
    env: { AUDIT_RATE_LIMIT: '1000', AUDIT_WEBHOOK_RATE_LIMIT: '1000' },
    routes: {
      '/shop': (_req, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
      '/receiver/new': (_req, res) => res.writeHead(200).end('ok'),
      '/receiver/every': (_req, res) => res.writeHead(200).end('ok'),
    },
  });
});
after(async () => {
  await service.close();
  await database.close();
});

const headers = () => ({ 'x-api-key': service.apiKey, 'content-type': 'application/json' });

async function register(path: string, on?: string) {
  const response = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers: headers(),
    payload: { url: service.pageUrl(path), trigger: { severity: 'medium', branch: 'accessibility', ...(on ? { on } : {}) } },
  });
  assert.equal(response.statusCode, 201, response.body);
  const ping = service.fixture.requests.find((r) => r.path === path && JSON.parse(r.body).type === 'svc.webhook.verification')!;
  return { id: response.json().id as string, trigger: response.json().trigger, challenge: JSON.parse(ping.body).challenge as string };
}

async function audit(broken: boolean) {
  page = shop(broken);
  const response = await service.app.inject({ method: 'POST', url: '/api/v1/audit', headers: headers(), payload: { branch: 'wcag', url: service.pageUrl('/shop') } });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as { id: string; url: string; createdAt: string; totals: { errors: number; warnings: number }; findings: Failure[] };
}

interface Failure {
  control: string;
  status: string;
  severity: string;
  evidence: string;
}

const events = (path: string): RecordedRequest[] =>
  service.fixture.requests.filter((r) => r.path === path && JSON.parse(r.body).type === 'svc.audit.failure');

/** Waits, without a fixed sleep, until `path` has received the event of `auditId`. */
async function eventFor(path: string, auditId: string): Promise<RecordedRequest> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = events(path).find((r) => JSON.parse(r.body).audit.id === auditId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no event for audit ${auditId} at ${path} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function queuedFor(webhookId: string, auditId: string) {
  return database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId).where('audit_id', '=', auditId).execute();
}

function assertSigned(received: RecordedRequest, challenge: string) {
  const h = received.headers;
  const expected = createHmac('sha256', Buffer.from(challenge, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${h['x-svc-timestamp']}.${h['x-svc-delivery-id']}.`, 'utf8'), received.rawBody]))
    .digest('hex');
  assert.equal(h['x-svc-signature'], `sha256=${expected}`);
  assert.equal(h['x-svc-event'], 'svc.audit.failure');
  assert.equal(h['x-svc-version'], '1');
}

const failuresOf = (audited: { findings: Failure[] }) =>
  audited.findings.filter((f) => f.status === 'fail').map(({ control, status, severity, evidence }) => ({ control, status, severity, evidence }));

test('new-failures: the first audit, nothing while nothing is new, then only the failure that came back; every-audit unchanged', async () => {
  const newFailures = await register('/receiver/new', 'new-failures');
  const everyAudit = await register('/receiver/every');
  assert.deepEqual(newFailures.trigger, { severity: 'medium', branch: 'accessibility', on: 'new-failures' });
  assert.deepEqual(everyAudit.trigger, { severity: 'medium', branch: 'accessibility', on: 'every-audit' });

  // 1. The first audit of the page: every failure is new.
  const first = await audit(true);
  const firstEvent = JSON.parse((await eventFor('/receiver/new', first.id)).rawBody.toString('utf8'));
  assert.deepEqual(firstEvent.failures, failuresOf(first));
  const firstChanges = (await service.app.inject({ method: 'GET', url: `/api/v1/audits/${first.id}/changes`, headers: headers() })).json();
  assert.deepEqual(firstEvent.changes, { againstAuditId: null, new: firstChanges.totals.new, fixed: 0, persisting: 0 });

  // 2. Unchanged, then 3. fixed: nothing is new, so nothing is queued for new-failures.
  const unchanged = await audit(true);
  const fixed = await audit(false);
  for (const audited of [unchanged, fixed]) {
    assert.deepEqual(await queuedFor(newFailures.id, audited.id), [], 'no new-failures delivery');
    assert.equal((await queuedFor(everyAudit.id, audited.id)).length, 1, 'an every-audit delivery');
  }

  // 4. Broken again: only the finding with the image that came back, and the counts.
  const back = await audit(true);
  const received = await eventFor('/receiver/new', back.id);
  assertSigned(received, newFailures.challenge);
  const body = JSON.parse(received.rawBody.toString('utf8'));
  assert.deepEqual(Object.keys(body), ['type', 'version', 'deliveryId', 'timestamp', 'audit', 'failures', 'changes']);
  assert.equal(body.version, 1);
  assert.deepEqual(body.audit, { id: back.id, url: back.url, branch: 'accessibility', createdAt: back.createdAt, totals: { errors: back.totals.errors, warnings: back.totals.warnings } });
  const imageFinding = failuresOf(back).filter((f) => f.control === '1.1.1');
  assert.equal(imageFinding.length, 1);
  assert.deepEqual(body.failures, imageFinding, 'only 1.1.1: the button’s failure (4.1.2) and c.png persist');
  assert.ok(failuresOf(back).length > body.failures.length);
  const changes = (await service.app.inject({ method: 'GET', url: `/api/v1/audits/${back.id}/changes`, headers: headers() })).json();
  assert.deepEqual(body.changes, { againstAuditId: fixed.id, new: 1, fixed: 0, persisting: changes.totals.persisting });
  assert.deepEqual(changes.occurrences.new.map((o: { snippet: string }) => o.snippet), ['<img src="/a.png">']);
  // It appeared in the first audit (the unchanged one only kept it).
  assert.deepEqual(changes.occurrences.regressed.map((o: { seenIn: { id: string } }) => o.seenIn.id), [first.id]);

  // The every-audit receiver got the spec's event, byte for byte in shape, after every audit.
  for (const audited of [first, unchanged, fixed, back]) {
    const every = await eventFor('/receiver/every', audited.id);
    assertSigned(every, everyAudit.challenge);
    const parsed = JSON.parse(every.rawBody.toString('utf8'));
    assert.deepEqual(Object.keys(parsed), ['type', 'version', 'deliveryId', 'timestamp', 'audit', 'failures']);
    assert.deepEqual(parsed.failures, failuresOf(audited));
  }
  // And the new-failures receiver got exactly two events.
  assert.deepEqual(events('/receiver/new').map((r) => JSON.parse(r.body).audit.id), [first.id, back.id]);
});
