// What every dashboard answer shares: its security headers, sending a rendered page, the message
// page (refusals, not found, errors) and the scope-wide handlers for unknown pages and failures.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { readSession, type AdminSession, type SessionSettings } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import type { RateLimitPolicy } from '../../http/rate-limit.ts';
import { CONTENT_SECURITY_POLICY, template, type PageBase, type SignedIn } from './render.ts';

/** What the page modules are given: the database and the settings they read. */
export interface DashboardDeps {
  db: Kysely<Database>;
  /** The session settings, and the default audit budget the key list shows (`Config` will do). */
  config: SessionSettings & { rateLimit: RateLimitPolicy };
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` even with a same-origin form, and the
  // sign-in's Origin check needs the real one. same-origin still sends no Referer to anyone else.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function signedIn(session: AdminSession): SignedIn {
  return { email: session.email, csrfToken: session.csrfToken, admin: session.role === 'admin' };
}

export function page(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export interface MessagePage extends PageBase {
  heading: string;
  message: string;
  /** Where the reader can go next. */
  link: { href: string; text: string };
}

const renderMessage = template<MessagePage>(import.meta.dirname, 'message');

export function message(reply: FastifyReply, status: number, data: Omit<MessagePage, 'link'> & { link?: MessagePage['link'] }) {
  return page(reply, status, renderMessage({ link: { href: '/dashboard', text: 'Back to the dashboard' }, ...data }));
}

/** A signed-in user's 404 page for a thing (a webhook, an audit…) that is not there. */
export function notFound(reply: FastifyReply, session: AdminSession, heading: string, text: string) {
  return message(reply, 404, { title: 'Not found', session: signedIn(session), heading, message: text });
}

/** A member on an admin page: the 403 page, saying what a member may open instead. */
export function forbidden(reply: FastifyReply, session: AdminSession) {
  return message(reply, 403, {
    title: 'Not an admin',
    session: signedIn(session),
    heading: 'This page is for admins',
    message:
      `You are signed in as ${session.email}, a member account: members view the overview, audits, origin histories and ` +
      'tickets. API keys, webhook pages and reports are for admins; ask an admin for the admin role, or log out and sign in as an admin.',
  });
}

export function formRefused(reply: FastifyReply, session: AdminSession) {
  return message(reply, 403, {
    title: 'Form refused',
    session: signedIn(session),
    heading: 'The form was refused',
    message: 'It did not carry this session’s security token: it is from an older session or from another site. Nothing was changed. Go back to the dashboard and submit it again.',
  });
}

/** The headers on every answer, and HTML pages for unknown addresses, refusals and failures. */
export function registerPageHandlers(app: FastifyInstance, { db, config }: DashboardDeps) {
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const session = await readSession(db, request, config);
    return message(reply, 404, {
      title: 'Not found',
      ...(session ? { session: signedIn(session) } : {}),
      heading: 'Page not found',
      message: 'There is no dashboard page at this address.',
    });
  });

  app.setErrorHandler(async (error: { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable: dashboard page answered 503');
      reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return message(reply, 503, {
        title: 'Unavailable',
        heading: 'The service is unavailable',
        message: 'The database cannot be reached just now. Nothing was changed; try again in a few seconds.',
      });
    }
    const status = error.validation ? 400 : error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'dashboard page failed');
    else request.log.info({ code: error.code, statusCode: status }, 'dashboard request refused');
    const session = request.dashboardSession;
    const text: Record<number, string> = {
      400: 'The form or address could not be read: a field is too long, repeated, or not expected here.',
      413: 'The form is too large.',
      415: 'The dashboard accepts only ordinary HTML forms.',
    };
    return message(reply, status >= 500 ? 500 : status, {
      title: status >= 500 ? 'Server error' : 'Request refused',
      ...(session ? { session: signedIn(session) } : {}),
      heading: status >= 500 ? 'Something went wrong' : 'The request was refused',
      message: status >= 500 ? 'The page could not be built. Try again; if it keeps failing, the operator log has the reason.' : (text[status] ?? 'The request could not be handled.'),
    });
  });
}
