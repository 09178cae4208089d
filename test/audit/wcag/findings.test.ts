// Rule outcomes → findings: one finding per criterion of the requested standard, fail before
// inconclusive, occurrences capped at 50, judgement criteria inconclusive only where they apply.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../src/audit/page.ts';
import { analyseWcag } from '../../../src/audit/wcag/index.ts';
import { OCCURRENCES_MAX } from '../../../src/audit/wcag/findings.ts';

const html = (body: string, head = '<title>T</title>') => `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
const audit = (doc: string, standard: 'WCAG21A' | 'WCAG21AA' | 'WCAG22AA' = 'WCAG21AA', includeWarnings = true) =>
  analyseWcag(buildPage(doc, 'https://example.com/'), standard, includeWarnings);

describe('WCAG findings', () => {
  test('one fail finding per criterion, whatever the number of failing elements and rules', () => {
    const result = audit(html('<a href="/a"></a><a href="/b"></a><button></button>'));
    const f = result.findings.filter((x) => x.control === '4.1.2');
    assert.equal(f.length, 1);
    assert.equal(f[0]!.status, 'fail');
    assert.deepEqual(f[0]!.rules, ['link-name', 'button-name']);
    assert.equal(f[0]!.occurrences!.length, 3);
  });

  test('occurrences stop at 50; the count in the evidence does not', () => {
    const result = audit(html('<a href="/x"></a>'.repeat(80)));
    const f = result.findings.find((x) => x.control === '4.1.2')!;
    assert.equal(f.occurrences!.length, OCCURRENCES_MAX);
    assert.match(f.evidence, /^80 failed/);
    assert.ok(f.evidence.length <= 200);
  });

  test('a criterion with fails and cantTells is a single fail; cantTell alone is an inconclusive warning', () => {
    const both = audit(html('<p style="color:#bbb;background:#fff">pale</p><p style="color:#777;background:url(a.png)">photo</p>'));
    assert.deepEqual(both.findings.filter((x) => x.control === '1.4.3').map((x) => x.status), ['fail']);
    const unsure = audit(html('<p style="color:#777;background:url(a.png)">photo</p>'));
    const f = unsure.findings.find((x) => x.control === '1.4.3')!;
    assert.equal(f.status, 'inconclusive');
    assert.equal(f.severity, 'warning');
  });

  test('criteria outside the standard are never reported', () => {
    const doc = html('<p style="color:#bbb;background:#fff">pale</p>');
    assert.ok(audit(doc, 'WCAG21AA').findings.some((f) => f.control === '1.4.3'));
    assert.ok(!audit(doc, 'WCAG21A').findings.some((f) => f.control === '1.4.3'));
  });

  test('a page with no images, links or headings gets no 1.1.1, 2.4.4 or 2.4.6 finding', () => {
    const result = audit(html('<p>Plain text.</p>'));
    for (const c of ['1.1.1', '2.4.4', '2.4.6']) assert.equal(result.findings.find((f) => f.control === c), undefined, c);
    assert.equal(result.ai?.used, false);
  });

  test('includeWarnings=false drops inconclusive findings from the list and the totals', () => {
    const result = audit(html('<h1>Title</h1><a href="/x"></a>'), 'WCAG21AA', false);
    assert.ok(result.findings.length > 0);
    assert.ok(result.findings.every((f) => f.severity === 'error'));
    assert.equal(result.totals.warnings, 0);
  });

  // Issue 18: W3C's 2023 erratum makes 4.1.1 always satisfied for HTML (and 2.2 removed it).
  test('duplicated ids never fail 4.1.1 under any standard: no finding, no control, however many', () => {
    const body = Array.from({ length: 4000 }, (_, i) => `<span id="x${i % 1900}">${i}</span>`).join('');
    for (const standard of ['WCAG21A', 'WCAG21AA', 'WCAG22AA'] as const) {
      const result = audit(html(body), standard);
      assert.equal(result.findings.find((f) => f.control === '4.1.1'), undefined, standard);
      assert.equal(result.controls.find((c) => c.control === '4.1.1'), undefined, standard);
      assert.ok(result.findings.every((f) => !f.rules?.includes('duplicate-id')), standard);
      assert.equal(result.totals.errors, 0, standard);
    }
  });

  test('a duplicated id that breaks a label or aria-labelledby is still an error of 4.1.2', () => {
    const doc = html(
      '<label for="q">Search</label><input id="q" type="search"><input id="q" type="email">' +
        '<span id="l"></span><button aria-labelledby="l"><svg aria-hidden="true"></svg></button><span id="l">Close</span>',
    );
    for (const standard of ['WCAG21A', 'WCAG22AA'] as const) {
      const result = audit(doc, standard);
      const f = result.findings.find((x) => x.control === '4.1.2')!;
      assert.equal(f.severity, 'error', standard);
      assert.deepEqual(f.rules, ['button-name', 'form-field-name'], standard);
      assert.equal(result.findings.find((x) => x.control === '4.1.1'), undefined, standard);
    }
  });

  test('a duplicated headers id outside the table is still an error of 1.3.1', () => {
    const result = audit(html('<p id="h">Not a cell</p><table><tr><th id="h">Name</th></tr><tr><td headers="h">Ann</td></tr></table>'), 'WCAG21A');
    const f = result.findings.find((x) => x.control === '1.3.1')!;
    assert.equal(f.severity, 'error');
    assert.deepEqual(f.rules, ['td-headers']);
  });

  // Issue 18: a rule whose ACT rule maps to no WCAG criterion for conformance never makes an error.
  test('an empty heading is a warning-severity fail of 2.4.6 (ACT ffd0e9 maps to no criterion), never an error', () => {
    const doc = html('<h1>Title</h1><h2></h2><h3><img src="x.png" alt=""></h3>');
    const result = audit(doc, 'WCAG21AA');
    const warnings = result.findings.filter((f) => f.control === '2.4.6' && f.status === 'fail');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.severity, 'warning');
    assert.equal(warnings[0]!.source, 'rules');
    assert.deepEqual(warnings[0]!.rules, ['heading-name']);
    assert.deepEqual(warnings[0]!.actRules, ['ffd0e9']);
    assert.match(warnings[0]!.evidence, /^2 failed \(heading-name 2\), a warning/);
    assert.equal(warnings[0]!.occurrences!.length, 2);
    // The heading question stays open for the headings with a name (no AI step), before the warning.
    assert.deepEqual(result.findings.filter((f) => f.control === '2.4.6').map((f) => f.status), ['inconclusive', 'fail']);
    const control = result.controls.find((c) => c.control === '2.4.6')!;
    assert.deepEqual([control.outcome, control.severity], ['fail', 'warning']);
    assert.equal(result.findings.find((f) => f.control === '1.3.1'), undefined);
    assert.equal(result.totals.errors, 0);
    // Errors only: nothing; a level A audit: 2.4.6 is AA.
    assert.deepEqual(audit(doc, 'WCAG21AA', false).findings, []);
    assert.equal(audit(doc, 'WCAG21A').findings.find((f) => f.control === '2.4.6'), undefined);
  });

  test('ARIA rules mapped to 1.3.1 and 4.1.2 only as secondary requirements warn, beside the errors of the same criterion', () => {
    const result = audit(html('<div role="buton">x</div><span aria-labell="x">y</span><button></button>'), 'WCAG22AA');
    const nameRoleValue = result.findings.filter((f) => f.control === '4.1.2');
    assert.deepEqual(
      nameRoleValue.map((f) => [f.status, f.severity, f.rules]),
      [
        ['fail', 'error', ['button-name']],
        ['fail', 'warning', ['role-valid', 'aria-attr-defined']],
      ],
    );
    assert.deepEqual(result.findings.filter((f) => f.control === '1.3.1').map((f) => [f.status, f.severity]), [['fail', 'warning']]);
    assert.equal(result.controls.find((c) => c.control === '4.1.2')!.severity, 'error');
    assert.deepEqual(
      ['outcome', 'severity'].map((k) => result.controls.find((c) => c.control === '1.3.1')![k as 'outcome' | 'severity']),
      ['fail', 'warning'],
    );
    assert.equal(result.totals.errors, 1);
  });
});
