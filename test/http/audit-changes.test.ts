// GET /api/v1/audits/{id}/changes through the real HTTP stack, with real audits of fixture pages
// that change between audits (the page a route serves is whatever the test last set): unchanged,
// a like-for-like swap, fixed then broken again, first audits, `against`, its 4xx answers, the
// 50-occurrence cap, includeWarnings, and audits stored before migration 0013.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/auth/api-keys.ts';
import type { Finding } from '../../src/audit/findings.ts';
import { failedOccurrences } from '../../src/audit/identity.ts';
import * as identitiesMigration from '../../src/db/migrations/0013_finding_identities.ts';
import { AGAINST_MESSAGES } from '../../src/http/routes/changes.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** A shop page whose images each have alt text or not; `c.png` never has. */
function shop(alts: { a?: string; b?: string } = {}) {
  const alt = (text: string | undefined) => (text === undefined ? '' : ` alt="${text}"`);
  return `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<main><h1>Shop</h1>
<img src="/a.png"${alt(alts.a)}>
<img src="/b.png"${alt(alts.b)}>
<img src="/c.png">
<p><a href="/basket">Basket</a></p>
</main></body></html>`;
}

/** 60 failing elements for each of several criteria: every finding is at the 50-occurrence cap. */
const CROWDED = `<!doctype html><html lang="en"><head><title>Crowded</title></head><body><main><h1>Crowded</h1>
${Array.from({ length: 60 }, (_, i) => `<img src="/i/${i}.png">`).join('\n')}
${Array.from({ length: 60 }, (_, i) => `<a href="/l/${i}"></a>`).join('\n')}
${Array.from({ length: 60 }, () => '<button></button>').join('\n')}
${Array.from({ length: 60 }, (_, i) => `<input type="text" name="f${i}">`).join('\n')}
</main></body></html>`;

const NO_POLICY = `<!doctype html><html lang="en"><head><title>Bakery</title></head><body><main><h1>Fresh bread</h1></main></body></html>`;
const WITH_POLICY = NO_POLICY.replace('</main>', '</main><footer><a href="/privacy">Privacy Policy</a></footer>');

const served: Record<string, string> = {};
const serve = (path: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(served[path]);
};

let database: TestDatabase;
let service: TestService;

before(async () => {
  database = await openTestDatabase();
  const paths = ['/unchanged', '/swap', '/regress', '/regress-twice', '/first', '/other', '/crowded', '/bakery', '/warnings', '/legacy'];
  service = await startTestService({
    database,
    delivery: { enabled: false },
    env: { AUDIT_RATE_LIMIT: '1000' },
    routes: {
      ...Object.fromEntries(paths.map((path) => [path, serve(path)])),
      '/privacy': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Privacy Policy</h1><p>We keep order data.</p>'),
    },
  });
});
after(async () => {
  await service.close();
  await database.close();
});

interface Occurrence {
  identity: string;
  control: string;
  severity: string;
  rule: string | null;
  selector: string | null;
  snippet: string | null;
  seenIn?: { id: string; createdAt: string };
}
interface Changes {
  audit: { id: string; createdAt: string };
  against: { id: string; createdAt: string } | null;
  severities: string[];
  totals: { new: number; fixed: number; persisting: number; regressed: number };
  controls: Record<'new' | 'fixed' | 'persisting', { control: string; severity: string }[]>;
  occurrences: Record<'new' | 'fixed' | 'persisting' | 'regressed', Occurrence[]>;
}

async function audit(path: string, html: string, body: Record<string, unknown> = {}, apiKey = service.apiKey) {
  served[path] = html;
  const response = await service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    payload: JSON.stringify({ branch: 'wcag', url: service.pageUrl(path), ...body }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as { id: string; createdAt: string; findings: { control: string; status: string; occurrences?: unknown[] }[] };
}

/** `apiKey` null sends none. */
function get(id: string, query = '', apiKey: string | null = service.apiKey) {
  return service.app.inject({ method: 'GET', url: `/api/v1/audits/${id}/changes${query}`, headers: apiKey === null ? {} : { 'x-api-key': apiKey } });
}

async function changes(id: string, query = ''): Promise<Changes> {
  const response = await get(id, query);
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['ratelimit-remaining'], undefined, 'takes no audit rate-limit slot');
  const body = response.json() as Changes;
  for (const list of ['new', 'fixed', 'persisting', 'regressed'] as const) assert.equal(body.totals[list], body.occurrences[list].length, list);
  return body;
}

