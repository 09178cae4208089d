// What the dashboard suites share: a service with data on every page (a webhook with a delivered
// attempt whose receiver answered with markup, audits in two pillars, keys with hostile labels)
// produced through the real routes and the real delivery worker, and form posting as a browser does.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Text that would run as script if a page did not escape it. */
export const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

const TRACKED = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
</head><body><main><h1>Notes from the allotment</h1><p>The beans went in this week.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

const GOVERNED = `<!doctype html><html lang="en"><head><title>Acme Assistant</title></head><body><main>
<h1>Acme Assistant</h1><p>This assistant uses artificial intelligence: answers are AI-generated.</p></main></body></html>`;

const page = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

export interface DashboardFixture {
  database: TestDatabase;
  service: TestService;
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

export async function startDashboardFixture(env: Record<string, string> = {}): Promise<DashboardFixture> {
  const database = await openTestDatabase();
  const service = await startTestService({
    database,
    env: { AUDIT_RATE_LIMIT: '1000', ...env },
    delivery: { pollIntervalMs: 3_600_000 },
    routes: {
      '/tracked': page(TRACKED),
      '/governed': page(GOVERNED),
      '/gone': (_req, res) => res.writeHead(404).end(),
      // Answers with markup: the attempt list shows the answer, and must show it as text.
      '/receiver': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(HOSTILE),
    },
  });
  const label = `ops ${HOSTILE}`;
  const owner = { ...(await createApiKey(database.db, label)), label };
  const headers = { 'x-api-key': owner.rawKey, 'content-type': 'application/json' };
  const registered = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers,
    payload: { url: `${service.pageUrl('/receiver')}?team=a&name='ops'`, trigger: { severity: 'medium', branch: 'privacy' } },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  const webhook = registered.json() as { id: string; url: string };
  for (const [branch, path] of [['privacy', '/tracked'], ['ai-governance', '/governed']] as const) {
    const audited = await service.app.inject({ method: 'POST', url: '/api/v1/audit', headers, payload: { branch, url: service.pageUrl(path) } });
    assert.equal(audited.statusCode, 201, audited.body);
  }
  // The privacy audit fails, so the worker delivers an event: wait until its attempt is recorded.
  await within('the delivery attempt', async () => {
    const row = await database.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', webhook.id).executeTakeFirst();
    return row ?? undefined;
  });
  return {
    database,
    service,
    webhook,
    owner,
    async close() {
      await service.close();
      await database.close();
    },
  };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A create-key form's submission id, as the overview renders one into each form. */
export const formOnce = () => randomBytes(16).toString('base64url');
