// What the dashboard suites share: a service with data on every page (a webhook with a delivered
// attempt whose receiver answered with markup, audits in two pillars, keys with hostile labels)
// produced through the real routes and the real delivery worker, and form posting as a browser does.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parseSetCookie } from 'cookie';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import type { FixtureRoutes } from '../support/https-fixture.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Text that would run as script if a page did not escape it. */
export const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

const TRACKED = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
</head><body><main><h1>Notes from the allotment</h1><p>The beans went in this week.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

const GOVERNED = `<!doctype html><html lang="en"><head><title>Acme Assistant</title></head><body><main>
<h1>Acme Assistant</h1><p>This assistant uses artificial intelligence: answers are AI-generated.</p></main></body></html>`;

/**
 * WCAG failures of a page that gets better over time: an audit of the improving page with `fixed`
 * of them repaired fails the rest (each a criterion of its own; the title and lang go at 1 and 2).
 * The first carries markup in an attribute, so its snippet holds a script tag the pages must show
 * as text.
 */
const ISSUES = [
  `<img src="/team.jpg" data-note='${HOSTILE}'>`,
  '<form action="/search"><input type="text" name="q"><button type="submit">Search</button></form>',
  '<p><a href="/more"></a></p>',
  '<p style="color:#aaaaaa;background-color:#ffffff">Opening hours may change.</p>',
  '<button type="button"></button>',
];
export const IMPROVING_ISSUES = ISSUES.length;

function improvingPage(fixed: number): string {
  return `<!doctype html><html${fixed > 1 ? ' lang="en"' : ''}><head><title>${fixed > 0 ? 'Allotment society' : ''}</title></head>
<body><main><h1>Allotment society</h1><p>Plots for rent.</p>${ISSUES.slice(fixed).join('\n')}</main></body></html>`;
}

const page = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

export interface DashboardFixture {
  database: TestDatabase;
  service: TestService;
  /** What the improving page's next audit sees (see auditHistory). */
  improving: { fixed: number };
  /** The registered webhook (its URL carries `&` and a quote) and the key that owns it (a hostile label). */
  webhook: { id: string; url: string };
  owner: { id: string; rawKey: string; label: string };
  close(): Promise<void>;
}

async function within<T>(what: string, poll: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The app, its database and a fixture serving the audited pages and the webhook receivers. */
async function startService(env: Record<string, string>, routes: FixtureRoutes) {
  const database = await openTestDatabase();
  // How many of the improving page's issues are fixed: what its next audit sees.
  const improving = { fixed: 0 };
  const service = await startTestService({
    database,
    // The fixtures' audits are set-up, not what these suites test: a crawl of a loopback page may
    // take longer than the 2 s test default on a loaded machine (CI saw one refused as unreachable).
    env: { AUDIT_RATE_LIMIT: '1000', AUDIT_CRAWL_TIMEOUT_MS: '15000', ...env },
    delivery: { pollIntervalMs: 3_600_000 },
    routes: {
      '/tracked': page(TRACKED),
      '/governed': page(GOVERNED),
      '/gone': (_req, res) => res.writeHead(404).end(),
      '/improving': (req, res) => page(improvingPage(improving.fixed))(req, res),
      ...routes,
    },
  });
  return { database, service, improving };
}

async function registerWebhook(service: TestService, rawKey: string, url: string, branch: string) {
  const res = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers: { 'x-api-key': rawKey },
    payload: { url, trigger: { severity: 'medium', branch } },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; url: string };
}

async function audit(service: TestService, rawKey: string, branch: string, url: string): Promise<string> {
  const res = await service.app.inject({ method: 'POST', url: '/api/v1/audit', headers: { 'x-api-key': rawKey }, payload: { branch, url } });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { id: string }).id;
}

/** The delivery worker records the attempt after the receiver answers: wait for it. */
async function attemptRecorded(database: TestDatabase, webhookId: string) {
  await within('the delivery attempt', async () => {
    const row = await database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', webhookId).executeTakeFirst();
    return row ?? undefined;
  });
}

/** Runs the rest of a fixture's set-up; if it throws, closes the service and database first, so a failed set-up leaves no server keeping the test process alive. */
async function settingUp<T>(started: { service: TestService; database: TestDatabase }, rest: () => Promise<T>): Promise<T> {
  try {
    return await rest();
  } catch (error) {
    await started.service.close().catch(() => {});
    await started.database.close().catch(() => {});
    throw error;
  }
}

export async function startDashboardFixture(env: Record<string, string> = {}): Promise<DashboardFixture> {
  // The receiver answers with markup: the attempt list shows the answer, and must show it as text.
  const started = await startService(env, {
    '/receiver': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(HOSTILE),
  });
  return settingUp(started, () => fillDashboardFixture(started));
}

async function fillDashboardFixture({ database, service, improving }: Awaited<ReturnType<typeof startService>>): Promise<DashboardFixture> {
  const label = `ops ${HOSTILE}`;
  const owner = { ...(await createApiKey(database.db, label)), label };
  const webhook = await registerWebhook(service, owner.rawKey, `${service.pageUrl('/receiver')}?team=a&name='ops'`, 'privacy');
  await audit(service, owner.rawKey, 'privacy', service.pageUrl('/tracked')); // fails: an event is delivered
  await audit(service, owner.rawKey, 'ai-governance', service.pageUrl('/governed'));
  await attemptRecorded(database, webhook.id);
  return {
    database,
    service,
    improving,
    webhook,
    owner,
    async close() {
      await service.close();
      await database.close();
    },
  };
}

