// SARIF 2.1.0 for code-scanning consumers (GitHub code scanning, the SARIF viewers): one rule per
// control that failed, one result per failed occurrence. Checked against Microsoft's validator
// (`sarif-multitool validate`) in test/check/sarif.test.ts.
//
// Decisions:
// - Every failed occurrence is a result (`kind: "fail"`, `level` from its finding's severity), not
//   only those over the `--fail-on` threshold: a viewer should show all there is. Which ones fail
//   the run is `properties.overThreshold`; with a baseline, `baselineState` is `new` (the baseline
//   lacks the identity) or `unchanged`, SARIF's own words for it. Without one it is left out.
//   Inconclusive findings are not results: they are no failure, and a viewer would show them as
//   alerts. Passing controls give neither results nor rules.
// - A result's location is the page: `artifactLocation.uri` is the page URL as requested (an
//   absolute https URI, not a repository file), and the element is `logicalLocations[0]` with the
//   CSS selector as `fullyQualifiedName` and kind `element`. The service gives no line or offset
//   for an element, and a region without a start is no region, so there is no `region` and the
//   snippet is `properties.snippet`.
// - `partialFingerprints["auditServiceIdentity/v1"]` is the stable identity (src/audit/identity.ts):
//   consumers match results across runs on rule id, location and partial fingerprints, which is
//   branch/control, URL and identity, exactly what the baseline compares. No `fingerprints`: the
//   identity is the same on two pages that share an element, so alone it is not a log-wide id.
// - `hostedViewerUri` is the audit's page in the dashboard.
// - Rule ids are `<branch>/<control>` (`wcag/1.1.1`). WCAG rules link (`helpUri`) to W3C's
//   Understanding WCAG 2.2 page for the criterion, whose file name is the criterion's title in
//   lower case with words joined by `-`, the same for every criterion (2.2's Understanding
//   documents cover every 2.1 criterion too). Privacy and AI-governance controls have no public
//   page, so no `helpUri`: their rule's `help` text is their framework and requirement.
// - `tool.driver.informationUri` is the audit service's API reference (`<server>/docs`): the
//   client has no public site, SARIF requires an absolute URI, and the server it ran against is
//   the documentation every user of the report can reach.
// - `invocations[0]`: the run's times and exit code; `executionSuccessful` is false when a page
//   was not audited, and each such page is a `toolExecutionNotifications` entry (level error).
// - Deterministic: pages, occurrences and rules in run order, keys in a fixed order, no clock.
// - No `automationDetails`: GitHub's upload-sarif keeps a run's own `automationDetails.id` over its
//   `category` input, so writing one would stop users from separating uploads (one job per
//   branch, say) by category. (Azure DevOps' GHAzDO rules ask for it: GHAzDO1014.)
import type { FailedOccurrence } from '../../../src/audit/identity.ts';
import type { ApiAudit, ApiControl, Branch, PageResult, RunResult } from './model.ts';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const TOOL_NAME = 'audit-service check';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const WCAG_REQUIREMENT = /^(\d+\.\d+\.\d+)\s+(.+)$/;
const BRANCH_TAGS: Record<Branch, string[]> = {
  wcag: ['accessibility', 'wcag'],
  privacy: ['privacy'],
  'ai-governance': ['ai-governance'],
};

type Level = 'error' | 'warning';

interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string };
  helpUri?: string;
  defaultConfiguration: { level: Level };
  properties: { tags: string[] };
}

/** A message or description as SARIF's validator wants it: one sentence-ending period. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** W3C's Understanding page for a WCAG criterion, from its requirement ("1.4.3 Contrast (Minimum)"). */
export function wcagUnderstandingUri(requirement: string): string | undefined {
  const match = WCAG_REQUIREMENT.exec(requirement.trim());
  if (match === null) return undefined;
  const slug = match[2]!
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? undefined : `https://www.w3.org/WAI/WCAG22/Understanding/${slug}.html`;
}

/**
 * A rule's `name`, a Pascal-case identifier as SARIF's validator asks (SARIF2012): the WCAG
 * criterion's title ("Non-text Content" → `NonTextContent`), else the control id's last part
 * ("privacy.nonessential-cookies" → `NonessentialCookies`).
 */
function ruleName(branch: Branch, control: string, requirement: string): string {
  const wcag = branch === 'wcag' ? WCAG_REQUIREMENT.exec(requirement.trim()) : null;
  const words = wcag !== null ? wcag[2]! : control.slice(control.lastIndexOf('.') + 1);
  const pascal = words
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');
  return /^[A-Z]/.test(pascal) ? pascal : `Control${pascal}`;
}

function absoluteUri(text: string): string | undefined {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}

function checkedControl(audit: ApiAudit, control: string): ApiControl | undefined {
  return audit.controls.find((c) => c.control === control);
}

