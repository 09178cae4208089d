// The whole alert flow through the real app, on whichever database the run uses (PGlite, or
// PostgreSQL with TEST_DATABASE_URL): register a loopback HTTPS receiver, run an audit that
// fails, receive the signed event, check its signature with an independent HMAC over the raw
// bytes, and see the attempt in the attempt list and as the registration's latestAttempt.
// The worker polls once an hour here, so a prompt delivery shows the post-commit wake-up works.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import type { RecordedRequest } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';

const TRACKED = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
</head><body><main><h1>Notes from the allotment</h1><p>The beans went in this week.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

let database: TestDatabase;
let service: TestService;
let eventArrived: (request: RecordedRequest) => void;
const event = new Promise<RecordedRequest>((resolve) => (eventArrived = resolve));

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    delivery: { pollIntervalMs: 3_600_000 },
    routes: {
      '/tracked': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(TRACKED),
      '/gone': (_req, res) => res.writeHead(404).end(),
      '/receiver': (_req, res, recorded) => {
        if (JSON.parse(recorded.body).type === 'svc.audit.failure') eventArrived(recorded);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      },
    },
  });
});
after(async () => {
  await service.close();
  await database.close();
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))),
  ]);
}

test('register → failing audit → signed event received → attempt recorded and listed', async () => {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const registered = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers,
    payload: { url: service.pageUrl('/receiver'), trigger: { severity: 'medium', branch: 'privacy' } },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  const registration = registered.json();
  const ping = service.fixture.requests.find((r) => r.path === '/receiver')!;
  const challenge = JSON.parse(ping.body).challenge as string;

  const audited = await service.app.inject({ method: 'POST', url: '/api/v1/audit', headers, payload: { branch: 'privacy', url: service.pageUrl('/tracked') } });
  assert.equal(audited.statusCode, 201, audited.body);
  const audit = audited.json();
  const failures = audit.findings.filter((f: { status: string }) => f.status === 'fail');
  assert.ok(failures.length > 0, 'the audit has failures to alert on');

  const received = await within(event, 10_000, 'the failure event');
  const h = received.headers;
  const expected = createHmac('sha256', Buffer.from(challenge, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${h['x-svc-timestamp']}.${h['x-svc-delivery-id']}.`, 'utf8'), received.rawBody]))
    .digest('hex');
  assert.equal(h['x-svc-signature'], `sha256=${expected}`);
  assert.equal(h['x-svc-event'], 'svc.audit.failure');
  assert.equal(h['x-svc-version'], '1');
  assert.ok(Math.abs(Number(h['x-svc-timestamp']) - Date.now() / 1000) < 60);

  const body = JSON.parse(received.rawBody.toString('utf8'));
  assert.deepEqual(Object.keys(body), ['type', 'version', 'deliveryId', 'timestamp', 'audit', 'failures']);
  assert.equal(body.type, 'svc.audit.failure');
  assert.equal(body.version, 1);
  assert.equal(body.deliveryId, h['x-svc-delivery-id']);
  assert.deepEqual(body.audit, {
    id: audit.id,
    url: audit.url,
    branch: 'privacy',
    createdAt: audit.createdAt,
    totals: { errors: audit.totals.errors, warnings: audit.totals.warnings },
  });
  assert.deepEqual(
    body.failures,
    failures.map((f: { control: string; status: string; severity: string; evidence: string }) => ({
      control: f.control, status: f.status, severity: f.severity, evidence: f.evidence,
    })),
  );

  // The attempt is recorded once the receiver has answered: wait for it (no fixed sleep).
  let attempts: { items: Record<string, unknown>[]; nextCursor: string | null } = { items: [], nextCursor: null };
  await within((async () => {
    while (attempts.items.length === 0) {
      const res = await service.app.inject({ method: 'GET', url: `/api/v1/alerts/webhook/${registration.id}/attempts`, headers: { 'x-api-key': service.apiKey } });
      assert.equal(res.statusCode, 200);
      attempts = res.json();
      if (attempts.items.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })(), 10_000, 'the attempt record');
  assert.equal(attempts.items.length, 1);
  const [attempt] = attempts.items;
  assert.equal(attempt!.deliveryId, body.deliveryId);
  assert.equal(attempt!.auditId, audit.id);
  assert.equal(attempt!.attemptNumber, 1);
  assert.equal(attempt!.outcome, 'delivered');
  assert.equal(attempt!.statusCode, 200);
  assert.equal(attempt!.reason, null);
  assert.equal(attempt!.responseBody, 'thanks');

  const list = await service.app.inject({ method: 'GET', url: '/api/v1/alerts/webhook', headers: { 'x-api-key': service.apiKey } });
  const [listed] = list.json().items;
  assert.deepEqual(listed.latestAttempt, {
    deliveryId: body.deliveryId,
    outcome: 'delivered',
    statusCode: 200,
    reason: null,
    attemptedAt: attempt!.attemptedAt,
    durationMs: attempt!.durationMs,
  });

  // The secret went to the receiver only.
  for (const res of [registered, audited, list]) assert.ok(!res.body.includes(challenge));
  assert.ok(!service.rawLogs.some((line) => line.includes(challenge)));
});
