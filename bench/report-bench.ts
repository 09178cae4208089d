// Part 4 of npm run bench: report generation time. The renderer alone (the sample report, embedded
// DejaVu Sans) and the whole endpoint over loopback HTTP (session guard, target parsing, the
// snapshot and ticket reads, render), each as p50/p99, next to a baseline measured in the same run:
// a pdfkit page of the same text in its built-in Helvetica (no font to embed or subset). The goal is
// a p50 of at most 40 ms for the endpoint.
import { performance } from 'node:perf_hooks';
import PDFDocument from 'pdfkit';
import { createAdminCookie } from '../test/support/admin.ts';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { saveAudit } from '../src/audit/audit-store.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/connect.ts';
import { createAddressPolicy } from '../src/net/address-policy.ts';
import { createSafeFetcher } from '../src/net/safe-fetch.ts';
import { renderReportPdf } from '../src/report/pdf.ts';
import { newAudit } from '../test/support/audits.ts';
import { SAMPLE_GENERATED_AT, SAMPLE_REPORT } from './report-sample.ts';

const RENDERS = Number(process.env.BENCH_REPORTS ?? 300);
const WARM_UP = 30;

export interface ReportBench {
  renders: number;
  firstRenderMs: number;
  baselineHelvetica: { p50: number; p99: number };
  render: { p50: number; p99: number; bytes: number };
  endpoint: { p50: number; p99: number; database: string };
  ratioRenderP50: number;
  goalP50Ms: number;
  endpointMeetsGoal: boolean;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timed(count: number, task: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await task();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** The same words on one page in a standard PDF font: what pdfkit costs without an embedded font. */
function helveticaPage(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
  });
  doc.font('Helvetica-Bold').fontSize(17).text('Audit summary for vendor questionnaires');
  doc.font('Helvetica').fontSize(9);
  for (const pillar of Object.values(SAMPLE_REPORT.pillars)) {
    doc.font('Helvetica-Bold').fontSize(13).text(pillar.branch);
    doc.font('Helvetica').fontSize(9.5).text(`Snapshot: ${pillar.createdAt.toISOString()} Audited URL: ${pillar.url}`);
    for (const ticket of pillar.openTickets) doc.text(`${ticket.requirement} ${ticket.evidence}`, { height: 24, ellipsis: true });
  }
  doc.end();
  return done;
}

export async function benchReport(openDatabase: () => Promise<DatabaseHandle>, databaseKind: string): Promise<ReportBench> {
  const coldStart = performance.now();
  await renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT);
  const firstRenderMs = performance.now() - coldStart;

  const baseline = percentiles(await timed(RENDERS, helveticaPage));
  let bytes = 0;
  const render = percentiles(await timed(RENDERS, async () => (bytes = (await renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT)).length)));

  // The endpoint: three stored audits with open tickets, read with a real admin session.
  const database = await openDatabase();
  const config = loadConfig({ LOG_LEVEL: 'warn' });
  const fetcher = createSafeFetcher({ policy: createAddressPolicy(config.allowPrivateNetworks), staticResolve: config.staticResolve });
  const app = await buildApp({ config, db: database.db, fetcher, delivery: { enabled: false } });
  const { cookie } = await createAdminCookie(database.db);
  const { id: keyId } = await createApiKey(database.db, 'bench-report');
  await saveAudit(database.db, newAudit(keyId, 'https://shop.example.com/checkout', 'wcag', { '1.4.3': 'fail', '4.1.2': 'fail', '1.1.1': 'inconclusive', '2.4.4': 'fail/warning' }));
  await saveAudit(database.db, newAudit(keyId, 'https://shop.example.com/', 'privacy', { 'privacy.consent-before-nonessential-cookies': 'fail' }));
  await saveAudit(database.db, newAudit(keyId, 'https://shop.example.com/assistant', 'ai-governance', {}));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as import('node:net').AddressInfo).port;
  const endpoint = percentiles(
    await timed(RENDERS, async () => {
      const response = await request(`http://127.0.0.1:${port}/api/v1/audit/report?domain=shop.example.com`, { headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`report answered ${response.statusCode}: ${await response.body.text()}`);
      await response.body.arrayBuffer();
    }),
  );
  await app.close();
  await fetcher.close();
  await database.close();

  const goalP50Ms = 40;
  return {
    renders: RENDERS,
    firstRenderMs,
    baselineHelvetica: baseline,
    render: { ...render, bytes },
    endpoint: { ...endpoint, database: databaseKind },
    ratioRenderP50: render.p50 / baseline.p50,
    goalP50Ms,
    endpointMeetsGoal: endpoint.p50 <= goalP50Ms,
  };
}
