// Shared inputs of the AI-step tests: a small page's records, the criteria of the three standards
// (from the criteria table, as the WCAG branch passes them), a capturing pino logger and a
// conformant answer builder.
import { Writable } from 'node:stream';
import pino from 'pino';
import { STANDARD_CRITERIA, WCAG_STANDARDS, type WcagStandard } from '../../../../src/audit/wcag/criteria.ts';
import type { SummaryInput } from '../../../../src/audit/wcag/ai-step/summary.ts';

export const CRITERIA = Object.fromEntries(WCAG_STANDARDS.map((standard) => [standard, [...STANDARD_CRITERIA[standard]]])) as Record<WcagStandard, string[]>;

export const PAGE: SummaryInput = {
  title: 'Opening hours – City Library',
  lang: 'en',
  textSample: 'The library is open from Monday to Saturday. Read more about our services and events.',
  headings: [
    { level: 1, text: 'Opening hours', selector: 'h1' },
    { level: 2, text: 'Heading', selector: 'main > h2:nth-of-type(1)' },
  ],
  landmarks: [{ role: 'main', name: '', selector: 'main' }],
  images: [
    { alt: 'IMG_0042.jpg', src: '/img/IMG_0042.jpg', context: 'Our reading room', selector: 'main > img:nth-of-type(1)' },
    { alt: '', src: '/img/divider.png', context: '', selector: 'main > img:nth-of-type(2)' },
  ],
  links: [
    { text: 'Read more', href: '/services', context: 'Read more', selector: 'main > p > a:nth-of-type(1)' },
    { text: 'Events calendar', href: '/events', context: 'See the events calendar', selector: 'main > p > a:nth-of-type(2)' },
  ],
  formControls: [{ role: 'searchbox', label: 'Search the catalogue', selector: '#q' }],
  results: [{ criterion: '1.1.1', outcome: 'inconclusive', evidence: '1 cannot be decided from static HTML' }],
};

/** Every selector of PAGE, and those of <title> and <html>. */
export const SELECTORS = new Set([
  'title',
  'html',
  ...PAGE.headings!.map((h) => h.selector),
  ...PAGE.landmarks!.map((l) => l.selector),
  ...PAGE.images!.map((i) => i.selector),
  ...PAGE.links!.map((l) => l.selector),
  ...PAGE.formControls!.map((f) => f.selector),
]);
export const selectorExists = (selector: string) => SELECTORS.has(selector);

type Outcome = 'pass' | 'fail' | 'cantTell';
export function j(question: string, control: string, selector: string, outcome: Outcome = 'pass', evidence = 'Clear in context.') {
  return { question, control, outcome, selector, evidence };
}

/** A conformant answer for PAGE under WCAG21AA: every asked element judged. */
export function conformantAnswer() {
  return {
    judgements: [
      j('image-alt-meaningful', '1.1.1', 'main > img:nth-of-type(1)', 'fail', 'The alt "IMG_0042.jpg" is a file name.'),
      j('page-title-descriptive', '2.4.2', 'title'),
      j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(1)', 'fail', '"Read more" does not say where it leads.'),
      j('link-purpose', '2.4.4', 'main > p > a:nth-of-type(2)'),
      j('heading-descriptive', '2.4.6', 'h1'),
      j('heading-descriptive', '2.4.6', 'main > h2:nth-of-type(1)', 'cantTell', 'The heading "Heading" may be a placeholder.'),
      j('label-descriptive', '2.4.6', '#q'),
      j('html-lang-matches-content', '3.1.1', 'html', 'pass', 'The text is English.'),
    ],
  };
}

/** A pino logger that keeps every line it writes, as text and parsed. */
export function capturingLogger() {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines, raw };
}
