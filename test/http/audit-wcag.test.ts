// The WCAG branch through POST /api/v1/audit: the default branch and standard, the three
// standards (findings name only criteria of the requested one, and the response says which was
// applied), findings with occurrences, rules and ACT ids, inconclusive judgement criteria without
// an AI step, and read-back equal to the 201.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { STANDARD_CRITERIA } from '../../src/audit/wcag/criteria.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Failures of A criteria (1.1.1, 4.1.2), of an AA criterion (1.4.3), a duplicated id (4.1.1 is
// always satisfied by W3C's 2023 erratum: never reported under any standard), and applicable
// judgement criteria (2.4.2 title, 2.4.6 headings).
const BROKEN = `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<nav><a href="/"><img src="logo.png"></a> <a href="/cart" id="cart"></a> <a href="/about" id="cart">About</a></nav>
<main><h1>Shop</h1><p style="color:#aaa;background-color:#fff">Light grey text on white</p>
<button></button><input type="text" id="q"></main></body></html>`;

const CLEAN = `<!doctype html><html lang="en"><head><title>Bakery</title></head><body>
<main><p style="color:#222;background-color:#fff">Fresh bread every morning.</p></main></body></html>`;

const page = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

let database: TestDatabase;
let service: TestService;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({ database, env: { AUDIT_RATE_LIMIT: '1000' }, routes: { '/broken': page(BROKEN), '/clean': page(CLEAN) } });
});
after(async () => {
  await service.close();
  await database.close();
});

function audit(body: Record<string, unknown>) {
  return service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    payload: JSON.stringify(body),
  });
}

interface WcagFinding {
  control: string;
  status: string;
  severity: string;
  evidence: string;
  location?: { selector: string; snippet: string };
  occurrences?: { rule: string; selector: string; snippet: string }[];
  rules?: string[];
  actRules?: string[];
}

const byControl = (findings: WcagFinding[]) => Object.fromEntries(findings.map((f) => [f.control, f]));

test('wcag is the default branch and WCAG21AA the default standard', async () => {
  const response = await audit({ url: service.pageUrl('/broken') });
  assert.equal(response.statusCode, 201, response.body);
  const body = response.json();
  assert.equal(body.branch, 'wcag');
  assert.equal(body.standard, 'WCAG21AA');
  assert.deepEqual(body.ai, { used: false, note: body.ai.note });
  assert.match(body.ai.note, /not configured/);
});

describe('each standard reports its own criteria only', () => {
  const expected: Record<string, { fail: string[]; absent: string[] }> = {
    WCAG21A: { fail: ['1.1.1', '2.4.4', '4.1.2'], absent: ['1.4.3', '2.4.6', '4.1.1'] },
    WCAG21AA: { fail: ['1.1.1', '1.4.3', '2.4.4', '4.1.2'], absent: ['4.1.1'] },
    WCAG22AA: { fail: ['1.1.1', '1.4.3', '2.4.4', '4.1.2'], absent: ['4.1.1'] },
  };
  for (const [standard, { fail, absent }] of Object.entries(expected)) {
    test(standard, async () => {
      const response = await audit({ branch: 'wcag', standard, url: service.pageUrl('/broken') });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.equal(body.standard, standard);
      const findings = body.findings as WcagFinding[];
      const criteria = STANDARD_CRITERIA[standard as keyof typeof STANDARD_CRITERIA];
      for (const f of findings) assert.ok(criteria.has(f.control as never), `${f.control} is not a criterion of ${standard}`);
      const failed = findings.filter((f) => f.status === 'fail').map((f) => f.control).sort();
      assert.deepEqual(failed, [...fail].sort());
      for (const control of absent) assert.equal(byControl(findings)[control], undefined, `${control} must not be reported`);
      assert.ok(!(body.controls as { control: string }[]).some((c) => c.control === '4.1.1'), '4.1.1 is no checked control either');
      assert.equal(body.totals.errors, failed.length);
    });
  }
});

test('a failed criterion carries its count, rules, ACT ids, first location and occurrences', async () => {
  const body = (await audit({ url: service.pageUrl('/broken') })).json();
  const nameRoleValue = byControl(body.findings)['4.1.2']!;
  assert.equal(nameRoleValue.severity, 'error');
  assert.deepEqual(nameRoleValue.rules, ['link-name', 'button-name', 'form-field-name']);
  assert.deepEqual(nameRoleValue.actRules, ['c487ae', '97a4e1', 'e086e5']);
  assert.match(nameRoleValue.evidence, /^4 failed \(link-name 2, button-name 1, form-field-name 1\)/);
  assert.deepEqual(
    nameRoleValue.occurrences!.map((o) => [o.rule, o.selector]),
    [
      ['link-name', 'html > body > nav > a:nth-of-type(1)'],
      ['link-name', 'html > body > nav > a:nth-of-type(2)'],
      ['button-name', 'html > body > main > button'],
      ['form-field-name', '#q'],
    ],
  );
  assert.deepEqual(nameRoleValue.location, { selector: nameRoleValue.occurrences![0]!.selector, snippet: nameRoleValue.occurrences![0]!.snippet });
  const contrast = byControl(body.findings)['1.4.3']!;
  assert.deepEqual(contrast.actRules, ['afw4f7']);
  assert.match(contrast.evidence, /contrast 2\.\d+:1 is below 4\.5:1/);
});

test('judgement criteria are inconclusive warnings where they apply, and only there', async () => {
  const body = (await audit({ url: service.pageUrl('/broken') })).json();
  const findings = byControl(body.findings);
  for (const control of ['2.4.2', '2.4.6', '3.1.1']) {
    assert.equal(findings[control]?.status, 'inconclusive', control);
    assert.equal(findings[control]?.severity, 'warning', control);
    assert.match(findings[control]!.evidence, /no AI step configured/);
  }
  // The clean page has no heading and no link: 2.4.4 and 2.4.6 do not apply there.
  const clean = byControl((await audit({ url: service.pageUrl('/clean') })).json().findings);
  assert.equal(clean['2.4.6'], undefined);
  assert.equal(clean['2.4.4'], undefined);
  assert.equal(clean['2.4.2']?.status, 'inconclusive');
});

test('includeWarnings=false keeps the errors only', async () => {
  const body = (await audit({ url: service.pageUrl('/broken'), includeWarnings: false })).json();
  assert.ok(body.findings.length > 0);
  for (const f of body.findings) assert.equal(f.severity, 'error');
  assert.equal(body.totals.warnings, 0);
});

test('a clean page: passes are controls, never findings; contrast decided from inline colours passes', async () => {
  const body = (await audit({ url: service.pageUrl('/clean') })).json();
  const outcomes = Object.fromEntries((body.controls as { control: string; outcome: string }[]).map((c) => [c.control, c.outcome]));
  assert.equal(outcomes['1.4.3'], 'pass');
  assert.equal(outcomes['3.1.1'], 'inconclusive');
  assert.equal(body.totals.errors, 0);
});

test('read-back returns exactly the 201 for every standard', async () => {
  for (const standard of ['WCAG21A', 'WCAG21AA', 'WCAG22AA']) {
    const posted = (await audit({ standard, url: service.pageUrl('/broken') })).json();
    const read = await service.app.inject({ method: 'GET', url: `/api/v1/audits/${posted.id}`, headers: { 'x-api-key': service.apiKey } });
    assert.equal(read.statusCode, 200);
    assert.deepStrictEqual(read.json(), posted);
  }
});
