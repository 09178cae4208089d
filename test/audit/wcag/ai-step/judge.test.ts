// The AI step end to end against a fake OpenAI-compatible server on loopback (test/support/fake-openai.ts):
// the request it sends, the retry with the validation errors fed back, and every way it fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AiConfig } from '../../../../src/config.ts';
import { AnalysisCancelledError, AnalysisFailedError, createAiStep, type JudgeInput } from '../../../../src/audit/wcag/ai-step/index.ts';
import { RESPONSE_MAX_BYTES } from '../../../../src/audit/wcag/ai-step/client.ts';
import { ANSWER_JSON_SCHEMA } from '../../../../src/audit/wcag/ai-step/schema.ts';
import { SUMMARY_MAX_CHARS } from '../../../../src/audit/wcag/ai-step/summary.ts';
import { startFakeOpenAi, type FakeOpenAi, type FakeStep } from '../../../support/fake-openai.ts';
import { capturingLogger, conformantAnswer, CRITERIA, j, PAGE, selectorExists } from './support.ts';

const API_KEY = 'sk-fake-3f9c2b7e41d0a8c6e5b4';
/** Short, so the timeout tests wait 2 × this and no more. */
const TIMEOUT_MS = 250;

let ai: FakeOpenAi;
before(async () => {
  ai = await startFakeOpenAi();
});
after(() => ai.close());

/** A step against the fake server with this script; the server's record starts empty. */
function step(steps: FakeStep[], overrides: Partial<AiConfig> = {}) {
  ai.reset();
  ai.script(...steps);
  const logger = capturingLogger();
  const config: AiConfig = { baseUrl: ai.baseUrl, apiKey: API_KEY, model: 'fake-model', timeoutMs: TIMEOUT_MS, ...overrides };
  return { aiStep: createAiStep(config, logger.log), logger };
}

function input(overrides: Partial<JudgeInput> = {}): JudgeInput {
  return { page: PAGE, standard: 'WCAG21AA', standardCriteria: CRITERIA.WCAG21AA, selectorExists, snippetOf: (s) => `<el data-s="${s}">`, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<AnalysisFailedError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AnalysisFailedError, `expected AnalysisFailedError, got ${String(error)}`);
    assert.equal(error.message, 'analysis failed');
    return error;
  }
  assert.fail('expected the step to fail');
}

test('conformant output: AI warnings per criterion, source "ai"; fails are warnings, cantTell inconclusive, passes no finding', async () => {
  const { aiStep } = step([{ answer: conformantAnswer() }]);
  const result = await aiStep.judgeDetailed(input());
  assert.equal(result.calls, 1);
  assert.equal(ai.calls.length, 1);
  assert.equal(result.judgements.length, 8);
  assert.deepEqual(
    result.findings.map((f) => [f.control, f.status, f.severity, f.source, f.rules]),
    [
      ['1.1.1', 'fail', 'warning', 'ai', ['image-alt-meaningful']],
      ['2.4.4', 'fail', 'warning', 'ai', ['link-purpose']],
      ['2.4.6', 'inconclusive', 'warning', 'ai', ['heading-descriptive']],
    ],
  );
  const links = result.findings[1]!;
  assert.equal(links.evidence, 'AI judgement: 1 of 2 links fail: "Read more" does not say where it leads.');
  assert.deepEqual(links.location, { selector: 'main > p > a:nth-of-type(1)', snippet: '<el data-s="main > p > a:nth-of-type(1)">' });
  assert.deepEqual(links.occurrences, [{ rule: 'link-purpose', selector: 'main > p > a:nth-of-type(1)', snippet: '<el data-s="main > p > a:nth-of-type(1)">' }]);
  assert.match(result.findings[2]!.evidence, /^AI judgement could not decide 1 of 3 headings and labels: The heading "Heading" may be a placeholder\.$/);
  assert.deepEqual(
    result.verdicts.map((v) => [v.criterion, v.outcome, v.asked, v.judged]),
    [
      ['1.1.1', 'fail', 1, 1],
      ['2.4.2', 'pass', 1, 1],
      ['2.4.4', 'fail', 2, 2],
      ['2.4.6', 'inconclusive', 3, 3],
      ['3.1.1', 'pass', 1, 1],
    ],
  );
  assert.deepEqual(await step([{ answer: conformantAnswer() }]).aiStep.judge(input()), result.findings);
});

