// Dashboard sessions: login, the session cookie, reading it back, logout and CSRF tokens.
// The cookie carries a random 32-byte token; the database holds only its SHA-256 (a token has
// 256 bits of entropy, so a fast hash under a unique index is enough, as for API keys).
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AdminConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { clientKey, forgetFailures, reserveLoginAttempt } from './login-throttle.ts';
import { DUMMY_PASSWORD, findCredentials, normaliseEmail, verifyPassword, type PasswordVerifier, type Role } from './users.ts';

export const SESSION_COOKIE = 'svc_session';

export interface AdminSession {
  sessionId: string;
  userId: string;
  email: string;
  role: Role;
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAdmin`: the admin whose session made the request. */
    adminSession?: AdminSession;
  }
}

/** What the session functions read from the configuration: the whole `Config` will do. */
export interface SessionSettings {
  admin: AdminConfig;
}

/** last_seen_at is written at most this often per session, not on every request. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** 32 random bytes in base64url: 43 characters of the URL-safe alphabet. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session for the user; the token goes into the cookie and nowhere else. */
export async function createSession(
  db: Kysely<Database>,
  user: { id: string; email: string; role: Role },
  now = new Date(),
): Promise<{ token: string; session: AdminSession }> {
  const token = newToken();
  const session = { sessionId: randomUUID(), userId: user.id, email: user.email, role: user.role, csrfToken: newToken() };
  await db
    .insertInto('sessions')
    .values({
      id: session.sessionId,
      token_sha256: hashSessionToken(token),
      user_id: user.id,
      csrf_token: session.csrfToken,
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  return { token, session };
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const token = parseCookie(header)[SESSION_COOKIE];
  // Anything else cannot be a token we issued: no query for it.
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}

/**
 * The session the request's `svc_session` cookie names, when it is open, neither idle nor older
 * than the absolute timeout, and its user is not disabled; undefined otherwise. A session found
 * expired is ended on the spot. Refreshes last-seen at most once a minute.
 */
export async function readSession(
  db: Kysely<Database>,
  request: FastifyRequest,
  config: SessionSettings,
  now = new Date(),
): Promise<AdminSession | undefined> {
  const token = tokenOf(request);
  if (!token) return undefined;
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.csrf_token', 's.created_at', 's.last_seen_at', 's.ended_at', 'u.email', 'u.role', 'u.disabled_at'])
    .where('s.token_sha256', '=', hashSessionToken(token))
    .executeTakeFirst();
  if (!row || row.ended_at !== null || row.disabled_at !== null) return undefined;
  const { idleTimeoutMs, absoluteTimeoutMs } = config.admin;
  const idle = now.getTime() - row.last_seen_at.getTime();
  if (idle >= idleTimeoutMs || now.getTime() - row.created_at.getTime() >= absoluteTimeoutMs) {
    await db.updateTable('sessions').set({ ended_at: now }).where('id', '=', row.id).where('ended_at', 'is', null).execute();
    return undefined;
  }
  if (idle >= LAST_SEEN_RESOLUTION_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).where('last_seen_at', '<', now).execute();
  }
  return { sessionId: row.id, userId: row.user_id, email: row.email, role: row.role, csrfToken: row.csrf_token };
}

export const FORBIDDEN = { error: 'forbidden' } as const;

/**
 * A hook (preHandler, or onRequest to refuse before the body is read) for admin-only routes:
 * 403 `{"error":"forbidden"}` for a missing, unknown, ended, expired, disabled-user or member
 * session, all alike; otherwise sets `request.adminSession`.
 */
export function requireAdmin(db: Kysely<Database>, config: SessionSettings) {
  return async function requireAdminSession(request: FastifyRequest, reply: FastifyReply) {
    const session = await readSession(db, request, config);
    if (!session || session.role !== 'admin') return reply.code(403).send(FORBIDDEN);
    request.adminSession = session;
  };
}

export interface LoginOptions {
  now?: Date;
  /** Tests count calls through it: an unknown email must cost a verification like a known one. */
  verifyPassword?: PasswordVerifier;
}

export type LoginOutcome =
  | { outcome: 'signed-in'; token: string; session: AdminSession }
  /** `userId` when the email is a user's, for the operator log (never the typed email: it may be a password). */
  | { outcome: 'invalid'; userId?: string }
  | { outcome: 'throttled'; retryAfterSeconds: number };

/**
 * A login with the throttle's wait when refused: the route's form of `login`.
 * Unknown email, wrong password and disabled user are one outcome, reached through the same work
 * (one user lookup, one scrypt run), so neither the answer nor its time tells which it was.
 * While throttled no password is checked at all, so a correct one cannot be told from a wrong one.
 */
export async function attemptLogin(
  db: Kysely<Database>,
  config: SessionSettings,
  email: string,
  password: string,
  clientAddress: string,
  options: LoginOptions = {},
): Promise<LoginOutcome> {
  const now = options.now ?? new Date();
  const name = normaliseEmail(email);
  const client = clientKey(clientAddress);
  const reservation = await reserveLoginAttempt(db, name, client, now, config.admin.loginThrottle);
  if ('retryAfterSeconds' in reservation) return { outcome: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
  const found = await findCredentials(db, name);
  const verify = options.verifyPassword ?? verifyPassword;
  const matches = await verify(found?.password ?? DUMMY_PASSWORD, password);
  // The attempt stays recorded: it is now a failure.
  if (!found) return { outcome: 'invalid' };
  if (!matches || found.user.disabledAt !== null) return { outcome: 'invalid', userId: found.user.id };
  await forgetFailures(db, name, client);
  // Sessions past the absolute timeout can never be valid again: logins keep the table small.
  await db.deleteFrom('sessions').where('created_at', '<', new Date(now.getTime() - config.admin.absoluteTimeoutMs)).execute();
  const { token, session } = await createSession(db, found.user, now);
  return { outcome: 'signed-in', token, session };
}

/** The shared interface's login; `attemptLogin` also says how long a throttled client must wait. */
export async function login(
  db: Kysely<Database>,
  config: SessionSettings,
  email: string,
  password: string,
  clientAddress: string,
  options: LoginOptions = {},
): Promise<{ token: string; session: AdminSession } | 'invalid' | 'throttled'> {
  const result = await attemptLogin(db, config, email, password, clientAddress, options);
  return result.outcome === 'signed-in' ? { token: result.token, session: result.session } : result.outcome;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no cross-site request carries it), Path=/, and
 * Secure unless AUDIT_COOKIE_SECURE=false. Max-Age is the absolute timeout: the browser drops it
 * when the server would refuse it anyway.
 */
export function setSessionCookie(reply: FastifyReply, token: string, config: SessionSettings): void {
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: SESSION_COOKIE,
      value: token,
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      secure: config.admin.cookieSecure,
      maxAge: Math.floor(config.admin.absoluteTimeoutMs / 1000),
    }),
  );
}

export function clearSessionCookie(reply: FastifyReply, config: SessionSettings): void {
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: SESSION_COOKIE,
      value: '',
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      secure: config.admin.cookieSecure,
      maxAge: 0,
      expires: new Date(0),
    }),
  );
}

/** Ends the session the request's cookie names, if any; idempotent. */
export async function logout(db: Kysely<Database>, request: FastifyRequest, now = new Date()): Promise<void> {
  const token = tokenOf(request);
  if (!token) return;
  await db.updateTable('sessions').set({ ended_at: now }).where('token_sha256', '=', hashSessionToken(token)).where('ended_at', 'is', null).execute();
}

/**
 * Whether a submitted CSRF token (a form's `_csrf`, an `X-CSRF-Token` header) is the session's.
 * Compared as SHA-256 digests, so the comparison takes the same time whatever the lengths.
 */
export function checkCsrf(session: AdminSession, submittedToken: unknown): boolean {
  return sameToken(session.csrfToken, submittedToken);
}

function sameToken(expected: string, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted === '') return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(submitted));
}

/**
 * A preHandler for JSON admin endpoints that change state, after `requireAdmin`: the session's
 * CSRF token must come back in `X-CSRF-Token`, else 403 `{"error":"forbidden"}`.
 */
export async function requireCsrfHeader(request: FastifyRequest, reply: FastifyReply) {
  const session = request.adminSession;
  if (!session || !checkCsrf(session, request.headers['x-csrf-token'])) return reply.code(403).send(FORBIDDEN);
}

// ---- Sign-in forgery (issue 17) --------------------------------------------------------------
// Signing in has no session yet, so its form's token is bound to a cookie of its own instead
// (double submit): GET /dashboard/login sets a random cookie and renders a token derived from it,
// and POST /dashboard/login wants both. A page elsewhere can neither read that cookie nor, with
// the `__Host-` prefix, plant one from a sibling subdomain. A page on another port of the same
// host can plant one (cookies ignore ports), together with a token fetched from the sign-in page:
// the Origin and Sec-Fetch-Site checks below are what refuse that page. No server secret goes into
// the token: anyone may fetch a valid cookie and token pair from the sign-in page, so a secret
// would prove nothing more, and without one every process of a deployment accepts every pair.

/** The sign-in form's cookie lives this long: a page left open longer must be loaded again. */
export const LOGIN_COOKIE_MAX_AGE_SECONDS = 3600;

/**
 * `__Host-` (Secure, Path=/, no Domain: a sibling subdomain cannot set or shadow it) whenever the
 * cookie is Secure, as the session cookie is; a Secure-less cookie cannot carry the prefix.
 */
export function loginCookieName(config: SessionSettings): string {
  return config.admin.cookieSecure ? '__Host-svc_login' : 'svc_login';
}

/** The form token of a cookie value: an HMAC keyed by it, so the page never shows the cookie itself. */
function loginTokenOfCookie(cookie: string): string {
  return createHmac('sha256', cookie).update('svc dashboard sign-in form').digest('base64url');
}

function loginCookieOf(request: FastifyRequest, config: SessionSettings): string | undefined {
  const header = request.headers.cookie;
  const value = header ? parseCookie(header)[loginCookieName(config)] : undefined;
  return value !== undefined && TOKEN_PATTERN.test(value) ? value : undefined;
}

function loginCookie(reply: FastifyReply, config: SessionSettings, value: string, maxAge: number): void {
  // Same attributes as the session cookie, Path=/ included (the prefix requires it).
  reply.header(
    'set-cookie',
    stringifySetCookie({ name: loginCookieName(config), value, httpOnly: true, sameSite: 'strict', path: '/', secure: config.admin.cookieSecure, maxAge }),
  );
}

/** Sets a fresh sign-in cookie on the reply; returns the token its form must carry. */
export function issueLoginToken(reply: FastifyReply, config: SessionSettings): string {
  const cookie = newToken();
  loginCookie(reply, config, cookie, LOGIN_COOKIE_MAX_AGE_SECONDS);
  return loginTokenOfCookie(cookie);
}

/** The token that matches the request's sign-in cookie (to render the form again), if it has one. */
export function loginTokenOf(request: FastifyRequest, config: SessionSettings): string | undefined {
  const cookie = loginCookieOf(request, config);
  return cookie === undefined ? undefined : loginTokenOfCookie(cookie);
}

/** Whether the submitted form token matches the request's sign-in cookie; compared in constant time. */
export function checkLoginToken(request: FastifyRequest, config: SessionSettings, submittedToken: unknown): boolean {
  const expected = loginTokenOf(request, config);
  return expected !== undefined && sameToken(expected, submittedToken);
}

/** Signed in: the sign-in cookie has done its work. */
export function clearLoginCookie(reply: FastifyReply, config: SessionSettings): void {
  loginCookie(reply, config, '', 0);
}

/**
 * Why a sign-in request comes from a page other than the service's own, or undefined when nothing
 * says so. Refused: `Sec-Fetch-Site` other than `same-origin` or `none` (a user's own navigation),
 * and an `Origin` other than the service's (`null` included). The service's origin is the scheme
 * and Host the request reached it with, as Fastify reads them: behind a proxy in AUDIT_TRUST_PROXY,
 * from X-Forwarded-Proto and X-Forwarded-Host. Clients that send neither header (curl, scripts)
 * are not browsers, and no page can make a browser leave both out of a POST.
 */
export function foreignOrigin(request: FastifyRequest): { reason: string; origin?: string; serviceOrigin?: string } | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { reason: `Sec-Fetch-Site: ${String(site).slice(0, 20)}` };
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  // Serialised as browsers serialise Origin: lower-case host, no default port.
  const here = `${request.protocol}://${request.host ?? ''}`;
  const serviceOrigin = request.host && URL.canParse(here) ? new URL(here).origin : undefined;
  if (serviceOrigin !== undefined && serviceOrigin !== 'null' && origin === serviceOrigin) return undefined;
  return { reason: 'Origin is not the service’s', origin: origin.slice(0, 200), serviceOrigin: serviceOrigin ?? here.slice(0, 200) };
}

/**
 * An onRequest hook for the sign-in routes: what `foreignOrigin` refuses is answered by `refuse`
 * before the body is read (no parsing, no throttle slot, no scrypt run), and logged at warn.
 */
export function refuseForeignSignIn(refuse: (reply: FastifyReply) => FastifyReply) {
  return async function foreignSignIn(request: FastifyRequest, reply: FastifyReply) {
    const foreign = foreignOrigin(request);
    if (!foreign) return;
    request.log.warn({ ...foreign, route: request.routeOptions.url }, 'sign-in refused: sent from another page');
    return refuse(reply);
  };
}
