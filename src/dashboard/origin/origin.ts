// An origin's history (/dashboard/origins/{origin}, the origin URL-encoded): per pillar, its audits
// over time (every key's) as a chart of errors and warnings and as a table with the same figures,
// each row linking to the audit; then the origin's remediation tickets, open and resolved. For
// admins and members alike. Every list is bounded, and the page says where.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listOriginAudits, type AuditSummary } from '../../audit/audit-store.ts';
import { listTickets } from '../../report/tickets.ts';
import { auditHref, PILLARS, ticketView, type TicketView } from '../common/audits.ts';
import type { DashboardContext } from '../common/guard.ts';
import { DASHBOARD, html, VIEWER_PAGES } from '../common/openapi.ts';
import { message, notFound, page, signedIn } from '../common/page.ts';
import { moment, plural, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';
import { historyChart, type ChartView } from './chart.ts';

/** Audits shown per pillar, newest first: a chart of more would be unreadable, and the page heavy. */
const AUDITS_PER_PILLAR = 100;
/** Tickets shown per status (open, resolved). */
const TICKETS_PER_STATUS = 100;

/** The origin itself when `value` is exactly an https origin as `URL.origin` spells it (as audits store it). */
export function httpsOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' && url.origin === value ? value : undefined;
}

interface AuditRow {
  href: string;
  createdAt: Moment;
  /** The audited page's path and query: the origin is the page's. */
  path: string;
  errors: number;
  warnings: number;
  inconclusive: number;
  standard: string | undefined;
}

interface PillarHistory {
  id: string;
  name: string;
  /** Newest first, as the table lists them. */
  audits: AuditRow[];
  /** More audits exist than are shown. */
  more: boolean;
  chart: (ChartView & { title: string; description: string }) | null;
}

interface OriginPage extends PageBase {
  session: SignedIn;
  origin: string;
  auditsPerPillar: number;
  ticketsPerStatus: number;
  pillars: PillarHistory[];
  tickets: { open: TicketView[]; resolved: TicketView[]; openMore: boolean; resolvedMore: boolean };
}

const renderOrigin = template<OriginPage>(import.meta.dirname, 'origin');

const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
};

const range = (values: number[]) => {
  const [first, last] = [values[0]!, values.at(-1)!];
  return `${first === last ? `${first} in each of the first and the newest` : `from ${first} in the first to ${last} in the newest`}, at most ${Math.max(...values)}`;
};

function pillarHistory(origin: string, pillar: { id: string; name: string }, audits: AuditSummary[], more: boolean): PillarHistory {
  const oldestFirst = audits.toReversed();
  const chart =
    audits.length === 0
      ? null
      : {
          ...historyChart(oldestFirst.map((audit) => ({ ...audit.totals, date: audit.createdAt.toISOString().slice(0, 10) }))),
          title: `${pillar.name}: errors and warnings per audit of ${origin}`,
          description:
            `${plural(audits.length, 'audit')}, oldest on the left, one step per audit, from ${moment(oldestFirst[0]!.createdAt).text} ` +
            `to ${moment(audits[0]!.createdAt).text}. Errors (solid line, circles): ${range(oldestFirst.map((a) => a.totals.errors))}. ` +
            `Warnings (dashed line, squares): ${range(oldestFirst.map((a) => a.totals.warnings))}. The table beside the chart has every figure.`,
        };
  return {
    id: pillar.id,
    name: pillar.name,
    audits: audits.map((audit) => ({
      href: auditHref(audit.id),
      createdAt: moment(audit.createdAt),
      path: pathOf(audit.url),
      ...audit.totals,
      standard: audit.standard,
    })),
    more,
    chart,
  };
}

const ORIGIN_MAX_LENGTH = 300;

const OriginParams = Type.Object({
  origin: Type.String({ maxLength: ORIGIN_MAX_LENGTH, description: 'An https origin as audits name it (`https://example.com`, a port when not 443), URL-encoded.' }),
});
const UnencodedOriginParams = Type.Object({ '*': Type.String({ maxLength: ORIGIN_MAX_LENGTH }) });

export function originPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  async function history(request: FastifyRequest, reply: FastifyReply, value: string) {
    const session = request.dashboardSession!;
    const origin = httpsOrigin(value);
    if (!origin) {
      return message(reply, 400, {
        title: 'Not an origin',
        session: signedIn(session),
        heading: 'This is not an https origin',
        message: 'A history is kept per https origin: the scheme and the host, and a port when it is not 443, such as https://example.com. Open it from the dashboard’s recent audits.',
      });
    }
    const [histories, open, resolved] = await Promise.all([
      Promise.all(PILLARS.map(({ id }) => listOriginAudits(db, origin, id, { limit: AUDITS_PER_PILLAR }))),
      // One more than shown: whether the page must say that more exist.
      listTickets(db, { status: 'open', origin, limit: TICKETS_PER_STATUS + 1 }),
      listTickets(db, { status: 'resolved', origin, limit: TICKETS_PER_STATUS + 1 }),
    ]);
    if (histories.every((history) => history.audits.length === 0)) {
      return notFound(reply, session, 'No history', `No audit of ${origin} is stored.`);
    }
    return page(
      reply,
      200,
      renderOrigin({
        title: `History of ${origin}`,
        session: signedIn(session),
        origin,
        auditsPerPillar: AUDITS_PER_PILLAR,
        ticketsPerStatus: TICKETS_PER_STATUS,
        pillars: PILLARS.map((pillar, index) => pillarHistory(origin, pillar, histories[index]!.audits, histories[index]!.next !== null)),
        tickets: {
          open: open.slice(0, TICKETS_PER_STATUS).map(ticketView),
          resolved: resolved.slice(0, TICKETS_PER_STATUS).map(ticketView),
          openMore: open.length > TICKETS_PER_STATUS,
          resolvedMore: resolved.length > TICKETS_PER_STATUS,
        },
      }),
    );
  }

  typed.get(
    '/origins/:origin',
    {
      onRequest: guard.viewer,
      schema: {
        ...DASHBOARD,
        summary: 'An origin’s history',
        description:
          `Per pillar, the origin’s newest ${AUDITS_PER_PILLAR} audits (every key’s): a chart of errors and warnings per audit ` +
          '(inline SVG) and a table with the same figures, each row linking to the audit; then the origin’s remediation ' +
          `tickets, the ${TICKETS_PER_STATUS} most recent open and resolved. For admins and members. An origin too long ` +
          'for a path parameter (over 100 characters encoded), or not encoded at all, is served all the same.',
        params: OriginParams,
        response: {
          200: html('The history.'),
          ...VIEWER_PAGES,
          400: html('Not an https origin (scheme and host, a port when not 443, nothing else), or the address could not be read.'),
          404: html('No audit of this origin is stored.'),
        },
      },
    },
    (request, reply) => history(request, reply, request.params.origin),
  );

  // The same page where the router does not match the parameter: it answers 414 to one over 100
  // characters (an encoded origin with a long host name), and an unencoded origin has slashes.
  typed.get(
    '/origins/*',
    { onRequest: guard.viewer, schema: { hide: true, params: UnencodedOriginParams } },
    (request, reply) => history(request, reply, request.params['*']),
  );
}
