// Signing in and out of the dashboard. Sign-in has no session yet: its form's token is bound to a
// cookie the sign-in page sets, and a sign-in whose Origin or Sec-Fetch-Site names another page
// (another site, port or subdomain) is refused before the password or the throttle is looked at.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import {
  attemptLogin,
  checkLoginToken,
  clearLoginCookie,
  clearSessionCookie,
  issueLoginToken,
  loginTokenOf,
  logout,
  readSession,
  refuseForeignSignIn,
  setSessionCookie,
} from '../../auth/sessions.ts';
import { PASSWORD_MAX_LENGTH } from '../../auth/users.ts';
import { RETRY_AFTER_HEADER, withHeaders } from '../../http/openapi.ts';
import { csrfPasses, type DashboardContext } from '../common/guard.ts';
import { COMMON_PAGES, CsrfForm, DASHBOARD, FORM_PAGES, html, redirect } from '../common/openapi.ts';
import { formRefused, message, page } from '../common/page.ts';
import { plural, template, type PageBase } from '../common/render.ts';

interface LoginPage extends PageBase {
  email: string;
  /** The `_csrf` field: the token of the sign-in cookie this page or an earlier one set. */
  csrfToken: string;
  error?: string;
}

const renderLogin = template<LoginPage>(import.meta.dirname, 'login');

const LoginForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200, description: 'The sign-in page’s token, bound to the sign-in cookie that page set.' })),
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
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

export function loginPages(app: FastifyInstance, { db, config }: DashboardContext) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/login',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard sign-in page',
        description:
          'The sign-in form; with a valid session (admin or member), a redirect to the dashboard instead. The form comes with a new ' +
          'sign-in cookie (`__Host-svc_login`, or `svc_login` with AUDIT_COOKIE_SECURE=false: 32 random bytes, HttpOnly, ' +
          'SameSite=Strict, Path=/, one hour) and carries, as `_csrf`, a token derived from it.',
        response: { 200: withHeaders(html('The sign-in form.'), { 'Set-Cookie': { type: 'string', description: 'The sign-in cookie.' } }), 303: redirect('Already signed in: to /dashboard.'), 500: COMMON_PAGES[500], 503: COMMON_PAGES[503] },
      },
    },
    async (request, reply) => {
      // Members view the dashboard too: any signed-in user is sent on.
      if (await readSession(db, request, config)) return reply.redirect('/dashboard', 303);
      return page(reply, 200, renderLogin({ title: 'Sign in', email: '', csrfToken: issueLoginToken(reply, config) }));
    },
  );

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
          503: COMMON_PAGES[503],
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
      const again = (status: number, error: string) => page(reply, status, renderLogin({ title: 'Sign in', email: form.email, csrfToken, error }));
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
          503: COMMON_PAGES[503],
        },
      },
    },
    async (request, reply) => {
      const session = await readSession(db, request, config);
      if (session) {
        // Any role may log out, and no page guard ran (no session is no refusal here): checked here.
        if (!csrfPasses(request, session)) return formRefused(reply, session);
        await logout(db, request);
        request.log.info({ userId: session.userId, sessionId: session.sessionId }, 'signed out');
      }
      clearSessionCookie(reply, config);
      return reply.redirect('/dashboard/login', 303);
    },
  );
}
