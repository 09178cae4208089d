// The monitors page (/dashboard/monitors): every key's monitors, soonest due first, with their
// interval, next run and last outcome; an admin also sees each one's key and can pause, resume and
// delete it (CSRF-checked forms). Members see the list without keys or forms.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { changeMonitor, deleteMonitor, listAllMonitors } from '../../monitors/store.ts';
import { auditHref, originHref } from '../common/audits.ts';
import type { DashboardContext } from '../common/guard.ts';
import { CsrfForm, DASHBOARD, FORM_PAGES, html, IdParams, redirect, VIEWER_PAGES } from '../common/openapi.ts';
import { notFound, page, signedIn, UUID } from '../common/page.ts';
import { moment, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';

/** How many monitors the page lists; the JSON API pages through a key's own. */
export const MONITORS_SHOWN = 200;

const NOTICES = {
  paused: 'The monitor is paused: no run starts until it is resumed.',
  resumed: 'The monitor is resumed: if its next run has passed, it runs once, soon.',
  deleted: 'The monitor is deleted: no run starts after this. Its audits stay.',
} as const;
type NoticeId = keyof typeof NOTICES;

interface MonitorView {
  id: string;
  url: string;
  originHref: string;
  lens: string;
  /** The owner key's display form and label; null in a member's view. */
  owner: { display: string; label: string | null } | null;
  every: string;
  nextRunAt: Moment;
  paused: boolean;
  lastRun: { startedAt: Moment; outcome: string; auditHref: string | null; reason: string | null } | null;
}

interface MonitorsPage extends PageBase {
  session: SignedIn;
  admin: boolean;
  notice?: string;
  monitors: MonitorView[];
  limit: number;
}

const renderMonitors = template<MonitorsPage>(import.meta.dirname, 'monitors');

const NoticeQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 50, description: 'A fixed message to show (`paused`, `resumed`, `deleted`); any other value shows none.' })),
});

export function monitorPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/monitors',
    {
      onRequest: guard.viewer,
      schema: {
        ...DASHBOARD,
        summary: 'Every monitor',
        description: `Every key’s monitors, soonest due first (at most ${MONITORS_SHOWN}), with interval, next run and last outcome. Admins also see the owner key and the pause, resume and delete forms.`,
        querystring: NoticeQuery,
        response: { 200: html('The monitors.'), ...VIEWER_PAGES },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const admin = session.role === 'admin';
      const { notice } = request.query;
      const monitors = await listAllMonitors(db, MONITORS_SHOWN);
      return page(
        reply,
        200,
        renderMonitors({
          title: 'Monitors',
          session: signedIn(session),
          admin,
          ...(notice !== undefined && Object.hasOwn(NOTICES, notice) ? { notice: NOTICES[notice as NoticeId] } : {}),
          limit: MONITORS_SHOWN,
          monitors: monitors.map((monitor) => ({
            id: monitor.id,
            url: monitor.url,
            originHref: originHref(new URL(monitor.url).origin),
            lens: monitor.standard ? `${monitor.branch} ${monitor.standard}` : monitor.branch,
            owner: admin ? { display: monitor.keyDisplay, label: monitor.keyLabel } : null,
            every: monitor.every,
            nextRunAt: moment(monitor.nextRunAt),
            paused: monitor.paused,
            lastRun: monitor.lastRun && {
              startedAt: moment(monitor.lastRun.startedAt),
              outcome: monitor.lastRun.outcome,
              auditHref: monitor.lastRun.auditId ? auditHref(monitor.lastRun.auditId) : null,
              reason: monitor.lastRun.reason ?? null,
            },
          })),
        }),
      );
    },
  );

  const forms = {
    pause: { summary: 'Pause a monitor', notice: 'paused', change: { paused: true } },
    resume: { summary: 'Resume a paused monitor', notice: 'resumed', change: { paused: false } },
    delete: { summary: 'Delete a monitor', notice: 'deleted', change: undefined },
  } as const;
  for (const [action, form] of Object.entries(forms)) {
    typed.post(
      `/monitors/:id/${action}`,
      {
        onRequest: guard.admin,
        preHandler: guard.csrf,
        schema: {
          ...DASHBOARD,
          summary: form.summary,
          description: `Form field \`_csrf\`. Any key’s monitor, as PATCH or DELETE /api/v1/monitors/{id} does for its own key. Redirects to the monitors page, which says so.`,
          params: IdParams,
          body: CsrfForm,
          response: { ...FORM_PAGES, 303: redirect('Done: to the monitors page; or no session: to /dashboard/login.'), 404: html('No monitor has this id.') },
        },
      },
      async (request, reply) => {
        const session = request.dashboardSession!;
        const { id } = request.params;
        const done =
          UUID.test(id) &&
          (form.change === undefined ? await deleteMonitor(db, undefined, id) : (await changeMonitor(db, undefined, id, form.change, new Date())) !== undefined);
        if (!done) return notFound(reply, session, 'Monitor not found', 'No monitor has this id; it may have been deleted.');
        if (action === 'resume') request.server.monitorScheduler?.notify();
        request.log.info({ monitorId: id, userId: session.userId }, `monitor ${form.notice} from the dashboard`);
        return reply.redirect(`/dashboard/monitors?notice=${form.notice}`, 303);
      },
    );
  }
}
