// The stdout summary (per page and branch, the failures over the threshold, the totals and the
// exit reason; everything from the network escaped and cut) and the --json report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failedOccurrences } from '../../src/audit/identity.ts';
import { jsonReport } from '../../packages/check/src/json-report.ts';
import type { ApiFinding } from '../../packages/check/src/model.ts';
import { exitReason, summaryText, truncate } from '../../packages/check/src/summary.ts';
import { terminalText } from '../../packages/check/src/terminal-text.ts';
import { auditedPage, contrast, emptyHeading, inconclusive, notAuditedPage, runOf } from './support-hand-made.ts';

const escapes: [name: string, text: string, shown: string][] = [
  ['plain text and other scripts', 'Zoë 東京 👩‍💻', 'Zoë 東京 👩‍💻'],
  ['backslash', 'a\\b', 'a\\\\b'],
  ['tab, newline, carriage return', 'a\tb\nc\rd', 'a\\tb\\nc\\rd'],
  ['escape sequences and bell', '\u001b[2J\u001b]0;x\u0007', '\\x1b[2J\\x1b]0;x\\x07'],
  ['NUL, DEL, C1 (CSI)', '\u0000\u007f\u009b', '\\x00\\x7f\\x9b'],
  ['bidi embeddings, overrides, isolates, marks', '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c', '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c'],
  ['line and paragraph separators', '\u2028\u2029', '\\u2028\\u2029'],
];
for (const [name, text, shown] of escapes) {
  test(`terminalText: ${name}`, () => assert.equal(terminalText(text), shown));
}

test('truncate: by code points, never half a surrogate pair, … when cut', () => {
  assert.equal(truncate('abc', 3), 'abc');
  assert.equal(truncate('abcd', 3), 'ab…');
  assert.equal(truncate('😀😀😀😀', 3), '😀😀…');
});

test('summaryText: a failing page, a passing one, a page not audited; totals and the exit reason', () => {
  const run = runOf([
    auditedPage('https://a.test/', 'wcag', [contrast, emptyHeading, inconclusive], 'error', 'id-a'),
    auditedPage('https://a.test/', 'privacy', [], 'error', 'id-b'),
    notAuditedPage('https://b.test/', 'wcag', 422, 'unreachable or blocked'),
  ]);
  run.exitCode = 3;
  assert.equal(
    summaryText(run),
    [
      'FAIL https://a.test/ [wcag]: 1 error, 2 warnings, 1 inconclusive; 2 over the threshold',
      '    - 1.4.3 error  color-contrast  html > body > p  <p style="color:#aaa">Low</p>',
      '    - 1.4.3 error  color-contrast  html > body > span  <span style="color:#bbb">x</span>',
      '      https://audit.example.test/dashboard/audits/id-a',
      'ok   https://a.test/ [privacy]: 0 errors, 0 warnings, 0 inconclusive',
      '      https://audit.example.test/dashboard/audits/id-b',
      'NOT AUDITED https://b.test/ [wcag]: 422 unreachable or blocked',
      '',
      'Not audited (1):',
      '  https://b.test/ [wcag]',
      '',
      'check: 2 of 3 page audits made, 1 error, 2 warnings, 1 inconclusive, 2 over the threshold; exit 3: 1 of 3 page audits could not be made',
      '',
    ].join('\n'),
  );
});

const reasons: [name: string, fields: Parameters<typeof runOf>[1], pages: Parameters<typeof runOf>[0], reason: RegExp][] = [
  ['0 with nothing over', {}, [auditedPage('https://a.test/', 'wcag', [emptyHeading])], /^exit 0: nothing over the threshold \(--fail-on error\)$/],
  ['0 with --fail-on none', { failOn: 'none' }, [auditedPage('https://a.test/', 'wcag', [contrast], 'none')], /^exit 0: --fail-on none$/],
  ['1 on errors', {}, [auditedPage('https://a.test/', 'wcag', [contrast])], /^exit 1: 2 failures over the threshold \(--fail-on error: failed errors\)$/],
  ['1 on warnings', { failOn: 'warning' }, [auditedPage('https://a.test/', 'wcag', [emptyHeading], 'warning')], /^exit 1: 1 failure over the threshold \(--fail-on warning: failed errors and warnings\)$/],
  ['3 not audited', {}, [notAuditedPage('https://a.test/', 'wcag', null, 'server unreachable')], /^exit 3: 1 of 1 page audits could not be made$/],
];
for (const [name, fields, pages, reason] of reasons) {
  test(`exitReason: ${name}`, () => assert.match(exitReason(runOf(pages, fields)), reason));
}

test('summaryText: with a baseline, new occurrences counted per page and in the totals', () => {
  const page = auditedPage('https://a.test/', 'wcag', [contrast]);
  page.newOccurrences = page.occurrences.slice(1);
  page.overThreshold = page.newOccurrences;
  const text = summaryText(runOf([page], { failOn: 'new', baseline: 'ci/baseline.json' }));
  assert.match(text, /^FAIL https:\/\/a\.test\/ \[wcag\]: 1 error, 0 warnings, 0 inconclusive; 1 over the threshold\n/);
  assert.match(text, /1 new against ci\/baseline\.json, 1 over the threshold; exit 1: 1 failure over the threshold \(--fail-on new: failures not in the baseline\)\n$/);
  const other = auditedPage('https://a.test/', 'wcag', [contrast]);
  other.newOccurrences = [];
  assert.match(summaryText(runOf([other], { baseline: 'b.json' })), /2 over the threshold, 0 new\n/);
});

