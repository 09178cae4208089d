// The privacy branch through POST /api/v1/audit: the page and its policy served by a local HTTPS
// fixture, Set-Cookie headers on a redirect hop, and exactly one request beyond the page.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { PRIVACY_CONTROL_IDS } from '../../src/audit/privacy/ids.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

const COMPLIANT = `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<div id="cookie-banner" role="dialog" aria-label="Cookie consent">
  <p>We use cookies. Choose which categories you allow.</p>
  <label><input type="checkbox" name="analytics"> Analytics</label>
  <label><input type="checkbox" name="marketing"> Marketing</label>
  <button type="button">Accept all</button>
  <button type="button">Reject all</button>
</div>
<main><h1>Welcome</h1><p>Hand-made goods.</p></main>
<footer>
  <a href="/privacy">Privacy Policy</a>
  <a href="/choices">Do Not Sell or Share My Personal Information</a>
</footer></body></html>`;

const TRACKED = `<!doctype html><html lang="en"><head><title>Blog</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-ABC123');</script>
</head><body><main><h1>Notes from the allotment</h1>
<p>Thoughts on gardening: this week the beans went in, the first courgettes flowered, and the slugs
found the lettuce before we did. Next week we will try copper tape and report back on whether it
works better than the beer traps we tried last spring.</p></main>
<footer><a href="/gone">Privacy Policy</a></footer></body></html>`;

const page = (body: string, headers: Record<string, string | string[]> = {}) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
};

let database: TestDatabase;
let service: TestService;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    env: { AUDIT_RATE_LIMIT: '1000' },
    routes: {
      '/compliant': page(COMPLIANT),
      '/privacy': page('<!doctype html><h1>Privacy Policy</h1><p>We process order data to deliver your goods.</p>'),
      '/tracked': page(TRACKED),
      '/start': (_req, res) => {
        res.writeHead(302, { location: '/tracked', 'set-cookie': ['_ga=GA1.2.111.222; Path=/; Domain=site.test'] });
        res.end();
      },
      '/gone': (_req, res) => res.writeHead(404).end(),
    },
  });
});
after(async () => {
  await service.close();
  await database.close();
});

function audit(url: string) {
  return service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    payload: JSON.stringify({ branch: 'privacy', url }),
  });
}

const outcomes = (body: { controls: { control: string; outcome: string }[] }) =>
  Object.fromEntries(body.controls.map((c) => [c.control, c.outcome]));

test('a compliant page passes all six controls, following the policy link exactly once', async () => {
  const before = service.fixture.requests.length;
  const response = await audit(service.pageUrl('/compliant'));
  assert.equal(response.statusCode, 201, response.body);
  const body = response.json();
  assert.equal(body.branch, 'privacy');
  assert.deepEqual(body.controls.map((c: { control: string }) => c.control), [...PRIVACY_CONTROL_IDS]);
  assert.deepEqual(outcomes(body), Object.fromEntries(PRIVACY_CONTROL_IDS.map((id) => [id, 'pass'])));
  assert.deepEqual(body.findings, []);
  assert.deepEqual(service.fixture.requests.slice(before).map((r) => r.path), ['/compliant', '/privacy']);
});

test('a cookie set on a redirect hop, an ungated tracker and a dead policy link fail', async () => {
  const before = service.fixture.requests.length;
  const response = await audit(service.pageUrl('/start'));
  assert.equal(response.statusCode, 201, response.body);
  const body = response.json();
  const result = outcomes(body);
  assert.equal(result['privacy.nonessential-cookies'], 'fail');
  assert.equal(result['privacy.consent-before-nonessential-cookies'], 'fail');
  assert.equal(result['privacy.consent-banner-structure'], 'fail');
  assert.equal(result['privacy.do-not-sell-opt-out'], 'fail');
  assert.equal(result['privacy.privacy-policy-link'], 'pass');
  assert.equal(result['privacy.privacy-policy-reachable'], 'fail');
  const cookies = body.findings.find((f: { control: string }) => f.control === 'privacy.nonessential-cookies');
  assert.equal(cookies.severity, 'error');
  assert.match(cookies.evidence, /_ga|Google/);
  const reachable = body.findings.find((f: { control: string }) => f.control === 'privacy.privacy-policy-reachable');
  assert.match(reachable.evidence, /404/);
  assert.deepEqual(service.fixture.requests.slice(before).map((r) => r.path), ['/start', '/tracked', '/gone']);
});
