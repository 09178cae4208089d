import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSummary, SUMMARY_LIMITS, SUMMARY_MAX_CHARS } from '../../../../src/audit/wcag/ai-step/summary.ts';
import { PAGE } from './support.ts';

test('a small page is summarised whole: title and language with their selectors, lists as given', () => {
  const s = buildSummary(PAGE);
  assert.deepEqual(s.title, { text: 'Opening hours – City Library', selector: 'title' });
  assert.deepEqual(s.lang, { value: 'en', selector: 'html' });
  assert.equal(s.headings.length, 2);
  assert.deepEqual(s.links[0], { text: 'Read more', href: '/services', context: 'Read more', selector: 'main > p > a:nth-of-type(1)' });
  assert.deepEqual(s.images[1], { alt: '', src: '/img/divider.png', context: '', selector: 'main > img:nth-of-type(2)' });
  assert.deepEqual(s.results, [{ criterion: '1.1.1', outcome: 'inconclusive', evidence: '1 cannot be decided from static HTML' }]);
  assert.deepEqual(Object.values(s.omitted), [0, 0, 0, 0, 0, 0]);
});

test('no title, no lang, whitespace-only values: null rather than empty entries; text is collapsed', () => {
  const s = buildSummary({ title: '  \n ', lang: null, headings: [{ level: 9, text: '  Two\n\n words ', selector: ' h1 ' }] });
  assert.equal(s.title, null);
  assert.equal(s.lang, null);
  assert.deepEqual(s.headings, [{ level: 6, text: 'Two words', selector: 'h1' }]);
  assert.equal(s.textSample, '');
});

test('every list and string is capped; a record with an over-long selector is left out, not cut', () => {
  const long = 'x'.repeat(10_000);
  const s = buildSummary({
    title: long,
    lang: long,
    textSample: long,
    links: [{ text: 'ok', href: '/', selector: `a${'b'.repeat(SUMMARY_LIMITS.selector)}` }, ...Array.from({ length: 500 }, (_, i) => ({ text: long, href: long, context: long, selector: `a:nth-of-type(${i + 1})` }))],
    images: Array.from({ length: 500 }, (_, i) => ({ alt: long, src: long, context: long, selector: `img:nth-of-type(${i + 1})` })),
  });
  assert.equal(s.title!.text.length, SUMMARY_LIMITS.text);
  assert.ok(s.title!.text.endsWith('…'));
  assert.equal(s.lang!.value.length, SUMMARY_LIMITS.lang);
  assert.equal(s.textSample.length, SUMMARY_LIMITS.textSample);
  assert.ok(s.links.length <= SUMMARY_LIMITS.links);
  assert.ok(s.links.every((l) => l.selector.startsWith('a:nth') && l.text.length <= SUMMARY_LIMITS.text && l.href.length <= SUMMARY_LIMITS.href));
  assert.equal(s.links.length + s.omitted.links, 501);
  assert.equal(s.images.length + s.omitted.images, 500);
  assert.ok(JSON.stringify(s).length <= SUMMARY_MAX_CHARS);
});

test('a huge page yields a summary within the budget, trimming the largest lists first', () => {
  const text = 'w'.repeat(5_000);
  const many = 20_000;
  const sel = (tag: string, i: number) => `html > body > main > section:nth-of-type(${i}) > div > div > div > ${tag}:nth-of-type(${i})`.padEnd(190, ' ');
  const s = buildSummary({
    title: text,
    lang: 'en',
    textSample: text,
    headings: Array.from({ length: many }, (_, i) => ({ level: 2, text, selector: sel('h2', i) })),
    landmarks: Array.from({ length: many }, (_, i) => ({ role: 'region', name: text, selector: sel('section', i) })),
    images: Array.from({ length: many }, (_, i) => ({ alt: text, src: text, context: text, selector: sel('img', i) })),
    links: Array.from({ length: many }, (_, i) => ({ text, href: text, context: text, selector: sel('a', i) })),
    formControls: Array.from({ length: many }, (_, i) => ({ role: 'textbox', label: text, selector: sel('input', i) })),
    results: Array.from({ length: many }, () => ({ criterion: '1.1.1', outcome: 'fail' as const, evidence: text })),
  });
  const size = JSON.stringify(s).length;
  assert.ok(size <= SUMMARY_MAX_CHARS, `summary is ${size} characters`);
  assert.ok(size > SUMMARY_MAX_CHARS * 0.9, 'the budget is used, not emptied');
  for (const name of ['headings', 'landmarks', 'images', 'links', 'formControls', 'results'] as const) {
    assert.equal(s[name].length + s.omitted[name], many, name);
    assert.ok(s[name].length > 0, `${name} keeps some records`);
  }
});
