// An audit's page (/dashboard/audits/{id}): any key's audit as stored, for admins and members
// alike. Every finding with its evidence and the elements behind it (their markup shown as code
// text, never as markup), and every checked control with its outcome and evidence, so a reader sees
// what passed and why as well as what failed.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auditOwner, findAudit, type AuditSnapshot } from '../../audit/audit-store.ts';
import { auditChanges, type AuditChanges, type ChangedOccurrence } from '../../audit/changes.ts';
import type { Finding } from '../../audit/findings.ts';
import { PILLAR_TITLES } from '../../report/pdf.ts';
import { auditHref, originHref, totalsText } from '../common/audits.ts';
import type { DashboardContext } from '../common/guard.ts';
import { DASHBOARD, html, VIEWER_PAGES } from '../common/openapi.ts';
import { notFound, page, signedIn, UUID } from '../common/page.ts';
import { moment, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';

/** One element a finding or control is about: its markup (`snippet`) is shown as text. */
interface ElementView {
  /** WCAG: the engine rule that found it. */
  rule?: string;
  selector: string;
  snippet: string;
}

interface FindingView {
  control: string;
  /** The requirement, without the control id a WCAG requirement starts with. */
  requirement: string | undefined;
  status: Finding['status'];
  severity: Finding['severity'];
  evidence: string;
  /** WCAG: who decided (`the rule engine`, `the AI step`), and by which rules. */
  decidedBy: string | undefined;
  rules: string[];
  actRules: string[];
  elements: ElementView[];
}

interface ControlView {
  control: string;
  framework: string;
  requirement: string;
  outcome: string;
  severity: string;
  evidence: string;
  element: ElementView | undefined;
}

interface AuditPage extends PageBase {
  session: SignedIn;
  audit: {
    id: string;
    url: string;
    finalUrl: string;
    origin: string;
    originHref: string;
    pillar: string;
    standard: string | undefined;
    createdAt: Moment;
    totals: string;
    /** WCAG: whether the AI judgement step ran, in words. */
    ai: string | undefined;
  };
  findings: FindingView[];
  controls: ControlView[];
  /** What changed since the previous audit of the page (same key, URL, branch and standard). */
  changes: ChangesView;
}

/** At most this many occurrences of each kind are listed; the counts are whole. */
export const CHANGES_LISTED = 50;

interface ChangesView {
  /** The audit compared with; null for the page's first audit. */
  against: { href: string; createdAt: Moment } | null;
  errorsOnly: boolean;
  counts: { new: number; fixed: number; persisting: number; regressed: number };
  lists: { kind: 'new' | 'fixed' | 'regressed'; heading: string; items: (Pick<ChangedOccurrence, 'control' | 'rule' | 'selector' | 'snippet' | 'severity'> & { seenIn?: { href: string; createdAt: Moment } })[]; more: number }[];
}

function changesView(changes: AuditChanges): ChangesView {
  const { occurrences } = changes;
  const list = (kind: 'new' | 'fixed' | 'regressed', heading: string, items: readonly (ChangedOccurrence & { seenIn?: { id: string; createdAt: Date } })[]) => ({
    kind,
    heading,
    items: items.slice(0, CHANGES_LISTED).map(({ control, rule, selector, snippet, severity, seenIn }) => ({
      control, rule, selector, snippet, severity,
      ...(seenIn ? { seenIn: { href: auditHref(seenIn.id), createdAt: moment(seenIn.createdAt) } } : {}),
    })),
    more: Math.max(0, items.length - CHANGES_LISTED),
  });
  return {
    against: changes.against && { href: auditHref(changes.against.id), createdAt: moment(changes.against.createdAt) },
    errorsOnly: !changes.severities.includes('warning'),
    counts: { new: occurrences.new.length, fixed: occurrences.fixed.length, persisting: occurrences.persisting.length, regressed: occurrences.regressed.length },
    lists: [
      list('new', 'New failures', occurrences.new),
      list('regressed', 'Back after a fix (also new)', occurrences.regressed),
      list('fixed', 'Fixed', occurrences.fixed),
    ].filter((l) => l.items.length > 0),
  };
}

const renderAudit = template<AuditPage>(import.meta.dirname, 'audit');

/** WCAG requirements are stated as number and title (`1.1.1 Non-text Content`): the number is shown once. */
function requirementOf(control: string, requirement: string | undefined): string | undefined {
  return requirement?.startsWith(`${control} `) ? requirement.slice(control.length + 1) : requirement;
}

const SOURCES: Record<NonNullable<Finding['source']>, string> = { rules: 'the rule engine', ai: 'the AI judgement step' };

function auditPage(session: SignedIn, audit: AuditSnapshot, changes: AuditChanges): AuditPage {
  const origin = new URL(audit.url).origin;
  const requirements = new Map(audit.controls.map((control) => [control.control, control.requirement]));
  return {
    title: `${PILLAR_TITLES[audit.branch]} audit of ${audit.url}`,
    session,
    audit: {
      id: audit.id,
      url: audit.url,
      finalUrl: audit.finalUrl,
      origin,
      originHref: originHref(origin),
      pillar: PILLAR_TITLES[audit.branch],
      standard: audit.standard,
      createdAt: moment(audit.createdAt),
      totals: totalsText(audit.totals),
      ai: audit.ai && (audit.ai.used ? `ran${audit.ai.model ? ` (${audit.ai.model})` : ''}: ${audit.ai.note}` : `did not run: ${audit.ai.note}`),
    },
    findings: audit.findings.map((finding) => ({
      control: finding.control,
      requirement: requirementOf(finding.control, requirements.get(finding.control)),
      status: finding.status,
      severity: finding.severity,
      evidence: finding.evidence,
      decidedBy: finding.source && SOURCES[finding.source],
      rules: finding.rules ?? [],
      actRules: finding.actRules ?? [],
      // WCAG findings list their elements; the other branches' findings name at most one.
      elements: finding.occurrences ?? (finding.location ? [finding.location] : []),
    })),
    controls: audit.controls.map((control) => ({
      control: control.control,
      framework: control.framework,
      requirement: requirementOf(control.control, control.requirement)!,
      outcome: control.outcome,
      severity: control.severity,
      evidence: control.evidence,
      element: control.location,
    })),
    changes: changesView(changes),
  };
}

const AuditParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'The audit’s id, as POST /api/v1/audit returned it.' }) });

export function auditPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/audits/:id',
    {
      onRequest: guard.viewer,
      schema: {
        ...DASHBOARD,
        summary: 'One audit',
        description:
          'Any key’s audit as stored: its URL, final URL, pillar, standard, time and totals; every finding with its severity, ' +
          'status, evidence and elements (selector and markup, shown as text); every checked control with its outcome and ' +
          'evidence. For admins and members.',
        params: AuditParams,
        response: { 200: html('The audit.'), 404: html('No audit has this id (or it is not an id).'), ...VIEWER_PAGES },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const { id } = request.params;
      const owner = UUID.test(id) ? await auditOwner(db, id) : undefined;
      const [audit, changes] = owner === undefined ? [] : await Promise.all([findAudit(db, owner, id), auditChanges(db, owner, id)]);
      if (!audit || changes?.outcome !== 'compared') return notFound(reply, session, 'Audit not found', 'No audit has this id.');
      return page(reply, 200, renderAudit(auditPage(signedIn(session), audit, changes.changes)));
    },
  );
}
