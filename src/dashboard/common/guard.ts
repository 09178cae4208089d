// Who may open a dashboard page, and the CSRF check of every form that changes something. The
// session is read at onRequest, before any body is parsed; the CSRF token once the form is parsed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkCsrf, readSession, type AdminSession } from '../../auth/sessions.ts';
import { forbidden, formRefused, type DashboardDeps } from './page.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the dashboard's page guard: the signed-in user (an admin, or a member where members may look). */
    dashboardSession?: AdminSession;
  }
}

/**
 * `viewer`: any signed-in user, admin or member (audits, their history, tickets). `admin`: admins
 * only (API keys, webhooks and their forms, the report); a member gets the 403 page.
 */
export type Audience = 'viewer' | 'admin';

export function guards({ db, config }: DashboardDeps) {
  /** onRequest: the session, else the sign-in page; a member on an admin page, the 403 page. */
  const requirePage = (audience: Audience) =>
    async function requireDashboardSession(request: FastifyRequest, reply: FastifyReply) {
      const session = await readSession(db, request, config);
      if (!session) return reply.redirect('/dashboard/login', 303);
      if (audience === 'admin' && session.role !== 'admin') return forbidden(reply, session);
      request.dashboardSession = session;
    };

  /** preHandler of every admin form that changes something, once the body is parsed. */
  async function requireCsrf(request: FastifyRequest, reply: FastifyReply) {
    const session = request.dashboardSession!;
    if (!csrfPasses(request, session)) return formRefused(reply, session);
  }

  return { viewer: requirePage('viewer'), admin: requirePage('admin'), csrf: requireCsrf };
}

export type Guards = ReturnType<typeof guards>;

/** Whether the form carries the session's CSRF token; logs the refusal when it does not. */
export function csrfPasses(request: FastifyRequest, session: AdminSession): boolean {
  if (checkCsrf(session, (request.body as { _csrf?: string } | undefined)?._csrf)) return true;
  request.log.warn({ userId: session.userId, route: request.routeOptions.url }, 'dashboard form refused: CSRF token missing or wrong');
  return false;
}

/** What every page module registers its routes with. */
export interface DashboardContext extends DashboardDeps {
  guard: Guards;
}
