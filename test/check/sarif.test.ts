// The check client's SARIF log, checked by Microsoft's validator (sarif-multitool validate) and
// read back field by field, on runs built from real audits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { RunResult } from '../../packages/check/src/model.ts';
import { sarifReport, wcagUnderstandingUri } from '../../packages/check/src/sarif.ts';
import { auditedPage, baselineRun, fullRun, runOf, withLoneSurrogate, type RealAudits, realAudits } from './support-results.ts';

let audits: RealAudits;
let dir: string;

before(async () => {
  audits = await realAudits();
  dir = mkdtempSync(path.join(tmpdir(), 'check-sarif-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The validator's own executable, as node_modules/.bin/sarif-multitool resolves it. The .bin
 * wrapper runs it through a shell (`shell: true`), which would split `--level Error;Warning;Note`
 * at the semicolons, so the tests call the executable directly with the same arguments.
 */
function validatorPath(): string | undefined {
  try {
    const file = createRequire(import.meta.url)('@microsoft/sarif-multitool') as string;
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

interface Finding {
  ruleId: string;
  level: string;
  id: string;
  arguments: string[];
}

/**
 * What the validator reports once every warning and note is asked for: a validator rule id
 * (SARIF2017…), its level (SARIF's default `warning` when absent) and message id. Each one
 * allowed here is answered in the report's README section; anything else fails the test.
 */
const ANSWERED: Record<string, string> = {
  'SARIF2002/Note_Default': 'messages are the service evidence, already text; GitHub reads message.text',
  'SARIF2003/Note_Default': 'pages are audited, not a repository: no version control provenance',
  'SARIF2006/Note_Default': 'URIs not reachable from where the validator ran (no network): W3C pages and the schema',
  'SARIF2009/Note_HierarchicalIdOnDescriptor': 'rule ids are <branch>/<control> on purpose',
  'SARIF2012/Note_ProvideHelpUri': 'privacy and AI-governance controls have no public help page',
  'SARIF2017/Warning_MissingRegion': 'an element is a CSS selector (logicalLocations), the service gives no line or offset',
};

function validate(t: TestContext, log: string, name: string, ruleKinds?: string): Finding[] | undefined {
  const validator = validatorPath();
  if (validator === undefined) {
    if (process.env.CI) assert.fail('sarif-multitool (@microsoft/sarif-multitool) is required in CI');
    t.skip('sarif-multitool not installed: the SARIF validation did not run');
    return undefined;
  }
  const file = path.join(dir, name);
  const out = path.join(dir, `${name}.validation.sarif`);
  writeFileSync(file, log);
  const args = ['validate', file, '-o', out, '--log', 'ForceOverwrite', '--level', 'Error;Warning;Note'];
  if (ruleKinds !== undefined) args.push('--rule-kind', ruleKinds);
  const run = spawnSync(validator, args, { encoding: 'utf8', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
  assert.equal(run.status, 0, `sarif-multitool validate ${name}: ${run.stdout}${run.stderr}`);
  const validation = JSON.parse(readFileSync(out, 'utf8')) as {
    runs: { results?: { ruleId: string; level?: string; message: { id: string; arguments: string[] } }[] }[];
  };
  return (validation.runs[0]?.results ?? []).map((r) => ({ ruleId: r.ruleId, level: r.level ?? 'warning', id: r.message.id, arguments: r.message.arguments }));
}

function assertOnlyAnswered(findings: Finding[] | undefined): void {
  if (findings === undefined) return;
  const errors = findings.filter((f) => f.level === 'error');
  assert.deepEqual(errors, [], 'the validator reports no error');
  const unanswered = findings.filter((f) => !(`${f.ruleId}/${f.id}` in ANSWERED));
  assert.deepEqual(unanswered, [], 'every warning and note is one the README answers');
  for (const f of findings.filter((f) => f.ruleId === 'SARIF2012')) {
    assert.match(f.arguments[1] ?? '', /^(privacy|ai-governance)\//, 'every WCAG rule has a helpUri');
  }
}

interface Sarif {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; semanticVersion?: string; informationUri?: string; rules: Rule[] } };
    invocations: { executionSuccessful: boolean; exitCode: number; toolExecutionNotifications?: { level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    results: Result[];
  }[];
}
interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri?: string;
  defaultConfiguration: { level: string };
  properties: { tags: string[] };
}
interface Result {
  ruleId: string;
  ruleIndex: number;
  kind: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region?: unknown }; logicalLocations?: { fullyQualifiedName: string; kind: string }[] }[];
  partialFingerprints: Record<string, string>;
  baselineState?: string;
  hostedViewerUri?: string;
  properties: { snippet?: string; rule?: string; overThreshold: boolean; identity: string };
}

/** Every result against the run it came from, in run order. */
function assertResults(run: RunResult, sarif: Sarif): void {
  const [only] = sarif.runs;
  assert.ok(only);
  const expected = run.pages.flatMap((page) => page.occurrences.map((o) => ({ page, o })));
  assert.equal(only.results.length, expected.length);
  const rules = only.tool.driver.rules;
  assert.equal(new Set(rules.map((r) => r.id)).size, rules.length, 'one rule per control');
  assert.deepEqual(new Set(rules.map((r) => r.id)), new Set(expected.map(({ page, o }) => `${page.branch}/${o.control}`)));
  expected.forEach(({ page, o }, i) => {
    const result = only.results[i]!;
    assert.equal(result.ruleId, `${page.branch}/${o.control}`);
    assert.equal(rules[result.ruleIndex]?.id, result.ruleId);
    assert.equal(result.kind, 'fail');
    assert.equal(result.level, o.severity);
    const evidence = page.audit!.findings[o.finding]!.evidence;
    assert.ok(result.message.text.startsWith(evidence), result.message.text);
    if (o.rule !== null) assert.ok(result.message.text.includes(o.rule));
    assert.equal(result.locations[0]?.physicalLocation.artifactLocation.uri, page.url);
    assert.deepEqual(result.locations[0]?.logicalLocations, o.selector === null ? undefined : [{ fullyQualifiedName: o.selector, kind: 'element' }]);
    assert.deepEqual(result.partialFingerprints, { 'auditServiceIdentity/v1': o.identity });
    assert.equal(result.properties.snippet, o.snippet ?? undefined);
    assert.equal(result.properties.overThreshold, page.overThreshold.some((t) => t.identity === o.identity));
    assert.equal(result.hostedViewerUri, page.dashboardUrl);
    const baselineState = page.newOccurrences === undefined ? undefined : page.newOccurrences.some((n) => n.identity === o.identity) ? 'new' : 'unchanged';
    assert.equal(result.baselineState, baselineState);
  });
  const notAudited = run.pages.filter((p) => p.notAudited !== undefined);
  const invocation = only.invocations[0]!;
  assert.equal(invocation.executionSuccessful, notAudited.length === 0);
  assert.equal(invocation.exitCode, run.exitCode);
  assert.deepEqual(
    (invocation.toolExecutionNotifications ?? []).map((n) => [n.level, n.locations[0]?.physicalLocation.artifactLocation.uri]),
    notAudited.map((p) => ['error', p.url]),
  );
}

test('a run with every branch and two pages not audited: valid SARIF 2.1.0, read back as written', (t) => {
  const run = fullRun(audits);
  const log = sarifReport(run, '0.1.0');
  const sarif = JSON.parse(log) as Sarif;
  assert.equal(sarif.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
  assert.equal(sarif.version, '2.1.0');
  const driver = sarif.runs[0]!.tool.driver;
  assert.deepEqual([driver.name, driver.version, driver.semanticVersion, driver.informationUri], ['audit-service check', '0.1.0', '0.1.0', 'https://audit.example.com/docs']);
  assertResults(run, sarif);

  const rule = (id: string) => driver.rules.find((r) => r.id === id);
  assert.deepEqual(rule('wcag/1.1.1'), {
    id: 'wcag/1.1.1',
    name: 'NonTextContent',
    shortDescription: { text: '1.1.1 Non-text Content.' },
    fullDescription: { text: 'WCAG 2.1 Level A: 1.1.1 Non-text Content.' },
    help: { text: 'WCAG 2.1 Level A: 1.1.1 Non-text Content. Understanding the criterion: https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html' },
    helpUri: 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html',
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['accessibility', 'wcag', 'WCAG 2.1 Level A'] },
  });
  assert.equal(rule('wcag/2.4.6')?.defaultConfiguration.level, 'warning', 'a control that fails with warnings only');
  assert.equal(rule('wcag/2.4.2'), undefined, 'inconclusive controls are no rule and no result');
  assert.equal(rule('privacy/privacy.nonessential-cookies')?.helpUri, undefined);
  assert.equal(rule('privacy/privacy.nonessential-cookies')?.name, 'NonessentialCookies');
  assert.equal(rule('ai-governance/ai-governance.ai-disclosure-notice')?.shortDescription.text, 'Page discloses AI use, AI-generated content, or automated decisions.');
  assert.ok(sarif.runs[0]!.results.every((r) => r.locations[0]?.physicalLocation.region === undefined));
  assert.ok(sarif.runs[0]!.results.some((r) => !r.properties.overThreshold), 'warnings are results too under --fail-on error');

  const findings = validate(t, log, 'full.sarif');
  assertOnlyAnswered(findings);
  if (findings !== undefined) assert.ok(findings.some((f) => f.ruleId === 'SARIF2017'), 'the region warning is still the one the README answers');
  assertOnlyAnswered(validate(t, log, 'full-ghas.sarif', 'Sarif;Ghas'));
});

test('a baseline: baselineState says new or unchanged, and only new occurrences are over the threshold', (t) => {
  const run = baselineRun(audits);
  const log = sarifReport(run, '0.1.0');
  const sarif = JSON.parse(log) as Sarif;
  assertResults(run, sarif);
  const results = sarif.runs[0]!.results;
  assert.deepEqual(
    results.map((r) => r.baselineState),
    results.map((_, i) => (i < 2 ? 'new' : 'unchanged')),
  );
  assert.deepEqual(
    results.map((r) => r.properties.overThreshold),
    results.map((_, i) => i < 2),
  );
  assertOnlyAnswered(validate(t, log, 'baseline.sarif'));
});

test('a hostile snippet (controls, a non-character, lone surrogates) stays valid JSON and valid SARIF', (t) => {
  const run = runOf([auditedPage(withLoneSurrogate(audits.hostile), 'warning')], 'warning');
  const log = sarifReport(run, '0.1.0');
  assert.ok(log.isWellFormed(), 'no lone surrogate in the text: JSON escapes them');
  const sarif = JSON.parse(log) as Sarif;
  assertResults(run, sarif);
  const snippet = sarif.runs[0]!.results[0]!.properties.snippet ?? '';
  assert.match(snippet, /\u0007/);
  assert.match(snippet, /\uD800high/);
  assertOnlyAnswered(validate(t, log, 'hostile.sarif'));
});

test('every page audited: a successful invocation without notifications', (t) => {
  const run = runOf([auditedPage(audits.shop, 'none'), auditedPage(audits.aiPlain, 'none')], 'none');
  const log = sarifReport(run, '1.2.3-beta.1');
  const sarif = JSON.parse(log) as Sarif;
  assertResults(run, sarif);
  assert.equal(sarif.runs[0]!.invocations[0]!.executionSuccessful, true);
  assert.equal(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications, undefined);
  assert.equal(sarif.runs[0]!.tool.driver.semanticVersion, '1.2.3-beta.1');
  assert.ok(sarif.runs[0]!.results.every((r) => !r.properties.overThreshold));
  assert.equal(JSON.parse(sarifReport(run, 'dev')).runs[0].tool.driver.semanticVersion, undefined, 'not a semantic version');
  assertOnlyAnswered(validate(t, log, 'all-audited.sarif'));
});

test('W3C Understanding pages: the criterion title as W3C names its file', () => {
  const cases: [string, string][] = [
    ['1.1.1 Non-text Content', 'non-text-content'],
    ['1.2.1 Audio-only and Video-only (Prerecorded)', 'audio-only-and-video-only-prerecorded'],
    ['1.4.3 Contrast (Minimum)', 'contrast-minimum'],
    ['2.4.4 Link Purpose (In Context)', 'link-purpose-in-context'],
    ['3.3.4 Error Prevention (Legal, Financial, Data)', 'error-prevention-legal-financial-data'],
    ['4.1.2 Name, Role, Value', 'name-role-value'],
    ['2.5.8 Target Size (Minimum)', 'target-size-minimum'],
  ];
  for (const [requirement, slug] of cases) assert.equal(wcagUnderstandingUri(requirement), `https://www.w3.org/WAI/WCAG22/Understanding/${slug}.html`);
  assert.equal(wcagUnderstandingUri('Consent must be visible.'), undefined);
});

test('the same run gives the same bytes', () => {
  const run = fullRun(audits);
  assert.equal(sarifReport(structuredClone(run), '0.1.0'), sarifReport(run, '0.1.0'));
});
