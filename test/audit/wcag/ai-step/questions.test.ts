import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JUDGEMENT_CRITERIA, questionsFor, QUESTIONS } from '../../../../src/audit/wcag/ai-step/questions.ts';
import { buildSummary } from '../../../../src/audit/wcag/ai-step/summary.ts';
import { CRITERIA, PAGE } from './support.ts';

test('the questions cover 1.1.1, 2.4.2, 2.4.4, 2.4.6 and 3.1.1, with distinct ids', () => {
  assert.deepEqual([...JUDGEMENT_CRITERIA].sort(), ['1.1.1', '2.4.2', '2.4.4', '2.4.6', '3.1.1']);
  assert.equal(new Set(QUESTIONS.map((q) => q.id)).size, QUESTIONS.length);
});

test('under WCAG21AA every question applies to the sample page, each with the elements it is about', () => {
  const asked = questionsFor(buildSummary(PAGE), CRITERIA.WCAG21AA);
  assert.deepEqual(
    asked.map((q) => [q.id, q.criterion, q.targets]),
    [
      ['image-alt-meaningful', '1.1.1', ['main > img:nth-of-type(1)']], // the empty alt is not asked about
      ['page-title-descriptive', '2.4.2', ['title']],
      ['link-purpose', '2.4.4', ['main > p > a:nth-of-type(1)', 'main > p > a:nth-of-type(2)']],
      ['heading-descriptive', '2.4.6', ['h1', 'main > h2:nth-of-type(1)']],
      ['label-descriptive', '2.4.6', ['#q']],
      ['html-lang-matches-content', '3.1.1', ['html']],
    ],
  );
});

test('only criteria of the requested standard are asked: WCAG21A has no 2.4.6 (level AA)', () => {
  const ids = questionsFor(buildSummary(PAGE), CRITERIA.WCAG21A).map((q) => q.id);
  assert.deepEqual(ids, ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'html-lang-matches-content']);
  assert.deepEqual(questionsFor(buildSummary(PAGE), []), []);
});

test('a question is asked only when the page has something it applies to', () => {
  assert.deepEqual(questionsFor(buildSummary({}), CRITERIA.WCAG22AA), []);
  const onlyDecorative = buildSummary({ images: [{ alt: '', selector: 'img' }], links: [{ text: '', href: '/', selector: 'a' }] });
  assert.deepEqual(questionsFor(onlyDecorative, CRITERIA.WCAG22AA), []);
  // A declared language with no text to compare it with is not asked about.
  assert.deepEqual(questionsFor(buildSummary({ lang: 'de' }), CRITERIA.WCAG22AA), []);
  assert.deepEqual(questionsFor(buildSummary({ lang: 'de', textSample: 'Guten Tag' }), CRITERIA.WCAG22AA).map((q) => q.id), ['html-lang-matches-content']);
});

test('a selector listed twice is asked about once', () => {
  const s = buildSummary({ links: [{ text: 'a', selector: 'a' }, { text: 'b', selector: 'a' }] });
  assert.deepEqual(questionsFor(s, CRITERIA.WCAG21A)[0]!.targets, ['a']);
});
