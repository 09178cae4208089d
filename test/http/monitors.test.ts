// POST/GET /api/v1/monitors and GET/PATCH/DELETE /api/v1/monitors/{id} through the real HTTP
// stack: the monitor's shape, its first slot, paging, changes, isolation between keys, and every
// bound as a clear 4xx. The scheduler that runs monitors is tested in test/monitors/.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { FIRST_RUN_SPREAD_MS } from '../../src/http/routes/monitors.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

let database: TestDatabase;
let service: TestService;
const NOW = new Date('2026-03-01T10:00:00.000Z');

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    routes: {},
    delivery: { enabled: false },
    // No scheduler here: these tests read the schedule, they do not run it. Time and the spread's draw are fixed.
    monitors: { enabled: false, clock: () => NOW, random: () => 0.5 },
    env: { AUDIT_MONITOR_RATE_LIMIT: '1000', AUDIT_MONITOR_MAX_PER_KEY: '3' },
  });
});
after(async () => {
  await service.close();
  await database.close();
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, apiKey: string | undefined, payload?: unknown, app = service.app) {
  return app.inject({
    method,
    url,
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

const newKey = async () => (await createApiKey(database.db, 'monitors')).rawKey;
const url = 'https://example.com/checkout';

describe('create, read, list, change, delete', () => {
  test('201: the monitor, its first run half-way through the spread (the draw is 0.5), no run yet', async () => {
    const key = await newKey();
    const response = await call('POST', '/api/v1/monitors', key, { url, every: '360m' });
    assert.equal(response.statusCode, 201, response.body);
    assert.ok(response.headers['ratelimit-remaining'] !== undefined, 'the registration budget is announced');
    const body = response.json();
    assert.match(body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...body, id: undefined },
      {
        id: undefined,
        url,
        branch: 'wcag',
        standard: 'WCAG21AA',
        includeWarnings: true,
        every: '6h', // written as the reader would: 360m is 6h
        paused: false,
        createdAt: body.createdAt,
        nextRunAt: new Date(NOW.getTime() + FIRST_RUN_SPREAD_MS / 2).toISOString(),
        lastRun: null,
      },
    );
    const read = await call('GET', `/api/v1/monitors/${body.id}`, key);
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), body);
  });

  test('an interval shorter than the spread spreads the first run within one interval', async () => {
    const key = await newKey();
    const body = (await call('POST', '/api/v1/monitors', key, { url, every: '15m' })).json();
    assert.equal(body.nextRunAt, new Date(NOW.getTime() + Math.min(15 * 60_000, FIRST_RUN_SPREAD_MS) / 2).toISOString());
  });

  test('branch, standard and includeWarnings are kept; privacy has no standard', async () => {
    const key = await newKey();
    const privacy = (await call('POST', '/api/v1/monitors', key, { url, branch: 'privacy', every: '1d', includeWarnings: false })).json();
    assert.equal(privacy.branch, 'privacy');
    assert.equal(privacy.standard, undefined);
    assert.equal(privacy.includeWarnings, false);
    const wcag22 = (await call('POST', '/api/v1/monitors', key, { url, standard: 'WCAG22AA', every: '1d' })).json();
    assert.equal(wcag22.standard, 'WCAG22AA');
  });

  test('list: newest first, keyset pages, only the key’s own', async () => {
    const key = await newKey();
    const other = await newKey();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('POST', '/api/v1/monitors', key, { url: `${url}?page=${i}`, every: '1h' })).json().id);
    await call('POST', '/api/v1/monitors', other, { url, every: '1h' });
    const first = (await call('GET', '/api/v1/monitors?limit=2', key)).json();
    assert.equal(first.items.length, 2);
    assert.equal(typeof first.nextCursor, 'string');
    const second = (await call('GET', `/api/v1/monitors?limit=2&cursor=${first.nextCursor}`, key)).json();
    assert.equal(second.nextCursor, null);
    assert.deepEqual([...first.items, ...second.items].map((m: { id: string }) => m.id).sort(), [...ids].sort());
    const bad = await call('GET', '/api/v1/monitors?cursor=nonsense', key);
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json().errors.cursor);
    assert.equal((await call('GET', '/api/v1/monitors?limit=1.5', key)).statusCode, 400);
  });

  test('PATCH: pause and resume, warnings, a longer interval keeps the sooner next run, a shorter one brings it forward', async () => {
    const key = await newKey();
    const created = (await call('POST', '/api/v1/monitors', key, { url, every: '1d' })).json();
    const paused = await call('PATCH', `/api/v1/monitors/${created.id}`, key, { paused: true, includeWarnings: false });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json().paused, true);
    assert.equal(paused.json().includeWarnings, false);
    assert.equal(paused.json().nextRunAt, created.nextRunAt, 'pausing keeps the next slot');
    assert.equal((await call('PATCH', `/api/v1/monitors/${created.id}`, key, { paused: false })).json().paused, false);
    const longer = (await call('PATCH', `/api/v1/monitors/${created.id}`, key, { every: '7d' })).json();
    assert.equal(longer.every, '7d');
    assert.equal(longer.nextRunAt, created.nextRunAt, 'the next run was already sooner than one new interval');
    // Move the next slot far out, then shorten the interval: it comes forward to one interval from now.
    await database.db.updateTable('monitors').set({ next_run_at: new Date('2026-04-01T00:00:00Z') }).where('id', '=', created.id).execute();
    const shorter = (await call('PATCH', `/api/v1/monitors/${created.id}`, key, { every: '1h' })).json();
    assert.equal(shorter.nextRunAt, new Date(NOW.getTime() + 3_600_000).toISOString());
  });

  test('DELETE: 204, then 404 everywhere', async () => {
    const key = await newKey();
    const { id } = (await call('POST', '/api/v1/monitors', key, { url, every: '1h' })).json();
    assert.equal((await call('DELETE', `/api/v1/monitors/${id}`, key)).statusCode, 204);
    for (const [method, payload] of [['GET'], ['PATCH', { paused: true }], ['DELETE']] as const) {
      const response = await call(method, `/api/v1/monitors/${id}`, key, payload);
      assert.equal(response.statusCode, 404, method);
      assert.deepEqual(response.json(), { error: 'not found' });
    }
  });
});

