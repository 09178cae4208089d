// The audit response: one schema and one serialisation for the 201 of POST /api/v1/audit and for
// GET /api/v1/audits/{id}, so the read-back cannot drift from what the 201 returned.
import { Type } from 'typebox';
import { BRANCHES, WCAG_STANDARDS } from '../audit/control.ts';
import type { AuditSnapshot, AuditSummary } from '../audit/audit-store.ts';

const Location = Type.Object({
  selector: Type.String({ description: 'CSS selector of the element the evidence is about.' }),
  snippet: Type.String({ description: 'The element’s markup, at most 200 characters.' }),
});

const Occurrence = Type.Object({
  rule: Type.String({ description: 'Engine rule id that decided this element, e.g. `link-name`.' }),
  selector: Type.String({ description: 'CSS selector of the element (`:root` for a page-level outcome).' }),
  snippet: Type.String({ description: 'The element’s markup, at most 200 characters.' }),
});

const Finding = Type.Object({
  control: Type.String({
    description: 'Control id: a WCAG success criterion number for `wcag` (e.g. `1.4.3`), else the branch’s id, e.g. `ai-governance.ai-disclosure-notice`.',
  }),
  status: Type.Enum(['fail', 'inconclusive'], {
    description: '`fail`: the control’s signal is absent or wrong. `inconclusive`: static HTML cannot decide (always a warning).',
  }),
  severity: Type.Enum(['error', 'warning']),
  evidence: Type.String({
    description: 'What matched (quoted, ≤ 200 characters) or what was looked for and not found. Never network detail (addresses, ranges, socket or TLS errors).',
  }),
  location: Type.Optional(Location),
  occurrences: Type.Optional(
    Type.Array(Occurrence, {
      maxItems: 50,
      description: '`wcag` only: the elements behind the finding (at most 50), each with the engine rule that decided it.',
    }),
  ),
  rules: Type.Optional(Type.Array(Type.String(), { description: '`wcag` only: engine rule ids whose outcomes make up the finding (see the branch README).' })),
  actRules: Type.Optional(Type.Array(Type.String(), { description: '`wcag` only: W3C ACT rule ids those engine rules implement.' })),
  source: Type.Optional(
    Type.Enum(['rules', 'ai'], {
      description:
        '`wcag` only: who decided. `rules`: the static rule engine (a fail is an error, except a fail of rules whose W3C ACT rule maps to no WCAG criterion for conformance, ' +
        'e.g. an empty heading under 2.4.6 or an undefined aria-* attribute under 1.3.1 and 4.1.2: a separate `fail` finding of severity `warning`). ' +
        '4.1.1 Parsing is never reported (always satisfied for HTML by W3C’s 2023 erratum; removed in WCAG 2.2). `ai`: the AI judgement step (1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1), ' +
        'always a warning: `fail` when the model judged an element to fail, `inconclusive` when it could not tell; `rules` then names the judgement questions. ' +
        'A criterion may carry one finding of each source, and with `rules` one more, that warning. Absent on findings of other branches and on wcag audits stored before this field existed.',
    }),
  ),
});

const CheckedControl = Type.Object({
  control: Type.String(),
  framework: Type.String({ description: 'Framework function (AI governance: Govern, Map, Measure, Manage); for `wcag`, the WCAG version and level, e.g. `WCAG 2.1 Level A`.' }),
  requirement: Type.String(),
  outcome: Type.Enum(['pass', 'fail', 'inconclusive'], { description: '`pass` means a visible signal was found.' }),
  severity: Type.Enum(['error', 'warning'], { description: 'Severity a failure of this control carries.' }),
  evidence: Type.String({ description: 'For a pass, the visible signal that was found (quoted); otherwise what was missing.' }),
  location: Type.Optional(Location),
});

const Totals = Type.Object({
  errors: Type.Integer({ description: 'Findings of severity error.' }),
  warnings: Type.Integer({ description: 'Findings of severity warning, including inconclusive ones.' }),
  inconclusive: Type.Integer({ description: 'Warnings with status inconclusive: for human review.' }),
});

const AuditFacts = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'The URL as requested (normalised by the WHATWG URL parser).' }),
  branch: Type.Enum([...BRANCHES]),
  standard: Type.Optional(Type.Enum([...WCAG_STANDARDS], { description: 'Present for `wcag` only: the standard applied (findings name only its criteria).' })),
  createdAt: Type.String({ format: 'date-time' }),
  totals: Totals,
  trigger: Type.Enum(['api', 'monitor'], {
    description: 'What started the audit: `api`, a request to POST /api/v1/audit; `monitor`, a scheduled run of the monitor `monitorId`.',
  }),
  monitorId: Type.Optional(Type.String({ format: 'uuid', description: 'With `trigger: monitor`: the monitor whose run this was (kept after the monitor is deleted).' })),
};

