// The WCAG branch with its AI step, through the real service: POST /api/v1/audit crawls a page
// from the HTTPS fixture and asks a fake OpenAI-compatible server on loopback (real HTTP, scripted
// per test) the judgement questions. Conformant answers merge as `source: "ai"` warnings and read
// back equal to the 201; a retry rescues one bad answer; two bad answers or two timeouts are a 502
// with nothing persisted (no audit, no findings, no outbox row) and the rate-limit slot spent; a
// client that hangs up cancels the model's call and nothing is persisted; no key or secret
// reaches the provider; each standard asks only its own criteria.
import assert from 'node:assert/strict';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { QUESTIONS, type QuestionId } from '../../src/audit/wcag/ai-step/questions.ts';
import type { PageSummary } from '../../src/audit/wcag/ai-step/summary.ts';
import { STANDARD_CRITERIA, WCAG_STANDARDS } from '../../src/audit/wcag/criteria.ts';
import { NOT_SHOWN_NOTE } from '../../src/audit/wcag/findings.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startFakeOpenAi, type FakeCall, type FakeOpenAi, type FakeStep } from '../support/fake-openai.ts';
import { startTestService, type TestService } from '../support/service.ts';

const AI_KEY = 'sk-ai-wire-7c41e9d2b8a05f36';
const CSRF = 'csrf-9f8e7d6c5b4a3f2e1d0c';
/** Per call: the timeout test waits twice this. */
const AI_TIMEOUT_MS = 1500;

// Judgement targets for every question (an image with alt, the title, links, headings, a labelled
// field, the language over English text), one deterministic failure (an unnamed button: 4.1.2),
// and a hidden form token that must never reach the provider.
const LIBRARY = `<!doctype html><html lang="en"><head><title>Opening hours – City Library</title></head><body>
<header><nav><a href="/">Home</a> <a href="/events">Events calendar</a></nav></header>
<main>
<h1>Opening hours</h1>
<p>The library is open from Monday to Saturday. <a href="/services">Read more</a></p>
<img src="/img/IMG_0042.jpg" alt="IMG_0042.jpg">
<h2>Heading</h2>
<form action="/search"><label for="q">Search the catalogue</label> <input id="q" type="search" name="q">
<input type="hidden" name="csrf" value="${CSRF}"></form>
<button></button>
</main></body></html>`;

// More images than the AI step's summary shows (30): the rest stay inconclusive, from the rules.
const GALLERY = `<!doctype html><html lang="en"><head><title>Gallery</title></head><body><main><h1>Our reading rooms</h1>
${Array.from({ length: 36 }, (_, i) => `<p><img src="/img/room-${i + 1}.jpg" alt="Reading room ${i + 1} with long oak tables"></p>`).join('\n')}
</main></body></html>`;

const page = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

let database: TestDatabase;
let service: TestService;
let ai: FakeOpenAi;
let challenge = '';

