// Dashboard sign-in: POST /api/v1/session (login), GET (who is signed in, and the CSRF token for
// JSON clients), DELETE (logout). The password is in the body, which Fastify never logs; the
// token is in Set-Cookie, which app.ts redacts.
//
// Cross-site requests cannot reach these in a harmful way: POST takes only application/json (a
// cross-site form cannot send it, and a script would need a CORS preflight this service never
// grants), DELETE cannot be sent by a form at all, and the cookie is SameSite=Strict. POST also
// refuses a browser request from any page but the service's own (Origin, Sec-Fetch-Site), so
// that no slip in the above (a CORS grant, a lenient body parser) would let another site, port
// or subdomain swap the browser's session for one of its choosing.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { attemptLogin, clearSessionCookie, FORBIDDEN, logout, readSession, refuseForeignSignIn, setSessionCookie, type SessionSettings } from '../../auth/sessions.ts';
import { PASSWORD_MAX_LENGTH, ROLES } from '../../auth/users.ts';
import type { Database } from '../../db/schema.ts';
import { FieldErrorsBody } from '../errors.ts';
import { RETRY_AFTER_HEADER, withHeaders } from '../openapi.ts';

const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254, description: 'The user’s email; compared case-insensitively.' }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  {
    additionalProperties: false,
    description: 'Both fields are required; unknown fields are refused.',
    examples: [{ email: 'admin@example.com', password: 'a long passphrase' }],
  },
);
type LoginBody = Static<typeof LoginBody>;

const SET_COOKIE_HEADER = {
  'Set-Cookie': {
    type: 'string' as const,
    description:
      '`svc_session=<token>; Max-Age=<AUDIT_SESSION_MAX_HOURS in seconds>; Path=/; HttpOnly; Secure; SameSite=Strict` ' +
      '(no `Secure` with AUDIT_COOKIE_SECURE=false). The token is 32 random bytes in base64url.',
  },
};

const InvalidCredentialsBody = Type.Object(
  { error: Type.Literal('invalid credentials') },
  {
    description: 'Unknown email, wrong password or disabled user: one answer, and the same work (one scrypt run) behind it.',
    examples: [{ error: 'invalid credentials' }],
  },
);

const ThrottledBody = Type.Object(
  { error: Type.Literal('too many login attempts'), retryAfterSeconds: Type.Integer({ minimum: 1 }) },
  {
    description:
      'Too many failed logins within AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES: for this email from this client address ' +
      '(AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS), from this client address on any emails ' +
      '(AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS), or for this email from all addresses together ' +
      '(AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL, a far higher ceiling). No password is checked meanwhile, so a correct ' +
      'one is refused too. The same for an email that is no user’s.',
    examples: [{ error: 'too many login attempts', retryAfterSeconds: 840 }],
  },
);

const SessionBody = Type.Object(
  {
    email: Type.String(),
    role: Type.Enum([...ROLES]),
    csrfToken: Type.String({ description: 'Send it back as `X-CSRF-Token` on JSON admin requests that change state.' }),
  },
  { description: 'The signed-in user.', examples: [{ email: 'admin@example.com', role: 'admin', csrfToken: 'q9V3…' }] },
);

const ForeignPageBody = Type.Object(
  { error: Type.Literal('forbidden') },
  {
    description:
      'A browser request from a page other than the service’s own: `Sec-Fetch-Site` other than `same-origin` or `none`, or an ' +
      '`Origin` other than the service’s (its scheme and Host; behind a proxy in AUDIT_TRUST_PROXY, X-Forwarded-Proto and ' +
      'X-Forwarded-Host), `null` included. Neither the password nor the throttle was looked at.',
    examples: [FORBIDDEN],
  },
);

const NotSignedInBody = Type.Object(
  { error: Type.Literal('not signed in') },
  { description: 'No session cookie, or its session has ended, expired, or belongs to a disabled user.', examples: [{ error: 'not signed in' }] },
);

export function sessionRoutes(deps: { db: Kysely<Database>; config: SessionSettings }) {
  const { db, config } = deps;

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.post(
      '/api/v1/session',
      {
        bodyLimit: 4 * 1024,
        onRequest: refuseForeignSignIn((reply) => reply.code(403).send(FORBIDDEN)),
        schema: {
          summary: 'Sign in to the dashboard',
          description:
            'Checks the email and password and starts a session: 204 with the `svc_session` cookie. Send the cookie back ' +
            'on admin requests (`curl -c jar` then `-b jar`). A session ends after AUDIT_SESSION_IDLE_MINUTES without a ' +
            'request (default 30), AUDIT_SESSION_MAX_HOURS after sign-in (default 12), at logout, or when its user is ' +
            'disabled or gets a new password. Browsers may call it only from the service’s own pages: a request whose ' +
            '`Origin` or `Sec-Fetch-Site` names another page is refused (403). Clients that send neither (curl, scripts) are ' +
            'not affected.',
          body: LoginBody,
          response: {
            204: withHeaders(Type.Null({ description: 'Signed in.' }), SET_COOKIE_HEADER),
            400: Type.Object(FieldErrorsBody.properties, {
              description: 'The body breaks the contract (missing or unknown field, wrong type).',
              examples: [{ errors: { password: 'is required' } }],
            }),
            401: InvalidCredentialsBody,
            403: ForeignPageBody,
            429: withHeaders(ThrottledBody, RETRY_AFTER_HEADER),
          },
        },
      },
      async (request, reply) => {
        const { email, password } = request.body as LoginBody;
        const result = await attemptLogin(db, config, email, password, request.ip);
        if (result.outcome === 'throttled') {
          // Never the typed email: people type their password into the wrong field.
          request.log.warn({ retryAfterSeconds: result.retryAfterSeconds }, 'login throttled');
          reply.header('Retry-After', result.retryAfterSeconds);
          return reply.code(429).send({ error: 'too many login attempts', retryAfterSeconds: result.retryAfterSeconds });
        }
        if (result.outcome === 'invalid') {
          request.log.info({ userId: result.userId ?? null }, 'login refused');
          return reply.code(401).send({ error: 'invalid credentials' });
        }
        request.log.info({ userId: result.session.userId, sessionId: result.session.sessionId }, 'signed in');
        setSessionCookie(reply, result.token, config);
        return reply.code(204).send(null);
      },
    );

    typed.get(
      '/api/v1/session',
      {
        schema: {
          summary: 'The signed-in user',
          description: 'The session’s user (admin or member) and its CSRF token. Counts as activity for the idle timeout.',
          response: { 200: SessionBody, 401: NotSignedInBody },
        },
      },
      async (request, reply) => {
        const session = await readSession(db, request, config);
        if (!session) return reply.code(401).send({ error: 'not signed in' });
        return { email: session.email, role: session.role, csrfToken: session.csrfToken };
      },
    );

    typed.delete(
      '/api/v1/session',
      {
        schema: {
          summary: 'Sign out',
          description: 'Ends the session the cookie names and clears the cookie. 204 also without a session (idempotent).',
          response: {
            204: withHeaders(Type.Null({ description: 'Signed out (or was not signed in).' }), {
              'Set-Cookie': { type: 'string', description: '`svc_session=` with `Max-Age=0`: the browser drops the cookie.' },
            }),
          },
        },
      },
      async (request, reply) => {
        await logout(db, request);
        clearSessionCookie(reply, config);
        return reply.code(204).send(null);
      },
    );
  };
}
