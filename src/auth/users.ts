// Dashboard users: an email, a role and a password. Passwords are low-entropy secrets, so unlike
// API keys and session tokens they are stored as a slow, salted scrypt hash, with the salt and the
// cost parameters beside it: raising the cost later leaves existing passwords verifiable.
import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BaseLogger } from 'pino';
import type { Database } from '../db/schema.ts';
import { codePointName, DISRUPTIVE_CHARACTER } from '../unsafe-text.ts';

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const PASSWORD_MIN_LENGTH = 12;
/** scrypt's first step hashes the whole password; a bound keeps a request from feeding it megabytes. */
export const PASSWORD_MAX_LENGTH = 1024;
const EMAIL_MAX_LENGTH = 254;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keylen: number;
}

/** OWASP's recommended minimum for scrypt (N=2^17, r=8, p=1): 128 MiB and a few hundred ms per hash. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1, keylen: 32 };

export interface StoredPassword {
  /** base64 */
  hash: string;
  /** base64 */
  salt: string;
  params: ScryptParams;
}

export interface User {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  disabledAt: Date | null;
}

/**
 * NFKC, as NIST SP 800-63B advises: the same password typed on two keyboards or input methods can
 * arrive as different code points.
 */
function normalisePassword(password: string): string {
  return password.normalize('NFKC');
}

/** Why this password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...normalisePassword(password)].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long (got ${length})`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  return undefined;
}

/** Emails are compared case-insensitively: stored and looked up lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why this email is refused, or undefined. Deliverability is not the point: it is a login name. */
export function emailProblem(email: string): string | undefined {
  const normalised = normaliseEmail(email);
  if (normalised.length > EMAIL_MAX_LENGTH) return `must be at most ${EMAIL_MAX_LENGTH} characters long`;
  if (!/^[^\s@]+@[^\s@]+$/.test(normalised)) return 'must be an email address such as admin@example.com';
  // Emails are printed by the CLI and shown in the dashboard, as labels are: the same characters are refused.
  const disruptive = DISRUPTIVE_CHARACTER.exec(normalised)?.[0];
  if (disruptive !== undefined) return `must not contain control or bidirectional characters (found ${codePointName(disruptive)})`;
  return undefined;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const { N, r, p, keylen } = params;
  return new Promise((resolve, reject) => {
    // Node's default memory cap (32 MiB) is below what N=2^17, r=8 needs (128 MiB).
    scrypt(normalisePassword(password), salt, keylen, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<StoredPassword> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params);
  return { hash: hash.toString('base64'), salt: salt.toString('base64'), params: { ...params } };
}

export type PasswordVerifier = (stored: StoredPassword, password: string) => Promise<boolean>;

export const verifyPassword: PasswordVerifier = async (stored, password) => {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(password, Buffer.from(stored.salt, 'base64'), stored.params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/**
 * What an unknown email is checked against, so that it costs one scrypt run like a known one and
 * the two cannot be told apart by time. Random bytes: no password derives to them.
 */
export const DUMMY_PASSWORD: StoredPassword = {
  hash: randomBytes(DEFAULT_SCRYPT.keylen).toString('base64'),
  salt: randomBytes(16).toString('base64'),
  params: DEFAULT_SCRYPT,
};

function passwordColumns(stored: StoredPassword) {
  return {
    password_hash: stored.hash,
    password_salt: stored.salt,
    scrypt_n: stored.params.N,
    scrypt_r: stored.params.r,
    scrypt_p: stored.params.p,
    scrypt_keylen: stored.params.keylen,
  };
}

function selectUsers(db: Kysely<Database>) {
  return db.selectFrom('users').select(['id', 'email', 'role', 'created_at as createdAt', 'disabled_at as disabledAt']);
}

/** The refusal callers get for input they should have checked with emailProblem/passwordProblem. */
function assertValid(email: string, password: string | undefined): void {
  const problem = emailProblem(email) ?? (password === undefined ? undefined : passwordProblem(password));
  if (problem) throw new TypeError(`invalid user input: ${problem}`);
}

export interface NewUser {
  email: string;
  role: Role;
  password: string;
}

/** Creates the user, or answers 'email taken' (emails are unique regardless of case). */
export async function createUser(
  db: Kysely<Database>,
  input: NewUser,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<User | 'email taken'> {
  assertValid(input.email, input.password);
  const stored = await hashPassword(input.password, params);
  const row = await db
    .insertInto('users')
    .values({ id: randomUUID(), email: normaliseEmail(input.email), role: input.role, ...passwordColumns(stored) })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email', 'role', 'created_at as createdAt', 'disabled_at as disabledAt'])
    .executeTakeFirst();
  return row ?? 'email taken';
}

export function listUsers(db: Kysely<Database>): Promise<User[]> {
  return selectUsers(db).orderBy('created_at').orderBy('email').execute();
}

export function findUser(db: Kysely<Database>, email: string): Promise<User | undefined> {
  return selectUsers(db).where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

/** The user and their stored password, for login. */
export async function findCredentials(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: User; password: StoredPassword } | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    user: { id: row.id, email: row.email, role: row.role, createdAt: row.created_at, disabledAt: row.disabled_at },
    password: {
      hash: row.password_hash,
      salt: row.password_salt,
      params: { N: row.scrypt_n, r: row.scrypt_r, p: row.scrypt_p, keylen: row.scrypt_keylen },
    },
  };
}

/** Ends every open session of the user (disabling, a new password). */
async function endSessionsOf(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null).execute();
}

export type DisableResult = 'disabled' | 'already-disabled' | 'not-found';

/** Disables the user and ends their sessions, in one transaction. */
export function disableUser(db: Kysely<Database>, email: string, now = new Date()): Promise<DisableResult> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'disabled_at']).where('email', '=', normaliseEmail(email)).forUpdate().executeTakeFirst();
    if (!user) return 'not-found';
    // Sessions are ended even when already disabled: nothing should survive a disable, whatever came before.
    await endSessionsOf(trx, user.id, now);
    if (user.disabled_at) return 'already-disabled';
    await trx.updateTable('users').set({ disabled_at: now }).where('id', '=', user.id).execute();
    return 'disabled';
  });
}

