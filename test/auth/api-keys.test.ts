import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import {
  authenticateApiKey,
  createApiKey,
  ensureSeedKey,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../src/auth/api-keys.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

test('only the SHA-256 of a key is stored, never the raw value', async () => {
  const { id, rawKey } = await createApiKey(database.db, 'ci');
  const row = await database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.key_hash, hashApiKey(rawKey));
  assert.match(row.key_hash, /^[0-9a-f]{64}$/);
  const dump = JSON.stringify(await sql`select * from api_keys`.execute(database.db));
  assert.equal(dump.includes(rawKey), false);
  assert.equal(rawKey.startsWith(row.prefix), true);
  assert.ok(row.prefix.length <= 8);
});

test('the seed key is inserted once however often the service starts', async () => {
  const seed = 'seed-key-for-tests-0123456789';
  const first = await ensureSeedKey(database.db, seed);
  const second = await ensureSeedKey(database.db, seed);
  assert.equal(first.inserted, true);
  assert.equal(second.inserted, false);
  assert.equal(second.id, first.id);
  const rows = await database.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashApiKey(seed)).execute();
  assert.equal(rows.length, 1);
});

test('rotation adds the new seed and keeps the old one active until revoked', async () => {
  const oldSeed = 'rotation-old-seed-0123456789';
  const newSeed = 'rotation-new-seed-0123456789';
  const old = await ensureSeedKey(database.db, oldSeed);
  await ensureSeedKey(database.db, newSeed);
  assert.deepEqual(await authenticateApiKey(database.db, oldSeed), { id: old.id });
  assert.ok(await authenticateApiKey(database.db, newSeed));
  assert.equal(await revokeApiKey(database.db, old.id), 'revoked');
  assert.equal(await authenticateApiKey(database.db, oldSeed), undefined);
  assert.ok(await authenticateApiKey(database.db, newSeed));
  // Starting again with the old value does not bring a revoked key back.
  await ensureSeedKey(database.db, oldSeed);
  assert.equal(await authenticateApiKey(database.db, oldSeed), undefined);
});

test('authentication rejects missing, unknown and revoked keys alike', async () => {
  const { id, rawKey } = await createApiKey(database.db, null);
  for (const candidate of [undefined, '', 'nope', rawKey.slice(0, -1), `${rawKey} `]) {
    assert.equal(await authenticateApiKey(database.db, candidate), undefined, String(candidate));
  }
  assert.deepEqual(await authenticateApiKey(database.db, rawKey), { id });
  await revokeApiKey(database.db, id);
  assert.equal(await authenticateApiKey(database.db, rawKey), undefined);
});

test('revoke reports unknown and already revoked ids', async () => {
  const { id } = await createApiKey(database.db, null);
  assert.equal(await revokeApiKey(database.db, id), 'revoked');
  assert.equal(await revokeApiKey(database.db, id), 'already-revoked');
  assert.equal(await revokeApiKey(database.db, '00000000-0000-4000-8000-000000000000'), 'not-found');
  assert.equal(await revokeApiKey(database.db, 'not-a-uuid'), 'not-found');
  const listed = (await listApiKeys(database.db)).find((row) => row.id === id);
  assert.ok(listed?.revokedAt instanceof Date);
});
