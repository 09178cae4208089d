// Table-driven fixture test: every page under test/fixtures/privacy/consent/ is listed in
// expectations.ts with the outcome its controls must give. A fixture missing from the table (or
// an entry without its file) fails, so no page goes unchecked.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { PrivacyPage } from '../../../../src/audit/privacy/context.ts';
import { buildPage } from '../../../../src/audit/page.ts';
import { consentControls } from '../../../../src/audit/privacy/consent/index.ts';
import { expectations, fixtureUrl, type ConsentShortName, type FixtureExpectation } from '../../../fixtures/privacy/consent/expectations.ts';
import { assertEvidenceShape } from '../../ai-governance/evidence-shape.ts';

const root = path.resolve(import.meta.dirname, '../../../fixtures/privacy/consent');
const shortNames = consentControls.map((c) => c.id.slice('privacy.'.length)) as ConsentShortName[];
const isShortName = (name: string): name is ConsentShortName => (shortNames as string[]).includes(name);
const control = (short: ConsentShortName) => consentControls.find((c) => c.id === `privacy.${short}`)!;

const fixtureFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.split(path.sep).join('/'))
  .sort();

function load(file: string, expectation?: FixtureExpectation): PrivacyPage {
  const html = readFileSync(path.join(root, file), 'utf8');
  return { page: buildPage(html, expectation?.url ?? fixtureUrl(file)), responseCookies: expectation?.responseCookies ?? [], policy: undefined };
}

describe('consent fixtures', () => {
  test('every fixture file is in the expectations table, and every entry has its file', () => {
    const listed = Object.keys(expectations).sort();
    assert.deepEqual(fixtureFiles.filter((f) => !listed.includes(f)), [], 'fixtures missing from expectations.ts');
    assert.deepEqual(listed.filter((f) => !fixtureFiles.includes(f)), [], 'expectations without a fixture file');
  });

  test('each control has passing, failing and inconclusive pages of its own', () => {
    for (const short of shortNames) {
      const own = Object.entries(expectations).filter(([file]) => file.startsWith(`${short}/`));
      const count = (status: string) => own.filter(([, e]) => e.expect[short] === status).length;
      assert.ok(count('pass') >= 3, `${short}: ${count('pass')} passing fixtures`);
      assert.ok(count('fail') >= 3, `${short}: ${count('fail')} failing fixtures`);
      assert.ok(count('inconclusive') >= 2, `${short}: ${count('inconclusive')} inconclusive fixtures`);
    }
  });

  for (const [file, expectation] of Object.entries(expectations)) {
    test(`${file}: ${expectation.why}`, () => {
      const folder = file.split('/')[0]!;
      if (isShortName(folder)) {
        const own = expectation.expect[folder];
        assert.ok(own !== undefined, `a page in ${folder}/ must list that control`);
        assert.ok(path.basename(file).startsWith(`${own}-`), `file name should start with its expected status "${own}"`);
      }
      const privacyPage = load(file, expectation);
      const evidences: string[] = [];
      for (const [short, status] of Object.entries(expectation.expect) as Array<[ConsentShortName, string]>) {
        const outcome = control(short).evaluate(privacyPage);
        assert.equal(outcome.status, status, `${short}: ${outcome.evidence}`);
        if (!isShortName(folder) || short === folder) evidences.push(outcome.evidence);
      }
      if (expectation.evidence !== undefined) {
        assert.ok(
          evidences.some((e) => e.includes(expectation.evidence!)),
          `evidence should contain "${expectation.evidence}": ${evidences.join(' | ')}`,
        );
      }
    });
  }

  test('outcomes of all three controls on every fixture: bounded evidence, located element evidence', () => {
    for (const file of fixtureFiles) {
      const privacyPage = load(file, expectations[file]);
      for (const c of consentControls) {
        const outcome = c.evaluate(privacyPage);
        const label = `${file} ${c.id}`;
        assertEvidenceShape(outcome, label);
        if (outcome.status === 'fail' && /^(?:Tracker|Tracking|Inline)/.test(outcome.evidence)) {
          assert.ok(outcome.location !== undefined, `${label}: element evidence needs a location`);
        }
        if (outcome.status === 'inconclusive') {
          assert.match(outcome.evidence, /static analysis|may wait|may block|statically/, `${label}: inconclusive evidence says what static HTML cannot see: ${outcome.evidence}`);
        }
      }
    }
  });
});