test('the request: POST /v1/chat/completions, model, system + user messages, response_format json_schema strict with the answer schema', async () => {
  const { aiStep } = step([{ answer: conformantAnswer() }]);
  await aiStep.judge(input());
  const [call] = ai.calls;
  assert.equal(ai.fixture.requests.at(-1)!.method, 'POST');
  assert.equal(ai.fixture.requests.at(-1)!.path, '/v1/chat/completions');
  assert.match(String(call!.headers['content-type']), /^application\/json/);
  assert.equal(call!.body.model, 'fake-model');
  assert.deepEqual(call!.body.response_format, { type: 'json_schema', json_schema: { name: 'wcag_judgements', strict: true, schema: ANSWER_JSON_SCHEMA } });
  assert.deepEqual(call!.body.messages!.map((m) => m.role), ['system', 'user']);
  const user = JSON.parse(call!.body.messages![1]!.content);
  assert.equal(user.standard, 'WCAG21AA');
  assert.deepEqual(user.questions.map((q: { id: string }) => q.id), ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'heading-descriptive', 'label-descriptive', 'html-lang-matches-content']);
  assert.equal(user.page.links[0].text, 'Read more');
});

test('the API key travels only in the Authorization header: never in the body, the prompt or the log', async () => {
  const { aiStep, logger } = step([{ answer: conformantAnswer() }]);
  await aiStep.judge(input());
  const [call] = ai.calls;
  assert.equal(call!.headers.authorization, `Bearer ${API_KEY}`);
  assert.ok(!call!.raw.includes(API_KEY));
  assert.ok(!call!.raw.includes(API_KEY.slice(3, 15)), 'not even a part of the key');
  assert.ok(!logger.raw.join('\n').includes(API_KEY));
});

test('no Authorization header without a key (local servers)', async () => {
  const { aiStep } = step([{ answer: conformantAnswer() }], { apiKey: undefined });
  await aiStep.judge(input());
  assert.equal(ai.calls[0]!.headers.authorization, undefined);
});