const snippets = (list: Occurrence[]) => list.map((o) => o.snippet).sort();
const controls = (list: { control: string }[]) => list.map((c) => c.control).sort();

describe('comparisons with the previous audit of the page', () => {
  test('the first audit of a page: against null, every failed occurrence new', async () => {
    const first = await audit('/first', shop({ b: 'Basket' }));
    const body = await changes(first.id);
    assert.deepEqual(body.audit, { id: first.id, createdAt: first.createdAt });
    assert.equal(body.against, null);
    assert.deepEqual(body.severities, ['error', 'warning']);
    assert.deepEqual(snippets(body.occurrences.new.filter((o) => o.rule === 'image-name')), ['<img src="/a.png">', '<img src="/c.png">']);
    assert.deepEqual([body.totals.fixed, body.totals.persisting, body.totals.regressed], [0, 0, 0]);
    const failed = first.findings.filter((f) => f.status === 'fail').map((f) => f.control);
    assert.deepEqual(controls(body.controls.new), [...new Set(failed)].sort());
    for (const occurrence of body.occurrences.new) assert.match(occurrence.identity, /^[0-9a-f]{32}$/);
  });

  test('an unchanged page: everything persisting, nothing new or fixed', async () => {
    const first = await audit('/unchanged', shop());
    const second = await audit('/unchanged', shop());
    const body = await changes(second.id);
    assert.deepEqual(body.against, { id: first.id, createdAt: first.createdAt });
    assert.deepEqual([body.totals.new, body.totals.fixed, body.totals.regressed], [0, 0, 0]);
    assert.ok(body.totals.persisting >= 3, 'the three images at least');
    assert.deepEqual([body.controls.new, body.controls.fixed], [[], []]);
    // Identities are those of the first audit's occurrences: the same problem, the same identity.
    const firstBody = await changes(first.id);
    assert.deepEqual(body.occurrences.persisting.map((o) => o.identity), firstBody.occurrences.new.map((o) => o.identity));
  });

  test('a like-for-like swap (alt moves from one image to the other): one fixed, one new, the control persisting', async () => {
    await audit('/swap', shop({ b: 'Basket' }));
    const swapped = await audit('/swap', shop({ a: 'Apples' }));
    const body = await changes(swapped.id);
    assert.deepEqual(snippets(body.occurrences.fixed), ['<img src="/a.png">']);
    assert.deepEqual(snippets(body.occurrences.new), ['<img src="/b.png">']);
    assert.deepEqual(body.occurrences.new.map((o) => [o.control, o.rule, o.severity]), [['1.1.1', 'image-name', 'error']]);
    assert.ok(snippets(body.occurrences.persisting).includes('<img src="/c.png">'));
    assert.ok(controls(body.controls.persisting).includes('1.1.1'));
    assert.deepEqual([body.controls.new, body.controls.fixed, body.occurrences.regressed], [[], [], []]);
  });

  test('fixed, then broken again: new against the previous audit, and regressed since the audit that last had it', async () => {
    const broken = await audit('/regress', shop({ b: 'Basket' }));
    await audit('/regress', shop({ a: 'Apples', b: 'Basket' }));
    const again = await audit('/regress', shop({ b: 'Basket' }));
    const body = await changes(again.id);
    assert.deepEqual(snippets(body.occurrences.new), ['<img src="/a.png">']);
    assert.equal(body.occurrences.regressed.length, 1);
    const [regressed] = body.occurrences.regressed;
    assert.deepEqual(regressed!.seenIn, { id: broken.id, createdAt: broken.createdAt });
    const { seenIn: _, ...occurrence } = regressed!;
    assert.deepEqual(occurrence, body.occurrences.new[0]);
    // Against the first audit it is persisting, not new: nothing regressed.
    const againstFirst = await changes(again.id, `?against=${broken.id}`);
    assert.deepEqual([againstFirst.totals.new, againstFirst.totals.fixed, againstFirst.totals.regressed], [0, 0, 0]);
    assert.deepEqual(againstFirst.against, { id: broken.id, createdAt: broken.createdAt });
  });

  test('back a second time: seenIn is the latest audit before the one compared with in which it appeared', async () => {
    const fixedA = { a: 'Apples', b: 'Basket' };
    const first = await audit('/regress-twice', shop({ b: 'Basket' }));
    const fixed = await audit('/regress-twice', shop(fixedA));
    const back = await audit('/regress-twice', shop({ b: 'Basket' }));
    const kept = await audit('/regress-twice', shop({ b: 'Basket' }));
    await audit('/regress-twice', shop(fixedA));
    const again = await audit('/regress-twice', shop({ b: 'Basket' }));
    const seenIn = async (query: string) => (await changes(again.id, query)).occurrences.regressed.map((o) => o.seenIn!.id);
    assert.deepEqual(await seenIn(''), [back.id], 'it appeared again in `back`; `kept` only kept it');
    assert.deepEqual(await seenIn(`?against=${fixed.id}`), [first.id]);
    assert.deepEqual(await seenIn(`?against=${kept.id}`), [], 'against an audit that had it: persisting, not new');
  });

  test('a privacy finding is one occurrence: the control fixed when the page links its policy', async () => {
    await audit('/bakery', NO_POLICY, { branch: 'privacy' });
    const fixed = await audit('/bakery', WITH_POLICY, { branch: 'privacy' });
    const body = await changes(fixed.id);
    assert.ok(body.occurrences.fixed.some((o) => o.control === 'privacy.privacy-policy-link' && o.rule === null));
    assert.ok(controls(body.controls.fixed).includes('privacy.privacy-policy-link'));
    assert.ok(!body.occurrences.new.some((o) => o.control === 'privacy.privacy-policy-link'));
  });

  test('50 occurrences per criterion: every occurrence of an unchanged page persists', async () => {
    const first = await audit('/crowded', CROWDED);
    const capped = first.findings.filter((f) => f.status === 'fail' && f.occurrences?.length === 50);
    assert.ok(capped.length >= 3, `criteria at the cap: ${capped.map((f) => f.control)}`);
    const second = await audit('/crowded', CROWDED);
    // The statement stored each occurrence's identity in failedOccurrences' order (the endpoint
    // reads them back instead of hashing again): exactly what the findings give.
    const stored = await database.db.selectFrom('audit_identities').select('occurrences').where('audit_id', '=', second.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored.occurrences, failedOccurrences(second.findings as Finding[]).map(({ identity, control, severity }) => [identity, control, severity]));
    // Nothing appeared: the page is unchanged, so the second audit records no appearance.
    assert.deepEqual(await database.db.selectFrom('identity_appearances').select('identity').where('audit_id', '=', second.id).execute(), []);
    const appeared = await database.db.selectFrom('identity_appearances').select('identity').where('audit_id', '=', first.id).execute();
    assert.equal(appeared.length, stored.occurrences.length, 'the first audit of a page: every identity appeared');
    const body = await changes(second.id);
    const listed = second.findings.filter((f) => f.status === 'fail').reduce((n, f) => n + (f.occurrences?.length ?? 1), 0);
    assert.equal(body.totals.persisting, listed);
    assert.deepEqual([body.totals.new, body.totals.fixed], [0, 0]);
    assert.equal(new Set(body.occurrences.persisting.map((o) => o.identity)).size, listed, 'no two occurrences share an identity');
  });

  test('either audit without its warnings: only errors compared', async () => {
    await audit('/warnings', CROWDED);
    const errorsOnly = await audit('/warnings', CROWDED, { includeWarnings: false });
    const body = await changes(errorsOnly.id);
    assert.deepEqual(body.severities, ['error']);
    assert.equal(body.totals.fixed, 0, 'warnings the second audit never stored are not fixed');
    assert.ok(body.occurrences.persisting.every((o) => o.severity === 'error'));
  });
});

