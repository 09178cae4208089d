// The overview (/dashboard): every key's webhooks, the newest audit per origin and pillar, the open
// remediation tickets, the report form and the API keys, each list bounded (the JSON API pages
// through the rest).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { listAllRegistrations } from '../../alerts/registrations.ts';
import { latestAuditsByOrigin } from '../../audit/audit-store.ts';
import { listApiKeys } from '../../auth/api-keys.ts';
import type { AdminSession } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import type { RateLimitPolicy } from '../../http/rate-limit.ts';
import { listTickets } from '../../report/tickets.ts';
import { auditHref, originHref, PILLARS, ticketView, totalsText, type TicketView } from '../common/audits.ts';
import type { DashboardContext } from '../common/guard.ts';
import { DASHBOARD, html, VIEWER_PAGES } from '../common/openapi.ts';
import { page, signedIn } from '../common/page.ts';
import { moment, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';
import { keyView, newFormOnce, type KeyView } from '../keys/keys.ts';
import { viewerWebhookView, webhookView, type WebhookView } from '../webhook/webhook.ts';

/** How much of each list the overview shows; the JSON API pages through the rest. */
const OVERVIEW_LIMITS = { webhooks: 100, origins: 50, tickets: 100 };

/** Fixed messages a redirect may ask the overview to show: a forged link can show only these. */
const NOTICES = {
  'key-revoked': 'The key is revoked: requests that carry it now get 401. Its webhooks send nothing more (their pending deliveries are failed); delete them from their pages.',
  'key-already-revoked': 'That key was already revoked.',
  'key-budget-set': 'The key’s audit budget is saved. It applies from the key’s next request; the requests it made in this window count against it.',
  'key-budget-default': 'The key is on the default audit budget from its next request; the requests it made in this window count against it.',
  'webhook-deleted': 'The webhook is deleted, with its pending deliveries and its attempts.',
} as const;
export type NoticeId = keyof typeof NOTICES;

interface PillarView {
  /** The audit's page. */
  href: string;
  /** Its totals in words: errors, warnings, and how many of those are inconclusive. */
  summary: string;
  standard?: string;
  createdAt: Moment;
}

interface OriginView {
  origin: string;
  /** Its history page. */
  href: string;
  /** In PILLARS order; null where the origin has no audit of that pillar. */
  pillars: (PillarView | null)[];
}

export interface OverviewPage extends PageBase {
  session: SignedIn;
  notice?: string;
  pillars: readonly { id: string; name: string }[];
  /** Every key's, for admins; for a member without their path, query and owner (webhook.ts). */
  webhooks: WebhookView[];
  origins: OriginView[];
  tickets: TicketView[];
  /** An admin's sections: a member gets neither the report form nor the API keys. */
  admin?: {
    keys: KeyView[];
    /** The default audit budget (AUDIT_RATE_LIMIT per AUDIT_RATE_WINDOW_SECONDS), which keys' own budgets replace. */
    budget: RateLimitPolicy;
    /** The create-key form's submission id (see keys/keys.ts, keyIdOf). */
    formOnce: string;
    report: ReportForm;
  };
}

/** The report form's field, and why the last download was refused. */
type ReportForm = { target: string; error?: string };

export const renderOverview = template<OverviewPage>(import.meta.dirname, 'overview');

/** The overview's data; `extra` is a notice or the report form's refusal (report/report.ts). */
export async function overviewPage(
  db: Kysely<Database>,
  budget: RateLimitPolicy,
  session: AdminSession,
  extra: { notice?: string; report?: ReportForm } = {},
): Promise<OverviewPage> {
  const admin = session.role === 'admin';
  const [registrations, origins, tickets, keys] = await Promise.all([
    listAllRegistrations(db, { limit: OVERVIEW_LIMITS.webhooks }),
    latestAuditsByOrigin(db, OVERVIEW_LIMITS.origins),
    listTickets(db, { status: 'open', limit: OVERVIEW_LIMITS.tickets }),
    admin ? listApiKeys(db) : [],
  ]);
  const labels = new Map(keys.map((key) => [key.id, key.label]));
  return {
    title: 'Dashboard',
    session: signedIn(session),
    ...(extra.notice ? { notice: extra.notice } : {}),
    pillars: PILLARS,
    webhooks: registrations.registrations.map((registration) => (admin ? webhookView(registration, labels) : viewerWebhookView(registration))),
    origins: origins.map((origin) => ({
      origin: origin.origin,
      href: originHref(origin.origin),
      pillars: PILLARS.map(({ id }) => {
        const audit = origin.latest[id];
        if (!audit) return null;
        return {
          href: auditHref(audit.id),
          summary: totalsText(audit.totals),
          ...(audit.standard ? { standard: audit.standard } : {}),
          createdAt: moment(audit.createdAt),
        };
      }),
    })),
    tickets: tickets.map(ticketView),
    ...(admin
      ? { admin: { keys: keys.map((key) => keyView(key, budget.limit)), budget, formOnce: newFormOnce(), report: extra.report ?? { target: '' } } }
      : {}),
  };
}

const OverviewQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 50 })) });

export function overviewPages(app: FastifyInstance, { db, config, guard }: DashboardContext) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/',
    {
      prefixTrailingSlash: 'no-slash',
      onRequest: guard.viewer,
      schema: {
        ...DASHBOARD,
        summary: 'Dashboard overview',
        description:
          'Every key’s webhooks with their latest attempt, the newest audit per origin and pillar (linking the audit and the ' +
          'origin’s history), the open remediation tickets, and for admins the report form and the API keys, each with its audit ' +
          'budget, with create, revoke and budget forms. A member sees no API key, no report form and no form that changes anything, and of each webhook ' +
          'only the origin of its destination (a receiver’s secret often sits in the path or query), without its owner key ' +
          'or a link to its page.',
        querystring: OverviewQuery,
        response: { 200: html('The overview.'), ...VIEWER_PAGES },
      },
    },
    async (request, reply) => {
      const notice = request.query.notice;
      const known = notice !== undefined && Object.hasOwn(NOTICES, notice) ? NOTICES[notice as NoticeId] : undefined;
      return page(reply, 200, renderOverview(await overviewPage(db, config.rateLimit, request.dashboardSession!, known ? { notice: known } : {})));
    },
  );
}