function ruleFor(page: PageResult, audit: ApiAudit, occurrence: FailedOccurrence): Rule {
  const checked = checkedControl(audit, occurrence.control);
  const requirement = checked?.requirement.trim() || occurrence.control;
  const framework = checked?.framework.trim() ?? '';
  const helpUri = page.branch === 'wcag' ? wcagUnderstandingUri(requirement) : undefined;
  const described = requirement.startsWith(occurrence.control) ? requirement : `${occurrence.control}: ${requirement}`;
  const full = framework === '' ? described : `${framework}: ${described}`;
  const tags = [...BRANCH_TAGS[page.branch], ...(framework === '' ? [] : [framework])];
  return {
    id: `${page.branch}/${occurrence.control}`,
    name: ruleName(page.branch, occurrence.control, requirement),
    shortDescription: { text: sentence(requirement) },
    fullDescription: { text: sentence(full) },
    help: { text: helpUri === undefined ? sentence(full) : `${sentence(full)} Understanding the criterion: ${helpUri}` },
    ...(helpUri === undefined ? {} : { helpUri }),
    defaultConfiguration: { level: (checked?.severity ?? occurrence.severity) === 'error' ? 'error' : 'warning' },
    properties: { tags: [...new Set(tags)] },
  };
}

function resultFor(run: RunResult, page: PageResult, audit: ApiAudit, o: FailedOccurrence, ruleIndex: number, ruleId: string) {
  const finding = audit.findings[o.finding];
  const evidence = finding?.evidence.trim() || `${o.control} failed`;
  const over = page.overThreshold.some((t) => t.identity === o.identity);
  const baselineState =
    page.newOccurrences === undefined ? undefined : page.newOccurrences.some((n) => n.identity === o.identity) ? 'new' : 'unchanged';
  const dashboard = page.dashboardUrl === undefined ? undefined : absoluteUri(page.dashboardUrl);
  return {
    ruleId,
    ruleIndex,
    kind: 'fail',
    level: o.severity,
    message: { text: sentence(o.rule === null ? evidence : `${evidence} (rule ${o.rule})`) },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: page.url } },
        ...(o.selector === null ? {} : { logicalLocations: [{ fullyQualifiedName: o.selector, kind: 'element' }] }),
      },
    ],
    partialFingerprints: { 'auditServiceIdentity/v1': o.identity },
    ...(baselineState === undefined ? {} : { baselineState }),
    ...(dashboard === undefined ? {} : { hostedViewerUri: dashboard }),
    properties: {
      branch: page.branch,
      control: o.control,
      ...(o.rule === null ? {} : { rule: o.rule }),
      ...(o.snippet === null ? {} : { snippet: o.snippet }),
      identity: o.identity,
      overThreshold: over,
      failOn: run.failOn,
      auditId: audit.id,
      ...(audit.finalUrl !== page.url ? { finalUrl: audit.finalUrl } : {}),
    },
  };
}

/** The SARIF log as JSON text; `toolVersion` is the client's package version. */
export function sarifReport(run: RunResult, toolVersion: string): string {
  const rules: Rule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: ReturnType<typeof resultFor>[] = [];
  for (const page of run.pages) {
    const audit = page.audit;
    if (audit === undefined) continue;
    for (const o of page.occurrences) {
      const id = `${page.branch}/${o.control}`;
      let index = ruleIndex.get(id);
      if (index === undefined) {
        index = rules.push(ruleFor(page, audit, o)) - 1;
        ruleIndex.set(id, index);
      } else if (o.severity === 'error') {
        rules[index]!.defaultConfiguration.level = 'error';
      }
      results.push(resultFor(run, page, audit, o, index, id));
    }
  }

  const notAudited = run.pages.filter((p) => p.notAudited !== undefined || p.audit === undefined);
  const informationUri = absoluteUri(`${run.server.replace(/\/+$/, '')}/docs`);
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            fullName: `${TOOL_NAME} ${toolVersion}`,
            version: toolVersion,
            ...(SEMVER.test(toolVersion) ? { semanticVersion: toolVersion } : {}),
            ...(informationUri === undefined ? {} : { informationUri }),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: notAudited.length === 0,
            ...(Number.isNaN(Date.parse(run.startedAt)) ? {} : { startTimeUtc: new Date(run.startedAt).toISOString() }),
            ...(Number.isNaN(Date.parse(run.finishedAt)) ? {} : { endTimeUtc: new Date(run.finishedAt).toISOString() }),
            exitCode: run.exitCode,
            ...(notAudited.length === 0
              ? {}
              : {
                  toolExecutionNotifications: notAudited.map((page) => {
                    const reason = page.notAudited?.reason ?? 'no audit';
                    const status = page.notAudited?.status ?? null;
                    return {
                      level: 'error',
                      message: { text: sentence(`Not audited through ${page.branch}: ${reason}${status === null ? '' : ` (HTTP ${status})`}`) },
                      locations: [{ physicalLocation: { artifactLocation: { uri: page.url } } }],
                      properties: { branch: page.branch, ...(status === null ? {} : { status }) },
                    };
                  }),
                }),
            properties: { server: run.server, failOn: run.failOn, ...(run.baseline === undefined ? {} : { baseline: run.baseline }) },
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