test('a provider error that echoes the key: the log, the error and its attempts carry no key', async () => {
  const echo = JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}`, type: 'invalid_request_error' } });
  const { aiStep, logger } = step([{ status: 401, body: echo }, { status: 401, body: echo }]);
  const error = await failure(aiStep.judge(input()));
  assert.equal(error.reason, 'http-status');
  const everything = [error.message, error.stack, JSON.stringify(error.attempts), ...logger.raw].join('\n');
  assert.ok(!everything.includes(API_KEY), everything);
  assert.match(JSON.stringify(error.attempts), /HTTP 401 .*Incorrect API key provided: \[redacted\]/);
});

test('non-conformant once, then conformant: the retry carries the answer and its validation errors', async () => {
  const bad = conformantAnswer();
  bad.judgements[0]!.selector = 'main > img:nth-of-type(9)';
  bad.judgements[1]!.evidence = '';
  const { aiStep, logger } = step([{ answer: bad }, { answer: conformantAnswer() }]);
  const result = await aiStep.judgeDetailed(input());
  assert.equal(result.calls, 2);
  assert.equal(ai.calls.length, 2);
  const retry = ai.calls[1]!.body.messages!;
  assert.deepEqual(retry.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  assert.deepEqual(retry.slice(0, 2), ai.calls[0]!.body.messages, 'the retry repeats the first request');
  assert.deepEqual(JSON.parse(retry[2]!.content), bad);
  assert.match(retry[3]!.content, /^That answer does not conform:\n/);
  assert.match(retry[3]!.content, /- \/judgements\/0\/selector: "main > img:nth-of-type\(9\)" is not one of the elements question image-alt-meaningful asks about/);
  assert.match(retry[3]!.content, /- \/judgements\/1\/evidence: must not be empty/);
  assert.deepEqual(ai.calls[1]!.body.response_format, ai.calls[0]!.body.response_format);
  assert.equal(result.findings.length, 3);
  const warned = logger.lines.filter((l) => l.level === 40);
  assert.equal(warned.length, 1);
  assert.equal((warned[0]!.aiStep as { failure: string }).failure, 'non-conformant');
});

test('non-conformant twice: AnalysisFailedError after exactly one retry', async () => {
  const bad = { judgements: [j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(1)', 'unsure' as 'pass')] };
  const { aiStep, logger } = step([{ answer: bad }, { answer: bad }, { answer: conformantAnswer() }]);
  const error = await failure(aiStep.judge(input()));
  assert.equal(ai.calls.length, 2, 'no third call');
  assert.equal(error.reason, 'non-conformant');
  assert.deepEqual(error.attempts.map((a) => [a.attempt, a.failure]), [[1, 'non-conformant'], [2, 'non-conformant']]);
  assert.ok(error.attempts[1]!.detail.some((d) => d.startsWith('/judgements/0/outcome')));
  assert.equal(logger.lines.at(-1)!.msg, 'AI step failed: analysis failed');
});

test('a criterion outside the standard, and a bad selector, are non-conformant through the whole step', async () => {
  // Under WCAG21A, 2.4.6 is not asked; an answer about it is refused, both times.
  const { aiStep } = step([{ answer: conformantAnswer() }, { answer: conformantAnswer() }]);
  const error = await failure(aiStep.judge(input({ standard: 'WCAG21A', standardCriteria: CRITERIA.WCAG21A })));
  assert.ok(error.attempts[0]!.detail.includes('/judgements/4/control: 2.4.6 is not a criterion of WCAG21A'), error.attempts[0]!.detail.join('\n'));
  // The selectorExists callback is the page's index: an element it does not know is refused.
  const { aiStep: second } = step([{ answer: conformantAnswer() }, { answer: conformantAnswer() }]);
  const error2 = await failure(second.judge(input({ selectorExists: (s) => s !== 'h1' })));
  assert.ok(error2.attempts[1]!.detail.some((d) => d === '/judgements/4/selector: "h1" names no element of the page'));
});

test('content that is not JSON, or a refusal, is non-conformant and retried; a fenced JSON answer is accepted', async () => {
  const { aiStep } = step([{ answer: 'Sure! Here are my judgements: ...' }, { refusal: 'I cannot help with that.' }]);
  const error = await failure(aiStep.judge(input()));
  assert.match(error.attempts[0]!.detail[0]!, /^the content is not valid JSON/);
  assert.match(ai.calls[1]!.body.messages!.at(-1)!.content, /the content is not valid JSON/);
  assert.equal(error.attempts[1]!.detail[0], 'the model refused: I cannot help with that.');
  const fenced = '```json\n' + JSON.stringify(conformantAnswer()) + '\n```';
  assert.equal((await step([{ answer: fenced }]).aiStep.judgeDetailed(input())).calls, 1);
});

test('a provider 500 is retried once; 500 twice ends in AnalysisFailedError', async () => {
  const recovered = await step([{ status: 500 }, { answer: conformantAnswer() }]).aiStep.judgeDetailed(input());
  assert.equal(recovered.calls, 2);
  assert.deepEqual(ai.calls[1]!.body.messages, ai.calls[0]!.body.messages, 'after a provider error the same request is sent again');
  const { aiStep, logger } = step([{ status: 500 }, { status: 503, body: 'upstream down' }]);
  const error = await failure(aiStep.judge(input()));
  assert.equal(ai.calls.length, 2);
  assert.equal(error.reason, 'http-status');
  assert.deepEqual(error.attempts.map((a) => a.failure), ['http-status', 'http-status']);
  assert.match(error.attempts[1]!.detail[0]!, /^HTTP 503 from http:\/\/127\.0\.0\.1:\d+: upstream down$/);
  assert.equal(logger.lines.filter((l) => l.level === 40).length, 3);
});

test('a provider that does not answer in time: timeout, one retry, AnalysisFailedError', async () => {
  const { aiStep } = step([{ hang: true }, { hang: true }]);
  const started = Date.now();
  const error = await failure(aiStep.judge(input()));
  const elapsed = Date.now() - started;
  assert.equal(error.reason, 'timeout');
  assert.deepEqual(error.attempts.map((a) => a.failure), ['timeout', 'timeout']);
  assert.equal(ai.calls.length, 2);
  assert.ok(elapsed >= 2 * TIMEOUT_MS - 50, `two timed-out calls take about ${2 * TIMEOUT_MS} ms, took ${elapsed}`);
  // The bound covers the body too: headers in time and then a stalled body is a timeout.
  const stalled = await failure(step([{ stall: true }, { stall: true }]).aiStep.judge(input()));
  assert.deepEqual(stalled.attempts.map((a) => a.failure), ['timeout', 'timeout']);
  // A timeout then an answer recovers.
  assert.equal((await step([{ hang: true }, { answer: conformantAnswer() }]).aiStep.judgeDetailed(input())).calls, 2);
});

test('an answer that is not a chat completion, or a refused connection, is a provider failure', async () => {
  const error = await failure(step([{ raw: '{"object":"list","data":[]}' }, { raw: 'not json' }]).aiStep.judge(input()));
  assert.deepEqual(error.attempts.map((a) => a.failure), ['bad-response', 'bad-response']);
  const oversized = await failure(step([{ raw: ' '.repeat(RESPONSE_MAX_BYTES + 1) }, { status: 500 }]).aiStep.judge(input()));
  assert.match(oversized.attempts[0]!.detail[0]!, /is over 1048576 bytes$/);
  const closed = await startFakeOpenAi();
  const baseUrl = closed.baseUrl;
  await closed.close();
  const refused = await failure(step([], { baseUrl }).aiStep.judge(input()));
  assert.deepEqual(refused.attempts.map((a) => a.failure), ['network', 'network']);
  assert.match(refused.attempts[0]!.detail[0]!, /ECONNREFUSED/);
});

test('a cancelled step aborts the call in flight, makes no retry and is no failure', async () => {
  const controller = new AbortController();
  const { aiStep } = step([{ hang: true }, { answer: conformantAnswer() }], { timeoutMs: 10_000 });
  const pending = aiStep.judge(input({ signal: controller.signal }));
  while (ai.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
  const error = await pending.then(
    () => assert.fail('a cancelled step has no result'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof AnalysisCancelledError, String(error));
  assert.equal(error.attempt, 1);
  assert.equal(await ai.calls[0]!.ended, 'aborted', 'the provider sees its request aborted');
  assert.equal(ai.calls.length, 1);
});

test('a step cancelled before it starts makes no call', async () => {
  const { aiStep } = step([{ answer: conformantAnswer() }]);
  const error = await aiStep.judge(input({ signal: AbortSignal.abort() })).then(
    () => assert.fail('a cancelled step has no result'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof AnalysisCancelledError);
  assert.equal(error.attempt, 0);
  assert.equal(ai.calls.length, 0);
});

test('no question applies: no call at all, no findings', async () => {
  const { aiStep } = step([]);
  const result = await aiStep.judgeDetailed(input({ page: { landmarks: [{ role: 'main', selector: 'main' }] } }));
  assert.deepEqual(result, { findings: [], verdicts: [], judgements: [], calls: 0, asked: [] });
  assert.equal(ai.calls.length, 0);
});

test('elements left unjudged make the criterion inconclusive, listed as occurrences', async () => {
  const answer = conformantAnswer();
  answer.judgements = answer.judgements.filter((x) => x.selector !== 'main > p > a:nth-of-type(2)');
  answer.judgements[1] = j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(1)', 'pass');
  answer.judgements.splice(1, 0, j('page-title-descriptive', '2.4.2', 'title'));
  const result = await step([{ answer }]).aiStep.judgeDetailed(input());
  const links = result.findings.find((f) => f.control === '2.4.4')!;
  assert.equal(links.status, 'inconclusive');
  assert.equal(links.evidence, 'AI judgement could not decide 1 of 2 links (1 not answered)');
  assert.deepEqual(links.occurrences.map((o) => o.selector), ['main > p > a:nth-of-type(2)']);
});

test('the prompt is bounded for a huge page: the request body stays within the summary budget plus the fixed text', async () => {
  const text = 'Lorem ipsum dolor sit amet '.repeat(2_000);
  const many = 20_000;
  const huge = {
    ...PAGE,
    title: text,
    textSample: text,
    headings: Array.from({ length: many }, (_, i) => ({ level: 2, text, selector: `h2:nth-of-type(${i + 1})` })),
    images: Array.from({ length: many }, (_, i) => ({ alt: text, src: text, context: text, selector: `img:nth-of-type(${i + 1})` })),
    links: Array.from({ length: many }, (_, i) => ({ text, href: text, context: text, selector: `a:nth-of-type(${i + 1})` })),
    formControls: Array.from({ length: many }, (_, i) => ({ role: 'textbox', label: text, selector: `input:nth-of-type(${i + 1})` })),
  };
  const { aiStep } = step([{ status: 500 }, { status: 500 }]);
  await failure(aiStep.judge(input({ page: huge, selectorExists: () => true })));
  const body = ai.calls[0]!.raw;
  assert.ok(body.length < SUMMARY_MAX_CHARS + 8_000, `request body is ${body.length} characters`);
  const user = JSON.parse(ai.calls[0]!.body.messages![1]!.content);
  assert.ok(user.page.omitted.links > 0 && user.page.links.length > 0);
  assert.ok(!body.includes('<html') && !body.includes('<a '), 'no raw HTML');
});
