// Table-driven fixture test: every page under test/fixtures/ai-governance/ is listed in
// expectations.ts with the outcome its controls must give. A fixture missing from the table (or
// an entry without its file) fails, so no page goes unchecked.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { AI_GOVERNANCE_CONTROL_IDS, aiGovernanceControl, aiGovernanceControls, type AiGovernanceShortName } from '../../../src/audit/ai-governance/index.ts';
import { buildPage } from '../../../src/audit/page.ts';
import { expectations } from '../../fixtures/ai-governance/expectations.ts';
import { assertEvidenceShape } from './evidence-shape.ts';

const root = path.resolve(import.meta.dirname, '../../fixtures/ai-governance');
const shortNames = AI_GOVERNANCE_CONTROL_IDS.map((id) => id.slice('ai-governance.'.length)) as AiGovernanceShortName[];
const isShortName = (name: string): name is AiGovernanceShortName => (shortNames as string[]).includes(name);

const fixtureFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.split(path.sep).join('/'))
  // The accuracy sets are scored by `npm run accuracy`, not asserted page by page.
  .filter((file) => !file.startsWith('accuracy/'))
  .sort();

function load(file: string) {
  return buildPage(readFileSync(path.join(root, file), 'utf8'), `https://fixtures.example/${file}`);
}

describe('AI-governance fixtures', () => {
  test('every fixture file is in the expectations table, and every entry has its file', () => {
    const listed = Object.keys(expectations).sort();
    assert.deepEqual(fixtureFiles.filter((f) => !listed.includes(f)), [], 'fixtures missing from expectations.ts');
    assert.deepEqual(listed.filter((f) => !fixtureFiles.includes(f)), [], 'expectations without a fixture file');
  });

  test('each control has at least two passing and two failing pages of its own', () => {
    for (const short of shortNames) {
      const own = Object.entries(expectations).filter(([file]) => file.startsWith(`${short}/`));
      const count = (status: string) => own.filter(([, e]) => e.expect[short] === status).length;
      assert.ok(count('pass') >= 2, `${short}: ${count('pass')} passing fixtures`);
      assert.ok(count('fail') >= 2, `${short}: ${count('fail')} failing fixtures`);
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
      const page = load(file);
      for (const [short, status] of Object.entries(expectation.expect)) {
        const outcome = aiGovernanceControl(`ai-governance.${short as AiGovernanceShortName}`).evaluate(page);
        assert.equal(outcome.status, status, `${short}: ${outcome.evidence}`);
        if (expectation.evidence !== undefined && short === folder) {
          assert.ok(outcome.evidence.includes(expectation.evidence), `${short} evidence should contain "${expectation.evidence}": ${outcome.evidence}`);
        }
      }
    });
  }

  test('evidence of all eight controls on every fixture: bounded, quotes passes, names what was looked for', () => {
    for (const file of fixtureFiles) {
      const page = load(file);
      for (const control of aiGovernanceControls) {
        const outcome = control.evaluate(page);
        const label = `${file} ${control.id}`;
        assertEvidenceShape(outcome, label);
        if (outcome.status === 'pass') {
          // A pass quotes what matched (text in quotes, or the link that matched) and points at it.
          assert.match(outcome.evidence, /"[^"]+"|(?:link|URL) .*→/, `${label}: pass should quote its evidence: ${outcome.evidence}`);
          assert.ok(outcome.location !== undefined, `${label}: pass evidence is an element, so it needs a location`);
        } else if (outcome.status === 'fail') {
          // A fail either says what was looked for or quotes the half-evidence that was not enough.
          assert.match(outcome.evidence, /looked for|but no|not linked|not its provider|no oversight|no contact/, `${label}: ${outcome.evidence}`);
        } else {
          assert.match(outcome.evidence, /script-rendered shell|elsewhere on the page/, `${label}: ${outcome.evidence}`);
        }
      }
    }
  });
});
