// The login throttle's three counts on a real database with an injected clock: per (email, client
// address) pair, per address, and the far higher per-email ceiling; that a guesser at one address
// cannot lock the owner out elsewhere; and that a user's email and an unknown one fare alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { attemptLogin, type LoginOutcome } from '../../src/auth/sessions.ts';
import { DUMMY_PASSWORD, verifyPassword, type StoredPassword } from '../../src/auth/users.ts';
import { createTestUser } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

const PAIR = 3;
const ADDRESS = 6;
const CEILING = 8;
const WINDOW_MINUTES = 10;
const config = loadConfig({
  AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: String(PAIR),
  AUDIT_LOGIN_MAX_FAILURES_PER_ADDRESS: String(ADDRESS),
  AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: String(CEILING),
  AUDIT_LOGIN_THROTTLE_WINDOW_MINUTES: String(WINDOW_MINUTES),
});
const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

let addressCounter = 0;
/** A client address no other test uses. */
const freshAddress = () => `198.51.100.${++addressCounter}`;

/**
 * The dummy hash answers "no" without the default scrypt run: test/auth/sessions.test.ts checks
 * that an unknown email costs that run; here only the throttle's decisions matter.
 */
const quickVerify = async (stored: StoredPassword, password: string) => (stored === DUMMY_PASSWORD ? false : verifyPassword(stored, password));

const signIn = (email: string, password: string, client: string, minute = 0) =>
  attemptLogin(database.db, config, email, password, client, { now: at(minute), verifyPassword: quickVerify });

/** The outcome as the routes show it: the user id goes only to the operator's log. */
function answer(outcome: LoginOutcome) {
  if (outcome.outcome === 'invalid') return { outcome: 'invalid' };
  if (outcome.outcome === 'signed-in') return { outcome: 'signed-in' };
  return outcome;
}

async function fail(email: string, client: string, times: number, minute = 0) {
  for (let i = 0; i < times; i++) assert.equal((await signIn(email, `wrong password ${i}`, client, minute)).outcome, 'invalid');
}

test('defaults: five wrong passwords from one address do not lock the owner out elsewhere (issue 17)', async () => {
  const defaults = loadConfig({}).admin.loginThrottle;
  const withDefaults = { admin: { ...config.admin, loginThrottle: defaults } };
  const login = (email: string, password: string, client: string) =>
    attemptLogin(database.db, withDefaults, email, password, client, { now: at(1), verifyPassword: quickVerify });
  const victim = await createTestUser(database.db);
  const guesser = freshAddress();
  for (let i = 0; i < 5; i++) assert.equal((await login(victim.email, `wrong password ${i}`, guesser)).outcome, 'invalid');
  assert.equal((await login(victim.email, victim.password, freshAddress())).outcome, 'signed-in');
  assert.equal((await login(victim.email, victim.password, guesser)).outcome, 'throttled');
});

describe(`per (email, address): ${PAIR} failures throttle that pair only`, () => {
  const cases: { name: string; then: (victim: { email: string; password: string }, guesser: string) => Promise<LoginOutcome>; expected: string }[] = [
    { name: 'the guesser, right password', then: (v, guesser) => signIn(v.email, v.password, guesser, 1), expected: 'throttled' },
    { name: 'the guesser, the email in capitals', then: (v, guesser) => signIn(v.email.toUpperCase(), v.password, guesser, 1), expected: 'throttled' },
    { name: 'the owner at another address, right password', then: (v) => signIn(v.email, v.password, freshAddress(), 1), expected: 'signed-in' },
    { name: 'the owner at another address, wrong password', then: (v) => signIn(v.email, 'still wrong', freshAddress(), 1), expected: 'invalid' },
    {
      name: 'the guesser’s address on another email',
      then: async (_v, guesser) => {
        const other = await createTestUser(database.db);
        return signIn(other.email, other.password, guesser, 1);
      },
      expected: 'signed-in',
    },
    { name: 'the guesser once the first failure left the window', then: (v, guesser) => signIn(v.email, v.password, guesser, WINDOW_MINUTES), expected: 'signed-in' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const victim = await createTestUser(database.db);
      const guesser = freshAddress();
      await fail(victim.email, guesser, PAIR);
      assert.equal((await c.then(victim, guesser)).outcome, c.expected);
    });
  }

  test(`near miss: ${PAIR - 1} failures, the same address still gets its answer`, async () => {
    const victim = await createTestUser(database.db);
    const guesser = freshAddress();
    await fail(victim.email, guesser, PAIR - 1);
    assert.equal((await signIn(victim.email, victim.password, guesser, 1)).outcome, 'signed-in');
  });

  test('the pair’s wait is the time until its oldest counted failure leaves the window', async () => {
    const victim = await createTestUser(database.db);
    const guesser = freshAddress();
    await fail(victim.email, guesser, PAIR, 2);
    assert.deepEqual(await signIn(victim.email, victim.password, guesser, 5), { outcome: 'throttled', retryAfterSeconds: (WINDOW_MINUTES - 3) * 60 });
  });
});