describe('isolation and auth', () => {
  test('another key’s monitor is a 404, unchanged; an unknown or malformed id too', async () => {
    const owner = await newKey();
    const stranger = await newKey();
    const { id } = (await call('POST', '/api/v1/monitors', owner, { url, every: '1h' })).json();
    for (const target of [id, randomUUID(), 'not-a-uuid', '%00']) {
      for (const [method, payload] of [['GET'], ['PATCH', { paused: true }], ['DELETE']] as const) {
        const response = await call(method, `/api/v1/monitors/${target}`, stranger, payload);
        assert.equal(response.statusCode, 404, `${method} ${target}`);
        assert.deepEqual(response.json(), { error: 'not found' });
      }
    }
    assert.equal((await call('GET', `/api/v1/monitors/${id}`, owner)).json().paused, false, 'the owner’s monitor is untouched');
    assert.deepEqual((await call('GET', '/api/v1/monitors', stranger)).json().items, []);
  });

  test('no key, an unknown key: 401 on every route', async () => {
    for (const apiKey of [undefined, 'nope']) {
      for (const [method, path, payload] of [
        ['POST', '/api/v1/monitors', { url, every: '1h' }],
        ['GET', '/api/v1/monitors'],
        ['GET', `/api/v1/monitors/${randomUUID()}`],
        ['PATCH', `/api/v1/monitors/${randomUUID()}`, { paused: true }],
        ['DELETE', `/api/v1/monitors/${randomUUID()}`],
      ] as const) {
        const response = await call(method, path, apiKey, payload);
        assert.equal(response.statusCode, 401, `${method} ${path}`);
        assert.deepEqual(response.json(), { error: 'invalid api key' });
      }
    }
  });
});

