// How pages name and link what audits produce: the pillars in the report's order and with its
// names, the addresses of an audit's page and of an origin's history, and a remediation ticket as
// the overview and the history list it.
import { BRANCHES } from '../../audit/control.ts';
import { PILLAR_TITLES } from '../../report/pdf.ts';
import type { Totals } from '../../audit/findings.ts';
import type { TicketRecord } from '../../report/tickets.ts';
import { moment, plural, type Moment } from './render.ts';

export const PILLARS = BRANCHES.map((id) => ({ id, name: PILLAR_TITLES[id] }));

/** The dashboard address of an audit's page. */
export const auditHref = (id: string) => `/dashboard/audits/${id}`;

/** The dashboard address of an origin's history: the origin is one path segment, so encoded. */
export const originHref = (origin: string) => `/dashboard/origins/${encodeURIComponent(origin)}`;

/** An audit's totals in words: errors, warnings, and how many of those are inconclusive. */
export const totalsText = ({ errors, warnings, inconclusive }: Totals) =>
  `${plural(errors, 'error')}, ${plural(warnings, 'warning')} (${inconclusive} inconclusive)`;

export interface TicketView {
  origin: string;
  originHref: string;
  pillar: string;
  control: string;
  requirement: string;
  severity: string;
  openedAt: Moment;
  lastFailedAt: Moment;
  failCount: number;
  /** The newest audit that failed the control. */
  lastAuditHref: string;
  resolvedAt: Moment | null;
  /** The audit that no longer failed it. */
  resolvedByHref: string | null;
}

export function ticketView(ticket: TicketRecord): TicketView {
  return {
    origin: ticket.origin,
    originHref: originHref(ticket.origin),
    pillar: PILLAR_TITLES[ticket.branch] ?? ticket.branch,
    control: ticket.control,
    requirement: ticket.requirement,
    severity: ticket.severity,
    openedAt: moment(ticket.openedAt),
    lastFailedAt: moment(ticket.lastFailedAt),
    failCount: ticket.failCount,
    lastAuditHref: auditHref(ticket.lastAuditId),
    resolvedAt: ticket.resolvedAt && moment(ticket.resolvedAt),
    resolvedByHref: ticket.resolvedByAuditId && auditHref(ticket.resolvedByAuditId),
  };
}