describe(`per address: ${ADDRESS} failures on any emails throttle the address`, () => {
  test('a sprayer is stopped although no pair is at its limit; other addresses are not', async () => {
    const sprayer = freshAddress();
    for (let i = 0; i < ADDRESS; i++) await fail(`sprayed-${i}@example.test`, sprayer, 1);
    const user = await createTestUser(database.db);
    assert.equal((await signIn(user.email, user.password, sprayer, 1)).outcome, 'throttled');
    assert.equal((await signIn(user.email, user.password, freshAddress(), 1)).outcome, 'signed-in');
  });
});

describe(`per email: the ceiling of ${CEILING} failures from all addresses together`, () => {
  /** CEILING - 1 or CEILING failures, each address stopping at the pair limit. */
  async function spread(email: string, failures: number) {
    for (let done = 0; done < failures; done += PAIR) await fail(email, freshAddress(), Math.min(PAIR, failures - done));
  }

  test('reached from many addresses, it throttles every address, the owner’s too', async () => {
    const victim = await createTestUser(database.db);
    await spread(victim.email, CEILING);
    assert.deepEqual(await signIn(victim.email, victim.password, freshAddress(), 1), { outcome: 'throttled', retryAfterSeconds: (WINDOW_MINUTES - 1) * 60 });
    // When the first failures leave the window, the owner gets in again.
    assert.equal((await signIn(victim.email, victim.password, freshAddress(), WINDOW_MINUTES)).outcome, 'signed-in');
  });

  test(`near miss: ${CEILING - 1} failures from many addresses, the owner signs in`, async () => {
    const victim = await createTestUser(database.db);
    await spread(victim.email, CEILING - 1);
    assert.equal((await signIn(victim.email, victim.password, freshAddress(), 1)).outcome, 'signed-in');
  });

  test('the owner’s success does not give the distributed guesser a fresh ceiling', async () => {
    const victim = await createTestUser(database.db);
    await spread(victim.email, CEILING - 1);
    assert.equal((await signIn(victim.email, victim.password, freshAddress(), 1)).outcome, 'signed-in');
    await fail(victim.email, freshAddress(), 1, 1);
    assert.equal((await signIn(victim.email, victim.password, freshAddress(), 2)).outcome, 'throttled');
  });
});

test('a user’s email and an unknown one get the same answer in every state', async () => {
  const known = await createTestUser(database.db);
  const unknown = `nobody-${known.user.id}@example.test`;
  /** The same script for both emails, each on addresses of its own. */
  async function script(email: string) {
    const [first, second] = [freshAddress(), freshAddress()];
    const answers: unknown[] = [];
    const record = async (client: string, minute: number) => answers.push(answer(await signIn(email, 'a wrong password', client, minute)));
    for (let i = 0; i < PAIR; i++) await record(first, 0); // counted failures
    await record(first, 1); // the pair throttled
    await record(second, 2); // another address: a failure again
    for (let i = 0; i < CEILING - PAIR - 1; i++) await record(freshAddress(), 3); // up to the ceiling
    await record(freshAddress(), 4); // the ceiling throttles a fresh address
    await record(first, WINDOW_MINUTES); // the first failures have left the window
    return answers;
  }
  const knownAnswers = await script(known.email);
  assert.deepEqual(await script(unknown), knownAnswers);
  assert.deepEqual(
    knownAnswers.map((a) => (a as LoginOutcome).outcome),
    [...Array(PAIR).fill('invalid'), 'throttled', 'invalid', ...Array(CEILING - PAIR - 1).fill('invalid'), 'throttled', 'invalid'],
  );
});
