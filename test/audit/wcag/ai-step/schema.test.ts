import assert from 'node:assert/strict';
import { test } from 'node:test';
import { questionsFor } from '../../../../src/audit/wcag/ai-step/questions.ts';
import { ANSWER_JSON_SCHEMA, checkAnswer, JUDGEMENT_EVIDENCE_MAX, type AnswerContext } from '../../../../src/audit/wcag/ai-step/schema.ts';
import { buildSummary } from '../../../../src/audit/wcag/ai-step/summary.ts';
import { conformantAnswer, CRITERIA, j, PAGE, selectorExists } from './support.ts';

function context(standard: keyof typeof CRITERIA = 'WCAG21AA'): AnswerContext {
  return { asked: questionsFor(buildSummary(PAGE), CRITERIA[standard]), standard, standardCriteria: new Set(CRITERIA[standard]), selectorExists };
}

function errorsOf(value: unknown, ctx = context()): string[] {
  const check = checkAnswer(value, ctx);
  assert.equal(check.ok, false, 'expected a non-conformant answer');
  return check.ok ? [] : check.errors;
}

/** Walks the schema: the keywords strict structured outputs accept everywhere, and their rules. */
function assertStrictCompatible(schema: unknown, at = '#'): void {
  const node = schema as Record<string, unknown>;
  const allowed = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'description']);
  for (const key of Object.keys(node)) assert.ok(allowed.has(key), `${at}: keyword ${key} is not in the portable strict subset`);
  assert.equal(typeof node.type, 'string', `${at}: every schema is typed`);
  if (node.type === 'object') {
    assert.equal(node.additionalProperties, false, `${at}: additionalProperties must be false`);
    const properties = node.properties as Record<string, unknown>;
    assert.deepEqual([...(node.required as string[])].sort(), Object.keys(properties).sort(), `${at}: every property is required`);
    for (const [name, child] of Object.entries(properties)) assertStrictCompatible(child, `${at}/properties/${name}`);
  }
  if (node.type === 'array') assertStrictCompatible(node.items, `${at}/items`);
}

test('the answer schema keeps to the strict structured-output subset', () => {
  assertStrictCompatible(ANSWER_JSON_SCHEMA);
  const judgement = (ANSWER_JSON_SCHEMA.properties as any).judgements.items;
  assert.deepEqual(judgement.properties.outcome.enum, ['pass', 'fail', 'cantTell']);
  assert.deepEqual(judgement.properties.control.enum, ['1.1.1', '2.4.2', '2.4.4', '2.4.6', '3.1.1']);
});

test('a conformant answer passes, evidence trimmed', () => {
  const answer = conformantAnswer();
  answer.judgements[1]!.evidence = '  The title names the page.  ';
  const check = checkAnswer(answer, context());
  assert.ok(check.ok);
  assert.equal(check.judgements.length, 8);
  assert.equal(check.judgements[1]!.evidence, 'The title names the page.');
});

test('schema violations are reported with their place: missing field, extra field, bad enum, not an object', () => {
  const answer = conformantAnswer() as any;
  delete answer.judgements[0].evidence;
  answer.judgements[1].confidence = 0.9;
  answer.judgements[2].outcome = 'maybe';
  const errors = errorsOf(answer);
  assert.ok(errors.some((e) => e.startsWith('/judgements/0') && /evidence/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => e.startsWith('/judgements/1') && /additional properties/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => e.startsWith('/judgements/2/outcome')), errors.join('\n'));
  assert.ok(errorsOf([]).length > 0);
  assert.ok(errorsOf({ judgements: [], extra: 1 }).some((e) => /additional/.test(e)));
});

test('a selector that names no element of the page is non-conformant', () => {
  const answer = conformantAnswer();
  answer.judgements[0]!.selector = 'main > img:nth-of-type(7)';
  const errors = errorsOf(answer);
  assert.ok(errors.some((e) => e.startsWith('/judgements/0/selector') && /is not one of the elements question image-alt-meaningful asks about/.test(e)), errors.join('\n'));
  // An element the question asked about, but which the page's index does not know.
  const ctx = context();
  const errors2 = errorsOf(conformantAnswer(), { ...ctx, selectorExists: (s) => s !== '#q' });
  assert.ok(errors2.some((e) => /"#q" names no element of the page/.test(e)), errors2.join('\n'));
});

test('a criterion outside the requested standard is non-conformant', () => {
  // WCAG21A: 2.4.6 is level AA, so headings and labels were not asked about.
  const errors = errorsOf(conformantAnswer(), context('WCAG21A'));
  assert.ok(errors.some((e) => e === '/judgements/4/control: 2.4.6 is not a criterion of WCAG21A'), errors.join('\n'));
});

test('the control must be the criterion of its question, and the question must have been asked', () => {
  const answer = conformantAnswer();
  answer.judgements[3]!.control = '1.1.1';
  assert.ok(errorsOf(answer).some((e) => e === '/judgements/3/control: question link-purpose is about 2.4.4, not 1.1.1'));
  const onlyLinks = { ...context(), asked: context().asked.filter((q) => q.id === 'link-purpose') };
  const errors = errorsOf({ judgements: [j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(1)'), j('heading-descriptive', '2.4.6', 'h1')] }, onlyLinks);
  assert.ok(errors.includes('/judgements/1/question: heading-descriptive was not asked'), errors.join('\n'));
});

test('evidence must be non-empty and at most 300 characters', () => {
  const answer = conformantAnswer();
  answer.judgements[0]!.evidence = '   ';
  answer.judgements[1]!.evidence = 'e'.repeat(JUDGEMENT_EVIDENCE_MAX + 1);
  const errors = errorsOf(answer);
  assert.ok(errors.includes('/judgements/0/evidence: must not be empty'));
  assert.ok(errors.includes(`/judgements/1/evidence: must be at most 300 characters, got 301`));
  answer.judgements[0]!.evidence = 'x';
  answer.judgements[1]!.evidence = 'e'.repeat(JUDGEMENT_EVIDENCE_MAX);
  assert.ok(checkAnswer(answer, context()).ok);
});

test('every question asked must be answered; a repeated judgement keeps the first', () => {
  const answer = conformantAnswer();
  answer.judgements = answer.judgements.filter((x) => x.question !== 'page-title-descriptive');
  assert.ok(errorsOf(answer).some((e) => /^question page-title-descriptive was not answered/.test(e)));
  const twice = conformantAnswer();
  twice.judgements.push(j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(1)', 'pass', 'Second opinion.'));
  const check = checkAnswer(twice, context());
  assert.ok(check.ok);
  assert.equal(check.judgements.filter((x) => x.selector === 'main > p > a:nth-of-type(1)').length, 1);
  assert.equal(check.judgements.find((x) => x.selector === 'main > p > a:nth-of-type(1)')!.outcome, 'fail');
});

test('a long selector from the model is quoted short in the error', () => {
  const answer = conformantAnswer();
  answer.judgements[0]!.selector = 'div '.repeat(10_000);
  const errors = errorsOf(answer);
  assert.ok(errors.every((e) => e.length < 250), errors.join('\n'));
});
