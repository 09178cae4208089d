// Table-driven fixture test: every page under test/fixtures/privacy/links/ is listed in
// expectations.ts with the outcome its controls must give (and, for policy links, the link that
// must be selected). A fixture missing from the table (or an entry without its file) fails.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { linkControls, selectPolicyLink } from '../../../../src/audit/privacy/links/index.ts';
import { expectations, REQUIRED_NEAR_MISSES, type LinkShortName } from '../../../fixtures/privacy/links/expectations.ts';
import { assertEvidenceShape, contextFor, FIXTURE_ROOT, loadFixture } from './support.ts';

const shortNames = linkControls.map((c) => c.id.slice('privacy.'.length)) as LinkShortName[];
const isShortName = (name: string): name is LinkShortName => (shortNames as string[]).includes(name);
const controlOf = (short: LinkShortName) => linkControls.find((c) => c.id === `privacy.${short}`)!;

const fixtureFiles = readdirSync(FIXTURE_ROOT, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.split(path.sep).join('/'))
  .sort();

describe('privacy link fixtures', () => {
  test('every fixture file is in the expectations table, and every entry has its file', () => {
    const listed = Object.keys(expectations).sort();
    assert.deepEqual(fixtureFiles.filter((f) => !listed.includes(f)), [], 'fixtures missing from expectations.ts');
    assert.deepEqual(listed.filter((f) => !fixtureFiles.includes(f)), [], 'expectations without a fixture file');
  });

  test('each control has at least two passing and four failing pages of its own', () => {
    for (const short of shortNames) {
      const own = Object.entries(expectations).filter(([file]) => file.startsWith(`${short}/`));
      const count = (status: string) => own.filter(([, e]) => e.expect[short] === status).length;
      assert.ok(count('pass') >= 2, `${short}: ${count('pass')} passing fixtures`);
      assert.ok(count('fail') >= 4, `${short}: ${count('fail')} failing fixtures`);
    }
  });

  test('the required near-misses each have a fixture', () => {
    for (const [what, file] of Object.entries(REQUIRED_NEAR_MISSES)) assert.ok(expectations[file] !== undefined, `${what}: ${file} is not in the table`);
  });

  for (const [file, expectation] of Object.entries(expectations)) {
    test(`${file}: ${expectation.why}`, () => {
      const folder = file.split('/')[0]!;
      assert.ok(isShortName(folder), `unknown folder ${folder}`);
      const own = expectation.expect[folder];
      assert.ok(own !== undefined, `a page in ${folder}/ must list that control`);
      assert.ok(path.basename(file).startsWith(`${own}-`), `file name should start with its expected status "${own}"`);

      const page = loadFixture(file);
      const link = selectPolicyLink(page);
      if (expectation.selected !== undefined) assert.equal(link?.href ?? null, expectation.selected, `selected link (${link?.reason ?? 'none'})`);
      if (expectation.reason !== undefined) assert.ok(link?.reason.includes(expectation.reason), `reason should contain "${expectation.reason}": ${link?.reason}`);
      if (folder === 'privacy-policy-reachable' && link !== undefined) {
        assert.ok(expectation.follow !== undefined, 'a reachable fixture with a selected link must give its follow result');
      }
      const follow = expectation.follow === 'not-followed' ? undefined : expectation.follow;
      const context = contextFor(page, follow);
      for (const [short, status] of Object.entries(expectation.expect) as [LinkShortName, string][]) {
        const outcome = controlOf(short).evaluate(context);
        assert.equal(outcome.status, status, `${short}: ${outcome.evidence}`);
        if (expectation.evidence !== undefined && short === folder) {
          assert.ok(outcome.evidence.includes(expectation.evidence), `${short} evidence should contain "${expectation.evidence}": ${outcome.evidence}`);
        }
      }
    });
  }

  test('evidence of all three controls on every fixture: bounded, quotes what was found, says what was looked for', () => {
    for (const file of fixtureFiles) {
      const page = loadFixture(file);
      const follow = expectations[file]?.follow;
      const context = contextFor(page, follow === 'not-followed' ? undefined : follow);
      for (const control of linkControls) {
        const outcome = control.evaluate(context);
        const label = `${file} ${control.id}`;
        assertEvidenceShape(outcome, label);
        if (outcome.status === 'pass') {
          // A pass quotes the element (its name and, for links, its href) and points at it.
          assert.match(outcome.evidence, /"[^"]+"|<link rel="privacy-policy">/, `${label}: pass should quote its element: ${outcome.evidence}`);
          assert.ok(outcome.location !== undefined, `${label}: a pass needs a location`);
        } else if (outcome.status === 'fail') {
          assert.match(outcome.evidence, /looked for|hidden|plain text|cookie|news, blog or press|not an http|answered|does not fetch|does not exist|too many|no policy to reach/, `${label}: ${outcome.evidence}`);
        }
      }
    }
  });
});
