// JUnit XML for CI systems (GitHub test reporters, GitLab artifacts:reports:junit, Jenkins): one
// <testsuite> per page and branch, one <testcase> per checked control.
//
// How an audit reads as tests, so that the JUnit verdict is the run's exit code:
// - A control with failed occurrences over the threshold (`overThreshold`, what `--fail-on` fails
//   the run on) is a <failure>: message = the control's evidence, type = the highest severity among
//   those occurrences, and the body lists each (selector, snippet, rule, identity) and the
//   dashboard link. Failed occurrences of the same control below the threshold follow it.
// - A control that fails but has no occurrence over the threshold (a warning under
//   `--fail-on error`, a known occurrence under `--fail-on new`, anything under `--fail-on none`)
//   passes: the run does not fail on it. Its <system-out> says that it fails and why it does not
//   count, with its occurrences, so the report still shows it.
// - An inconclusive control is <skipped message="inconclusive: …">: JUnit's "not decided", neither
//   a pass nor a failure (the service never fails a run on inconclusive; a person must look).
// - A passing control is a bare <testcase>.
// - A page not audited is a <testsuite> with one testcase, "audit", whose <error> says why (exit
//   code 3: the run could not decide, which is what JUnit's error means, as opposed to a failure).
// So `failures` > 0 exactly when some page has occurrences over the threshold (exit code 1) and
// `errors` > 0 exactly when some page was not audited (exit code 3).
//
// Names: a suite is `<branch> <url>` (the URL as requested); a testcase's classname is
// `<branch>.<url>`, stable and dotted; its name is the control's requirement, which for WCAG
// already starts with the criterion ("1.1.1 Non-text Content"), else `<control>: <requirement>`.
// Times: the run's duration on <testsuites>; an audit's duration is not measured per page, so
// suites and cases say time="0". Timestamps are UTC written as the JUnit XSD's xs:dateTime
// without a zone (`2025-03-01T10:00:00`), which every consumer reads.
//
// The text is XML 1.0: &, <, >, " and ' are escaped, tab/LF/CR in attribute values become
// character references (or attribute normalisation would turn them into spaces), and what XML 1.0
// cannot carry at all (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF, lone surrogates) is
// removed: page snippets can contain any of them.
import type { FailedOccurrence } from '../../../src/audit/identity.ts';
import type { ApiAudit, ApiControl, PageResult, RunResult } from './model.ts';

