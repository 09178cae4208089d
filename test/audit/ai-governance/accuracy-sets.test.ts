// Every AI-governance accuracy set is well formed: its labels parse, name every page once, give all
// eight controls pass or fail, and a language from the list. Scoring is `npm run accuracy`'s job;
// this only keeps a broken label file from reaching it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aiSetNames, loadAiSet } from '../../../bench/accuracy-ai-governance.ts';

const SETS_DIR = path.resolve(import.meta.dirname, '../../fixtures/ai-governance/accuracy');
const sets = fs.readdirSync(SETS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

const MULTILINGUAL = ['multilingual-dev', 'multilingual-test', 'multilingual-test2', 'multilingual-test3', 'multilingual-test4', 'multilingual-test5', 'multilingual-test6', 'multilingual-test7', 'multilingual-test8', 'multilingual-test9', 'multilingual-test10', 'multilingual-test11'];

test('the sets are there, the multilingual ones with 70 pages each in seven languages', () => {
  for (const set of ['dev', 'test', 'test2', ...MULTILINGUAL]) assert.ok(sets.includes(set), set);
  for (const set of MULTILINGUAL) {
    const { labels } = loadAiSet(set);
    const perLanguage = Object.groupBy(labels, (l) => l.lang);
    assert.deepEqual(Object.keys(perLanguage).sort(), ['de', 'en', 'es', 'fr', 'it', 'nl', 'pt'], set);
    for (const [lang, pages] of Object.entries(perLanguage)) assert.equal(pages!.length, 10, `${set} ${lang}`);
  }
});

for (const set of sets) {
  test(`${set}: labels well formed, one per page`, () => {
    const { labels, problems } = loadAiSet(set);
    assert.deepEqual(problems, []);
    assert.ok(labels.length > 0);
  });
}

test('--set all runs every set in the order they were written', () => {
  assert.deepEqual(aiSetNames(), ['dev', 'test', 'test2', ...MULTILINGUAL]);
});
