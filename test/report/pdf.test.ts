// The one-page PDF, read back with pdf.js (unpdf) as a viewer would: what it says (spec section 4,
// rules 4-6 and the layout rules), that it stays one A4 page whatever the data (a table of hostile
// inputs: very long URLs, evidence, requirements and origins, every pillar full, non-Latin text),
// and that the same data give the same bytes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAMPLE_GENERATED_AT, SAMPLE_REPORT } from '../../bench/report-sample.ts';
import type { Branch } from '../../src/audit/control.ts';
import { NO_OPEN_FAILED_CONTROLS, printable, renderReportPdf, SIGNAL_NOT_CERTIFICATION, standardLabel } from '../../src/report/pdf.ts';
import type { PillarSnapshot, ReportData } from '../../src/report/snapshots.ts';
import type { OpenTicket } from '../../src/report/tickets.ts';
import { readPdf } from '../support/pdf.ts';

/** The sample with changes to some pillars. */
function withPillars(changes: Partial<Record<Branch, Partial<PillarSnapshot>>>, report: ReportData = SAMPLE_REPORT): ReportData {
  const pillars = { ...report.pillars };
  for (const [branch, change] of Object.entries(changes) as Array<[Branch, Partial<PillarSnapshot>]>) {
    pillars[branch] = { ...pillars[branch], ...change };
  }
  return { ...report, pillars };
}

function ticket(branch: Branch, change: Partial<OpenTicket> = {}): OpenTicket {
  return {
    origin: SAMPLE_REPORT.origin,
    branch,
    control: 'x.control',
    requirement: 'A requirement',
    severity: 'error',
    evidence: 'Some evidence',
    openedAt: new Date('2026-01-01T00:00:00Z'),
    lastFailedAt: new Date('2026-03-01T00:00:00Z'),
    failCount: 3,
    ...change,
  };
}

