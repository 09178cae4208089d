// Table-driven fixture test: every page under test/fixtures/wcag/ is listed in expectations.ts
// with the exact outcome counts of the rule its folder names (STYLE.md 4: anything unlisted that
// the rule reports fails the test).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runEngineOnHtml } from '../../../src/audit/wcag/engine.ts';
import { WCAG_RULES } from '../../../src/audit/wcag/rules/index.ts';
import { OUTCOMES } from '../../../src/audit/wcag/rules/rule.ts';
import { expectations } from '../../fixtures/wcag/expectations.ts';

const root = path.resolve(import.meta.dirname, '../../fixtures/wcag');
const fixtureFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.split(path.sep).join('/'))
  .sort();
const ruleIds = new Set(WCAG_RULES.map((rule) => rule.id));

describe('WCAG fixtures', () => {
  test('every fixture file is in the expectations table, and every entry has its file', () => {
    const listed = Object.keys(expectations).sort();
    assert.deepEqual(fixtureFiles.filter((f) => !listed.includes(f)), [], 'fixtures missing from expectations.ts');
    assert.deepEqual(listed.filter((f) => !fixtureFiles.includes(f)), [], 'expectations without a fixture file');
  });

  for (const [file, expectation] of Object.entries(expectations)) {
    test(`${file}: ${expectation.why}`, () => {
      const ruleId = file.split('/')[0]!;
      assert.ok(ruleIds.has(ruleId), `folder ${ruleId} names no registered rule`);
      const prefix = path.basename(file).split('-')[0]!;
      const listed = Object.keys(expectation.outcomes);
      const expectedPrefix = listed.includes('failed') ? 'fail' : listed.includes('cantTell') ? 'canttell' : listed.includes('passed') ? 'pass' : 'inapplicable';
      assert.equal(prefix, expectedPrefix, 'the file name starts with the worst expected outcome');
      const run = runEngineOnHtml(readFileSync(path.join(root, file), 'utf8'), `https://fixtures.example/${file}`);
      const results = run.runs.find((r) => r.rule.id === ruleId)!.results;
      const counts = Object.fromEntries(OUTCOMES.map((o) => [o, results.filter((r) => r.outcome === o).length]));
      const expected = Object.fromEntries(OUTCOMES.map((o) => [o, expectation.outcomes[o] ?? 0]));
      assert.deepEqual(counts, expected, results.map((r) => `${r.outcome}: ${r.note} @ ${r.location?.selector}`).join('\n'));
    });
  }
});