describe('against', () => {
  test('another page: a different URL, branch or standard is a 400; an audit of another key is a 404', async () => {
    const base = await audit('/other', shop());
    const later = await audit('/other', shop());
    const otherUrl = await audit('/swap', shop());
    const otherBranch = await audit('/other', shop(), { branch: 'ai-governance' });
    const otherStandard = await audit('/other', shop(), { standard: 'WCAG22AA' });
    for (const against of [otherUrl.id, otherBranch.id, otherStandard.id]) {
      const response = await get(later.id, `?against=${against}`);
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), { errors: { against: AGAINST_MESSAGES.otherPage } });
    }
    const { rawKey } = await createApiKey(database.db, 'other key');
    const othersAudit = await audit('/other', shop(), {}, rawKey);
    for (const against of [othersAudit.id, randomUUID()]) {
      const response = await get(later.id, `?against=${against}`);
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { error: 'not found' });
    }
    // The other key cannot compare with this key's audits either, nor read its changes.
    assert.equal((await get(othersAudit.id, `?against=${base.id}`, rawKey)).statusCode, 404);
    assert.equal((await get(later.id, '', rawKey)).statusCode, 404);
  });

  test('not older than the audit, itself, or not a UUID: 400', async () => {
    const older = await audit('/other', shop());
    const newer = await audit('/other', shop());
    const cases: [string, string][] = [
      [`?against=${newer.id}`, AGAINST_MESSAGES.notEarlier],
      [`?against=${older.id}`, AGAINST_MESSAGES.notEarlier],
      [`?against=not-a-uuid`, AGAINST_MESSAGES.uuid],
      [`?against=${encodeURIComponent("1' or '1'='1")}`, AGAINST_MESSAGES.uuid],
    ];
    for (const [query, message] of cases) {
      const response = await get(older.id, query);
      assert.equal(response.statusCode, 400, query);
      assert.deepEqual(response.json(), { errors: { against: message } }, query);
    }
    // Near miss: the older one the other way round is fine.
    assert.equal((await get(newer.id, `?against=${older.id}`)).statusCode, 200);
  });

  test('an unknown query parameter or a repeated against: 400', async () => {
    const one = await audit('/other', shop());
    const unknown = await get(one.id, '?since=2026-01-01T00:00:00Z');
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json(), { errors: { since: 'is not a known field' } });
    const repeated = await get(one.id, `?against=${one.id}&against=${one.id}`);
    assert.equal(repeated.statusCode, 400);
    assert.ok(repeated.json().errors.against, repeated.body);
  });
});

