// GET /api/v1/audit/report through the real app (spec section 4 rules 1-7, section 7 rows): the
// PDF and its headers for every spelling of one origin, the newest snapshot per pillar across keys,
// the 400 table (with near-misses that are valid), 403 before anything else, the 404 naming the
// missing pillars, and the 500 of a failing renderer or database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { saveAudit } from '../../src/audit/audit-store.ts';
import type { Branch } from '../../src/audit/control.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { reportFileName } from '../../src/http/routes/report.ts';
import { createAdminCookie } from '../support/admin.ts';
import { newAudit, type Outcomes } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { readPdf } from '../support/pdf.ts';
import { startTestService, type TestService } from '../support/service.ts';

// A real admin session (and a member's, which must not see the report).
let ADMIN_COOKIE: string;
let MEMBER_COOKIE: string;

const GENERATED_AT = new Date('2026-03-02T10:00:00Z');

let database: TestDatabase;
let service: TestService;
let keyId: string;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, routes: {}, report: { clock: () => GENERATED_AT } });
  ADMIN_COOKIE = (await createAdminCookie(database.db)).cookie;
  MEMBER_COOKIE = (await createAdminCookie(database.db, { role: 'member' })).cookie;
  keyId = (await createApiKey(database.db, 'report')).id;
  // example.com: all three pillars, an older wcag audit by another key underneath the newest.
  const otherKey = (await createApiKey(database.db, 'other')).id;
  await save('https://example.com/old', 'wcag', { '1.1.1': 'fail', '2.4.2': 'fail' }, otherKey);
  await save('https://example.com/checkout', 'wcag', { '1.4.3': 'fail', '4.1.2': 'fail/warning', '1.1.1': 'inconclusive', '3.1.1': 'fail' });
  await save('https://example.com/', 'privacy', { 'privacy.linked-privacy-policy': 'pass' }, otherKey);
  await save('https://example.com/assistant', 'ai-governance', { 'ai-governance.ai-disclosure-notice': 'inconclusive' });
  // Only some pillars.
  await save('https://partial.example/', 'wcag', {});
  // Host names that need care in a file name.
  for (const origin of ['https://xn--bcher-kva.example', 'https://[2001:db8::1]', 'https://192.0.2.7:8443']) {
    for (const branch of ['wcag', 'privacy', 'ai-governance'] as const) await save(`${origin}/`, branch, {});
  }
});
after(async () => {
  await service.close();
  await database.close();
});

async function save(url: string, branch: Branch, outcomes: Outcomes, apiKeyId = keyId) {
  return saveAudit(database.db, newAudit(apiKeyId, url, branch, outcomes));
}

/** `cookie` null: no Cookie header. */
function getReport(query: string, cookie: string | null = ADMIN_COOKIE, app = service.app) {
  return app.inject({ method: 'GET', url: `/api/v1/audit/report${query}`, headers: cookie === null ? {} : { cookie } });
}

describe('200: the PDF', () => {
  const SAME_ORIGIN = [
    '?domain=example.com',
    '?domain=EXAMPLE.com',
    '?domain=example.com:443',
    '?domain=example.com/any/path',
    '?domain=https://example.com',
    '?url=https://example.com/path?q',
    '?url=' + encodeURIComponent('https://example.com/path?q=1&r=2#frag'),
    '?url=HTTPS://Example.com:443',
    '?url=example.com',
    '?url=https:example.com',
    '?url=%20https://example.com/%20',
  ];
  for (const query of SAME_ORIGIN) {
    test(`${query} is https://example.com`, async () => {
      const response = await getReport(query);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(response.headers['content-disposition'], 'attachment; filename="svc-audit-example.com.pdf"');
      assert.equal(response.headers['cache-control'], 'no-store');
      const { pages, text } = await readPdf(response.rawPayload);
      assert.equal(pages, 1);
      assert.match(text, /^https:\/\/example\.com$/m);
    });
  }

  test('the newest snapshot of each pillar, whichever key ran it, with its tickets', async () => {
    const { text } = await readPdf((await getReport('?domain=example.com')).rawPayload);
    const flat = text.replaceAll('\n', ' ');
    assert.ok(flat.includes('Audited URL: https://example.com/checkout'), 'newest wcag audit');
    assert.ok(!flat.includes('https://example.com/old'));
    assert.match(flat, /Accessibility \(WCAG\) ?Fail: 1/);
    assert.match(flat, /Privacy ?Pass: 1/);
    // An inconclusive warning alone fails the pillar (its findings list is not empty) and opens no ticket.
    assert.match(flat, /AI governance ?Fail: 1/);
    assert.match(text, /^Errors: 2 ?Warnings: 2 ?Inconclusive \(for review\): 1$/m);
    assert.match(text, /^Errors: 0 ?Warnings: 1 ?Inconclusive \(for review\): 1$/m);
    assert.ok(flat.includes('Standard: WCAG 2.1 Level AA'));
    // Up to two of the three open wcag tickets, errors first; 1.1.1 (inconclusive now) resolved.
    assert.ok(flat.includes('Open failed controls (2 of 3)'));
    assert.match(flat, /Error · 1\.4\.3 requirement .*Error · 3\.1\.1 requirement/);
    assert.ok(!flat.includes('4.1.2 requirement') && !flat.includes('1.1.1 requirement'));
    assert.equal(flat.split('No open failed controls').length - 1, 2);
    assert.ok(flat.includes('Generated 2026-03-02 10:00 UTC'));
  });

  test('file names: punycode hosts, IPv6 and ports made safe', async () => {
    const rows: Array<[string, string]> = [
      ['?domain=bücher.example', 'svc-audit-xn--bcher-kva.example.pdf'],
      ['?url=https://B%C3%BCcher.example/x', 'svc-audit-xn--bcher-kva.example.pdf'],
      ['?url=https://[2001:db8::1]/', 'svc-audit--2001-db8--1-.pdf'],
      ['?domain=192.0.2.7:8443', 'svc-audit-192.0.2.7.pdf'],
    ];
    for (const [query, name] of rows) {
      const response = await getReport(query);
      assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
      assert.equal(response.headers['content-disposition'], `attachment; filename="${name}"`, query);
    }
    assert.equal(reportFileName('a"b\\c;d\r\ne'), 'svc-audit-a-b-c-d--e.pdf');
  });
});

