// The summary on stdout: one block per page and branch (counts, the failures over the threshold,
// the dashboard link), then one line with the totals and why the run exits as it does.
// Everything in it that came from the network (URLs, selectors, snippets, service error text) is
// printed through terminalText, so no byte of it can move the cursor, recolour the screen, ring
// the bell or reorder what is shown.
import type { FailedOccurrence } from '../../../src/audit/identity.ts';
import type { FailOn, PageResult, RunResult } from './model.ts';
import { terminalText } from './terminal-text.ts';

/** At most `max` code points (never half a surrogate pair), with `…` when cut. */
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Network text for the terminal: whitespace runs as one space, cut, then escaped. */
function shown(text: string | null, max: number): string {
  if (text === null) return '';
  return terminalText(truncate(text.replace(/[ \t\n\r\f]+/g, ' ').trim(), max));
}

export interface SummaryOptions {
  /** Failures listed per page and branch before "… and N more" (default 20). */
  maxListed?: number;
  /** Code points of a snippet shown (default 120); selectors get the same. */
  snippetLength?: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const THRESHOLD: Record<FailOn, string> = {
  error: 'failed errors',
  warning: 'failed errors and warnings',
  new: 'failures not in the baseline',
  none: 'nothing (--fail-on none)',
};

function pageBlock(page: PageResult, failOn: FailOn, options: Required<SummaryOptions>): string[] {
  const head = `${terminalText(page.url)} [${page.branch}]`;
  if (page.audit === undefined) {
    const why = page.notAudited;
    const status = why?.status === null || why?.status === undefined ? '' : `${why.status} `;
    return [`NOT AUDITED ${head}: ${status}${shown(why?.reason ?? 'unknown reason', 200)}`];
  }
  const { errors, warnings, inconclusive } = page.audit.totals;
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${inconclusive} inconclusive`;
  const over = page.overThreshold.length;
  const extra = page.newOccurrences === undefined || failOn === 'new' ? '' : `, ${page.newOccurrences.length} new`;
  const lines = [`${over > 0 ? 'FAIL' : 'ok  '} ${head}: ${counts}${over > 0 ? `; ${over} over the threshold` : ''}${extra}`];
  const listed = page.overThreshold.slice(0, options.maxListed);
  for (const o of listed) lines.push(occurrenceLine(o, options.snippetLength, page.audit.findings[o.finding]?.evidence));
  if (over > listed.length) lines.push(`      … and ${over - listed.length} more (all of them in --json, --junit or --sarif)`);
  if (page.dashboardUrl !== undefined) lines.push(`      ${terminalText(page.dashboardUrl)}`);
  return lines;
}

/** One failure: control, severity, rule, selector and snippet; the finding's evidence when it has no element. */
function occurrenceLine(o: FailedOccurrence, max: number, evidence: string | undefined): string {
  const parts = [`${terminalText(o.control)} ${o.severity}`];
  if (o.rule !== null) parts.push(terminalText(o.rule));
  if (o.selector !== null) parts.push(shown(o.selector, max));
  if (o.snippet !== null) parts.push(shown(o.snippet, max));
  if (o.selector === null && o.snippet === null && typeof evidence === 'string') parts.push(shown(evidence, max));
  return `    - ${parts.join('  ')}`;
}

/** Why the run exits as it does, in one phrase. */
export function exitReason(run: RunResult): string {
  const notAudited = run.pages.filter((p) => p.audit === undefined).length;
  const over = run.pages.reduce((n, p) => n + p.overThreshold.length, 0);
  switch (run.exitCode) {
    case 0:
      return run.failOn === 'none' ? 'exit 0: --fail-on none' : `exit 0: nothing over the threshold (--fail-on ${run.failOn})`;
    case 1:
      return `exit 1: ${plural(over, 'failure')} over the threshold (--fail-on ${run.failOn}: ${THRESHOLD[run.failOn]})`;
    case 3:
      return `exit 3: ${notAudited} of ${run.pages.length} page audits could not be made`;
    default:
      return `exit ${run.exitCode}`;
  }
}

/** The whole summary, lines ending in `\n`. */
export function summaryText(run: RunResult, options: SummaryOptions = {}): string {
  const opts: Required<SummaryOptions> = { maxListed: options.maxListed ?? 20, snippetLength: options.snippetLength ?? 120 };
  const lines: string[] = [];
  for (const page of run.pages) lines.push(...pageBlock(page, run.failOn, opts));
  const audited = run.pages.filter((p) => p.audit !== undefined);
  const sum = (f: (p: PageResult) => number) => audited.reduce((n, p) => n + f(p), 0);
  const notAudited = run.pages.filter((p) => p.audit === undefined);
  if (notAudited.length > 0) {
    lines.push('', `Not audited (${notAudited.length}):`);
    for (const p of notAudited) lines.push(`  ${terminalText(p.url)} [${p.branch}]`);
  }
  const totals = [
    `${audited.length} of ${plural(run.pages.length, 'page audit')} made`,
    plural(sum((p) => p.audit!.totals.errors), 'error'),
    plural(sum((p) => p.audit!.totals.warnings), 'warning'),
    `${sum((p) => p.audit!.totals.inconclusive)} inconclusive`,
  ];
  if (run.baseline !== undefined) totals.push(`${sum((p) => p.newOccurrences?.length ?? 0)} new against ${terminalText(run.baseline)}`);
  totals.push(`${sum((p) => p.overThreshold.length)} over the threshold`);
  lines.push('', `check: ${totals.join(', ')}; ${exitReason(run)}`);
  return `${lines.join('\n')}\n`;
}