export type EnableResult = 'enabled' | 'already-enabled' | 'not-found';

export async function enableUser(db: Kysely<Database>, email: string): Promise<EnableResult> {
  const user = await findUser(db, email);
  if (!user) return 'not-found';
  if (!user.disabledAt) return 'already-enabled';
  await db.updateTable('users').set({ disabled_at: null }).where('id', '=', user.id).execute();
  return 'enabled';
}

export type SetRoleResult = 'updated' | 'unchanged' | 'not-found';

/** Takes effect on the user's next request: sessions read the role from the user, not a copy. */
export async function setRole(db: Kysely<Database>, email: string, role: Role): Promise<SetRoleResult> {
  const user = await findUser(db, email);
  if (!user) return 'not-found';
  if (user.role === role) return 'unchanged';
  await db.updateTable('users').set({ role }).where('id', '=', user.id).execute();
  return 'updated';
}

/** Replaces the password and ends the user's sessions: a new password is often a reaction to a leak. */
export async function setPassword(
  db: Kysely<Database>,
  email: string,
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
  now = new Date(),
): Promise<'updated' | 'not-found'> {
  assertValid(email, password);
  const user = await findUser(db, email);
  if (!user) return 'not-found';
  const stored = await hashPassword(password, params);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set(passwordColumns(stored)).where('id', '=', user.id).execute();
    await endSessionsOf(trx, user.id, now);
  });
  return 'updated';
}

export type SeedAdminStatus = 'created' | 'present';

/**
 * The admin named by AUDIT_ADMIN_EMAIL/AUDIT_ADMIN_PASSWORD, created when missing; idempotent and
 * safe for several processes starting at once. An existing user is left exactly as it is (role,
 * password, disabled): the CLI manages users, the environment only bootstraps the first one.
 */
export async function ensureSeedAdmin(
  db: Kysely<Database>,
  email: string,
  password: string,
  log: Pick<BaseLogger, 'info'>,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<SeedAdminStatus> {
  const existing = await findUser(db, email);
  if (!existing) {
    const created = await createUser(db, { email, role: 'admin', password }, params);
    if (created !== 'email taken') {
      log.info({ userId: created.id, email: created.email }, 'admin user created from AUDIT_ADMIN_EMAIL');
      return 'created';
    }
  }
  const user = existing ?? (await findUser(db, email))!;
  log.info(
    { userId: user.id, email: user.email, role: user.role, disabled: user.disabledAt !== null },
    'admin user from AUDIT_ADMIN_EMAIL already exists; left as is (AUDIT_ADMIN_PASSWORD is not applied to it)',
  );
  return 'present';
}