describe('bad input: a 400 naming the field, nothing stored', () => {
  const cases: Array<[string, unknown, string]> = [
    ['an http URL', { url: 'http://example.com/', every: '1h' }, 'url'],
    ['a link-local address', { url: 'https://169.254.169.254/', every: '1h' }, 'url'],
    ['a private address', { url: 'https://10.0.0.1/', every: '1h' }, 'url'],
    ['localhost', { url: 'https://localhost/', every: '1h' }, 'url'],
    ['not a URL', { url: 'example', every: '1h' }, 'url'],
    ['standard with privacy', { url, branch: 'privacy', standard: 'WCAG21AA', every: '1h' }, 'standard'],
    ['an interval under the minimum', { url, every: '14m' }, 'every'],
    ['an interval over a month', { url, every: '32d' }, 'every'],
    ['an interval without a unit', { url, every: '3600' }, 'every'],
    ['a fractional interval', { url, every: '1.5h' }, 'every'],
    ['no interval', { url }, 'every'],
    ['an unknown field', { url, every: '1h', apiKeyId: randomUUID() }, 'apiKeyId'],
    ['an unknown branch', { url, every: '1h', branch: 'seo' }, 'branch'],
  ];
  for (const [name, payload, field] of cases) {
    test(name, async () => {
      const key = await newKey();
      const response = await call('POST', '/api/v1/monitors', key, payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(Object.keys(response.json().errors).some((k) => k.startsWith(field)), response.body);
      assert.deepEqual((await call('GET', '/api/v1/monitors', key)).json().items, []);
    });
  }

  test('the minimum interval message names the setting’s value', async () => {
    const response = await call('POST', '/api/v1/monitors', await newKey(), { url, every: '899s' });
    assert.deepEqual(response.json(), { errors: { every: 'must be at least 15m' } });
  });

  test('PATCH: no field, an unknown field, URL changes and a bad interval are 400s', async () => {
    const key = await newKey();
    const { id } = (await call('POST', '/api/v1/monitors', key, { url, every: '1h' })).json();
    for (const payload of [{}, { url: 'https://example.org/' }, { every: '1m' }, { paused: 'yes' }]) {
      const response = await call('PATCH', `/api/v1/monitors/${id}`, key, payload);
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
    }
    assert.equal((await call('GET', `/api/v1/monitors/${id}`, key)).json().every, '1h');
  });
});

describe('bounds', () => {
  test('monitors per key: the fourth is a 409, another key is not affected', async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) assert.equal((await call('POST', '/api/v1/monitors', key, { url, every: '1h' })).statusCode, 201);
    const refused = await call('POST', '/api/v1/monitors', key, { url, every: '1h' });
    assert.equal(refused.statusCode, 409);
    assert.deepEqual(refused.json(), { error: 'monitor limit reached' });
    assert.equal((await call('POST', '/api/v1/monitors', await newKey(), { url, every: '1h' })).statusCode, 201);
    // Deleting one makes room again.
    const [first] = (await call('GET', '/api/v1/monitors', key)).json().items;
    await call('DELETE', `/api/v1/monitors/${first.id}`, key);
    assert.equal((await call('POST', '/api/v1/monitors', key, { url, every: '1h' })).statusCode, 201);
  });

  test('the registration budget: a 429 with Retry-After once spent, bad requests count; reads take no slot', async () => {
    const limited = await startTestService({
      database,
      routes: {},
      delivery: { enabled: false },
      monitors: { enabled: false },
      env: { AUDIT_MONITOR_RATE_LIMIT: '2', AUDIT_MONITOR_MIN_INTERVAL: '1h' },
    });
    try {
      const key = (await createApiKey(database.db, 'budget')).rawKey;
      const short = await call('POST', '/api/v1/monitors', key, { url, every: '30m' }, limited.app);
      assert.deepEqual(short.json(), { errors: { every: 'must be at least 1h' } }, 'AUDIT_MONITOR_MIN_INTERVAL applies');
      assert.equal((await call('POST', '/api/v1/monitors', key, { url, every: '1h' }, limited.app)).statusCode, 201);
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/api/v1/monitors', key, undefined, limited.app)).statusCode, 200);
      const spent = await call('POST', '/api/v1/monitors', key, { url, every: '1h' }, limited.app);
      assert.equal(spent.statusCode, 429);
      assert.equal(spent.json().error, 'rate limit exceeded');
      assert.ok(Number(spent.headers['retry-after']) > 0);
      assert.equal(spent.headers['ratelimit-remaining'], '0');
    } finally {
      await limited.close();
    }
  });
});
