// Frozen once landed: later changes go in a new migration. Takes Kysely<any> and never imports
// app code, so it keeps meaning what it meant when it first ran.
//
// `api_keys.prefix` held the first 8 raw characters of every key: for an operator's 16-character
// seed, half the secret. The column becomes `display`, what the CLI shows instead of the key.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').renameColumn('prefix', 'display').execute();
  // A generated key's first 8 characters are `ask_` plus 4 random ones: already its display form.
  // Anything else, and any seed (an operator may have chosen one starting `ask_`), shows none of
  // the key: `sha256:` and the first 8 hex characters of its stored hash.
  await sql`
    update api_keys set display = 'sha256:' || left(key_hash, 8)
    where left(display, 4) <> 'ask_' or label = 'seed (AUDIT_SEED_API_KEY)'
  `.execute(db);
}

/** Restores the column's name only: the raw characters it held are gone for good. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').renameColumn('display', 'prefix').execute();
}
