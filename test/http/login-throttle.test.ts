// Issue 17 §1 end to end: through both sign-in routes and a real database, failures from one
// client address do not lock the owner out at another; the per-email ceiling, reached from many
// addresses, does; and a user's email and an unknown one get the same answers all along.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestUser } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { openSignInPage } from '../dashboard/support.ts';

let database: TestDatabase;
/** The default throttle: 5 per (email, address), 20 per address, 50 per email, 15 minutes. */
let service: TestService;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, delivery: { enabled: false } });
});
after(async () => {
  await service.close();
  await database.close();
});

let addressCounter = 0;
/** A client address no other test uses (the route takes the TCP peer: no AUDIT_TRUST_PROXY). */
const freshAddress = () => `203.0.113.${++addressCounter}`;

/** A sign-in posted from the service's own pages, as a browser would send it. */
const SAME_ORIGIN = { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' };

const routes = [
  {
    name: 'POST /api/v1/session',
    signedIn: 204,
    post: (app: TestService['app'], email: string, password: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/v1/session', payload: { email, password }, remoteAddress, headers: SAME_ORIGIN }),
  },
  {
    name: 'POST /dashboard/login',
    signedIn: 303,
    // The sign-in form's token and cookie, as a browser has them from the sign-in page.
    post: async (app: TestService['app'], email: string, password: string, remoteAddress: string) => {
      const { cookie, token } = await openSignInPage(app);
      return app.inject({
        method: 'POST',
        url: '/dashboard/login',
        payload: new URLSearchParams({ email, password, _csrf: token }).toString(),
        remoteAddress,
        headers: { ...SAME_ORIGIN, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
    },
  },
];

describe('five wrong passwords from address A', () => {
  for (const route of routes) {
    test(`${route.name}: the right password from address B signs in; A stays throttled for that email`, async () => {
      const admin = await createTestUser(database.db, 'admin');
      const [a, b] = [freshAddress(), freshAddress()];
      for (let i = 0; i < 5; i++) assert.equal((await route.post(service.app, admin.email, `wrong password ${i}`, a)).statusCode, 401);
      const owner = await route.post(service.app, admin.email, admin.password, b);
      assert.equal(owner.statusCode, route.signedIn, owner.body);
      assert.ok([owner.headers['set-cookie']].flat().some((cookie) => cookie?.startsWith('svc_session=')), 'a session cookie is set');
      const guesser = await route.post(service.app, admin.email, admin.password, a);
      assert.equal(guesser.statusCode, 429);
      assert.ok(Number(guesser.headers['retry-after']) > 14 * 60, 'the pair waits for its oldest failure to leave the 15-minute window');
      assert.equal(guesser.headers['set-cookie'], undefined);
    });
  }
});

describe('the per-email ceiling (8 here) reached from several addresses', () => {
  let ceiling: TestService;
  before(async () => {
    ceiling = await startTestService({
      database,
      routes: {},
      fixture: service.fixture,
      delivery: { enabled: false },
      env: { AUDIT_LOGIN_MAX_FAILURES_PER_EMAIL: '8' },
    });
  });
  after(async () => {
    await ceiling.close();
  });

  /** What a client can see of an answer but the wait's value, checked on its own. */
  function visible(res: Awaited<ReturnType<(typeof routes)[0]['post']>>) {
    const body = res.json() as Record<string, unknown>;
    return {
      status: res.statusCode,
      body: { ...body, ...('retryAfterSeconds' in body ? { retryAfterSeconds: 'n' } : {}) },
      contentType: res.headers['content-type'],
      retryAfter: res.headers['retry-after'] === undefined ? undefined : 'n',
      setCookie: res.headers['set-cookie'],
    };
  }

  /** One script, for a user's email and for an unknown one: each step's answer. */
  async function script(email: string, rightPassword: string) {
    const post = (password: string, address: string) => routes[0]!.post(ceiling.app, email, password, address);
    const [a, b] = [freshAddress(), freshAddress()];
    const steps: { state: string; res: Awaited<ReturnType<typeof post>> }[] = [];
    for (let i = 0; i < 5; i++) steps.push({ state: `failure ${i + 1} from A`, res: await post(`wrong password ${i}`, a) });
    steps.push({ state: 'A at the pair limit', res: await post(rightPassword, a) });
    for (let i = 0; i < 3; i++) steps.push({ state: `failure ${i + 1} from B`, res: await post(`wrong password b${i}`, b) });
    steps.push({ state: 'a fresh address at the ceiling, the right password', res: await post(rightPassword, freshAddress()) });
    return steps;
  }

  test('throttles every address, the owner’s too; a user’s email and an unknown one answer alike in every state', async () => {
    const admin = await createTestUser(database.db, 'admin');
    const known = await script(admin.email, admin.password);
    assert.deepEqual(
      known.map((step) => step.res.statusCode),
      [401, 401, 401, 401, 401, 429, 401, 401, 401, 429],
    );
    const unknown = await script(`nobody-${admin.user.id}@example.test`, admin.password);
    for (const [i, step] of known.entries()) {
      assert.deepEqual(visible(unknown[i]!.res), visible(step.res), step.state);
      if (step.res.statusCode === 401) assert.equal(unknown[i]!.res.body, step.res.body, `${step.state}: byte for byte`);
      // The wait is the time left for the oldest counted failure: how long the script took, which
      // differs here only because test users' hashes are cheap while the dummy hash is not.
      else for (const res of [step.res, unknown[i]!.res]) assert.ok(Number(res.headers['retry-after']) > 12 * 60 && Number(res.headers['retry-after']) <= 15 * 60);
    }
  });
});
