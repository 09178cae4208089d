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
    const doc = html('<p style="color:#bbb;background:#fff">pale</p><p id="d">1</p><p id="d">2</p>');
    assert.ok(audit(doc, 'WCAG21AA').findings.some((f) => f.control === '4.1.1'));
    assert.ok(!audit(doc, 'WCAG22AA').findings.some((f) => f.control === '4.1.1'));
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

  test('the duplicate-id page of many thousands of ids stays one finding', () => {
    const body = Array.from({ length: 4000 }, (_, i) => `<span id="x${i % 1900}">${i}</span>`).join('');
    const f = audit(html(body)).findings.filter((x) => x.control === '4.1.1');
    assert.equal(f.length, 1);
    assert.match(f[0]!.evidence, /^2100 failed/);
  });
});