const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes what XML 1.0 cannot carry, even as a character reference. */
export function xmlLegal(text: string): string {
  return text.replace(ILLEGAL_XML, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** Character data: `>` too, so `]]>` never appears. A CR is a reference, or a parser would turn CR LF into LF. */
export function escapeText(text: string): string {
  return xmlLegal(text).replace(/[&<>\r]/g, (ch) => (ch === '\r' ? '&#13;' : TEXT_ESCAPES[ch]!));
}

export function escapeAttribute(text: string): string {
  return xmlLegal(text).replace(/[&<>"'\t\n\r]/g, (ch) => ATTRIBUTE_ESCAPES[ch]!);
}

type Attributes = Record<string, string | number | undefined>;

function attributes(values: Attributes): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
}

/** xs:dateTime as the JUnit XSD has it: UTC, whole seconds, no zone designator. */
function junitTimestamp(iso: string): string | undefined {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 19);
}

function seconds(fromIso: string, toIso: string): string {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
}

interface TestCase {
  name: string;
  classname: string;
  outcome: 'pass' | 'failure' | 'error' | 'skipped';
  /** For failure, error and skipped. */
  message?: string;
  type?: string;
  body?: string;
  systemOut?: string;
}

interface Suite {
  name: string;
  timestamp?: string;
  properties: [string, string][];
  cases: TestCase[];
}

const THRESHOLD_NAMES = {
  error: 'errors fail the run',
  warning: 'errors and warnings fail the run',
  new: 'only occurrences the baseline lacks fail the run',
  none: 'nothing fails the run',
} as const;

function describeOccurrence(o: FailedOccurrence, note = ''): string {
  const lines = [`- ${o.selector ?? '(no element)'}${note}`];
  if (o.rule !== null) lines.push(`  rule: ${o.rule}`);
  lines.push(`  severity: ${o.severity}`);
  if (o.snippet !== null) lines.push(`  snippet: ${o.snippet}`);
  lines.push(`  identity: ${o.identity}`);
  return lines.join('\n');
}

function controlName(control: ApiControl): string {
  const requirement = control.requirement.trim();
  if (requirement === '') return control.control;
  return requirement.startsWith(control.control) ? requirement : `${control.control}: ${requirement}`;
}

/** The controls of an audit as testcases: every checked control, then any failing control the list lacks (never seen; kept so no failure is lost). */
function controlsOf(audit: ApiAudit, occurrences: readonly FailedOccurrence[]): ApiControl[] {
  const controls = [...audit.controls];
  const listed = new Set(controls.map((c) => c.control));
  for (const o of occurrences) {
    if (listed.has(o.control)) continue;
    listed.add(o.control);
    const finding = audit.findings[o.finding];
    controls.push({ control: o.control, framework: '', requirement: '', outcome: 'fail', severity: o.severity, evidence: finding?.evidence ?? '' });
  }
  return controls;
}

function auditedSuite(run: RunResult, page: PageResult, audit: ApiAudit): Suite {
  const classname = `${page.branch}.${page.url}`;
  const over = new Set(page.overThreshold.map((o) => o.identity));
  const newOnes = page.newOccurrences === undefined ? undefined : new Set(page.newOccurrences.map((o) => o.identity));
  const dashboard = page.dashboardUrl === undefined ? [] : [`Dashboard: ${page.dashboardUrl}`];
  const threshold = `--fail-on ${run.failOn}: ${THRESHOLD_NAMES[run.failOn]}`;
  const note = (o: FailedOccurrence) => (newOnes === undefined ? '' : newOnes.has(o.identity) ? ' (new)' : ' (in the baseline)');

  const cases = controlsOf(audit, page.occurrences).map((control): TestCase => {
    const name = controlName(control);
    const failing = page.occurrences.filter((o) => o.control === control.control);
    const counted = failing.filter((o) => over.has(o.identity));
    const below = failing.filter((o) => !over.has(o.identity));
    if (counted.length > 0) {
      const body = [
        `${counted.length} failed occurrence${counted.length === 1 ? '' : 's'} over the threshold (${threshold}):`,
        ...counted.map((o) => describeOccurrence(o, note(o))),
        ...(below.length > 0 ? [`${below.length} more below the threshold:`, ...below.map((o) => describeOccurrence(o, note(o)))] : []),
        ...dashboard,
      ];
      const severity = counted.some((o) => o.severity === 'error') ? 'error' : 'warning';
      return { name, classname, outcome: 'failure', message: control.evidence, type: severity, body: body.join('\n') };
    }
    if (control.outcome === 'fail') {
      const why =
        failing.length === 0
          ? 'no failed finding of it was returned (warnings not requested?)'
          : `no failed occurrence of it is over the threshold (${threshold})`;
      const systemOut = [
        `Fails (${control.severity}) but does not fail the run: ${why}.`,
        `Evidence: ${control.evidence}`,
        ...failing.map((o) => describeOccurrence(o, note(o))),
        ...dashboard,
      ];
      return { name, classname, outcome: 'pass', systemOut: systemOut.join('\n') };
    }
    if (control.outcome === 'inconclusive') return { name, classname, outcome: 'skipped', message: `inconclusive: ${control.evidence}` };
    return { name, classname, outcome: 'pass' };
  });

  const properties: [string, string][] = [
    ['audit.id', audit.id],
    ['audit.finalUrl', audit.finalUrl],
    ...(audit.standard === undefined ? [] : ([['audit.standard', audit.standard]] as [string, string][])),
    ...(page.dashboardUrl === undefined ? [] : ([['audit.dashboard', page.dashboardUrl]] as [string, string][])),
    ['check.failOn', run.failOn],
    ...(run.baseline === undefined ? [] : ([['check.baseline', run.baseline]] as [string, string][])),
  ];
  return { name: `${page.branch} ${page.url}`, timestamp: junitTimestamp(audit.createdAt), properties, cases };
}

function notAuditedSuite(run: RunResult, page: PageResult): Suite {
  const reason = page.notAudited?.reason ?? 'no audit';
  const status = page.notAudited?.status ?? null;
  return {
    name: `${page.branch} ${page.url}`,
    timestamp: junitTimestamp(run.startedAt),
    properties: [['check.failOn', run.failOn]],
    cases: [
      {
        name: 'audit',
        classname: `${page.branch}.${page.url}`,
        outcome: 'error',
        message: `not audited: ${reason}`,
        type: 'not-audited',
        body: `The service did not audit ${page.url} through ${page.branch}: ${reason}${status === null ? '' : ` (HTTP ${status})`}.`,
      },
    ],
  };
}

function counts(cases: readonly TestCase[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.outcome === 'failure').length,
    errors: cases.filter((c) => c.outcome === 'error').length,
    skipped: cases.filter((c) => c.outcome === 'skipped').length,
  };
}

function writeCase(c: TestCase): string {
  const open = `    <testcase${attributes({ name: c.name, classname: c.classname, time: '0' })}`;
  const inner: string[] = [];
  if (c.outcome === 'failure' || c.outcome === 'error') {
    inner.push(`      <${c.outcome}${attributes({ message: c.message, type: c.type })}>${escapeText(c.body ?? '')}</${c.outcome}>`);
  } else if (c.outcome === 'skipped') {
    inner.push(`      <skipped${attributes({ message: c.message })}/>`);
  }
  if (c.systemOut !== undefined) inner.push(`      <system-out>${escapeText(c.systemOut)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

function writeSuite(suite: Suite, id: number): string {
  const lines = [`  <testsuite${attributes({ name: suite.name, id, timestamp: suite.timestamp, ...counts(suite.cases), time: '0' })}>`];
  if (suite.properties.length > 0) {
    lines.push('    <properties>');
    for (const [name, value] of suite.properties) lines.push(`      <property${attributes({ name, value })}/>`);
    lines.push('    </properties>');
  }
  for (const c of suite.cases) lines.push(writeCase(c));
  lines.push('  </testsuite>');
  return lines.join('\n');
}

/** The run as JUnit XML (UTF-8, newline-terminated); the same run always gives the same text. */
export function junitReport(run: RunResult): string {
  const suites = run.pages.map((page) =>
    page.audit !== undefined ? auditedSuite(run, page, page.audit) : notAuditedSuite(run, page),
  );
  const all = counts(suites.flatMap((s) => s.cases));
  const root = attributes({
    name: 'audit-service check',
    ...all,
    time: seconds(run.startedAt, run.finishedAt),
    timestamp: junitTimestamp(run.startedAt),
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${root}>`,
    ...suites.map((suite, i) => writeSuite(suite, i)),
    '</testsuites>',
    '',
  ].join('\n');
}