before(async () => {
  ai = await startFakeOpenAi();
  database = await openTestDatabase();
  service = await startTestService({
    database,
    // No worker: an audit's failure events stay in the outbox, where the tests count them.
    delivery: { enabled: false },
    // A clock that stands still: every request of a test falls in one window, wherever the real
    // window boundary is (a timeout test spends seconds between its requests).
    rateLimiter: createRateLimiter(database.db, { limit: 1000, windowSeconds: 60 }, () => new Date('2026-03-01T10:00:15Z')),
    env: {
      AUDIT_AI_BASE_URL: ai.baseUrl,
      AUDIT_AI_API_KEY: AI_KEY,
      AUDIT_AI_MODEL: 'fake-model',
      AUDIT_AI_TIMEOUT_MS: String(AI_TIMEOUT_MS),
    },
    routes: {
      '/library': page(LIBRARY),
      '/gallery': page(GALLERY),
      '/receiver': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
    },
  });
  // A registration that every failing wcag audit of this key queues an event for.
  const registered = await service.app.inject({
    method: 'POST',
    url: '/api/v1/alerts/webhook',
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    payload: { url: service.pageUrl('/receiver'), trigger: { severity: 'medium', branch: 'accessibility' } },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  challenge = JSON.parse(service.fixture.requests.find((r) => r.path === '/receiver')!.body).challenge;
});
after(async () => {
  await service.close();
  await database.close();
  await ai.close();
});

function script(...steps: FakeStep[]) {
  ai.reset();
  ai.script(...steps);
}

function audit(body: Record<string, unknown>, apiKey = service.apiKey) {
  return service.app.inject({
    method: 'POST',
    url: '/api/v1/audit',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    payload: JSON.stringify(body),
  });
}

/** What the step asked in this call: the questions with the elements each is about. */
function asked(call: FakeCall) {
  const user = JSON.parse(call.body.messages![1]!.content) as { standard: string; questions: { id: QuestionId; control: string }[]; page: PageSummary };
  return {
    standard: user.standard,
    page: user.page,
    questions: user.questions.map((q) => ({ ...q, targets: QUESTIONS.find((d) => d.id === q.id)!.targets(user.page) })),
  };
}

type Outcome = 'pass' | 'fail' | 'cantTell';
/** A conformant answer judging every element asked about: `outcomes[question]`, else pass. */
function answerAll(outcomes: Partial<Record<QuestionId, Outcome>> = {}): FakeStep {
  return {
    reply: (call) => ({
      answer: {
        judgements: asked(call).questions.flatMap((q) =>
          q.targets.map((selector) => ({ question: q.id, control: q.control, outcome: outcomes[q.id] ?? 'pass', selector, evidence: `Judged ${outcomes[q.id] ?? 'pass'} in context.` })),
        ),
      },
    }),
  };
}

interface WcagFinding {
  control: string;
  status: string;
  severity: string;
  evidence: string;
  location?: { selector: string; snippet: string };
  occurrences?: { rule: string; selector: string; snippet: string }[];
  rules?: string[];
  actRules?: string[];
  source?: string;
}

async function count(table: 'audits' | 'findings' | 'webhook_deliveries'): Promise<number> {
  const row = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
  return Number(row.rows[0]!.n);
}

async function persisted() {
  return { audits: await count('audits'), findings: await count('findings'), deliveries: await count('webhook_deliveries') };
}

test('conformant output: AI findings merge as warnings with source "ai", ai.used names the model, read-back equals the 201', async () => {
  script(answerAll({ 'image-alt-meaningful': 'fail', 'heading-descriptive': 'cantTell' }));
  const before = await persisted();
  const response = await audit({ url: service.pageUrl('/library') });
  assert.equal(response.statusCode, 201, response.body);
  const body = response.json();
  assert.equal(ai.calls.length, 1);
  assert.equal(body.ai.used, true);
  assert.equal(body.ai.model, 'fake-model');
  assert.match(body.ai.note, /1\.1\.1, 2\.4\.2, 2\.4\.4, 2\.4\.6, 3\.1\.1/);
  assert.doesNotMatch(JSON.stringify(body.ai), /127\.0\.0\.1|sk-/);

  const findings = body.findings as WcagFinding[];
  const ofSource = (control: string, source: string) => findings.find((f) => f.control === control && f.source === source);
  // The image's alt judged to fail: a warning, not an error, traced to the judgement rule and its ACT rule.
  const alt = ofSource('1.1.1', 'ai')!;
  assert.equal(alt.status, 'fail');
  assert.equal(alt.severity, 'warning');
  assert.deepEqual(alt.rules, ['image-alt-meaningful']);
  assert.deepEqual(alt.actRules, ['qt1vmo']);
  assert.deepEqual(alt.occurrences!.map((o) => o.selector), ['html > body > main > img']);
  assert.match(alt.occurrences![0]!.snippet, /^<img src="\/img\/IMG_0042\.jpg"/);
  assert.deepEqual(alt.location, { selector: alt.occurrences![0]!.selector, snippet: alt.occurrences![0]!.snippet });
  assert.match(alt.evidence, /^AI judgement: 1 of 1 images fail/);
  // cantTell: an inconclusive AI warning for the headings.
  const headings = ofSource('2.4.6', 'ai')!;
  assert.equal(headings.status, 'inconclusive');
  assert.equal(headings.severity, 'warning');
  // Passes settle their criteria: no finding from either source, and the control passes.
  for (const control of ['2.4.2', '2.4.4', '3.1.1']) assert.equal(findings.find((f) => f.control === control), undefined, control);
  const outcomes = Object.fromEntries((body.controls as { control: string; outcome: string; severity: string }[]).map((c) => [c.control, c]));
  assert.equal(outcomes['2.4.2']?.outcome, 'pass');
  assert.equal(outcomes['3.1.1']?.outcome, 'pass');
  // An AI fail makes the control fail, with the severity such a failure carries: a warning.
  assert.deepEqual([outcomes['1.1.1']?.outcome, outcomes['1.1.1']?.severity], ['fail', 'warning']);
  assert.equal(outcomes['4.1.2']?.severity, 'error');
  // The rules' findings keep working, marked as theirs; no judgement rule is left inconclusive.
  const button = ofSource('4.1.2', 'rules')!;
  assert.equal(button.severity, 'error');
  assert.deepEqual(button.rules, ['button-name']);
  for (const f of findings) {
    assert.ok(f.source === 'rules' || f.source === 'ai', `${f.control} has a source`);
    if (f.source === 'ai') assert.equal(f.severity, 'warning');
    assert.doesNotMatch(f.evidence, /no AI step configured/);
  }
  assert.deepEqual(body.totals, {
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    inconclusive: findings.filter((f) => f.status === 'inconclusive').length,
  });

  // Stored, with its outbox row, and read back exactly.
  const now = await persisted();
  assert.equal(now.audits, before.audits + 1);
  assert.equal(now.deliveries, before.deliveries + 1);
  const read = await service.app.inject({ method: 'GET', url: `/api/v1/audits/${body.id}`, headers: { 'x-api-key': service.apiKey } });
  assert.equal(read.statusCode, 200);
  assert.deepStrictEqual(read.json(), body);

  // The request the provider got: the configured model, the strict schema, the standard's questions.
  const call = ai.calls[0]!;
  assert.equal(call.body.model, 'fake-model');
  assert.equal(call.body.response_format?.type, 'json_schema');
  assert.equal(call.body.response_format?.json_schema?.strict, true);
  const prompt = asked(call);
  assert.equal(prompt.standard, 'WCAG21AA');
  assert.deepEqual(prompt.questions.map((q) => q.id), ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'heading-descriptive', 'label-descriptive', 'html-lang-matches-content']);
  assert.match(prompt.page.textSample, /open from Monday to Saturday/);
  assert.equal(prompt.page.links.find((l) => l.text === 'Read more')?.context, 'The library is open from Monday to Saturday. Read more');
  assert.ok(prompt.page.results.some((r) => r.criterion === '4.1.2' && r.outcome === 'fail'), 'the deterministic results go with the summary');
  assert.ok(prompt.page.results.every((r) => !r.evidence.includes('no AI step configured')));
});

test('non-conformant once, then conformant: 201 after the retry, which carries the validation errors', async () => {
  script({ answer: { judgements: [] } }, answerAll());
  const response = await audit({ url: service.pageUrl('/library') });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(ai.calls.length, 2);
  const retry = ai.calls[1]!.body.messages!;
  assert.match(retry.at(-1)!.content, /does not conform[\s\S]*question image-alt-meaningful was not answered/);
  const body = response.json();
  assert.equal(body.ai.used, true);
  assert.equal((body.findings as WcagFinding[]).filter((f) => f.source === 'ai').length, 0, 'everything judged to pass');
  const read = await service.app.inject({ method: 'GET', url: `/api/v1/audits/${body.id}`, headers: { 'x-api-key': service.apiKey } });
  assert.deepStrictEqual(read.json(), body);
});

describe('502 {"error":"analysis failed"}: nothing persisted, the slot stays taken, the log says why', () => {
  async function expectAnalysisFailed(steps: FakeStep[], reason: string) {
    // A fresh key: its first request leaves 999 of 1000, whatever the other tests spent.
    const { rawKey, id } = await createApiKey(database.db, 'ai-502');
    script(...steps);
    const before = await persisted();
    const listed = async () => (await service.app.inject({ method: 'GET', url: '/api/v1/audits', headers: { 'x-api-key': rawKey } })).json();
    const listedBefore = await listed();
    const logsBefore = service.logs.length;
    const response = await audit({ url: service.pageUrl('/library') }, rawKey);
    assert.equal(response.statusCode, 502, response.body);
    assert.deepEqual(response.json(), { error: 'analysis failed' });
    assert.equal(response.headers['ratelimit-remaining'], '999');
    assert.equal(ai.calls.length, 2, 'exactly one retry');
    assert.deepEqual(await persisted(), before, 'no audit, no findings, no outbox row');
    assert.deepEqual(await listed(), listedBefore);
    // The slot is spent: the next request of the key has one fewer left.
    script(answerAll());
    const next = await audit({ url: service.pageUrl('/library') }, rawKey);
    assert.equal(next.statusCode, 201, next.body);
    assert.equal(next.headers['ratelimit-remaining'], '998');
    const failure = service.logs.slice(logsBefore).find((l) => typeof l.msg === 'string' && l.msg.startsWith('WCAG AI step failed'));
    assert.ok(failure, 'the operator log records the failure');
    assert.equal(failure.reason, reason);
    assert.equal(failure.level, 40);
    assert.equal((failure.attempts as unknown[]).length, 2);
    assert.ok(service.rawLogs.every((line) => !line.includes(AI_KEY)), 'the AI key is in no log line');
    return id;
  }

  test('non-conformant twice', async () => {
    await expectAnalysisFailed([{ answer: 'Sure! The page looks fine.' }, { answer: { judgements: [{ question: 'link-purpose', control: '9.9.9' }] } }], 'non-conformant');
  });

  test('a selector that names no element of the page, twice', async () => {
    const wrong = { answer: { judgements: [{ question: 'page-title-descriptive', control: '2.4.2', outcome: 'pass', selector: '#nowhere', evidence: 'Fine.' }] } };
    await expectAnalysisFailed([wrong, wrong], 'non-conformant');
  });

  test('provider timeout, twice', async () => {
    await expectAnalysisFailed([{ hang: true }, { hang: true }], 'timeout');
  });

  test('provider error, twice', async () => {
    await expectAnalysisFailed([{ status: 500 }, { status: 503 }], 'http-status');
  });
});

test('a client that closes the connection cancels the call to the model: the provider sees it aborted, nothing is persisted, the log says so at info', { timeout: 60_000 }, async () => {
  // Its own instance over the same database and pages, listening on loopback (the close needs a
  // real socket), with a call timeout far beyond what the cancelled call takes (without the
  // cancellation, the timeout and then the scripted retry would end the request, with a 201).
  const listening = await startTestService({
    database,
    fixture: service.fixture,
    routes: {},
    delivery: { enabled: false },
    env: { AUDIT_RATE_LIMIT: '1000', AUDIT_AI_BASE_URL: ai.baseUrl, AUDIT_AI_MODEL: 'fake-model', AUDIT_AI_TIMEOUT_MS: '10000' },
  });
  try {
    await listening.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = listening.app.server.address() as AddressInfo;
    script({ hang: true }, answerAll());
    const before = await persisted();
    const client = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/audit',
      headers: { 'content-type': 'application/json', 'x-api-key': listening.apiKey },
    });
    const answered = new Promise<string>((resolve) => {
      client.on('response', (res) => resolve(`answered ${res.statusCode}`));
      client.on('close', () => resolve('no answer'));
    });
    client.on('error', () => {}); // the socket destroyed below
    client.end(JSON.stringify({ url: listening.pageUrl('/library') }));
    // The model has the question: the client hangs up.
    while (ai.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    client.destroy();
    assert.equal(await ai.calls[0]!.ended, 'aborted', 'the provider sees its request aborted');
    assert.equal(await answered, 'no answer');
    // The request has ended when the route logs the cancellation (or, were it not cancelled, the step's answer).
    const ending = () => listening.logs.find((l) => typeof l.msg === 'string' && /^(client closed the connection|AI step answered|AI step failed)/.test(l.msg));
    while (ending() === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const line = ending()!;
    assert.match(String(line.msg), /^client closed the connection: WCAG AI step cancelled, nothing persisted/);
    assert.equal(line.level, 30);
    assert.equal(line.aiCallsAborted, true);
    assert.deepEqual(await persisted(), before, 'no audit, no findings, no outbox row');
    assert.equal(ai.calls.length, 1, 'no retry after a cancellation');
    assert.ok(!listening.logs.some((l) => typeof l.msg === 'string' && /AI step (attempt \d )?failed/.test(l.msg)), 'a cancellation is not logged as a failure');
  } finally {
    await listening.close();
  }
});

test('no key or secret reaches the provider: the AI key only in Authorization, never the API key, the page’s hidden token or a webhook secret', async () => {
  script({ answer: 'not json' }, answerAll());
  const response = await audit({ url: service.pageUrl('/library') });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(ai.calls.length, 2);
  assert.ok(challenge.length > 0);
  for (const call of ai.calls) {
    assert.equal(call.headers.authorization, `Bearer ${AI_KEY}`);
    assert.equal(call.headers['x-api-key'], undefined);
    for (const secret of [AI_KEY, service.apiKey, CSRF, challenge]) assert.ok(!call.raw.includes(secret), 'a secret is in the request body');
    // A summary, never the raw HTML.
    assert.ok(!call.raw.includes('<main>') && !call.raw.includes('<img'), 'raw HTML in the prompt');
  }
  assert.ok(!response.body.includes(AI_KEY) && !response.body.includes(ai.baseUrl));
  assert.ok(service.rawLogs.every((line) => !line.includes(AI_KEY)));
});

describe('each standard asks only its own criteria, and reports only them', () => {
  const expected: Record<string, QuestionId[]> = {
    WCAG21A: ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'html-lang-matches-content'],
    WCAG21AA: ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'heading-descriptive', 'label-descriptive', 'html-lang-matches-content'],
    WCAG22AA: ['image-alt-meaningful', 'page-title-descriptive', 'link-purpose', 'heading-descriptive', 'label-descriptive', 'html-lang-matches-content'],
  };
  for (const standard of WCAG_STANDARDS) {
    test(standard, async () => {
      script(answerAll({ 'link-purpose': 'fail', 'heading-descriptive': 'fail' }));
      const response = await audit({ standard, url: service.pageUrl('/library') });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.equal(body.standard, standard);
      const prompt = asked(ai.calls[0]!);
      assert.equal(prompt.standard, standard);
      assert.deepEqual(prompt.questions.map((q) => q.id), expected[standard]);
      const criteria = STANDARD_CRITERIA[standard];
      for (const f of body.findings as WcagFinding[]) assert.ok(criteria.has(f.control as never), `${f.control} is not a criterion of ${standard}`);
      const aiControls = (body.findings as WcagFinding[]).filter((f) => f.source === 'ai').map((f) => f.control);
      assert.deepEqual(aiControls, standard === 'WCAG21A' ? ['2.4.4'] : ['2.4.4', '2.4.6']);
      const read = await service.app.inject({ method: 'GET', url: `/api/v1/audits/${body.id}`, headers: { 'x-api-key': service.apiKey } });
      assert.deepStrictEqual(read.json(), body);
    });
  }
});

