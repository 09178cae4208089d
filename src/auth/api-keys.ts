// API keys are high-entropy secrets, so a fast SHA-256 under a unique index is the right store:
// the raw key is never persisted, logged or returned after `create` prints it once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ApiKeyIdentity {
  id: string;
}

export interface ApiKeyRow {
  id: string;
  prefix: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

const PREFIX_LENGTH = 8;

export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/** A new raw key: 32 random bytes, base64url, with a recognisable prefix for secret scanners. */
export function generateRawKey(): string {
  return `ask_${randomBytes(32).toString('base64url')}`;
}

async function insertKey(db: Kysely<Database>, rawKey: string, label: string | null): Promise<{ id: string; inserted: boolean }> {
  const keyHash = hashApiKey(rawKey);
  const inserted = await db
    .insertInto('api_keys')
    .values({ id: randomUUID(), key_hash: keyHash, prefix: rawKey.slice(0, PREFIX_LENGTH), label })
    .onConflict((conflict) => conflict.column('key_hash').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, inserted: true };
  const existing = await db.selectFrom('api_keys').select('id').where('key_hash', '=', keyHash).executeTakeFirstOrThrow();
  return { id: existing.id, inserted: false };
}

/**
 * Inserts the seed key's hash when it is absent; idempotent, safe for several processes starting
 * at once. A previously revoked seed stays revoked: rotation means setting a new value.
 */
export function ensureSeedKey(db: Kysely<Database>, rawKey: string) {
  return insertKey(db, rawKey, 'seed (AUDIT_SEED_API_KEY)');
}

export async function createApiKey(db: Kysely<Database>, label: string | null): Promise<{ id: string; rawKey: string }> {
  const rawKey = generateRawKey();
  const { id } = await insertKey(db, rawKey, label);
  return { id, rawKey };
}

/** The active key with this raw value, or undefined for unknown and revoked keys alike. */
export async function authenticateApiKey(db: Kysely<Database>, rawKey: string | undefined): Promise<ApiKeyIdentity | undefined> {
  if (!rawKey) return undefined;
  return db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', '=', hashApiKey(rawKey))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeyRow[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

export type RevokeResult = 'revoked' | 'already-revoked' | 'not-found';

export async function revokeApiKey(db: Kysely<Database>, id: string): Promise<RevokeResult> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return 'not-found';
  const updated = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (updated) return 'revoked';
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
  return exists ? 'already-revoked' : 'not-found';
}
