// The one-page vendor-questionnaire summary (spec section 4, rules 4-6), laid out with pdfkit in
// DejaVu Sans embedded from the dejavu-fonts-ttf package (Bitstream Vera licence, see NOTICE).
//
// Always exactly one A4 page: pdfkit starts a new page whenever text runs past the bottom margin,
// so the page has no margins of its own and every text block is given a width and a height in
// whole lines; pdfkit wraps inside them and ends what does not fit with an ellipsis. The blocks'
// heights add up to less than the page whatever the data (the worst case is tested), and a second
// page is still refused with an error rather than sent.
//
// Text coverage: DejaVu Sans has Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and
// many symbols. A character it has no glyph for (CJK, emoji) prints as U+FFFD, one per run, so the
// page and its extracted text say that something was there rather than show empty boxes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { Branch } from '../audit/control.ts';
import type { PillarSnapshot, ReportData } from './snapshots.ts';
import type { OpenTicket } from './tickets.ts';

/** Renders the report; returns the PDF's bytes. */
export type ReportRenderer = (report: ReportData, generatedAt: Date) => Promise<Buffer>;

export const PILLAR_TITLES: Record<Branch, string> = {
  wcag: 'Accessibility (WCAG)',
  privacy: 'Privacy',
  'ai-governance': 'AI governance',
};

export const SIGNAL_NOT_CERTIFICATION =
  'A pass means a visible signal was found in the page’s static HTML. It is not legal certification or proof of compliance.';
export const NO_OPEN_FAILED_CONTROLS = 'No open failed controls';

const A4 = { width: 595.28, height: 841.89 };
const LEFT = 50;
const WIDTH = A4.width - 2 * LEFT;
const TOP = 44;
const FOOTER_TOP = A4.height - 52;

const COLOR = { text: '#1a1a1a', muted: '#4d4d4d', rule: '#b3b3b3', pass: '#1b5e20', fail: '#a01919', panel: '#f0f0f0' };

interface Fonts {
  regular: Buffer;
  bold: Buffer;
  /** The regular face, for the coverage check. */
  coverage: fontkit.Font;
}

let fonts: Fonts | undefined;

/** Read and parsed once per process: the files do not change while it runs. */
function loadFonts(): Fonts {
  if (fonts) return fonts;
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const regular = readFileSync(path.join(dir, 'DejaVuSans.ttf'));
  const bold = readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf'));
  const coverage = fontkit.create(regular) as fontkit.Font;
  fonts = { regular, bold, coverage };
  return fonts;
}

/**
 * Text as the page can show it: control characters and line breaks become spaces, whitespace runs
 * collapse, and each run of characters the font lacks becomes one U+FFFD.
 */
export function printable(text: string): string {
  const { coverage } = loadFonts();
  let out = '';
  let missing = false;
  for (const char of text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim()) {
    const codePoint = char.codePointAt(0)!;
    // Joiners and variation selectors only shape their neighbours; alone they print nothing.
    if (codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) continue;
    if (coverage.hasGlyphForCodePoint(codePoint)) {
      out += char;
      missing = false;
    } else if (!missing) {
      out += '\uFFFD';
      missing = true;
    }
  }
  return out;
}

function utc(date: Date, seconds = false): string {
  return `${date.toISOString().slice(0, seconds ? 19 : 16).replace('T', ' ')} UTC`;
}

/** `WCAG21AA` → `WCAG 2.1 Level AA`. */
export function standardLabel(standard: string | undefined): string {
  const match = /^WCAG(\d)(\d)(A{1,3})$/.exec(standard ?? '');
  return match ? `WCAG ${match[1]}.${match[2]} Level ${match[3]}` : 'not recorded';
}

type Doc = InstanceType<typeof PDFDocument>;

interface Block {
  font: 'regular' | 'bold';
  size: number;
  color?: string;
  /** The most lines the block may take; what does not fit ends with an ellipsis. */
  lines: number;
  align?: 'left' | 'right';
  x?: number;
  width?: number;
}

/** Writes a block at `y`, bounded to its lines; returns the y below what it took. */
function block(doc: Doc, text: string, y: number, style: Block): number {
  const lineHeight = style.size * 1.22;
  doc.font(style.font).fontSize(style.size).fillColor(style.color ?? COLOR.text);
  doc.text(printable(text), style.x ?? LEFT, y, {
    width: style.width ?? WIDTH,
    height: lineHeight * style.lines,
    ellipsis: '…',
    lineGap: lineHeight - doc.currentLineHeight(),
    align: style.align ?? 'left',
  });
  return Math.min(doc.y, y + lineHeight * style.lines);
}

function rule(doc: Doc, y: number): void {
  doc.moveTo(LEFT, y).lineTo(LEFT + WIDTH, y).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
}

function ticketLines(doc: Doc, ticket: OpenTicket, y: number): number {
  const severity = ticket.severity === 'error' ? 'Error' : 'Warning';
  const requirement = ticket.requirement.startsWith(ticket.control) ? ticket.requirement : `${ticket.control} · ${ticket.requirement}`;
  y = block(doc, `${severity} · ${requirement}`, y, { font: 'bold', size: 9.5, lines: 1, color: ticket.severity === 'error' ? COLOR.fail : COLOR.text, x: LEFT + 10, width: WIDTH - 10 });
  y = block(doc, ticket.evidence, y + 1, { font: 'regular', size: 9, lines: 2, x: LEFT + 10, width: WIDTH - 10 });
  const audits = ticket.failCount === 1 ? '1 audit' : `${ticket.failCount} consecutive audits`;
  return block(doc, `Failing since ${utc(ticket.openedAt)}: failed in ${audits}, last on ${utc(ticket.lastFailedAt)}`, y + 1, {
    font: 'regular', size: 8, lines: 1, color: COLOR.muted, x: LEFT + 10, width: WIDTH - 10,
  });
}

