// The check client's JUnit report, read by real consumers: xmllint (well-formed XML 1.0) and the
// junit2json parser (what CI test reporters see), on runs built from real audits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { parse, type TestCase, type TestSuite, type TestSuites } from 'junit2json';
import { escapeAttribute, junitReport, xmlLegal } from '../../packages/check/src/junit.ts';
import type { ApiAudit, FailOn, PageResult, RunResult } from '../../packages/check/src/model.ts';
import { auditedPage, baselineRun, fullRun, notAuditedPage, realAudits, runOf, withLoneSurrogate, type RealAudits } from './support-results.ts';

let audits: RealAudits;
let dir: string;

before(async () => {
  audits = await realAudits();
  dir = mkdtempSync(path.join(tmpdir(), 'check-junit-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const XMLLINT = '/usr/bin/xmllint';
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** xmllint --noout on the report: skipped with a message where xmllint is missing, failed in CI. */
function assertWellFormed(t: TestContext, xml: string, name: string): void {
  const found = spawnSync(XMLLINT, ['--version'], { encoding: 'utf8' });
  if (found.error !== undefined) {
    if (process.env.CI) assert.fail(`xmllint is required in CI (${XMLLINT}: ${found.error.message})`);
    t.skip(`xmllint not installed at ${XMLLINT}: the well-formedness check did not run (install libxml2-utils)`);
    return;
  }
  const file = path.join(dir, name);
  writeFileSync(file, xml);
  const result = spawnSync(XMLLINT, ['--noout', file], { encoding: 'utf8' });
  assert.equal(result.status, 0, `xmllint --noout ${name}: ${result.stderr}`);
}

async function readBack(xml: string): Promise<TestSuites> {
  const parsed = await parse(xml);
  assert.ok(parsed !== null && parsed !== undefined && 'testsuite' in parsed, 'a <testsuites> root');
  return parsed as TestSuites;
}

const suites = (parsed: TestSuites): TestSuite[] => parsed.testsuite ?? [];
const cases = (suite: TestSuite): TestCase[] => suite.testcase ?? [];

/** The testcase name the report gives a control, as documented in src/junit.ts. */
const caseName = (control: { control: string; requirement: string }) =>
  control.requirement.startsWith(control.control) ? control.requirement : `${control.control}: ${control.requirement}`;

/** What each testcase of an audited page must be, worked out from the run, not from the report. */
function expectedCases(page: PageResult) {
  const audit = page.audit!;
  const over = new Set(page.overThreshold.map((o) => o.identity));
  return audit.controls.map((control) => {
    const failing = page.occurrences.filter((o) => o.control === control.control);
    const counted = failing.filter((o) => over.has(o.identity));
    const outcome =
      counted.length > 0 ? 'failure' : control.outcome === 'inconclusive' ? 'skipped' : control.outcome === 'fail' ? 'noted' : 'pass';
    return { name: caseName(control), control, outcome, counted, below: failing.filter((o) => !over.has(o.identity)) };
  });
}

/** Every claim the report makes about one run, checked against the parsed XML. */
function assertReadBack(run: RunResult, parsed: TestSuites): void {
  const all = run.pages.flatMap((page) => (page.audit === undefined ? [{ outcome: 'error' }] : expectedCases(page)));
  assert.equal(parsed.name, 'audit-service check');
  assert.equal(parsed.tests, all.length);
  assert.equal(parsed.failures, all.filter((c) => c.outcome === 'failure').length);
  assert.equal(parsed.errors, run.pages.filter((p) => p.notAudited !== undefined).length);
  assert.equal(suites(parsed).length, run.pages.length);
  run.pages.forEach((page, i) => {
    const suite = suites(parsed)[i]!;
    assert.equal(suite.name, `${page.branch} ${page.url}`);
    if (page.audit === undefined) {
      assert.deepEqual([suite.tests, suite.failures, suite.errors, suite.skipped], [1, 0, 1, 0]);
      const [only] = cases(suite);
      assert.equal(only?.name, 'audit');
      assert.equal(only?.error?.[0]?.message, `not audited: ${page.notAudited!.reason}`);
      return;
    }
    const expected = expectedCases(page);
    assert.deepEqual(
      cases(suite).map((c) => c.name),
      expected.map((c) => c.name),
    );
    assert.equal(suite.tests, expected.length);
    assert.equal(suite.failures, expected.filter((c) => c.outcome === 'failure').length);
    assert.equal(suite.skipped, expected.filter((c) => c.outcome === 'skipped').length);
    assert.equal(suite.errors, 0);
    assert.ok(suite.properties?.some((p) => p.name === 'audit.id' && p.value === page.audit!.id));
    expected.forEach((want, j) => {
      const got = cases(suite)[j]!;
      assert.equal(got.classname, `${page.branch}.${page.url}`);
      if (want.outcome === 'failure') {
        const failure = got.failure?.[0];
        assert.ok(failure, `${want.name} fails`);
        assert.equal(failure.message, xmlLegal(want.control.evidence));
        assert.equal(failure.type, want.counted.some((o) => o.severity === 'error') ? 'error' : 'warning');
        for (const o of [...want.counted, ...want.below]) {
          assert.ok(failure.inner?.includes(`identity: ${o.identity}`), `${want.name}: ${o.identity} listed`);
          if (o.selector !== null) assert.ok(failure.inner?.includes(`- ${xmlLegal(o.selector)}`));
          if (o.snippet !== null) assert.ok(failure.inner?.includes(`snippet: ${xmlLegal(o.snippet)}`));
          if (o.rule !== null) assert.ok(failure.inner?.includes(`rule: ${o.rule}`));
        }
        assert.ok(failure.inner?.includes(`Dashboard: ${page.dashboardUrl}`));
      } else {
        assert.equal(got.failure, undefined, `${want.name} does not fail`);
      }
      if (want.outcome === 'skipped') assert.deepEqual(got.skipped, [{ message: `inconclusive: ${xmlLegal(want.control.evidence)}` }]);
      else assert.equal(got.skipped, undefined);
      if (want.outcome === 'noted') {
        const out = got['system-out']?.join('\n') ?? '';
        assert.match(out, /^Fails \((error|warning)\) but does not fail the run/);
        for (const o of want.below) assert.ok(out.includes(`identity: ${o.identity}`));
      } else {
        assert.equal(got['system-out'], undefined);
      }
    });
  });
}

test('a run with every branch and two pages not audited: well-formed, and read back as written', async (t) => {
  const run = fullRun(audits);
  const xml = junitReport(run);
  assertWellFormed(t, xml, 'full.xml');
  const parsed = await readBack(xml);
  assertReadBack(run, parsed);
  // The shapes that matter, spelled out: WCAG errors fail, a warning-only fail passes with a note
  // under --fail-on error, the judgement criteria are skipped, the refused page is an error.
  const shop = suites(parsed)[0]!;
  const byName = new Map(cases(shop).map((c) => [c.name, c]));
  assert.equal(byName.get('1.1.1 Non-text Content')?.failure?.[0]?.type, 'error');
  assert.equal(byName.get('4.1.2 Name, Role, Value')?.failure?.[0]?.inner?.match(/identity: /g)?.length, 3);
  assert.equal(byName.get('2.4.6 Headings and Labels')?.failure, undefined);
  assert.match(byName.get('2.4.6 Headings and Labels')?.['system-out']?.[0] ?? '', /Fails \(warning\).*--fail-on error/);
  assert.match(byName.get('2.4.2 Page Titled')?.skipped?.[0]?.message ?? '', /^inconclusive: /);
  assert.equal(byName.get('1.4.3 Contrast (Minimum)')?.failure, undefined);
  const privacy = cases(suites(parsed)[2]!).find((c) => c.name?.startsWith('privacy.privacy-policy-reachable: '));
  assert.match(privacy?.failure?.[0]?.message ?? '', /answered 404/);
  assert.deepEqual(
    suites(parsed).slice(4).map((s) => cases(s)[0]?.error?.[0]?.message),
    ['not audited: unreachable or blocked', 'not audited: server unreachable'],
  );
  assert.equal(parsed.time, 7.25);
  assert.equal(shop.timestamp, audits.shop.createdAt.slice(0, 19));
});

test('a hostile snippet: what XML 1.0 cannot carry is removed, the rest survives byte for byte', async (t) => {
  const hostile = withLoneSurrogate(audits.hostile);
  // Evidence goes into attributes: line breaks, tabs, quotes and controls there too.
  const failing = hostile.findings.find((f) => f.status === 'fail')!;
  failing.evidence = `line one\nline two\ttab "double" 'single' <tag> & amp \u0001\u001F\uFFFF ]]> \r\nend`;
  hostile.controls.find((c) => c.control === failing.control)!.evidence = failing.evidence;
  const run = runOf([auditedPage(hostile, 'warning')], 'warning');
  const xml = junitReport(run);
  assert.doesNotMatch(xml, ILLEGAL_XML);
  assert.ok(!xml.includes(']]>'));
  assertWellFormed(t, xml, 'hostile.xml');
  const parsed = await readBack(xml);
  assertReadBack(run, parsed);

  const snippet = failing.occurrences![0]!.snippet;
  assert.match(snippet, /\u0007/, 'the real page delivered a control character');
  assert.match(snippet, /\uFFFE/);
  assert.match(snippet, /\uD800/);
  const failure = cases(suites(parsed)[0]!).find((c) => c.name === '1.1.1 Non-text Content')?.failure?.[0];
  const cleaned = xmlLegal(snippet);
  assert.ok(failure?.inner?.includes(`snippet: ${cleaned}`), 'the snippet reads back without its illegal characters');
  assert.ok(cleaned.includes(`cdata]]> &quot;q&quot; 'a' <b> &amp;amp; tab\tend`), cleaned);
  assert.ok(!cleaned.includes('\u0007') && !cleaned.includes('\uFFFE') && !cleaned.includes('\uD800') && !cleaned.includes('\uDC00'));
  assert.equal(failure?.message, `line one\nline two\ttab "double" 'single' <tag> & amp  ]]> \r\nend`);
});

test('escaping: attributes keep line breaks and tabs as references, surrogate pairs stay', () => {
  assert.equal(escapeAttribute(`a\tb\nc\rd"e'f<g>h&i`), 'a&#9;b&#10;c&#13;d&quot;e&apos;f&lt;g&gt;h&amp;i');
  assert.equal(xmlLegal('emoji \u{1F600} ok'), 'emoji \u{1F600} ok');
  assert.equal(xmlLegal('\uDE00x\uD83D'), 'x');
  assert.equal(xmlLegal('a\u0000b\u0008c\u000Bd\u000Ce\u007Ff\u0085g'), 'abcde\u007Ff\u0085g');
});

for (const failOn of ['warning', 'none'] as FailOn[]) {
  test(`--fail-on ${failOn}: failures are exactly the controls over the threshold`, async (t) => {
    const run = runOf([auditedPage(audits.shop, failOn), auditedPage(audits.tracked, failOn), auditedPage(audits.aiPlain, failOn)], failOn);
    const xml = junitReport(run);
    assertWellFormed(t, xml, `fail-on-${failOn}.xml`);
    const parsed = await readBack(xml);
    assertReadBack(run, parsed);
    const failedControls = run.pages.reduce((n, p) => n + new Set(p.overThreshold.map((o) => o.control)).size, 0);
    assert.equal(parsed.failures, failedControls);
    if (failOn === 'none') assert.equal(parsed.failures, 0);
    else {
      const heading = cases(suites(parsed)[0]!).find((c) => c.name === '2.4.6 Headings and Labels');
      assert.equal(heading?.failure?.[0]?.type, 'warning');
    }
  });
}

test('--fail-on new with a baseline: known occurrences pass with a note, new ones fail and say so', async (t) => {
  const run = baselineRun(audits);
  const xml = junitReport(run);
  assertWellFormed(t, xml, 'baseline.xml');
  const parsed = await readBack(xml);
  assertReadBack(run, parsed);
  const page = run.pages[0]!;
  assert.equal(page.newOccurrences?.length, 2);
  const failed = cases(suites(parsed)[0]!).filter((c) => c.failure !== undefined);
  assert.deepEqual(
    failed.map((c) => c.name),
    [...new Set(page.newOccurrences!.map((o) => o.control))].map((control) => caseName(page.audit!.controls.find((c) => c.control === control)!)),
  );
  for (const c of failed) assert.match(c.failure?.[0]?.inner ?? '', /\(new\)/);
  const noted = cases(suites(parsed)[0]!).filter((c) => c['system-out'] !== undefined);
  assert.ok(noted.length > 0);
  for (const c of noted) assert.match(c['system-out']!.join('\n'), /\(in the baseline\)/);
  assert.ok(suites(parsed)[0]!.properties?.some((p) => p.name === 'check.baseline' && p.value === 'audit-baseline.json'));
});

test('a control failing with no finding returned (warnings not requested) passes with a note', async () => {
  const audit: ApiAudit = structuredClone(audits.tracked);
  audit.findings = audit.findings.filter((f) => f.severity === 'error');
  const run = runOf([auditedPage(audit, 'error')], 'error');
  const parsed = await readBack(junitReport(run));
  assertReadBack(run, parsed);
  const banner = cases(suites(parsed)[0]!).find((c) => c.name?.startsWith('privacy.consent-banner-structure'));
  assert.match(banner?.['system-out']?.[0] ?? '', /no failed finding of it was returned/);
});

test('the same run gives the same bytes', () => {
  const run = fullRun(audits);
  assert.equal(junitReport(structuredClone(run)), junitReport(run));
  const empty = runOf([notAuditedPage('https://example.com/', 'wcag', { status: 401, reason: 'invalid api key' })], 'error');
  assert.equal(junitReport(empty), junitReport(structuredClone(empty)));
  assert.match(junitReport(empty), /<testsuites name="audit-service check" tests="1" failures="0" errors="1" skipped="0"/);
});