describe('auth and ids, as GET /api/v1/audits/{id}', () => {
  test('401 without a key or with an unknown one', async () => {
    const one = await audit('/other', shop());
    for (const key of [null, 'ask_not-a-key']) {
      const response = await get(one.id, '', key);
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: 'invalid api key' });
    }
  });

  test('404 for an unknown id, an id that is not a UUID, or SQL in the id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', encodeURIComponent("1' or '1'='1")]) {
      const response = await get(id);
      assert.equal(response.statusCode, 404, id);
      assert.deepEqual(response.json(), { error: 'not found' });
    }
  });

  test('the OpenAPI description documents the route with an example for every status', async () => {
    const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = spec.paths['/api/v1/audits/{id}/changes'].get;
    for (const status of ['200', '400', '401', '404']) {
      const content = operation.responses[status].content['application/json'];
      assert.ok(content.example !== undefined || Object.keys(content.examples ?? {}).length > 0, `example for ${status}`);
    }
  });
});

// Last: it takes migration 0013 down and up again on this file's database, so every audit so far
// becomes one stored before it (no identities or appearances stored; identity_backlog lists those
// with failures).
test('audits stored before migration 0013 compare from their findings, and count for regressed', async () => {
  const broken = await audit('/legacy', shop({ b: 'Basket' }));
  const fixed = await audit('/legacy', shop({ a: 'Apples', b: 'Basket' }));
  await identitiesMigration.down(database.db);
  await identitiesMigration.up(database.db);
  assert.deepEqual(await database.db.selectFrom('audit_identities').select('audit_id').execute(), []);
  assert.deepEqual(await database.db.selectFrom('identity_appearances').select('audit_id').execute(), []);

  const legacy = await changes(fixed.id);
  assert.deepEqual(legacy.against, { id: broken.id, createdAt: broken.createdAt });
  assert.deepEqual(snippets(legacy.occurrences.fixed), ['<img src="/a.png">']);
  assert.equal(legacy.totals.new, 0);

  const again = await audit('/legacy', shop({ b: 'Basket' }));
  const body = await changes(again.id);
  assert.deepEqual(body.against, { id: fixed.id, createdAt: fixed.createdAt });
  assert.deepEqual(snippets(body.occurrences.new), ['<img src="/a.png">']);
  assert.deepEqual(body.occurrences.regressed.map((o) => o.seenIn), [{ id: broken.id, createdAt: broken.createdAt }]);
  assert.ok(body.totals.persisting >= 1);
});