/** Every pillar failing, two tickets each, errors-only audits: the tallest layout there is. */
function everyPillarFull(text: { url?: string; evidence?: string; requirement?: string; control?: string }): ReportData {
  const full = (branch: Branch): Partial<PillarSnapshot> => ({
    url: text.url ?? SAMPLE_REPORT.pillars[branch].url,
    includeWarnings: false,
    totals: { errors: 99999, warnings: 99999, inconclusive: 99999 },
    openTicketCount: 1000,
    openTickets: [0, 1].map((i) =>
      ticket(branch, {
        control: text.control ?? `c${i}`,
        requirement: text.requirement ?? 'A requirement',
        evidence: text.evidence ?? 'Some evidence',
        failCount: 123456,
        severity: i === 0 ? 'error' : 'warning',
      }),
    ),
  });
  return withPillars({ wcag: full('wcag'), privacy: full('privacy'), 'ai-governance': full('ai-governance') });
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('what the report says', () => {
  test('the sample: origin, snapshot dates, standard, the disclaimer, pass/fail, totals, tickets', async () => {
    const { pages, text, info } = await readPdf(await renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT));
    assert.equal(pages, 1);
    const lines = text.split('\n');
    for (const expected of [
      'https://shop.example.com',
      'Generated 2026-03-02 10:00 UTC from the newest persisted audit of each pillar.',
      'Snapshot: 2026-03-02 09:14:27 UTC · Standard: WCAG 2.2 Level AA',
      'Snapshot: 2026-03-01 17:40:02 UTC',
      'Snapshot: 2026-03-02 08:01:55 UTC',
      'Audited URL: https://shop.example.com/checkout?step=payment',
      'Open failed controls (2 of 5)',
      'Error · 1.4.3 Contrast (Minimum)',
      'Error · 4.1.2 Name, Role, Value',
    ]) {
      assert.ok(lines.includes(expected), `line ${JSON.stringify(expected)} in:\n${text}`);
    }
    assert.ok(text.replaceAll('\n', ' ').includes(SIGNAL_NOT_CERTIFICATION), 'pass is a visible signal, not certification');
    // Pillar order, each with its verdict; no control-level passes.
    const verdicts = [...text.matchAll(/^(Accessibility \(WCAG\)|Privacy|AI governance) ?(Pass: 1|Fail: 1)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(verdicts, ['Accessibility (WCAG) Fail: 1', 'Privacy Fail: 1', 'AI governance Pass: 1']);
    assert.equal(text.match(/Pass: /g)?.length, 3 - 2 + 1, 'one Pass: 1 plus the disclaimer’s mention');
    // Errors, warnings and inconclusive counts apart, per pillar.
    const totals = [...text.matchAll(/^Errors: (\d+) ?Warnings: (\d+) ?Inconclusive \(for review\): (\d+)$/gm)].map((m) => m.slice(1).join('/'));
    assert.deepEqual(totals, ['3/4/2', '1/1/1', '0/0/0']);
    assert.ok(lines.includes(NO_OPEN_FAILED_CONTROLS));
    assert.equal(text.split(NO_OPEN_FAILED_CONTROLS).length - 1, 1, 'only the pillar without tickets says so');
    assert.match(text, /Failing since 2026-02-20 08:00 UTC: failed in 4 consecutive audits, last on 2026-03-02 09:14 UTC/);
    assert.equal(info.Title, 'Audit summary for https://shop.example.com');
  });

  test('a pillar passes only when its findings list is empty; warnings or inconclusive alone fail it', async () => {
    const rows: Array<[PillarSnapshot['totals'], string]> = [
      [{ errors: 0, warnings: 0, inconclusive: 0 }, 'Pass: 1'],
      [{ errors: 0, warnings: 1, inconclusive: 1 }, 'Fail: 1'],
      [{ errors: 0, warnings: 1, inconclusive: 0 }, 'Fail: 1'],
      [{ errors: 1, warnings: 0, inconclusive: 0 }, 'Fail: 1'],
    ];
    for (const [totals, verdict] of rows) {
      const { text } = await readPdf(await renderReportPdf(withPillars({ privacy: { totals, openTickets: [], openTicketCount: 0 } }), SAMPLE_GENERATED_AT));
      assert.match(text, new RegExp(`^Privacy ?${verdict}$`, 'm'), JSON.stringify(totals));
    }
  });

  test('an errors-only snapshot says its warnings are not counted', async () => {
    const { text } = await readPdf(await renderReportPdf(withPillars({ privacy: { includeWarnings: false } }), SAMPLE_GENERATED_AT));
    assert.equal(text.split('This audit was asked for errors only: its warnings are not counted.').length - 1, 1);
  });

  test('a warning ticket is labelled as one; a requirement that does not start with the control id shows both', async () => {
    const report = withPillars({ privacy: { openTickets: [ticket('privacy', { severity: 'warning', control: 'privacy.x', requirement: 'Link a policy' })], openTicketCount: 1 } });
    const { text } = await readPdf(await renderReportPdf(report, SAMPLE_GENERATED_AT));
    assert.match(text, /^Warning · privacy\.x · Link a policy$/m);
  });

  test('the same data and date give the same bytes', async () => {
    const [first, second] = await Promise.all([renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT), renderReportPdf(SAMPLE_REPORT, SAMPLE_GENERATED_AT)]);
    assert.ok(first.equals(second));
    assert.equal(first.subarray(0, 5).toString(), '%PDF-');
  });
});

describe('always one page', () => {
  const longHost = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.test`;
  const CASES: Array<{ name: string; report: ReportData; contains?: string[]; lacks?: string[] }> = [
    { name: 'every pillar at its tallest', report: everyPillarFull({}) },
    { name: 'a 20,000-character URL with no space', report: everyPillarFull({ url: `https://shop.example.com/${'p'.repeat(20000)}?q=${'v'.repeat(100)}` }) },
    { name: '20,000 characters of evidence with no space', report: everyPillarFull({ evidence: 'e'.repeat(20000) }) },
    { name: 'evidence of 3,000 words', report: everyPillarFull({ evidence: words(3000) }), contains: ['word0 word1'], lacks: ['word2999'] },
    { name: 'a requirement of 500 words', report: everyPillarFull({ requirement: words(500) }) },
    { name: 'a control id of 5,000 characters', report: everyPillarFull({ control: 'c'.repeat(5000) }) },
    { name: 'a 253-character origin', report: { ...everyPillarFull({}), origin: `https://${longHost}`, host: longHost } },
    {
      name: 'line breaks, tabs and control characters',
      report: everyPillarFull({ evidence: `line one\nline two\r\n\tindented\u0000nul\u000bvt\u2028ls ${'\n'.repeat(500)}end` }),
      contains: ['line one line two indented nul vt ls end'],
    },
    {
      name: 'Cyrillic, Greek, Hebrew and Arabic (covered by the font)',
      report: everyPillarFull({ evidence: 'Кнопка без имени · Κουμπί χωρίς όνομα · כפתור ללא שם · زر بدون اسم' }),
      contains: ['Кнопка без имени', 'Κουμπί χωρίς όνομα'],
      lacks: ['\uFFFD'],
    },
    {
      name: 'CJK and emoji (not covered: one replacement character per run)',
      report: everyPillarFull({ evidence: `按钮没有名称 and ボタン and 버튼 ${'漢'.repeat(5000)} 👩‍👩‍👧 ✔️ end` }),
      contains: ['\uFFFD and \uFFFD and \uFFFD \uFFFD'],
      lacks: ['按', 'ボ', '버', '漢'],
    },
    { name: 'emoji only, 10,000 of them', report: everyPillarFull({ evidence: '😀'.repeat(10000), url: `https://x.test/${'😀'.repeat(3000)}` }) },
    { name: 'combining marks piled on one letter', report: everyPillarFull({ evidence: `a${'\u0301'.repeat(3000)} z` }) },
    { name: 'right-to-left override', report: everyPillarFull({ evidence: '\u202eevil.exe\u202c and on' }) },
  ];
  for (const { name, report, contains = [], lacks = [] } of CASES) {
    test(name, async () => {
      const pdf = await renderReportPdf(report, SAMPLE_GENERATED_AT);
      const { pages, text } = await readPdf(pdf);
      assert.equal(pages, 1);
      // The disclaimer and the footer are still there: nothing pushed them off the page.
      assert.ok(text.replaceAll('\n', ' ').includes(SIGNAL_NOT_CERTIFICATION));
      assert.match(text, /controls the newest audit fails\.\s*$/);
      assert.equal(text.match(/^(Accessibility \(WCAG\)|Privacy|AI governance) ?(Pass|Fail): 1$/gm)?.length, 3);
      const flat = text.replaceAll('\n', ' ');
      for (const part of contains) assert.ok(flat.includes(part), `${JSON.stringify(part)} in:\n${text}`);
      for (const part of lacks) assert.ok(!text.includes(part), `${JSON.stringify(part)} absent`);
    });
  }
});

describe('helpers', () => {
  test('printable', () => {
    const rows: Array<[string, string]> = [
      ['plain', 'plain'],
      ['  a \n\t b  ', 'a b'],
      ['a\u0000b', 'a b'],
      ['Ünïcödé ÆØÅ ß', 'Ünïcödé ÆØÅ ß'],
      ['中文字', '\uFFFD'],
      ['a中b文c', 'a\uFFFDb\uFFFDc'],
      ['👍🏽', '\uFFFD'],
      ['👩‍💻 ok', '\uFFFD ok'],
      ['✔️', '✔'],
    ];
    for (const [input, expected] of rows) assert.equal(printable(input), expected, JSON.stringify(input));
  });

  test('standardLabel', () => {
    const rows: Array<[string | undefined, string]> = [
      ['WCAG21A', 'WCAG 2.1 Level A'],
      ['WCAG21AA', 'WCAG 2.1 Level AA'],
      ['WCAG22AA', 'WCAG 2.2 Level AA'],
      [undefined, 'not recorded'],
      ['WCAG2AA', 'not recorded'],
    ];
    for (const [input, expected] of rows) assert.equal(standardLabel(input), expected);
  });
});
