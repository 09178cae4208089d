// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// Dashboard users, their sessions and the login throttle's record of attempts.
// - A password is stored as its scrypt hash with the salt and the cost parameters beside it, so
//   parameters can be raised later without invalidating anyone's password.
// - A session is stored as the SHA-256 of its token: the token is high-entropy, so a fast hash
//   under a unique index is enough, and a copy of the table cannot be replayed as cookies.
// - Login attempts are rows, not counters, so the throttle is a sliding window shared by every
//   process on one PostgreSQL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Stored lower-cased, so the unique index is case-insensitive without the citext extension.
    .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('password_salt', 'text', (c) => c.notNull())
    .addColumn('scrypt_n', 'integer', (c) => c.notNull())
    .addColumn('scrypt_r', 'integer', (c) => c.notNull())
    .addColumn('scrypt_p', 'integer', (c) => c.notNull())
    .addColumn('scrypt_keylen', 'integer', (c) => c.notNull())
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  // Logins delete sessions past the absolute timeout by their start time.
  await db.schema.createIndex('sessions_created_idx').on('sessions').column('created_at').execute();

  // One row per login attempt within the throttle window: a failure stays, a success removes it.
  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('client_address', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempts_email_idx').on('login_attempts').columns(['email', 'attempted_at']).execute();
  await db.schema.createIndex('login_attempts_address_idx').on('login_attempts').columns(['client_address', 'attempted_at']).execute();
  await db.schema.createIndex('login_attempts_time_idx').on('login_attempts').column('attempted_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_attempts', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
