// The judgement questions the AI step may ask, in the manner of Alfa's oracle: each is typed, tied
// to one success criterion, and names what on the page it is about. Static markup says where a
// question applies; only a reader (or a model) can answer it. A question is asked only when the
// page has something it applies to and its criterion belongs to the requested standard, which the
// caller passes in (the standards are defined once, in the criteria table, not here).
//
// The ids are those of the engine's judgement rules (rules/judgement.ts on the WCAG branch), so an
// AI answer can be traced to the rule whose cantTell it settles.
import type { PageSummary } from './summary.ts';

interface QuestionDefinition {
  readonly id: string;
  readonly criterion: string;
  /** The part of the summary the question is about, as named in the prompt. */
  readonly about: 'images' | 'title' | 'links' | 'headings' | 'formControls' | 'lang';
  /** The question as the model reads it, with what makes a fail and what makes a cantTell. */
  readonly text: string;
  /** Selectors of the elements the question applies to (empty: not applicable to this page). */
  targets(summary: PageSummary): string[];
}

export const QUESTIONS = [
  {
    id: 'image-alt-meaningful',
    criterion: '1.1.1',
    about: 'images',
    text:
      'For each image with a non-empty alt: does the alt text serve the purpose of the image in its context (src file name and surrounding text)? ' +
      'fail: a file name, a placeholder ("image", "photo", "graphic", "spacer"), or text unrelated to the context. ' +
      'cantTell: what the image shows or does cannot be inferred from alt, src and context.',
    targets: (s: PageSummary) => s.images.filter((i) => i.alt !== '').map((i) => i.selector),
  },
  {
    id: 'page-title-descriptive',
    criterion: '2.4.2',
    about: 'title',
    text:
      'Does the page title describe the topic or purpose of the page, judged against its headings and text? ' +
      'fail: generic ("Untitled", "Document", "Page", "New tab"), a file name, or about something else than the page. ' +
      'cantTell: the page shows too little to tell its topic.',
    targets: (s: PageSummary) => (s.title === null ? [] : [s.title.selector]),
  },
  {
    id: 'link-purpose',
    criterion: '2.4.4',
    about: 'links',
    text:
      'For each link with text: is its purpose clear from its text together with its context? ' +
      'fail: ambiguous text ("click here", "more", "read more", "link") whose context does not say where it leads. ' +
      'cantTell: neither text, context nor href settles it.',
    targets: (s: PageSummary) => s.links.filter((l) => l.text !== '').map((l) => l.selector),
  },
  {
    id: 'heading-descriptive',
    criterion: '2.4.6',
    about: 'headings',
    text:
      'For each heading: does it describe the topic or purpose of its section, read within the outline? ' +
      'fail: a placeholder or meaningless text ("Heading", "Title", "Section 1", "Lorem ipsum", "..."). ' +
      'cantTell: the outline gives too little to judge.',
    targets: (s: PageSummary) => s.headings.filter((h) => h.text !== '').map((h) => h.selector),
  },
  {
    id: 'label-descriptive',
    criterion: '2.4.6',
    about: 'formControls',
    text:
      'For each form control with a label: does the label describe the purpose of the control? ' +
      'fail: a placeholder or meaningless label ("Field 1", "Input", "Text", "Select"). ' +
      'cantTell: the purpose depends on something the summary does not show.',
    targets: (s: PageSummary) => s.formControls.filter((f) => f.label !== '').map((f) => f.selector),
  },
  {
    id: 'html-lang-matches-content',
    criterion: '3.1.1',
    about: 'lang',
    text:
      'Is the declared language (lang) the main language of the content (title, headings, text sample)? ' +
      'fail: the content is clearly in another language. cantTell: too little text, or several languages in equal measure.',
    targets: (s: PageSummary) => (s.lang !== null && (s.textSample !== '' || s.headings.length > 0) ? [s.lang.selector] : []),
  },
] as const satisfies readonly QuestionDefinition[];

export type QuestionId = (typeof QUESTIONS)[number]['id'];
/** The criteria some question judges: 1.1.1, 2.4.2, 2.4.4, 2.4.6 and 3.1.1. */
export type JudgementCriterion = (typeof QUESTIONS)[number]['criterion'];

export const QUESTION_IDS = QUESTIONS.map((q) => q.id) as unknown as readonly [QuestionId, ...QuestionId[]];
export const JUDGEMENT_CRITERIA = [...new Set(QUESTIONS.map((q) => q.criterion))] as unknown as readonly [JudgementCriterion, ...JudgementCriterion[]];

/** A question that applies to this page under this standard, with the elements it asks about. */
export interface AskedQuestion {
  id: QuestionId;
  criterion: JudgementCriterion;
  about: QuestionDefinition['about'];
  text: string;
  /** Distinct selectors, in summary order. */
  targets: string[];
}

/**
 * The questions to ask of this page: those whose criterion is among `standardCriteria` (the
 * requested standard's criterion ids, e.g. `STANDARD_CRITERIA.WCAG21A`) and that apply to
 * something in the summary.
 */
export function questionsFor(summary: PageSummary, standardCriteria: Iterable<string>): AskedQuestion[] {
  const inStandard = new Set(standardCriteria);
  const asked: AskedQuestion[] = [];
  for (const q of QUESTIONS) {
    if (!inStandard.has(q.criterion)) continue;
    const targets = [...new Set(q.targets(summary))];
    if (targets.length === 0) continue;
    asked.push({ id: q.id, criterion: q.criterion, about: q.about, text: q.text, targets });
  }
  return asked;
}
