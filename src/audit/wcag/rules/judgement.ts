// Judgement criteria (issue 10's AI questions): whether alt text is meaningful (1.1.1), the title
// describes the page (2.4.2), a link's purpose is clear in context (2.4.4), headings and labels
// describe their topic (2.4.6), and the declared language is the content's (3.1.1). Static
// markup can say where each question applies, not its answer: each target is cantTell, marked
// `judgement`, for the AI step to settle when one is configured.
import type { Element } from 'domhandler';
import { knownPrimaryLanguage } from './lang.ts';
import { cantTell, type WcagRule } from './rule.ts';

function* named(ctx: import('../context.ts').WcagContext, elements: Iterable<Element>, note: string) {
  for (const el of elements) if (ctx.isIncluded(el) !== false && ctx.name(el) !== '') yield cantTell(el, note);
}

export const imageAltMeaningful: WcagRule = {
  id: 'image-alt-meaningful',
  actRules: ['qt1vmo'],
  criteria: ['1.1.1'],
  judgement: true,
  applicability: 'An image in the accessibility tree with a non-empty accessible name.',
  expectation: 'The name describes the image’s purpose (a judgement).',
  evaluate: (ctx) => named(ctx, [...ctx.withRole('img')], 'whether the text alternative describes the image needs judgement'),
};

export const pageTitleDescriptive: WcagRule = {
  id: 'page-title-descriptive',
  actRules: ['c4a8a4'],
  criteria: ['2.4.2'],
  judgement: true,
  applicability: 'The non-empty title of an HTML page.',
  expectation: 'The title describes the page’s topic or purpose (a judgement).',
  *evaluate(ctx) {
    const title = ctx.tagged('title')[0];
    if (ctx.html && title !== undefined && ctx.pageTitle !== '') yield cantTell(title, 'whether the title describes the page needs judgement');
  },
};

export const linkPurpose: WcagRule = {
  id: 'link-purpose',
  actRules: ['5effbb'],
  criteria: ['2.4.4'],
  judgement: true,
  applicability: 'A link in the accessibility tree with a non-empty accessible name.',
  expectation: 'Its name, with its programmatic context, tells its purpose (a judgement).',
  evaluate: (ctx) => named(ctx, ctx.withRole('link'), 'whether the link’s purpose is clear in context needs judgement'),
};

export const headingDescriptive: WcagRule = {
  id: 'heading-descriptive',
  actRules: ['b49b2e'],
  criteria: ['2.4.6'],
  judgement: true,
  applicability: 'A heading in the accessibility tree with a non-empty accessible name.',
  expectation: 'It describes the topic of its section (a judgement).',
  evaluate: (ctx) => named(ctx, ctx.withRole('heading'), 'whether the heading describes its section needs judgement'),
};

const FIELD_ROLES = ['checkbox', 'combobox', 'listbox', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'textbox'];

export const labelDescriptive: WcagRule = {
  id: 'label-descriptive',
  actRules: ['cc0f0a'],
  criteria: ['2.4.6'],
  judgement: true,
  applicability: 'A form field in the accessibility tree with a non-empty accessible name.',
  expectation: 'Its label describes the purpose of the field (a judgement).',
  evaluate: (ctx) => named(ctx, FIELD_ROLES.flatMap((role) => ctx.withRole(role)), 'whether the field’s label describes its purpose needs judgement'),
};

export const pageLanguageMatches: WcagRule = {
  id: 'html-lang-matches-content',
  actRules: ['ucwvc8'],
  criteria: ['3.1.1'],
  judgement: true,
  applicability: 'The `<html>` element of a page whose lang names a known language.',
  expectation: 'The language named is the page’s main language (a judgement).',
  *evaluate(ctx) {
    const root = ctx.htmlElement;
    const lang = root?.attribs.lang;
    if (ctx.html && root && lang !== undefined && knownPrimaryLanguage(lang) && ctx.hasVisibleText) {
      yield cantTell(root, 'whether the declared language is the content’s language needs judgement');
    }
  },
};