function pillar(doc: Doc, snapshot: PillarSnapshot, y: number): number {
  rule(doc, y);
  y += 8;
  // Totals count every finding (each is an error or a warning): none means an empty findings list.
  const passed = snapshot.totals.errors + snapshot.totals.warnings === 0;
  const below = block(doc, PILLAR_TITLES[snapshot.branch], y, { font: 'bold', size: 13, lines: 1, width: WIDTH - 90 });
  block(doc, passed ? 'Pass: 1' : 'Fail: 1', y, { font: 'bold', size: 13, lines: 1, align: 'right', color: passed ? COLOR.pass : COLOR.fail });
  y = below;
  const standard = snapshot.branch === 'wcag' ? ` · Standard: ${standardLabel(snapshot.standard)}` : '';
  y = block(doc, `Snapshot: ${utc(snapshot.createdAt, true)}${standard}`, y + 2, { font: 'regular', size: 9.5, lines: 1 });
  y = block(doc, `Audited URL: ${snapshot.url}`, y, { font: 'regular', size: 9, lines: 1, color: COLOR.muted });
  const { errors, warnings, inconclusive } = snapshot.totals;
  // Three figures in columns: printable() collapses the spaces a single line would need.
  const figures = [`Errors: ${errors}`, `Warnings: ${warnings}`, `Inconclusive (for review): ${inconclusive}`];
  const columns = [0, 110, 230];
  y += 3;
  for (const [i, figure] of figures.entries()) block(doc, figure, y, { font: 'bold', size: 10, lines: 1, x: LEFT + columns[i]!, width: WIDTH - columns[i]! });
  y += 10 * 1.22;
  if (!snapshot.includeWarnings) {
    y = block(doc, 'This audit was asked for errors only: its warnings are not counted.', y, { font: 'regular', size: 8, lines: 1, color: COLOR.muted });
  }
  const more = snapshot.openTicketCount > snapshot.openTickets.length ? ` (${snapshot.openTickets.length} of ${snapshot.openTicketCount})` : '';
  y = block(doc, `Open failed controls${more}`, y + 4, { font: 'bold', size: 9.5, lines: 1 });
  if (snapshot.openTickets.length === 0) return block(doc, NO_OPEN_FAILED_CONTROLS, y + 1, { font: 'regular', size: 9.5, lines: 1, x: LEFT + 10, width: WIDTH - 10 });
  for (const ticket of snapshot.openTickets) y = ticketLines(doc, ticket, y + 3);
  return y;
}

/** The report as a one-page A4 PDF. Deterministic: the same data and date give the same bytes. */
export const renderReportPdf: ReportRenderer = (report, generatedAt) => {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margin: 0,
    bufferPages: true,
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `Audit summary for ${report.origin}`,
      Author: 'audit-service',
      Creator: 'audit-service',
      Producer: 'audit-service (pdfkit)',
      CreationDate: generatedAt,
      ModDate: generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);

  let y = block(doc, 'Audit summary for vendor questionnaires', TOP, { font: 'bold', size: 17, lines: 1 });
  y = block(doc, report.origin, y + 4, { font: 'bold', size: 12.5, lines: 1 });
  y = block(doc, `Generated ${utc(generatedAt)} from the newest persisted audit of each pillar.`, y + 3, { font: 'regular', size: 9, lines: 1, color: COLOR.muted });
  y += 8;
  const panelText =
    `${SIGNAL_NOT_CERTIFICATION} Only static HTML is read: what it cannot prove is an inconclusive warning for a person to review. ` +
    'A pillar shows Pass: 1 only when its audit has no findings at all.';
  doc.font('regular').fontSize(9);
  const panelHeight = Math.min(doc.heightOfString(panelText, { width: WIDTH - 20 }), 9 * 1.22 * 3) + 12;
  doc.rect(LEFT, y, WIDTH, panelHeight).fill(COLOR.panel);
  block(doc, panelText, y + 6, { font: 'regular', size: 9, lines: 3, x: LEFT + 10, width: WIDTH - 20 });
  y += panelHeight + 12;

  for (const branch of ['wcag', 'privacy', 'ai-governance'] as const) y = pillar(doc, report.pillars[branch], y) + 12;

  // Unreachable with the bounds above (the worst case is tested); never send overlapping text.
  if (y > FOOTER_TOP - 6) {
    doc.end();
    return Promise.reject(new Error(`report layout ran ${Math.ceil(y - FOOTER_TOP + 6)} pt into the footer`));
  }
  rule(doc, FOOTER_TOP - 6);
  block(
    doc,
    'Errors are failed controls of error severity. Warnings are failed controls of warning severity and inconclusive outcomes; ' +
      'the inconclusive count is part of the warnings. Open failed controls come from the remediation tickets: controls the newest audit fails.',
    FOOTER_TOP,
    { font: 'regular', size: 7.5, lines: 3, color: COLOR.muted },
  );

  const pages = doc.bufferedPageRange().count;
  doc.end();
  if (pages !== 1) return Promise.reject(new Error(`report layout took ${pages} pages`));
  return done;
};
