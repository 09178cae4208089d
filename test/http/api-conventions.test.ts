// What every API route shares, over the routes of the app's own OpenAPI description (so a route
// added later is covered without touching this file): answers are never cached, integer query
// parameters take integers only, and a body is JSON under application/json with no key that could
// poison a prototype.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

interface Operation {
  method: string;
  path: string;
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
  requestBody?: unknown;
}

let database: TestDatabase;
let service: TestService;
let admin: TestAdmin;
let operations: Operation[];

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, delivery: { enabled: false }, env: { AUDIT_RATE_LIMIT: '1000', AUDIT_WEBHOOK_RATE_LIMIT: '1000', AUDIT_MONITOR_RATE_LIMIT: '1000' } });
  admin = await createAdminCookie(database.db);
  const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> };
  operations = Object.entries(spec.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })));
});

after(async () => {
  await service?.close();
  await database?.close();
});

/**
 * A request to the operation: any path parameter an unknown id, and unless `anonymous` every
 * credential (a fresh admin session each time: DELETE /api/v1/session ends the one it is sent).
 */
async function requestTo(operation: Operation, options: { anonymous?: boolean; query?: string; body?: string; contentType?: string } = {}): Promise<InjectOptions> {
  const url = operation.path.replace(/\{\w+\}/g, () => randomUUID()) + (options.query ?? '');
  const session = options.anonymous ? undefined : await createAdminCookie(database.db);
  const credentials = session ? { 'x-api-key': service.apiKey, cookie: session.cookie, 'x-csrf-token': session.csrfToken } : {};
  const body = options.body ?? (operation.requestBody ? '{}' : undefined);
  return {
    method: operation.method as InjectOptions['method'],
    url,
    headers: { ...credentials, ...(body !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}) },
    ...(body !== undefined ? { payload: body } : {}),
  };
}

describe('Cache-Control: no-store on every /api/ answer', () => {
  test('the description has the routes this must cover', () => {
    const names = operations.map((o) => `${o.method} ${o.path}`);
    for (const route of ['GET /api/v1/session', 'GET /api/v1/alerts/webhooks', 'GET /api/v1/audits', 'POST /api/v1/audit']) assert.ok(names.includes(route), route);
  });

  for (const anonymous of [false, true]) {
    test(anonymous ? 'without credentials (401, 403 and the session routes’ answers)' : 'with an API key and an admin session (2xx and 4xx alike)', async () => {
      for (const operation of operations) {
        const response = await service.app.inject(await requestTo(operation, { anonymous }));
        assert.equal(response.headers['cache-control'], 'no-store', `${operation.method} ${operation.path} ${response.statusCode}`);
      }
    });
  }

  test('the CSRF token of GET /api/v1/session and the list of every webhook are among them', async () => {
    for (const url of ['/api/v1/session', '/api/v1/alerts/webhooks']) {
      const response = await service.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
    }
  });

  test('the OpenAPI description documents the header on every /api/ answer, and only there', async () => {
    const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    for (const [path, byMethod] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          assert.equal(Boolean(response.headers?.['Cache-Control']), path.startsWith('/api/'), `${method} ${path} ${status}`);
        }
      }
    }
  });

  test('near miss: the health probes are not API answers', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(response.headers['cache-control'], undefined);
  });
});

describe('integer query parameters take decimal integers only', () => {
  const REFUSED = ['1.5', '1e2', ' 1', '+1', '0x10', '', 'abc', '1 '];
  const ACCEPTED = ['1', '20'];

  function integerParameters() {
    return operations.flatMap((operation) =>
      (operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.type === 'integer').map((p) => ({ operation, name: p.name })),
    );
  }

  test('the description has some (limit on the list routes)', () => {
    assert.ok(integerParameters().length >= 3, JSON.stringify(integerParameters().map((p) => `${p.operation.path} ${p.name}`)));
  });

  for (const value of REFUSED) {
    test(`${JSON.stringify(value)}: 400 naming the parameter`, async () => {
      for (const { operation, name } of integerParameters()) {
        const response = await service.app.inject(await requestTo(operation, { query: `?${name}=${encodeURIComponent(value)}` }));
        assert.equal(response.statusCode, 400, `${operation.path}?${name}=${value}: ${response.body}`);
        assert.ok(response.json().errors[name], `${operation.path}: ${response.body}`);
      }
    });
  }

  for (const value of ACCEPTED) {
    test(`near miss ${JSON.stringify(value)}: accepted`, async () => {
      for (const { operation, name } of integerParameters()) {
        const response = await service.app.inject(await requestTo(operation, { query: `?${name}=${value}` }));
        assert.notEqual(response.statusCode, 400, `${operation.path}?${name}=${value}: ${response.body}`);
      }
    });
  }
});

describe('JSON bodies', () => {
  const withBody = () => operations.filter((operation) => operation.requestBody);

  test('the description has the body routes', () => {
    const names = withBody().map((o) => `${o.method} ${o.path}`);
    for (const route of ['POST /api/v1/audit', 'POST /api/v1/alerts/webhook', 'POST /api/v1/session']) assert.ok(names.includes(route), route);
  });

  const poisoned: [body: string, error: string | undefined][] = [
    ['{"__proto__":{"admin":true}}', 'must not contain the key __proto__'],
    ['{"url":"https://example.com/","trigger":{"__proto__":{}}}', 'must not contain the key __proto__'],
    ['{"constructor":{"prototype":{"admin":true}}}', 'must not contain the key constructor'],
    ['{"\\u005f_proto__":{}}', 'must not contain the key __proto__'],
    // Near misses: ordinary unknown fields, and text that is not JSON.
    ['{"constructor":1}', undefined],
    ['{"proto":{}}', undefined],
    ['{"__proto__":', 'is not valid JSON'],
  ];
  for (const [body, error] of poisoned) {
    test(`${body}: ${error ?? 'an ordinary contract error'}`, async () => {
      for (const operation of withBody()) {
        const response = await service.app.inject(await requestTo(operation, { body }));
        assert.equal(response.statusCode, 400, `${operation.path}: ${response.body}`);
        const reported = response.json().errors as Record<string, string>;
        if (error) assert.deepEqual(reported, { body: error }, operation.path);
        else assert.equal(reported.body, undefined, `${operation.path}: ${response.body}`);
      }
    });
  }

  const contentTypes: [contentType: string, refused: boolean][] = [
    ['text/plain', true],
    ['text/plain; charset=utf-8', true],
    ['application/x-www-form-urlencoded', true],
    ['application/merge-patch+json', true],
    ['application/json; charset=utf-8', false],
    ['Application/JSON', false],
  ];
  for (const [contentType, refused] of contentTypes) {
    test(`a JSON body as ${contentType}: ${refused ? '400 naming the content type' : 'read as JSON'}`, async () => {
      for (const operation of withBody()) {
        const response = await service.app.inject(await requestTo(operation, { body: '{}', contentType }));
        const reported = response.json().errors as Record<string, string> | undefined;
        if (refused) {
          assert.equal(response.statusCode, 400, `${operation.path}: ${response.body}`);
          assert.deepEqual(reported, { body: 'Content-Type must be application/json' }, operation.path);
        } else {
          assert.notEqual(reported?.body, 'Content-Type must be application/json', `${operation.path}: ${response.body}`);
        }
      }
    });
  }
});
