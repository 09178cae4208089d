// npm run report:sample [out.pdf]: writes the report for made-up but realistic audit data, with no
// server and no database, so the layout can be looked at (CI renders it to PNG with pdftoppm).
import { writeFileSync } from 'node:fs';
import { renderReportPdf } from '../src/report/pdf.ts';
import type { PillarSnapshot, ReportData } from '../src/report/snapshots.ts';

const at = (iso: string) => new Date(iso);
const origin = 'https://shop.example.com';

function snapshot(part: Omit<PillarSnapshot, 'openTicketCount'> & { openTicketCount?: number }): PillarSnapshot {
  return { ...part, openTicketCount: part.openTicketCount ?? part.openTickets.length };
}

export const SAMPLE_REPORT: ReportData = {
  origin,
  host: 'shop.example.com',
  pillars: {
    wcag: snapshot({
      branch: 'wcag',
      auditId: '6f1d2c1e-0b7a-4d3e-9a51-1c2d3e4f5a6b',
      url: `${origin}/checkout?step=payment`,
      createdAt: at('2026-03-02T09:14:27.512Z'),
      standard: 'WCAG22AA',
      includeWarnings: true,
      totals: { errors: 3, warnings: 4, inconclusive: 2 },
      openTicketCount: 5,
      openTickets: [
        {
          origin, branch: 'wcag', control: '1.4.3', requirement: '1.4.3 Contrast (Minimum)', severity: 'error',
          evidence: '7 elements fail: text contrast 2.8:1 is below 4.5:1, e.g. <p class="hint" style="color:#999">Card number</p>',
          openedAt: at('2026-02-20T08:00:03Z'), lastFailedAt: at('2026-03-02T09:14:27Z'), failCount: 4,
        },
        {
          origin, branch: 'wcag', control: '4.1.2', requirement: '4.1.2 Name, Role, Value', severity: 'error',
          evidence: '2 elements fail: button has no accessible name, e.g. <button class="icon-close"><svg aria-hidden="true">…</svg></button>',
          openedAt: at('2026-03-02T09:14:27Z'), lastFailedAt: at('2026-03-02T09:14:27Z'), failCount: 1,
        },
      ],
    }),
    privacy: snapshot({
      branch: 'privacy',
      auditId: '0a9b8c7d-6e5f-4a3b-8c1d-2e3f4a5b6c7d',
      url: `${origin}/`,
      createdAt: at('2026-03-01T17:40:02.004Z'),
      standard: undefined,
      includeWarnings: true,
      totals: { errors: 1, warnings: 1, inconclusive: 1 },
      openTickets: [
        {
          origin, branch: 'privacy', control: 'privacy.consent-before-nonessential-cookies',
          requirement: 'Consent must be visible before confirmed marketing or analytics evidence.', severity: 'error',
          evidence: 'Analytics evidence before any consent: the initial response sets _ga and loads googletagmanager.com/gtag/js',
          openedAt: at('2026-02-11T12:30:00Z'), lastFailedAt: at('2026-03-01T17:40:02Z'), failCount: 6,
        },
      ],
    }),
    'ai-governance': snapshot({
      branch: 'ai-governance',
      auditId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      url: `${origin}/assistant`,
      createdAt: at('2026-03-02T08:01:55.730Z'),
      standard: undefined,
      includeWarnings: true,
      totals: { errors: 0, warnings: 0, inconclusive: 0 },
      openTickets: [],
    }),
  },
};

export const SAMPLE_GENERATED_AT = at('2026-03-02T10:00:00Z');

if (import.meta.main) {
  const out = process.argv[2] ?? 'report-sample.pdf';
  writeFileSync(out, await renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT));
  console.log(`wrote ${out}`);
}
