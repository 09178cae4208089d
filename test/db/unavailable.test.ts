// Which errors the HTTP layer answers with 503 (the database is away or did not answer in time)
// rather than 500 (a fault in the service): a table with near-misses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../src/db/unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

const cases: [string, unknown, boolean][] = [
  ['57P01 from a restart', withCode('terminating connection due to administrator command', '57P01'), true],
  ['57P03 while the server starts', withCode('the database system is starting up', '57P03'), true],
  ['statement_timeout (57014)', withCode('canceling statement due to statement timeout', '57014'), true],
  ['08006 connection failure', withCode('connection failure', '08006'), true],
  ['too many connections', withCode('sorry, too many clients already', '53300'), true],
  ['ECONNREFUSED', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), true],
  ['ECONNRESET', withCode('read ECONNRESET', 'ECONNRESET'), true],
  ['both addresses refused', new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], 'connect failed'), true],
  ['node-postgres read timeout', new Error('Query read timeout'), true],
  ['node-postgres pool wait', new Error('timeout exceeded when trying to connect'), true],
  ['the connection ended under a query', new Error('Connection terminated unexpectedly'), true],
  ['a wrapped cause (a migration that could not connect)', new Error('Migration failed', { cause: withCode('x', 'ECONNREFUSED') }), true],
  ['our own bound', new DatabaseUnavailableError('no answer within 1500 ms'), true],
  // Near-misses: faults of a statement or of the service, which stay 500s (or are retried).
  ['a unique violation', withCode('duplicate key value violates unique constraint', '23505'), false],
  ['a serialization failure (retried by the store)', withCode('could not serialize access', '40001'), false],
  ['a syntax error', withCode('syntax error at or near "selec"', '42601'), false],
  ['an undefined table', withCode('relation "x" does not exist', '42P01'), false],
  ['a TypeError', new TypeError('Cannot read properties of undefined'), false],
  ['a string', 'Connection terminated', false],
  ['undefined', undefined, false],
];

for (const [name, error, unavailable] of cases) {
  test(`${name}: ${unavailable ? '503' : 'not a database outage'}`, () => {
    assert.equal(isDatabaseUnavailable(error), unavailable);
  });
}
