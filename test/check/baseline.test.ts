// Baselines: written from a run (sorted, readable, the same text whatever order the run finished
// in), read back into identities per page and branch, and every bad file refused with a reason.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { identityOf } from '../../src/audit/identity.ts';
import { UsageError } from '../../packages/check/src/args.ts';
import { baselineFromRun, baselineKey, baselineText, parseBaseline, readBaseline } from '../../packages/check/src/baseline.ts';
import { auditedPage, contrast, emptyHeading, inconclusive, notAuditedPage, runOf, SERVER } from './support-hand-made.ts';

const CREATED = '2025-02-03T04:05:06.000Z';
const p1 = identityOf('1.4.3', 'color-contrast', 'html > body > p', '<p style="color:#aaa">Low</p>');
const p2 = identityOf('1.4.3', 'color-contrast', 'html > body > span', '<span style="color:#bbb">x</span>');
const h = identityOf('2.4.6', 'empty-heading', 'h2', '<h2></h2>');
const sorted = (...ids: string[]) => ids.toSorted();

function pages() {
  return [
    auditedPage('https://b.test/', 'wcag', [contrast, inconclusive]),
    notAuditedPage('https://c.test/', 'wcag', null, 'server unreachable'),
    auditedPage('https://a.test/', 'wcag', [emptyHeading, contrast, contrast]),
    auditedPage('https://a.test/', 'privacy', []),
  ];
}

test('baselineFromRun: pages by URL then branch, identities sorted and once, occurrences beside them, not-audited pages left out', () => {
  const baseline = baselineFromRun(runOf(pages()), CREATED);
  const occurrence = (identity: string) => {
    const all = [
      { identity: p1, control: '1.4.3', rule: 'color-contrast', selector: 'html > body > p', snippet: '<p style="color:#aaa">Low</p>', severity: 'error' },
      { identity: p2, control: '1.4.3', rule: 'color-contrast', selector: 'html > body > span', snippet: '<span style="color:#bbb">x</span>', severity: 'error' },
      { identity: h, control: '2.4.6', rule: 'empty-heading', selector: 'h2', snippet: '<h2></h2>', severity: 'warning' },
    ];
    return all.find((o) => o.identity === identity);
  };
  assert.deepEqual(baseline, {
    version: 1,
    server: SERVER,
    createdAt: CREATED,
    pages: [
      { url: 'https://a.test/', branch: 'privacy', identities: [], occurrences: [] },
      { url: 'https://a.test/', branch: 'wcag', identities: sorted(p1, p2, h), occurrences: sorted(p1, p2, h).map(occurrence) },
      { url: 'https://b.test/', branch: 'wcag', identities: sorted(p1, p2), occurrences: sorted(p1, p2).map(occurrence) },
    ],
  });
});

test('baselineText: the same text whatever order the run finished in; two-space JSON, one identity per line', () => {
  const text = baselineText(baselineFromRun(runOf(pages()), CREATED));
  assert.equal(baselineText(baselineFromRun(runOf(pages().reverse()), CREATED)), text);
  assert.ok(text.endsWith('}\n'));
  assert.match(text, new RegExp(`\\n {8}"${p1}",?\\n`));
});

test('parseBaseline: reads back what baselineText wrote, as identities per "branch url"', () => {
  const map = parseBaseline(baselineText(baselineFromRun(runOf(pages()), CREATED)), 'b.json');
  assert.deepEqual(
    map,
    new Map([
      [baselineKey('privacy', 'https://a.test/'), new Set()],
      [baselineKey('wcag', 'https://a.test/'), new Set(sorted(p1, p2, h))],
      [baselineKey('wcag', 'https://b.test/'), new Set(sorted(p1, p2))],
    ]),
  );
});

test('parseBaseline: the minimum a hand-written file needs; URLs normalised as targets are; duplicate pages merged', () => {
  const text = JSON.stringify({
    version: 1,
    pages: [
      { url: 'https://A.test', branch: 'wcag', identities: [p1] },
      { url: 'https://a.test/', branch: 'wcag', identities: [p2, p1] },
    ],
  });
  assert.deepEqual(parseBaseline(`\uFEFF${text}`, 'b.json'), new Map([['wcag https://a.test/', new Set([p1, p2])]]));
});

const ID = '0123456789abcdef0123456789abcdef';
const bad: [name: string, text: string, message: RegExp][] = [
  ['not JSON', '{"version":1,', /not JSON/],
  ['an array', '[]', /not a JSON object/],
  ['null', 'null', /not a JSON object/],
  ['no version', '{"pages":[]}', /version missing, expected 1/],
  ['a newer version', '{"version":2,"pages":[]}', /version 2, expected 1/],
  ['version as a string', '{"version":"1","pages":[]}', /version "1", expected 1/],
  ['no pages', '{"version":1}', /"pages" is not a list/],
  ['a page not an object', '{"version":1,"pages":[1]}', /pages\[0\] is not an object/],
  ['a page without url', `{"version":1,"pages":[{"branch":"wcag","identities":[]}]}`, /pages\[0\]\.url is not a string/],
  ['an unknown branch', `{"version":1,"pages":[{"url":"https://a.test/","branch":"seo","identities":[]}]}`, /pages\[0\]\.branch is not one of wcag, privacy, ai-governance/],
  ['identities not a list', `{"version":1,"pages":[{"url":"https://a.test/","branch":"wcag","identities":"${ID}"}]}`, /pages\[0\]\.identities is not a list/],
  ['an identity too short', `{"version":1,"pages":[{"url":"https://a.test/","branch":"wcag","identities":["${ID}","abc"]}]}`, /pages\[0\]\.identities\[1\] is not an identity \(32 hex digits\)/],
  ['an identity in capitals', `{"version":1,"pages":[{"url":"https://a.test/","branch":"wcag","identities":["${ID.toUpperCase()}"]}]}`, /identities\[0\] is not an identity/],
];
for (const [name, text, message] of bad) {
  test(`parseBaseline refuses: ${name}`, () => {
    assert.throws(
      () => parseBaseline(text, 'base.json'),
      (e: unknown) => e instanceof UsageError && /^--baseline base\.json is not a baseline file: /.test(e.message) && message.test(e.message) && /--write-baseline/.test(e.message),
    );
  });
}

test('readBaseline: a file on disk; a missing one is a usage error naming it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-baseline-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'baseline.json');
  await writeFile(file, baselineText(baselineFromRun(runOf(pages()), CREATED)));
  const read = await readBaseline(file);
  assert.equal(read.file, file);
  assert.equal(read.identities.get('wcag https://b.test/')?.size, 2);
  await assert.rejects(readBaseline(join(dir, 'nope.json')), (e: unknown) => e instanceof UsageError && /cannot read --baseline .*nope\.json: ENOENT/.test(e.message));
  assert.equal(JSON.parse(await readFile(file, 'utf8')).pages.length, 3);
});