/**
 * The data of the README's screenshot: ordinary labels, a delivered and a failed attempt, two
 * origins, a revoked key. Returns the service and a signed-up admin's credentials.
 */
export async function startShowcase() {
  const started = await startService({}, {
    '/hooks/privacy': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
    '/hooks/governance': (req, res, recorded) => {
      // Verification succeeds; the events themselves meet an outage.
      const verifying = JSON.parse(recorded.body).type === 'svc.webhook.verification';
      res.writeHead(verifying ? 200 : 503, { 'content-type': 'text/plain' }).end(verifying ? 'ok' : 'maintenance window');
    },
    '/': page(GOVERNED.replace('Acme Assistant</h1>', 'Acme Assistant</h1><img src="/logo.png">')),
  });
  return settingUp(started, () => fillShowcase(started));
}

async function fillShowcase({ database, service, improving }: Awaited<ReturnType<typeof startService>>) {
  const ci = await createApiKey(database.db, 'ci-pipeline', 200);
  const status = await createApiKey(database.db, 'status-page');
  const old = await createApiKey(database.db, 'old-laptop');
  await database.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', old.id).execute();
  const privacyHook = await registerWebhook(service, ci.rawKey, service.fixture.url('site.test', '/hooks/privacy'), 'privacy');
  const governanceHook = await registerWebhook(service, status.rawKey, service.fixture.url('other.test', '/hooks/governance'), 'ai_gov');
  await audit(service, ci.rawKey, 'wcag', service.pageUrl('/'));
  await audit(service, ci.rawKey, 'privacy', service.pageUrl('/tracked'));
  await audit(service, ci.rawKey, 'ai-governance', service.pageUrl('/governed'));
  await audit(service, status.rawKey, 'ai-governance', service.fixture.url('other.test', '/tracked'));
  await attemptRecorded(database, privacyHook.id);
  await attemptRecorded(database, governanceHook.id);
  return {
    database,
    service,
    improving,
    /** A key to audit more with. */
    rawKey: ci.rawKey,
    async close() {
      await service.close();
      await database.close();
    },
  };
}

/**
 * A history of `host`'s improving page: one WCAG audit per entry of `fixed` (how many issues are
 * repaired by then) and a privacy audit of the tracked page every third one; then every audit of
 * the origin is moved to a day apart, the newest an hour ago, with its tickets' times, so the
 * history spans days as a real one does. Returns the WCAG audits' ids, oldest first.
 */
export async function auditHistory(
  fx: { service: TestService; database: TestDatabase; improving: { fixed: number } },
  rawKey: string,
  host: string,
  fixed: readonly number[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, step] of fixed.entries()) {
    fx.improving.fixed = step;
    ids.push(await audit(fx.service, rawKey, 'wcag', fx.service.fixture.url(host, '/improving')));
    if (index % 3 === 0) await audit(fx.service, rawKey, 'privacy', fx.service.fixture.url(host, '/tracked'));
  }
  const origin = new URL(fx.service.fixture.url(host, '/')).origin;
  // Ticket times are their audits' created_at, so each moves with its audit.
  await fx.database.db.transaction().execute(async (trx) => {
    await sql`
      create temporary table moved on commit drop as
      select created_at as old, now() - interval '1 hour' - (count(*) over () - row_number() over (order by created_at, id)) * interval '1 day' as new
      from audits where origin = ${origin}`.execute(trx);
    await sql`update audits set created_at = moved.new from moved where origin = ${origin} and created_at = moved.old`.execute(trx);
    for (const column of ['opened_at', 'last_failed_at', 'resolved_at']) {
      await sql`update remediation_tickets set ${sql.ref(column)} = moved.new from moved where origin = ${origin} and ${sql.ref(column)} = moved.old`.execute(trx);
    }
    await sql`update remediation_heads set audit_created_at = moved.new from moved where origin = ${origin} and audit_created_at = moved.old`.execute(trx);
    // The identities' history keeps each audit's time too (the changes section compares by it).
    await sql`update identity_appearances as i set audit_created_at = a.created_at from audits as a where a.id = i.audit_id and a.origin = ${origin}`.execute(trx);
  });
  return ids;
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A create-key form's submission id, as the overview renders one into each form. */
export const formOnce = () => randomBytes(16).toString('base64url');

/**
 * What a browser holds after opening the sign-in page: its sign-in cookie, as a `Cookie` header
 * value, and the token the form carries as `_csrf`.
 */
export async function openSignInPage(app: FastifyInstance): Promise<{ cookie: string; token: string }> {
  const res = await app.inject({ method: 'GET', url: '/dashboard/login' });
  assert.equal(res.statusCode, 200, res.body);
  const set = parseSetCookie(String(res.headers['set-cookie']));
  const token = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(res.body)?.[1];
  assert.ok(token, 'the form carries a token');
  return { cookie: `${set.name}=${set.value}`, token };
}