describe('400: invalid or ambiguous target', () => {
  const ROWS: Array<[query: string, field: string]> = [
    ['', 'domain'],
    ['?domain=example.com&url=https://example.com', 'url'],
    ['?domain=', 'domain'],
    ['?url=%20%20', 'url'],
    ['?domain=http://example.com', 'domain'],
    ['?url=http://example.com/', 'url'],
    ['?url=ftp://example.com', 'url'],
    ['?url=javascript:alert(1)', 'url'],
    ['?domain=mailto:admin@example.com', 'domain'],
    ['?url=https://', 'url'],
    ['?url=https://user:secret@example.com/', 'url'],
    ['?domain=user@example.com', 'domain'],
    ['?domain=exa%20mple.com', 'domain'],
    ['?url=https://[::1', 'url'],
    ['?domain=example.com:99999', 'domain'],
    ['?domain=a&domain=b', 'domain'],
    ['?host=example.com', 'host'],
    [`?domain=${'a'.repeat(2049)}`, 'domain'],
  ];
  for (const [query, field] of ROWS) {
    test(`${query.slice(0, 60) || '(no query)'} → 400 naming ${field}`, async () => {
      const response = await getReport(query);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['errors']);
      assert.equal(typeof body.errors[field], 'string', JSON.stringify(body));
      assert.ok(!response.body.includes('secret'), 'a password in the target is not echoed');
    });
  }
});

describe('403: no admin session', () => {
  const COOKIES: Array<[string, () => string | null]> = [
    ['no cookie', () => null],
    ['an unknown session', () => 'svc_session=not-an-admin'],
    ["a member's session", () => MEMBER_COOKIE],
  ];
  for (const [name, cookie] of COOKIES) {
    for (const query of ['?domain=example.com', '?domain=http://bad', '']) {
      test(`${name}, ${query || 'no query'}: 403 before the target is read`, async () => {
        const response = await getReport(query, cookie());
        assert.equal(response.statusCode, 403);
        assert.deepEqual(response.json(), { error: 'forbidden' });
      });
    }
  }
});

describe('404: missing snapshots', () => {
  const ROWS: Array<[string, string[]]> = [
    ['?domain=partial.example', ['privacy', 'ai-governance']],
    ['?domain=never-audited.example', ['wcag', 'privacy', 'ai-governance']],
    // Another port is another origin.
    ['?domain=example.com:8443', ['wcag', 'privacy', 'ai-governance']],
  ];
  for (const [query, missing] of ROWS) {
    test(`${query} → 404 naming ${missing.join(', ')}`, async () => {
      const response = await getReport(query);
      assert.equal(response.statusCode, 404);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      assert.equal(response.headers['content-disposition'], undefined);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.deepEqual(response.json(), { error: 'missing audit snapshots', missing });
    });
  }
});

describe('500: unexpected failure', () => {
  test('a renderer that throws: 500 with the generic body, the cause in the log only', async () => {
    const failing = await startTestService({
      database,
      routes: {},
      report: { render: async () => { throw new Error('font table exploded at /srv/secret/path'); } },
    });
    try {
      const response = await getReport('?domain=example.com', ADMIN_COOKIE, failing.app);
      assert.equal(response.statusCode, 500);
      assert.deepEqual(response.json(), { error: 'internal server error' });
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.ok(failing.rawLogs.some((line) => line.includes('font table exploded')));
      assert.ok(!failing.rawLogs.some((line) => line.includes(ADMIN_COOKIE.split('=')[1]!)), 'the session token is never logged');
    } finally {
      await failing.close();
    }
  });

  test('a database that is gone: 500', async () => {
    const gone = await openTestDatabase();
    const broken = await startTestService({ database: gone, routes: {} });
    await gone.close();
    try {
      const response = await getReport('?domain=example.com', ADMIN_COOKIE, broken.app);
      assert.equal(response.statusCode, 500);
      assert.deepEqual(response.json(), { error: 'internal server error' });
    } finally {
      await broken.close();
    }
  });
});

test('the route is in the OpenAPI description with its statuses and the PDF content type', async () => {
  const spec = service.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
  const operation = spec.paths['/api/v1/audit/report']?.get;
  assert.ok(operation);
  assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '403', '404', '500', '503']);
  assert.ok(operation.responses['200']?.content?.['application/pdf']);
});
