// A dashboard session without going through login: a fresh user of the given role and an open
// session for it, as the cookie a browser would send. The user's password hash uses cheap scrypt
// parameters (stored with it, so it still verifies at the login route): suites create many users.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';
import { createUser, type Role, type ScryptParams } from '../../src/auth/users.ts';
import type { Database } from '../../src/db/schema.ts';

/** Fast enough for hundreds of users in a suite; never used outside tests. */
export const TEST_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1, keylen: 32 };

export interface TestAdmin {
  /** The request header value: `svc_session=<token>`. */
  cookie: string;
  csrfToken: string;
  email: string;
  password: string;
  userId: string;
  sessionId: string;
}

export async function createTestUser(db: Kysely<Database>, role: Role = 'admin') {
  const email = `${role}-${randomBytes(6).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await createUser(db, { email, role, password }, TEST_SCRYPT);
  if (user === 'email taken') throw new Error(`test user ${email} exists`);
  return { user, email, password };
}

export async function createAdminCookie(
  db: Kysely<Database>,
  options: { role?: Role; now?: Date } = {},
): Promise<TestAdmin> {
  const { user, email, password } = await createTestUser(db, options.role ?? 'admin');
  const { token, session } = await createSession(db, user, options.now);
  return { cookie: `${SESSION_COOKIE}=${token}`, csrfToken: session.csrfToken, email, password, userId: user.id, sessionId: session.sessionId };
}