test('elements over the summary’s bounds stay inconclusive from the rules; those judged to pass are settled', async () => {
  script(answerAll());
  const response = await audit({ url: service.pageUrl('/gallery') });
  assert.equal(response.statusCode, 201, response.body);
  const body = response.json();
  const judged = asked(ai.calls[0]!).questions.find((q) => q.id === 'image-alt-meaningful')!.targets;
  assert.equal(judged.length, 30);
  const images = (body.findings as WcagFinding[]).filter((f) => f.control === '1.1.1');
  assert.equal(images.length, 1);
  const [rest] = images;
  assert.equal(rest!.source, 'rules');
  assert.equal(rest!.status, 'inconclusive');
  assert.equal(rest!.occurrences!.length, 6);
  assert.ok(rest!.occurrences!.every((o) => !judged.includes(o.selector)));
  assert.ok(rest!.evidence.includes(NOT_SHOWN_NOTE));
});

test('includeWarnings=false: AI warnings are left out like every warning', async () => {
  script(answerAll({ 'image-alt-meaningful': 'fail' }));
  const body = (await audit({ url: service.pageUrl('/library'), includeWarnings: false })).json();
  assert.equal(body.ai.used, true);
  assert.ok((body.findings as WcagFinding[]).every((f) => f.severity === 'error' && f.source === 'rules'));
});