test('summaryText: what came from the network is escaped and cut, whitespace folded', () => {
  const hostile: ApiFinding = {
    control: '4.1.2',
    status: 'fail',
    severity: 'error',
    evidence: 'x',
    occurrences: [{ rule: 'link-name', selector: 'a[title="\u202egnp.exe"]', snippet: `<a href="/x">\n\t\u001b[31mred\u001b[0m ${'y'.repeat(300)}</a>` }],
  };
  const page = auditedPage('https://a.test/\u202e', 'wcag', [hostile]);
  page.dashboardUrl = 'https://audit.example.test/dashboard/audits/\u001b[2J';
  const text = summaryText(runOf([page, notAuditedPage('https://b.test/', 'wcag', 503, 'service\u0007 unavailable\n')]));
  assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  assert.match(text, /a\[title="\\u202egnp\.exe"\]  <a href="\/x"> \\x1b\[31mred\\x1b\[0m y+…\n/);
  assert.match(text, /\\x1b\[2J\n/);
  assert.match(text, /NOT AUDITED https:\/\/b\.test\/ \[wcag\]: 503 service\\x07 unavailable\n/);
  const snippetLine = text.split('\n').find((l) => l.includes('link-name'))!;
  assert.ok(snippetLine.length < 200, snippetLine);
});

test('summaryText: at most 20 failures listed per page, the rest counted', () => {
  const many: ApiFinding = {
    control: '1.1.1',
    status: 'fail',
    severity: 'error',
    evidence: 'x',
    occurrences: Array.from({ length: 25 }, (_, i) => ({ rule: 'image-alt', selector: `img:nth-of-type(${i + 1})`, snippet: '<img>' })),
  };
  const text = summaryText(runOf([auditedPage('https://a.test/', 'wcag', [many])]));
  assert.equal(text.split('\n').filter((l) => l.startsWith('    - 1.1.1')).length, 20);
  assert.match(text, /… and 5 more \(all of them in --json, --junit or --sarif\)/);
  assert.equal(summaryText(runOf([auditedPage('https://a.test/', 'wcag', [many])]), { maxListed: 2 }).split('\n').filter((l) => l.startsWith('    - ')).length, 2);
});

test('summaryText: a finding without an element shows its evidence, escaped', () => {
  const policy: ApiFinding = { control: 'privacy.privacy-policy-link', status: 'fail', severity: 'error', evidence: 'no link\u001b[2J to a privacy policy' };
  assert.match(summaryText(runOf([auditedPage('https://a.test/', 'privacy', [policy])])), /\n {4}- privacy\.privacy-policy-link error  no link\\x1b\[2J to a privacy policy\n/);
});

test('summaryText: a finding without occurrences (privacy) shows its control and location', () => {
  const cookie: ApiFinding = { control: 'PRIV-COOKIE-1', status: 'fail', severity: 'error', evidence: 'x', location: { selector: 'script#ga', snippet: '<script id="ga">' } };
  assert.match(summaryText(runOf([auditedPage('https://a.test/', 'privacy', [cookie])])), /\n {4}- PRIV-COOKIE-1 error  script#ga  <script id="ga">\n/);
});

test('jsonReport: the audits whole (unknown fields kept), not-audited reasons, the comparison and the exit code', () => {
  const page = auditedPage('https://a.test/', 'wcag', [contrast, emptyHeading]);
  page.newOccurrences = page.occurrences.slice(0, 1);
  const run = runOf([page, notAuditedPage('https://b.test/', 'privacy', null, 'server unreachable')], { baseline: 'b.json' });
  const report = JSON.parse(jsonReport(run));
  assert.deepEqual(Object.keys(report), ['server', 'failOn', 'baseline', 'startedAt', 'finishedAt', 'exitCode', 'pages']);
  assert.deepEqual(report, {
    server: 'https://audit.example.test',
    failOn: 'error',
    baseline: 'b.json',
    startedAt: '2025-01-02T03:04:00.000Z',
    finishedAt: '2025-01-02T03:05:00.000Z',
    exitCode: 3,
    pages: [
      {
        url: 'https://a.test/',
        branch: 'wcag',
        audit: JSON.parse(JSON.stringify(page.audit)),
        dashboardUrl: 'https://audit.example.test/dashboard/audits/a1',
        newOccurrences: JSON.parse(JSON.stringify(failedOccurrences([contrast]).slice(0, 1))),
        overThreshold: JSON.parse(JSON.stringify(failedOccurrences([contrast]))),
      },
      { url: 'https://b.test/', branch: 'privacy', notAudited: { status: null, reason: 'server unreachable' }, overThreshold: [] },
    ],
  });
  assert.equal(report.pages[0]!.audit.extraField, 'kept');
  assert.equal(JSON.parse(jsonReport(runOf([]))).baseline, null);
});
