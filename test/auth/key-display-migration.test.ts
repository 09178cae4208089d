// Migration 0002 on rows stored before it, which held the first 8 raw characters of each key.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { hashApiKey } from '../../src/auth/api-keys.ts';
import * as keyDisplay from '../../src/db/migrations/0002_key_display.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const SEED_LABEL = 'seed (AUDIT_SEED_API_KEY)';

const rows: { name: string; rawKey: string; label: string | null; display: (hash: string) => string }[] = [
  { name: 'a generated key keeps ask_ and 4 characters', rawKey: `ask_AbCd${'x'.repeat(39)}`, label: 'ci', display: () => 'ask_AbCd' },
  { name: 'a seed becomes a fingerprint', rawKey: 'change-me-to-a-long-random-value', label: SEED_LABEL, display: (hash) => `sha256:${hash.slice(0, 8)}` },
  { name: 'a seed that starts like a generated key becomes a fingerprint', rawKey: 'ask_operator-typed-seed-value-0123', label: SEED_LABEL, display: (hash) => `sha256:${hash.slice(0, 8)}` },
  { name: 'any other key becomes a fingerprint', rawKey: 'some-older-key-format-0123456789', label: null, display: (hash) => `sha256:${hash.slice(0, 8)}` },
];

test('rows stored before 0002 are rewritten to their display form', async () => {
  const db = database.db as unknown as Kysely<any>;
  await keyDisplay.down(db); // back to the 0001 column, as an existing database has it
  const ids = new Map<string, string>();
  for (const row of rows) {
    const id = randomUUID();
    ids.set(row.name, id);
    await db.insertInto('api_keys').values({ id, key_hash: hashApiKey(row.rawKey), prefix: row.rawKey.slice(0, 8), label: row.label }).execute();
  }
  await keyDisplay.up(db);
  for (const row of rows) {
    const stored = await database.db.selectFrom('api_keys').select('display').where('id', '=', ids.get(row.name)!).executeTakeFirstOrThrow();
    assert.equal(stored.display, row.display(hashApiKey(row.rawKey)), row.name);
  }
});
