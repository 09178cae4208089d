// Statements marked PREPARED are sent as named prepared statements (planned once per connection);
// every other statement stays unnamed. Both stores, through the same pool wrapper.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { PREPARED } from '../../src/db/prepared.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

/** Runs `work` and then lists the connection's prepared statements, on one connection. */
async function preparedAfter(work: (trx: TestDatabase['db']) => Promise<unknown>): Promise<string[]> {
  return database.db.transaction().execute(async (trx) => {
    await work(trx);
    const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(trx);
    return rows.map((row) => row.name);
  });
}

test('a marked statement is prepared under its name and a hash of its text, and answers as before', async () => {
  const names = await preparedAfter(async (trx) => {
    const { rows } = await sql<{ n: number }>`${PREPARED('probe')} select ${41}::int + 1 as n`.execute(trx);
    assert.deepEqual(rows, [{ n: 42 }]);
    // Again, with another value: the prepared statement is reused with the new parameter.
    const again = await sql<{ n: number }>`${PREPARED('probe')} select ${1}::int + 1 as n`.execute(trx);
    assert.deepEqual(again.rows, [{ n: 2 }]);
  });
  assert.equal(names.filter((name) => name.startsWith('probe-')).length, 1, names.join());
});

test('two texts under one marker name are two statements, each with its own answer', async () => {
  const names = await preparedAfter(async (trx) => {
    assert.deepEqual((await sql<{ v: string }>`${PREPARED('twin')} select 'first' as v`.execute(trx)).rows, [{ v: 'first' }]);
    assert.deepEqual((await sql<{ v: string }>`${PREPARED('twin')} select 'second' as v`.execute(trx)).rows, [{ v: 'second' }]);
    assert.deepEqual((await sql<{ v: string }>`${PREPARED('twin')} select 'first' as v`.execute(trx)).rows, [{ v: 'first' }]);
  });
  assert.equal(names.filter((name) => name.startsWith('twin-')).length, 2, names.join());
});

test('an unmarked statement is not prepared (near miss: the marker anywhere but at the start)', async () => {
  const names = await preparedAfter(async (trx) => {
    await sql`select 1 as plain`.execute(trx);
    await sql`select 1 as later /* prepared: late */`.execute(trx);
  });
  assert.deepEqual(names.filter((name) => name.startsWith('late')), []);
  assert.ok(!names.some((name) => name.includes('plain')));
});
