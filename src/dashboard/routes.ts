// The admin dashboard: server-rendered pages under /dashboard, for people in a browser. It reads
// what the JSON API reads (registrations and their attempts, the newest audits, the remediation
// tickets, the report) and manages API keys, which the CLI cannot do while the server holds the
// embedded database.
//
// Security, beyond the session cookie's own (HttpOnly, SameSite=Strict):
// - every state-changing form carries the session's CSRF token (`_csrf`); a missing or wrong one
//   is a 403 page and nothing changes. Sign-in has no session yet: its form's token is bound to a
//   cookie the sign-in page sets, and a sign-in whose Origin or Sec-Fetch-Site names another page
//   (another site, port or subdomain) is refused before the password or the throttle is looked at;
// - every answer is `Cache-Control: no-store` (the raw key of a new API key is on one page only),
//   under a CSP with no script at all and the one inline style sheet by hash, unframeable, and
//   with no Referer leaving the page;
// - only form bodies are parsed here, small ones.
import { createHash, randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { deleteAnyRegistration, setRegistrationPaused, listAllRegistrations, listAttempts, findOwnedRegistration, type OwnedRegistration, type LatestAttempt } from '../alerts/registrations.ts';
import { deliveriesOfAttempts, resendDelivery } from '../alerts/resend.ts';
import { latestAuditsByOrigin } from '../audit/audit-store.ts';
import { BRANCHES } from '../audit/control.ts';
import { API_KEY_LABEL_MAX_LENGTH, checkApiKeyLabel, createApiKeyOnce, getApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../auth/api-keys.ts';
import {
  attemptLogin,
  checkCsrf,
  checkLoginToken,
  clearLoginCookie,
  clearSessionCookie,
  issueLoginToken,
  loginTokenOf,
  logout,
  readSession,
  refuseForeignSignIn,
  setSessionCookie,
  type AdminSession,
  type SessionSettings,
} from '../auth/sessions.ts';
import { PASSWORD_MAX_LENGTH } from '../auth/users.ts';
import type { Database } from '../db/schema.ts';
import { decodeCursor, encodeCursor } from '../db/keyset.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/errors.ts';
import { RETRY_AFTER_HEADER, withHeaders } from '../http/openapi.ts';
import { reportFileName } from '../http/routes/report.ts';
import { PILLAR_TITLES, renderReportPdf } from '../report/pdf.ts';
import { parseReportTarget, selectReport } from '../report/snapshots.ts';
import { listOpenTickets } from '../report/tickets.ts';
import {
  CONTENT_SECURITY_POLICY,
  moment,
  render,
  type AttemptView,
  type KeyView,
  type MessagePage,
  type OverviewPage,
  type SignedIn,
  type WebhookView,
} from './views.ts';

/** How much of each list the overview shows; the JSON API pages through the rest. */
const OVERVIEW_LIMITS = { webhooks: 100, origins: 50, tickets: 100 };
const ATTEMPTS_PER_PAGE = 25;
const FORM_BODY_LIMIT = 8 * 1024;

/** The pillars in the report's order, with the report's names. */
const PILLARS = BRANCHES.map((id) => ({ id, name: PILLAR_TITLES[id] }));

/** Fixed messages a redirect may ask the overview to show: a forged link can show only these. */
const NOTICES = {
  'key-revoked': 'The key is revoked: requests that carry it now get 401. Its webhooks send nothing more (their pending deliveries are failed); delete them from their pages.',
  'key-already-revoked': 'That key was already revoked.',
  'webhook-deleted': 'The webhook is deleted, with its pending deliveries and its attempts.',
} as const;
type NoticeId = keyof typeof NOTICES;

/** The same for the webhook page. */
const WEBHOOK_NOTICES = {
  resent: 'The event is queued to be sent again: its try appears here, newest first, once the receiver has answered (reload the page).',
  paused: 'The webhook is paused: nothing is sent to it until it is resumed. Events of new audits wait in the outbox meanwhile.',
  resumed: 'The webhook is resumed: the events that waited are sent now.',
} as const;
type WebhookNoticeId = keyof typeof WEBHOOK_NOTICES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` even with a same-origin form, and the
  // sign-in's Origin check needs the real one. same-origin still sends no Referer to anyone else.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

// ---- OpenAPI: these are pages, so every answer is documented as HTML or a redirect. ----------

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const redirect = (description: string) => ({
  description,
  headers: { Location: { type: 'string', description: 'Where the browser goes next.' } },
});
const COMMON_PAGES = {
  400: html('The form or query could not be read (a field too long, repeated or of the wrong kind).'),
  403: html('A member’s session: the dashboard is for admins.'),
  500: html('Unexpected server failure; the operator log says why.'),
};
const SIGNED_IN_PAGES = { ...COMMON_PAGES, 303: redirect('No valid admin session (none, expired, ended, disabled user): to /dashboard/login.') };
const FORM_PAGES = {
  ...SIGNED_IN_PAGES,
  403: html('A member’s session, or the form’s CSRF token (`_csrf`) is missing or not the session’s: nothing changed.'),
  413: html('The form body is over 8 KiB.'),
  415: html('Only application/x-www-form-urlencoded forms are accepted.'),
};
const DASHBOARD = { tags: ['dashboard'], security: [{ adminSession: [] }] };

const CsrfField = Type.Optional(Type.String({ maxLength: 200, description: 'The session’s CSRF token, from the page’s form.' }));
const LoginForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200, description: 'The sign-in page’s token, bound to the sign-in cookie that page set.' })),
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
const CsrfForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });
const NewKeyForm = Type.Object(
  {
    _csrf: CsrfField,
    _once: Type.Optional(Type.String({ maxLength: 100, description: 'A random value the form was rendered with: a resubmission of it makes no second key.' })),
    label: Type.Optional(
      Type.String({
        maxLength: API_KEY_LABEL_MAX_LENGTH,
        description: 'Who or what will use the key; blank for none. No control characters (tab, newline, escape…) or text-direction controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).',
      }),
    ),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const AttemptParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'The registration’s id.' }),
  deliveryId: Type.String({ maxLength: 100, description: 'The `deliveryId` of any try of the delivery to resend.' }),
});
const OverviewQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 50 })) });
const ReportQuery = Type.Object({ target: Type.String({ maxLength: 2048, description: 'A domain (example.com) or a URL on the site.' }) });
const AttemptsQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Where the previous page ended.' })),
  notice: Type.Optional(Type.String({ maxLength: 50, description: 'A fixed message to show (`resent`); any other value shows none.' })),
});

// ---- View models -----------------------------------------------------------------------------

function signedIn(session: AdminSession): SignedIn {
  return { email: session.email, csrfToken: session.csrfToken, admin: session.role === 'admin' };
}

function attemptView(attempt: LatestAttempt): AttemptView {
  return {
    outcome: attempt.outcome,
    statusCode: attempt.statusCode,
    reason: attempt.reason,
    attemptedAt: moment(attempt.attemptedAt),
    durationMs: attempt.durationMs,
  };
}

function webhookView(registration: OwnedRegistration, labels: ReadonlyMap<string, string | null>): WebhookView {
  return {
    id: registration.id,
    url: registration.url,
    trigger: registration.trigger,
    owner: { display: registration.keyPrefix, label: labels.get(registration.keyId) ?? null },
    verifiedAt: moment(registration.verifiedAt),
    latestAttempt: registration.latestAttempt ? attemptView(registration.latestAttempt) : null,
    pausedAt: registration.pausedAt ? moment(registration.pausedAt) : null,
  };
}

function keyView(key: ApiKeyRow): KeyView {
  return {
    id: key.id,
    display: key.display,
    label: key.label,
    createdAt: moment(key.createdAt),
    revokedAt: key.revokedAt ? moment(key.revokedAt) : null,
  };
}

const FORM_ONCE = /^[A-Za-z0-9_-]{22}$/;

/** 16 random bytes: the create-key form's submission id. */
const newFormOnce = () => randomBytes(16).toString('base64url');

/**
 * The id of the key one submission of the create-key form makes: a UUID (version 8, "custom")
 * from the session and the form's random value, so the same submission always names the same key.
 */
function keyIdOf(sessionId: string, once: string): string {
  const hex = createHash('sha256').update(`${sessionId}\n${once}`, 'utf8').digest('hex');
  const variant = (8 | (Number.parseInt(hex[16]!, 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface DashboardDeps {
  db: Kysely<Database>;
  config: SessionSettings;
}

export function dashboardRoutes(deps: DashboardDeps) {
  const { db, config } = deps;

  async function overview(session: AdminSession, extra: { notice?: string; report?: OverviewPage['report'] } = {}): Promise<OverviewPage> {
    const [registrations, origins, tickets, keys] = await Promise.all([
      listAllRegistrations(db, { limit: OVERVIEW_LIMITS.webhooks }),
      latestAuditsByOrigin(db, OVERVIEW_LIMITS.origins),
      listOpenTickets(db, { limit: OVERVIEW_LIMITS.tickets }),
      listApiKeys(db),
    ]);
    const labels = new Map(keys.map((key) => [key.id, key.label]));
    return {
      title: 'Dashboard',
      session: signedIn(session),
      ...(extra.notice ? { notice: extra.notice } : {}),
      pillars: PILLARS,
      webhooks: registrations.registrations.map((registration) => webhookView(registration, labels)),
      origins: origins.map((origin) => ({
        origin: origin.origin,
        pillars: PILLARS.map(({ id }) => {
          const audit = origin.latest[id];
          if (!audit) return null;
          const { errors, warnings, inconclusive } = audit.totals;
          return {
            summary: `${plural(errors, 'error')}, ${plural(warnings, 'warning')} (${inconclusive} inconclusive)`,
            ...(audit.standard ? { standard: audit.standard } : {}),
            createdAt: moment(audit.createdAt),
          };
        }),
      })),
      tickets: tickets.map((ticket) => ({
        origin: ticket.origin,
        pillar: PILLARS.find((pillar) => pillar.id === ticket.branch)?.name ?? ticket.branch,
        control: ticket.control,
        requirement: ticket.requirement,
        severity: ticket.severity,
        openedAt: moment(ticket.openedAt),
        lastFailedAt: moment(ticket.lastFailedAt),
      })),
      keys: keys.map(keyView),
      formOnce: newFormOnce(),
      report: extra.report ?? { target: '' },
    };
  }

  function page(reply: FastifyReply, status: number, body: string) {
    return reply.code(status).type('text/html; charset=utf-8').send(body);
  }

  function message(reply: FastifyReply, status: number, data: Omit<MessagePage, 'link'> & { link?: MessagePage['link'] }) {
    return page(reply, status, render('message', { link: { href: '/dashboard', text: 'Back to the dashboard' }, ...data }));
  }

  function forbidden(reply: FastifyReply, session: AdminSession) {
    return message(reply, 403, {
      title: 'Not an admin',
      session: signedIn(session),
      heading: 'This dashboard is for admins',
      message: `You are signed in as ${session.email}, a member account. Ask an admin for the admin role, or log out and sign in as an admin.`,
      link: { href: '/dashboard/login', text: 'Sign-in page' },
    });
  }

  /** onRequest: the admin's session, before any body is read; otherwise the login page or a 403 page. */
  async function requireAdminPage(request: FastifyRequest, reply: FastifyReply) {
    const session = await readSession(db, request, config);
    if (!session) return reply.redirect('/dashboard/login', 303);
    if (session.role !== 'admin') return forbidden(reply, session);
    request.adminSession = session;
  }

  /** Whether the form carries the session's CSRF token; logs the refusal when it does not. */
  function csrfPasses(request: FastifyRequest, session: AdminSession): boolean {
    if (checkCsrf(session, (request.body as { _csrf?: string } | undefined)?._csrf)) return true;
    request.log.warn({ userId: session.userId, route: request.routeOptions.url }, 'dashboard form refused: CSRF token missing or wrong');
    return false;
  }

  /** preHandler of every admin form that changes something, once the body is parsed. */
  async function requireCsrf(request: FastifyRequest, reply: FastifyReply) {
    const session = request.adminSession!;
    if (!csrfPasses(request, session)) return formRefused(reply, session);
  }

  function formRefused(reply: FastifyReply, session: AdminSession) {
    return message(reply, 403, {
      title: 'Form refused',
      session: signedIn(session),
      heading: 'The form was refused',
      message: 'It did not carry this session’s security token: it is from an older session or from another site. Nothing was changed. Go back to the dashboard and submit it again.',
    });
  }

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    // Forms only: no JSON parser in this scope, and small bodies.
    app.removeAllContentTypeParsers();
    await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

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
      const session = request.adminSession;
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

    typed.get(
      '/login',
      {
        schema: {
          tags: ['dashboard'],
          summary: 'Dashboard sign-in page',
          description:
            'The sign-in form; with a valid admin session, a redirect to the dashboard instead. The form comes with a new ' +
            'sign-in cookie (`__Host-svc_login`, or `svc_login` with AUDIT_COOKIE_SECURE=false: 32 random bytes, HttpOnly, ' +
            'SameSite=Strict, Path=/, one hour) and carries, as `_csrf`, a token derived from it.',
          response: { 200: withHeaders(html('The sign-in form.'), { 'Set-Cookie': { type: 'string', description: 'The sign-in cookie.' } }), 303: redirect('Already signed in as an admin: to /dashboard.'), 500: COMMON_PAGES[500] },
        },
      },
      async (request, reply) => {
        const session = await readSession(db, request, config);
        if (session?.role === 'admin') return reply.redirect('/dashboard', 303);
        return page(reply, 200, render('login', { title: 'Sign in', email: '', csrfToken: issueLoginToken(reply, config) }));
      },
    );

    /** A sign-in that did not come from this service's own sign-in page: nobody is signed in or out. */
    const signInRefused = (reply: FastifyReply) =>
      message(reply, 403, {
        title: 'Sign-in refused',
        heading: 'The sign-in was refused',
        message:
          'It did not come from this service’s sign-in page, or that page was open for more than an hour. Nobody was signed in or out. Open the sign-in page and sign in there.',
        link: { href: '/dashboard/login', text: 'Sign-in page' },
      });

    typed.post(
      '/login',
      {
        onRequest: refuseForeignSignIn(signInRefused),
        schema: {
          tags: ['dashboard'],
          summary: 'Sign in from the dashboard form',
          description:
            'Form fields `_csrf`, `email` and `password`. Starts a session as POST /api/v1/session does (same throttle, same single ' +
            'answer for unknown email, wrong password and disabled user) and redirects to /dashboard with the `svc_session` cookie. ' +
            'Refused with a 403 page, before the password or the throttle is looked at: `Sec-Fetch-Site` other than ' +
            '`same-origin` or `none`; an `Origin` other than the service’s own; `_csrf` missing or not the token of the ' +
            'request’s sign-in cookie (see GET /dashboard/login).',
          body: LoginForm,
          response: {
            303: redirect('Signed in: to /dashboard, with the session cookie.'),
            400: COMMON_PAGES[400],
            401: html('Wrong email or password (or a disabled user): the form again, with one message for all three.'),
            403: html('The form is not from this service’s sign-in page (another site, port or subdomain, or a missing, stale or wrong token): nobody signed in.'),
            413: FORM_PAGES[413],
            415: FORM_PAGES[415],
            429: withHeaders(html('Too many failed sign-ins for this email or address: the form again, saying how long to wait.'), RETRY_AFTER_HEADER),
            500: COMMON_PAGES[500],
          },
        },
      },
      async (request, reply) => {
        const form = request.body as Static<typeof LoginForm>;
        if (!checkLoginToken(request, config, form._csrf)) {
          request.log.warn('dashboard sign-in refused: sign-in token missing or wrong');
          return signInRefused(reply);
        }
        // The token passed, so the request has a sign-in cookie: the form again keeps its token.
        const csrfToken = loginTokenOf(request, config)!;
        const again = (status: number, error: string) => page(reply, status, render('login', { title: 'Sign in', email: form.email, csrfToken, error }));
        if (form.email.trim() === '' || form.password === '') return again(400, 'Enter your email and your password.');
        const result = await attemptLogin(db, config, form.email, form.password, request.ip);
        if (result.outcome === 'throttled') {
          request.log.warn({ retryAfterSeconds: result.retryAfterSeconds }, 'login throttled');
          reply.header('Retry-After', result.retryAfterSeconds);
          const minutes = Math.ceil(result.retryAfterSeconds / 60);
          return again(429, `Too many failed sign-ins. Try again in ${plural(minutes, 'minute')}.`);
        }
        if (result.outcome === 'invalid') {
          request.log.info({ userId: result.userId ?? null }, 'login refused');
          return again(401, 'The email or the password is wrong.');
        }
        request.log.info({ userId: result.session.userId, sessionId: result.session.sessionId }, 'signed in');
        clearLoginCookie(reply, config);
        setSessionCookie(reply, result.token, config);
        return reply.redirect('/dashboard', 303);
      },
    );

    typed.post(
      '/logout',
      {
        schema: {
          ...DASHBOARD,
          summary: 'Log out from the dashboard',
          description: 'Form field `_csrf`. Ends the session (admin or member), clears the cookie and redirects to the sign-in page.',
          body: CsrfForm,
          response: {
            303: redirect('Logged out, or there was no session: to /dashboard/login.'),
            400: COMMON_PAGES[400],
            403: FORM_PAGES[403],
            413: FORM_PAGES[413],
            415: FORM_PAGES[415],
            500: COMMON_PAGES[500],
          },
        },
      },
      async (request, reply) => {
        const session = await readSession(db, request, config);
        if (session) {
          // Any role may log out; a member has no adminSession, so the check is made here.
          if (!csrfPasses(request, session)) return formRefused(reply, session);
          await logout(db, request);
          request.log.info({ userId: session.userId, sessionId: session.sessionId }, 'signed out');
        }
        clearSessionCookie(reply, config);
        return reply.redirect('/dashboard/login', 303);
      },
    );

    typed.get(
      '/',
      {
        prefixTrailingSlash: 'no-slash',
        onRequest: requireAdminPage,
        schema: {
          ...DASHBOARD,
          summary: 'Dashboard overview',
          description:
            'Every key’s webhooks with their latest attempt, the newest audit per origin and pillar, the open remediation ' +
            'tickets, the report form, and the API keys with create and revoke forms.',
          querystring: OverviewQuery,
          response: { 200: html('The overview.'), ...SIGNED_IN_PAGES },
        },
      },
      async (request, reply) => {
        const notice = request.query.notice;
        const known = notice !== undefined && Object.hasOwn(NOTICES, notice) ? NOTICES[notice as NoticeId] : undefined;
        return page(reply, 200, render('overview', await overview(request.adminSession!, known ? { notice: known } : {})));
      },
    );

    typed.get(
      '/webhooks/:id',
      {
        onRequest: requireAdminPage,
        schema: {
          ...DASHBOARD,
          summary: 'One webhook’s delivery attempts',
          description: `The registration and its attempts, newest first, ${ATTEMPTS_PER_PAGE} a page.`,
          params: IdParams,
          querystring: AttemptsQuery,
          response: { 200: html('The registration and a page of its attempts.'), 404: html('No such registration, or a cursor this page did not issue.'), ...SIGNED_IN_PAGES },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const notFound = () =>
          message(reply, 404, { title: 'Not found', session: signedIn(session), heading: 'Webhook not found', message: 'No webhook has this id; it may have been deleted by its key.' });
        const { cursor, notice } = request.query;
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        if (cursor !== undefined && after === undefined) return notFound();
        const registration = await findOwnedRegistration(db, request.params.id);
        if (!registration) return notFound();
        const [attempts, key] = await Promise.all([
          listAttempts(db, registration.keyId, registration.id, { limit: ATTEMPTS_PER_PAGE, after }),
          getApiKey(db, registration.keyId),
        ]);
        if (!attempts) return notFound();
        const deliveries = await deliveriesOfAttempts(db, attempts.attempts.map((attempt) => attempt.deliveryId));
        const deliveryColumn = (attemptId: string) => {
          const delivery = deliveries.get(attemptId);
          if (!delivery?.newest) return null;
          if (delivery.state === 'pending') return 'pending';
          // A resent delivery of a revoked key would wait forever: the worker never claims its rows.
          return key?.revokedAt ? 'revoked' : 'resend';
        };
        return page(
          reply,
          200,
          render('webhook', {
            title: 'Webhook attempts',
            session: signedIn(session),
            ...(notice !== undefined && Object.hasOwn(WEBHOOK_NOTICES, notice) ? { notice: WEBHOOK_NOTICES[notice as WebhookNoticeId] } : {}),
            webhook: webhookView(registration, new Map([[registration.keyId, key?.label ?? null]])),
            attempts: attempts.attempts.map((attempt) => ({
              ...attemptView(attempt),
              deliveryId: attempt.deliveryId,
              auditId: attempt.auditId,
              attemptNumber: attempt.attemptNumber,
              responseBody: attempt.responseBody,
              delivery: deliveryColumn(attempt.deliveryId),
            })),
            olderHref: attempts.next ? `/dashboard/webhooks/${registration.id}?cursor=${encodeURIComponent(encodeCursor(attempts.next))}` : null,
          }),
        );
      },
    );

    typed.post(
      '/webhooks/:id/attempts/:deliveryId/resend',
      {
        onRequest: requireAdminPage,
        preHandler: requireCsrf,
        schema: {
          ...DASHBOARD,
          summary: 'Resend a delivery',
          description:
            'Form field `_csrf`. The dashboard’s form for POST /api/v1/alerts/webhook/{id}/attempts/{deliveryId}/resend, on ' +
            'any key’s registration: the attempt’s delivery, if delivered or failed, goes back to the outbox as one new ' +
            'try of the same event (see that route). Redirects to the webhook page, which says so. Bounded by one requeue ' +
            'per delivery at a time (a pending delivery is a 409 page); the per-key budget is the API’s, not an admin’s.',
          params: AttemptParams,
          body: CsrfForm,
          response: {
            ...FORM_PAGES,
            303: redirect('Requeued: to the webhook page, which says so; or no session: to /dashboard/login.'),
            404: html('No such registration, or no try with this `deliveryId` in it.'),
            409: html('The delivery is pending (waiting for a retry, or being sent), or the webhook’s key is revoked: nothing changed.'),
          },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const { id, deliveryId } = request.params;
        const back = { href: `/dashboard/webhooks/${encodeURIComponent(id)}#attempts`, text: 'Back to the webhook’s attempts' };
        const registration = UUID.test(id) ? await findOwnedRegistration(db, id) : undefined;
        if (registration && (await getApiKey(db, registration.keyId))?.revokedAt) {
          return message(reply, 409, {
            title: 'Key revoked',
            session: signedIn(session),
            heading: 'The webhook’s key is revoked',
            message: 'A revoked key’s webhooks send nothing, so the delivery was not queued again. Delete the webhook from its page if it is no longer wanted.',
            link: back,
          });
        }
        const result = registration && UUID.test(deliveryId) ? await resendDelivery(db, { webhookId: id, attemptId: deliveryId }) : ({ outcome: 'not found' } as const);
        if (result.outcome === 'not found') {
          return message(reply, 404, { title: 'Not found', session: signedIn(session), heading: 'Attempt not found', message: 'This webhook has no delivery try with this id; the webhook may have been deleted by its key.' });
        }
        if (result.outcome === 'pending') {
          return message(reply, 409, {
            title: 'Delivery pending',
            session: signedIn(session),
            heading: 'This delivery is still pending',
            message: 'It is waiting for its next retry or being sent now, so it was not queued again. Once it is delivered or failed it can be resent.',
            link: back,
          });
        }
        request.server.deliveryWorker?.notify();
        request.log.info({ webhookId: id, resentFrom: deliveryId, attemptNumber: result.attemptNumber, userId: session.userId }, 'webhook delivery requeued from the dashboard');
        return reply.redirect(`/dashboard/webhooks/${id}?notice=resent#attempts`, 303);
      },
    );

    for (const action of ['pause', 'resume'] as const) {
      typed.post(
        `/webhooks/:id/${action}`,
        {
          onRequest: requireAdminPage,
          preHandler: requireCsrf,
          schema: {
            ...DASHBOARD,
            summary: action === 'pause' ? 'Pause a webhook' : 'Resume a paused webhook',
            description:
              action === 'pause'
                ? 'Form field `_csrf`. Any key’s registration: the delivery worker sends nothing to it (no first try, no retry) until ' +
                  'it is resumed; events of new audits still queue. A try already being sent finishes. Redirects to the webhook page.'
                : 'Form field `_csrf`. The deliveries that waited are due at once (their retry schedule is kept). Redirects to the webhook page.',
            params: IdParams,
            body: CsrfForm,
            response: {
              ...FORM_PAGES,
              303: redirect(`${action === 'pause' ? 'Paused' : 'Resumed'} (or already so): to the webhook page, which says so; or no session: to /dashboard/login.`),
              404: html('No registration has this id.'),
            },
          },
        },
        async (request, reply) => {
          const session = request.adminSession!;
          const { id } = request.params;
          if (!(UUID.test(id) && (await setRegistrationPaused(db, id, action === 'pause')))) {
            return message(reply, 404, { title: 'Not found', session: signedIn(session), heading: 'Webhook not found', message: 'No webhook has this id; it may have been deleted.' });
          }
          if (action === 'resume') request.server.deliveryWorker?.notify();
          request.log.info({ webhookId: id, userId: session.userId }, `webhook ${action === 'pause' ? 'paused' : 'resumed'} from the dashboard`);
          const notice: WebhookNoticeId = action === 'pause' ? 'paused' : 'resumed';
          return reply.redirect(`/dashboard/webhooks/${id}?notice=${notice}`, 303);
        },
      );
    }

    typed.post(
      '/webhooks/:id/delete',
      {
        onRequest: requireAdminPage,
        preHandler: requireCsrf,
        schema: {
          ...DASHBOARD,
          summary: 'Delete a webhook',
          description:
            'Form field `_csrf`. Deletes any key’s registration, as DELETE /api/v1/alerts/webhook/{id} does for its own key: its ' +
            'pending deliveries are not sent and its attempts go with it. The way to remove a revoked key’s webhooks, which no ' +
            'API key can reach. Redirects to the overview, which says so.',
          params: IdParams,
          body: CsrfForm,
          response: {
            ...FORM_PAGES,
            303: redirect('Deleted: to the overview, which says so; or no session: to /dashboard/login.'),
            404: html('No registration has this id (it may have been deleted already).'),
          },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const { id } = request.params;
        if (!(UUID.test(id) && (await deleteAnyRegistration(db, id)))) {
          return message(reply, 404, { title: 'Not found', session: signedIn(session), heading: 'Webhook not found', message: 'No webhook has this id; it may have been deleted already.' });
        }
        request.log.info({ webhookId: id, userId: session.userId }, 'webhook deleted from the dashboard');
        const notice: NoticeId = 'webhook-deleted';
        return reply.redirect(`/dashboard?notice=${notice}#webhooks`, 303);
      },
    );

    typed.get(
      '/report',
      {
        onRequest: requireAdminPage,
        schema: {
          ...DASHBOARD,
          summary: 'Download the report from the dashboard form',
          description:
            'Query `target`: a domain or a URL, read as GET /api/v1/audit/report reads `domain` and `url`. The same PDF as ' +
            'that route (attachment `svc-audit-<host>.pdf`); where it would refuse (an unreadable target, a pillar without ' +
            'an audit), the overview again with the reason beside the form, under the same status.',
          querystring: ReportQuery,
          response: {
            200: { description: 'The PDF, as GET /api/v1/audit/report sends it (attachment).', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
            404: html('A pillar of the origin has no audit: the overview with the missing pillars named.'),
            ...SIGNED_IN_PAGES,
            400: html('The target is neither a domain nor an https URL: the overview with the reason.'),
          },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const target = request.query.target.trim();
        const refused = async (status: 400 | 404, error: string) =>
          page(reply, status, render('overview', await overview(session, { report: { target, error } })));
        // The same steps as GET /api/v1/audit/report; `domain` and `url` are parsed alike there.
        const parsed = parseReportTarget({ url: target });
        if (!parsed.ok) return refused(400, `Enter a domain such as example.com or an https URL: this one ${Object.values(parsed.errors)[0]}.`);
        const selection = await selectReport(db, parsed);
        if (!selection.ok) {
          const missing = selection.missing.map((branch) => PILLAR_TITLES[branch]).join(', ');
          return refused(404, `No report for ${parsed.origin} yet: it has no audit in ${missing}. Audit it in every pillar first.`);
        }
        const pdf = await renderReportPdf(selection.report, new Date());
        request.log.info({ origin: parsed.origin, userId: session.userId }, 'report downloaded from the dashboard');
        return reply
          .code(200)
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${reportFileName(parsed.host)}"`)
          .send(pdf);
      },
    );

    typed.post(
      '/keys',
      {
        onRequest: requireAdminPage,
        preHandler: requireCsrf,
        schema: {
          ...DASHBOARD,
          summary: 'Create an API key',
          description:
            'Form fields `_csrf`, `_once` (the form’s random submission id) and `label` (optional). Answers with a page that ' +
            'shows the raw key once (Cache-Control: no-store); only its SHA-256 is stored, so nothing can show it again. The ' +
            'key’s id derives from the session and `_once`, so the same submission sent twice makes one key.',
          body: NewKeyForm,
          response: {
            201: html('The new key, shown this once.'),
            409: html('This submission of the form already made its key (a reload resubmits it): no second key, and the first is not shown again.'),
            ...FORM_PAGES,
            400: html('The form is incomplete, or the label is too long or holds a control or text-direction character (the page says which): no key was made.'),
          },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const { _once: once, label: rawLabel } = request.body;
        if (once === undefined || !FORM_ONCE.test(once)) {
          return message(reply, 400, { title: 'Request refused', session: signedIn(session), heading: 'The request was refused', message: 'The form is incomplete. Go back to the dashboard and use its form.' });
        }
        const checked = checkApiKeyLabel(rawLabel);
        if (!checked.ok) {
          return message(reply, 400, {
            title: 'Request refused',
            session: signedIn(session),
            heading: 'The label was refused',
            message: `The label ${checked.problem}. No key was created; go back and enter another label.`,
            link: { href: '/dashboard#keys', text: 'Back to the API keys' },
          });
        }
        const { label } = checked;
        const created = await createApiKeyOnce(db, keyIdOf(session.sessionId, once), label);
        if (created === 'exists') {
          return message(reply, 409, {
            title: 'Key already created',
            session: signedIn(session),
            heading: 'This key was already created',
            message: 'This form was sent before (a reload sends it again), and its key was made then. A key is shown only once, so it cannot be shown now. If nobody copied it, revoke it and create another.',
            link: { href: '/dashboard#keys', text: 'Back to the API keys' },
          });
        }
        request.log.info({ keyId: created.id, userId: session.userId }, 'API key created from the dashboard');
        const { display } = (await getApiKey(db, created.id))!;
        return page(reply, 201, render('key-created', { title: 'API key created', session: signedIn(session), key: { display, label, rawKey: created.rawKey } }));
      },
    );

    typed.post(
      '/keys/:id/revoke',
      {
        onRequest: requireAdminPage,
        preHandler: requireCsrf,
        schema: {
          ...DASHBOARD,
          summary: 'Revoke an API key',
          description: 'Form field `_csrf`. Revokes at once: the next request with the key gets 401. Redirects to the key list.',
          params: IdParams,
          body: CsrfForm,
          response: { ...FORM_PAGES, 303: redirect('Revoked (or already revoked): to the key list, which says so; or no session: to /dashboard/login.'), 404: html('No key has this id.') },
        },
      },
      async (request, reply) => {
        const session = request.adminSession!;
        const result = await revokeApiKey(db, request.params.id);
        if (result === 'not-found') {
          return message(reply, 404, { title: 'Not found', session: signedIn(session), heading: 'Key not found', message: 'No API key has this id.' });
        }
        if (result === 'revoked') request.log.info({ keyId: request.params.id, userId: session.userId }, 'API key revoked from the dashboard');
        const notice: NoticeId = result === 'revoked' ? 'key-revoked' : 'key-already-revoked';
        return reply.redirect(`/dashboard?notice=${notice}#keys`, 303);
      },
    );
  };
}

