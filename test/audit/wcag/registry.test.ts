// The rule registry and the criteria table: stable unique ids, ACT ids of the right form, every
// criterion a rule names is in the table, and the table and standards agree with WCAG (checked
// against the shared decidability map, which lists every A/AA criterion of 2.1 and 2.2).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CRITERIA, STANDARD_CRITERIA, isCriterion } from '../../../src/audit/wcag/criteria.ts';
import { WCAG_RULES } from '../../../src/audit/wcag/rules/index.ts';
import { sharedPath, sharedSuite } from '../../support/shared.ts';

describe('WCAG rule registry', () => {
  test('rule ids are unique kebab-case', () => {
    const ids = WCAG_RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  test('every rule names criteria of the table, ACT ids of six characters, and says what it applies to and expects', () => {
    for (const rule of WCAG_RULES) {
      const secondary = rule.secondary ?? [];
      assert.ok(rule.criteria.length + secondary.length > 0, rule.id);
      for (const c of [...rule.criteria, ...secondary]) assert.ok(isCriterion(c), `${rule.id}: ${c}`);
      for (const c of secondary) assert.ok(!rule.criteria.includes(c), `${rule.id}: ${c} is both a criterion and a secondary one`);
      for (const act of rule.actRules) assert.match(act, /^[a-z0-9]{6}$/, rule.id);
      assert.ok(rule.applicability.length > 10 && rule.expectation.length > 10, rule.id);
    }
  });

  // Issue 18: ACT mappings are the contract. A rule's `criteria` (a fail is an error) are exactly
  // the WCAG A/AA requirements its ACT rules map to for conformance; a rule whose ACT rules map to
  // none (ffd0e9, the ARIA rules) fails a criterion only as a warning (`secondary`).
  test('criteria are the ACT rules’ conformance requirements (the shared ACT definitions)', sharedSuite('reference/act-rules-definitions/rules'), () => {
    const dir = sharedPath('reference/act-rules-definitions/rules');
    const conformance = new Map<string, string[]>();
    for (const file of readdirSync(dir)) {
      const frontMatter = readFileSync(path.join(dir, file), 'utf8').split(/^---$/m)[1]!;
      const id = /^id: (\S+)/m.exec(frontMatter)![1]!;
      const requirements = /^accessibility_requirements:\n((?: .*\n)*)/m.exec(frontMatter)?.[1] ?? '';
      const criteria: string[] = [];
      for (const entry of requirements.split(/^(?=  \S)/m)) {
        const key = /^  wcag2\d:(\d+\.\d+\.\d+):/.exec(entry)?.[1];
        if (key !== undefined && /forConformance: true/.test(entry) && isCriterion(key)) criteria.push(key);
      }
      conformance.set(id, criteria);
    }
    // kb1m8s (ARIA global properties not used where prohibited) postdates the shared copy: ACT
    // maps it to WAI-ARIA 1.2 for conformance and to 1.3.1 as a secondary requirement only.
    conformance.set('kb1m8s', conformance.get('kb1m8s') ?? []);
    for (const rule of WCAG_RULES) {
      if (rule.actRules.length === 0) continue;
      const expected = new Set(rule.actRules.flatMap((act) => conformance.get(act) ?? assert.fail(`${rule.id}: ACT ${act} has no definition`)));
      assert.deepEqual(new Set(rule.criteria), expected, rule.id);
    }
  });

  test('judgement rules cover exactly the five judgement criteria of issue 10', () => {
    const criteria = new Set(WCAG_RULES.filter((r) => r.judgement).flatMap((r) => r.criteria));
    assert.deepEqual([...criteria].sort(), ['1.1.1', '2.4.2', '2.4.4', '2.4.6', '3.1.1']);
  });
});

describe('standards', () => {
  test('WCAG21A ⊂ WCAG21AA; WCAG22AA drops 4.1.1 and adds the 2.2 criteria', () => {
    const a = STANDARD_CRITERIA.WCAG21A;
    const aa = STANDARD_CRITERIA.WCAG21AA;
    const aa22 = STANDARD_CRITERIA.WCAG22AA;
    for (const c of a) assert.ok(aa.has(c));
    assert.equal(a.size, 30);
    assert.equal(aa.size, 50);
    assert.ok(aa.has('4.1.1') && !aa22.has('4.1.1'));
    assert.ok(!aa.has('2.5.8') && aa22.has('2.5.8'));
    assert.ok(!a.has('1.4.3') && aa.has('1.4.3'));
    assert.equal(aa22.size, 55);
  });

  test('the table matches the shared decidability map (number, level, version)', sharedSuite('reference/sc-static-decidability.json'), () => {
    const map = JSON.parse(readFileSync(sharedPath('reference/sc-static-decidability.json'), 'utf8')) as {
      num: string;
      level: string;
      since: string;
      inWCAG21AA: boolean;
      inWCAG22AA: boolean;
    }[];
    assert.deepEqual(CRITERIA.map((c) => c.num).sort(), map.map((m) => m.num).sort());
    for (const m of map) {
      const row = CRITERIA.find((c) => c.num === m.num)!;
      assert.equal(row.level, m.level, m.num);
      assert.equal(STANDARD_CRITERIA.WCAG21AA.has(row.num), m.inWCAG21AA, m.num);
      assert.equal(STANDARD_CRITERIA.WCAG22AA.has(row.num), m.inWCAG22AA, m.num);
    }
  });
});
