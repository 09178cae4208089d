import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import {
  API_KEY_LABEL_MAX_LENGTH,
  authenticateApiKey,
  checkApiKeyLabel,
  createApiKey,
  createApiKeyOnce,
  ensureSeedKey,
  getApiKey,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../src/auth/api-keys.ts';
import * as keyDisplay from '../../src/db/migrations/0002_key_display.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

/** A logger that keeps every line it writes, parsed. */
function capturingLogger() {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const quiet = capturingLogger().log;

test('only the SHA-256 of a key is stored, never the raw value', async () => {
  const { id, rawKey } = await createApiKey(database.db, 'ci');
  const row = await database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.key_hash, hashApiKey(rawKey));
  assert.match(row.key_hash, /^[0-9a-f]{64}$/);
  const dump = JSON.stringify(await sql`select * from api_keys`.execute(database.db));
  assert.equal(dump.includes(rawKey), false);
});

test('a generated key is the type prefix and 32 random bytes, displayed as the prefix and 4 characters', async () => {
  const { id, rawKey } = await createApiKey(database.db, 'ci');
  assert.match(rawKey, /^ask_[A-Za-z0-9_-]{43}$/);
  const row = await getApiKey(database.db, id);
  assert.equal(row?.display, rawKey.slice(0, 8));
});

test('a seed key displays as a fingerprint of its hash, none of its characters', async () => {
  const seed = 'ask_operator-chosen-seed-0123456789abcdef';
  const { id } = await ensureSeedKey(database.db, seed, quiet);
  const row = await getApiKey(database.db, id);
  assert.equal(row?.display, `sha256:${hashApiKey(seed).slice(0, 8)}`);
  assert.equal(row?.label, 'seed (AUDIT_SEED_API_KEY)');
});

test('the seed key is inserted once however often the service starts', async () => {
  const seed = 'seed-key-for-tests-0123456789abcdef';
  const first = await ensureSeedKey(database.db, seed, quiet);
  const second = await ensureSeedKey(database.db, seed, quiet);
  assert.equal(first.status, 'created');
  assert.equal(second.status, 'present');
  assert.equal(second.id, first.id);
  const rows = await database.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashApiKey(seed)).execute();
  assert.equal(rows.length, 1);
});

test('rotation adds the new seed and keeps the old one active until revoked', async () => {
  const oldSeed = 'rotation-old-seed-0123456789abcdef';
  const newSeed = 'rotation-new-seed-0123456789abcdef';
  const old = await ensureSeedKey(database.db, oldSeed, quiet);
  await ensureSeedKey(database.db, newSeed, quiet);
  assert.deepEqual(await authenticateApiKey(database.db, oldSeed), { id: old.id });
  assert.ok(await authenticateApiKey(database.db, newSeed));
  assert.equal(await revokeApiKey(database.db, old.id), 'revoked');
  assert.equal(await authenticateApiKey(database.db, oldSeed), undefined);
  assert.ok(await authenticateApiKey(database.db, newSeed));
  // Starting again with the old value does not bring a revoked key back.
  assert.equal((await ensureSeedKey(database.db, oldSeed, quiet)).status, 'revoked');
  assert.equal(await authenticateApiKey(database.db, oldSeed), undefined);
});

