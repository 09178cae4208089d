// The admin dashboard: server-rendered pages under /dashboard, for people in a browser. It reads
// what the JSON API reads (registrations and their attempts, the audits, the remediation tickets,
// the report) and manages API keys, which the CLI cannot do while the server holds the embedded
// database. One module per page, its template beside it; what they share is in common/.
//
// Security, beyond the session cookie's own (HttpOnly, SameSite=Strict):
// - every state-changing form carries the session's CSRF token (`_csrf`); a missing or wrong one
//   is a 403 page and nothing changes (common/guard.ts; sign-in: login/login.ts);
// - every answer is `Cache-Control: no-store` (the raw key of a new API key is on one page only),
//   under a CSP with no script at all and the one inline style sheet by hash, unframeable, and
//   with no Referer leaving the page (common/page.ts);
// - only form bodies are parsed here, small ones.
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { attemptPages } from './attempt/attempt.ts';
import { auditPages } from './audit/audit.ts';
import { guards, type DashboardContext } from './common/guard.ts';
import { registerPageHandlers, type DashboardDeps } from './common/page.ts';
import { keyPages } from './keys/keys.ts';
import { loginPages } from './login/login.ts';
import { monitorPages } from './monitors/monitors.ts';
import { originPages } from './origin/origin.ts';
import { overviewPages } from './overview/overview.ts';
import { reportPages } from './report/report.ts';
import { webhookPages } from './webhook/webhook.ts';

export type { DashboardDeps } from './common/page.ts';

const FORM_BODY_LIMIT = 8 * 1024;

/** Every page module, each registering its routes under the /dashboard prefix. */
const PAGES = [loginPages, overviewPages, auditPages, originPages, monitorPages, webhookPages, attemptPages, reportPages, keyPages];

export function dashboardRoutes(deps: DashboardDeps) {
  return async function register(app: FastifyInstance) {
    // Forms only: no JSON parser in this scope, and small bodies.
    app.removeAllContentTypeParsers();
    await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    registerPageHandlers(app, deps);
    const context: DashboardContext = { ...deps, guard: guards(deps) };
    for (const pages of PAGES) pages(app, context);
  };
}