const EXAMPLE_AUDIT = {
  id: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11',
  url: 'https://example.com/assistant',
  finalUrl: 'https://example.com/assistant',
  branch: 'ai-governance',
  createdAt: '2026-03-01T10:00:15.123Z',
  totals: { errors: 1, warnings: 0, inconclusive: 0 },
  trigger: 'api',
  findings: [
    {
      control: 'ai-governance.training-data-provenance',
      status: 'fail',
      severity: 'error',
      evidence: 'No training-data or provenance statement found (looked for: "training data", "dataset", "data sources", …)',
    },
  ],
  controls: [
    {
      control: 'ai-governance.ai-disclosure-notice',
      framework: 'Govern',
      requirement: 'Page discloses AI use, AI-generated content, or automated decisions.',
      outcome: 'pass',
      severity: 'error',
      evidence: '"answers are AI-generated by a large language model"',
      location: { selector: 'main > p:nth-of-type(1)', snippet: '<p>This assistant uses artificial intelligence: answers are AI-generated…' },
    },
    {
      control: 'ai-governance.training-data-provenance',
      framework: 'Map',
      requirement: 'Page discloses training-data, dataset-source, data-origin, or dataset-provenance information.',
      outcome: 'fail',
      severity: 'error',
      evidence: 'No training-data or provenance statement found (looked for: "training data", "dataset", "data sources", …)',
    },
  ],
};

const AiUse = Type.Object(
  {
    used: Type.Boolean({ description: 'Whether the AI judgement step ran (a model was asked) for this audit.' }),
    model: Type.Optional(Type.String({ description: 'With `used: true`: the model that judged, as the operator configured it.' })),
    note: Type.String({ description: 'Why not, or what it judged.' }),
  },
  {
    description:
      '`wcag` only. Without an AI step, judgement criteria (1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1) are inconclusive warnings where they apply. ' +
      'With one, its verdicts merge per element: a pass settles the element (no finding), a fail or cantTell becomes a warning with `source: "ai"`, ' +
      'and an element the model was not shown (over the page summary’s bounds) stays an inconclusive `rules` warning.',
  },
);

const EXAMPLE_WCAG_AUDIT = {
  id: '5d0c9a51-3b7e-4c2a-8f0e-6a1b2c3d4e5f',
  url: 'https://example.com/',
  finalUrl: 'https://example.com/',
  branch: 'wcag',
  standard: 'WCAG21AA',
  createdAt: '2026-03-01T10:05:00.000Z',
  totals: { errors: 1, warnings: 1, inconclusive: 1 },
  trigger: 'monitor',
  monitorId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  ai: { used: false, note: 'AI step not configured: judgement criteria (1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1) are inconclusive where they apply' },
  findings: [
    {
      control: '4.1.2',
      status: 'fail',
      severity: 'error',
      evidence: '2 failed (link-name 1, button-name 1): link has no accessible name; button has no accessible name',
      location: { selector: 'html > body > nav > a:nth-of-type(3)', snippet: '<a href="/cart"><svg aria-hidden="true"></svg></a>' },
      occurrences: [
        { rule: 'link-name', selector: 'html > body > nav > a:nth-of-type(3)', snippet: '<a href="/cart"><svg aria-hidden="true"></svg></a>' },
        { rule: 'button-name', selector: '#search > button', snippet: '<button><i class="icon-search"></i></button>' },
      ],
      rules: ['link-name', 'button-name'],
      actRules: ['c487ae', '97a4e1'],
      source: 'rules',
    },
    {
      control: '2.4.2',
      status: 'inconclusive',
      severity: 'warning',
      evidence: '1 cannot be decided from static HTML (no AI step configured) (page-title-descriptive 1): whether the title describes the page needs judgement',
      location: { selector: 'html > head > title', snippet: '<title>Example shop</title>' },
      occurrences: [{ rule: 'page-title-descriptive', selector: 'html > head > title', snippet: '<title>Example shop</title>' }],
      rules: ['page-title-descriptive'],
      actRules: ['c4a8a4'],
      source: 'rules',
    },
  ],
  controls: [
    {
      control: '2.4.2',
      framework: 'WCAG 2.1 Level A',
      requirement: '2.4.2 Page Titled',
      outcome: 'inconclusive',
      severity: 'error',
      evidence: '1 cannot be decided from static HTML (no AI step configured) (page-title-descriptive 1): whether the title describes the page needs judgement',
      location: { selector: 'html > head > title', snippet: '<title>Example shop</title>' },
    },
  ],
};

export const AuditResponse = Type.Object(
  {
    ...AuditFacts,
    ai: Type.Optional(AiUse),
    finalUrl: Type.String({ description: 'The URL after redirects, whose HTML was analysed.' }),
    findings: Type.Array(Finding, { description: 'Failed and inconclusive controls. With includeWarnings=false, errors only.' }),
    controls: Type.Array(CheckedControl, { description: 'Every control that was checked, with its outcome, passes included.' }),
  },
  { description: 'The audit as stored.', examples: [EXAMPLE_WCAG_AUDIT, EXAMPLE_AUDIT] },
);

export const AuditSummaryBody = Type.Object(AuditFacts, { description: 'An audit without its findings and controls.' });

export function toAuditSummary(audit: AuditSummary) {
  return {
    id: audit.id,
    url: audit.url,
    branch: audit.branch,
    ...(audit.standard ? { standard: audit.standard } : {}),
    createdAt: audit.createdAt.toISOString(),
    totals: audit.totals,
    trigger: audit.trigger,
    ...(audit.monitorId === undefined ? {} : { monitorId: audit.monitorId }),
  };
}

export function toAuditResponse(audit: AuditSnapshot) {
  return {
    ...toAuditSummary(audit),
    ...(audit.ai ? { ai: audit.ai } : {}),
    finalUrl: audit.finalUrl,
    findings: audit.findings,
    controls: audit.controls,
  };
}