test('each start reports the seed key as created, present or revoked, without the key', async () => {
  const seed = 'logged-seed-key-0123456789abcdef-xyz';
  const { log, lines } = capturingLogger();
  const cases: { before?: (id: string) => Promise<unknown>; level: number; msg: RegExp }[] = [
    { level: 30, msg: /^seed API key created$/ },
    { level: 30, msg: /^seed API key present$/ },
    { before: (id) => revokeApiKey(database.db, id), level: 40, msg: /^seed API key is revoked and stays revoked/ },
    { level: 40, msg: /^seed API key is revoked and stays revoked/ },
  ];
  let id = '';
  for (const [index, expected] of cases.entries()) {
    await expected.before?.(id);
    id = (await ensureSeedKey(database.db, seed, log)).id;
    const line = lines[index];
    assert.equal(lines.length, index + 1, `start ${index + 1} logs one line`);
    assert.equal(line?.level, expected.level, `start ${index + 1}: ${line?.msg}`);
    assert.match(line!.msg, expected.msg);
    assert.equal(line!.keyId, id);
  }
  assert.equal(typeof lines.at(-1)!.revokedAt, 'string');
  assert.equal(JSON.stringify(lines).includes(seed), false);
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

test('a key is found by id; unknown and malformed ids are not found', async () => {
  const { id } = await createApiKey(database.db, 'lookup');
  assert.deepEqual(
    await getApiKey(database.db, id),
    (await listApiKeys(database.db)).find((row) => row.id === id),
  );
  for (const unknown of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '']) {
    assert.equal(await getApiKey(database.db, unknown), undefined, unknown);
  }
});

test('labels: controls and text-direction characters refused, length bounded; letters, emoji and spaces accepted', () => {
  const refused: [name: string, label: string, problem: RegExp][] = [
    ['tab', 'ci\tpipeline', /found U\+0009$/],
    ['newline', 'ci\npipeline', /found U\+000A$/],
    ['carriage return', 'ci\rpipeline', /found U\+000D$/],
    ['NUL', 'ci\u0000', /found U\+0000$/],
    ['escape sequence', '\u001b[2J\u001b[31mred', /found U\+001B$/],
    ['bell', 'ding\u0007', /found U\+0007$/],
    ['DEL', 'rub\u007fout', /found U\+007F$/],
    ['C1 CSI', 'c1\u009b31m', /found U\+009B$/],
    ['C1 first', '\u0080x', /found U\+0080$/],
    ['C1 last', 'x\u009f', /found U\+009F$/],
    ['right-to-left override', 'invoice \u202Efdp.exe', /found U\+202E$/],
    ['left-to-right embedding', '\u202Ax', /found U\+202A$/],
    ['pop directional formatting', 'x\u202C', /found U\+202C$/],
    ['left-to-right isolate', '\u2066x', /found U\+2066$/],
    ['pop directional isolate', 'x\u2069', /found U\+2069$/],
    ['left-to-right mark', 'a\u200Eb', /found U\+200E$/],
    ['right-to-left mark', 'a\u200Fb', /found U\+200F$/],
    ['Arabic letter mark', 'a\u061Cb', /found U\+061C$/],
    ['line separator', 'a\u2028b', /found U\+2028$/],
    ['paragraph separator', 'a\u2029b', /found U\+2029$/],
    ['one over the bound', 'x'.repeat(API_KEY_LABEL_MAX_LENGTH + 1), /^must be at most 200 characters long \(got 201\)$/],
    ['emoji over the bound', '🚀'.repeat(API_KEY_LABEL_MAX_LENGTH + 1), /^must be at most 200 characters long \(got 201\)$/],
  ];
  for (const [name, label, problem] of refused) {
    const check = checkApiKeyLabel(label);
    assert.equal(check.ok, false, name);
    if (!check.ok) assert.match(check.problem, problem, name);
  }
  const accepted: [name: string, input: string | undefined, label: string | null][] = [
    ['plain', 'ci pipeline', 'ci pipeline'],
    ['trimmed', '  ci  ', 'ci'],
    ['blank is none', '   ', null],
    ['absent is none', undefined, null],
    ['accented and other scripts', 'Zoë’s build – 東京 – عربي – Ελληνικά', 'Zoë’s build – 東京 – عربي – Ελληνικά'],
    ['emoji with a joiner and a variation selector', 'ops 👩‍💻 ❤️ 🇫🇷', 'ops 👩‍💻 ❤️ 🇫🇷'],
    ['inner spaces and a no-break space', 'a  b\u00A0c', 'a  b\u00A0c'],
    ['just below C1', 'x\u007e', 'x~'],
    ['just above C1', 'x\u00A0y', 'x\u00A0y'],
    ['zero-width space (not a direction control)', 'a\u200Bb', 'a\u200Bb'],
    ['just above the overrides (narrow no-break space)', 'a\u202Fb', 'a\u202Fb'],
    ['the bound exactly, in code points', '🚀'.repeat(API_KEY_LABEL_MAX_LENGTH), '🚀'.repeat(API_KEY_LABEL_MAX_LENGTH)],
  ];
  for (const [name, input, label] of accepted) assert.deepEqual(checkApiKeyLabel(input), { ok: true, label }, name);
});

test('the store refuses a label that was not checked, whichever way the key is created', async () => {
  for (const label of ['tab\there', ' untrimmed ', '', 'x'.repeat(201)]) {
    await assert.rejects(createApiKey(database.db, label), TypeError, JSON.stringify(label));
    await assert.rejects(createApiKeyOnce(database.db, randomUUID(), label), TypeError, JSON.stringify(label));
  }
});

// Migration 0002 on rows stored before it, which held the first 8 raw characters of each key. It
// runs in this file, on this file's database, rather than in a file of its own: on PostgreSQL,
// Kysely's migrator mistakes another test schema's migration tables for its own, so two files
// migrating at once can fail.
test('rows stored before 0002 are rewritten to their display form', async () => {
  const seedLabel = 'seed (AUDIT_SEED_API_KEY)';
  const fingerprint = (rawKey: string) => `sha256:${hashApiKey(rawKey).slice(0, 8)}`;
  const rows: { rawKey: string; label: string | null; display: string }[] = [
    { rawKey: `ask_AbCd${'x'.repeat(39)}`, label: 'ci', display: 'ask_AbCd' }, // generated: kept
    { rawKey: 'change-me-to-a-long-random-value', label: seedLabel, display: fingerprint('change-me-to-a-long-random-value') },
    // An operator's seed that happens to look like a generated key still shows none of itself.
    { rawKey: 'ask_operator-typed-seed-value-0123', label: seedLabel, display: fingerprint('ask_operator-typed-seed-value-0123') },
    { rawKey: 'some-older-key-format-0123456789', label: null, display: fingerprint('some-older-key-format-0123456789') },
  ];
  const db = database.db as unknown as Kysely<any>;
  await keyDisplay.down(db); // back to the 0001 column, as an existing database has it
  const ids = rows.map(() => randomUUID());
  for (const [index, row] of rows.entries()) {
    await db
      .insertInto('api_keys')
      .values({ id: ids[index], key_hash: hashApiKey(row.rawKey), prefix: row.rawKey.slice(0, 8), label: row.label })
      .execute();
  }
  await keyDisplay.up(db);
  for (const [index, row] of rows.entries()) {
    assert.equal((await getApiKey(database.db, ids[index]!))?.display, row.display, row.rawKey);
  }
});
