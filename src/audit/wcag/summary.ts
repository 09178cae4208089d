// A compact, bounded summary of the page for the AI judgement step (ai-step/), read from the
// engine's indexes without parsing again: title, language, a text sample, heading outline,
// landmarks, images with their text alternative and context, links with text, href and context,
// and form controls with their labels. Every element is named by the selector the engine's own
// findings use (`ctx.locate`), so an AI judgement points at the element a rule result points at.
// Lists are capped here and again, with a budget, by the AI step's `buildSummary`.
//
// What is listed mirrors where the judgement rules (rules/judgement.ts) apply: elements included
// in the accessibility tree, the title only of an HTML page, the language only when it names a
// known language (an unknown one already fails html-lang-valid) on a page with text, so the AI is asked about the
// elements the engine answered cantTell for, and no others.
import type { Element } from 'domhandler';
import { parentElement } from '../page/dom.ts';
import { truncate } from '../page.ts';
import type { SummaryInput } from './ai-step/summary.ts';
import type { WcagContext } from './context.ts';
import { knownPrimaryLanguage } from './rules/lang.ts';

export const SUMMARY_LIST_MAX = 60;
export const SUMMARY_TEXT_MAX = 160;
/** Characters of page text given as the sample (the AI step keeps fewer). */
export const SUMMARY_SAMPLE_MAX = 1200;

/** The summary's records (the AI step's input shape), every selector one of `ctx.locate`. */
export type PageSummary = SummaryInput &
  Required<Pick<SummaryInput, 'title' | 'titleSelector' | 'lang' | 'langSelector' | 'textSample' | 'headings' | 'landmarks' | 'images' | 'links' | 'formControls'>>;

const LANDMARKS = ['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form', 'region'];
const FIELDS = ['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'slider', 'spinbutton', 'switch'];

const cap = (text: string) => truncate(text.replace(/\s+/g, ' ').trim(), SUMMARY_TEXT_MAX);

function inTree(ctx: WcagContext) {
  return (el: Element) => ctx.isIncluded(el) !== false;
}

/** The text around an image: its figure caption, else the text of its nearest block ancestor. */
function imageContext(ctx: WcagContext, el: Element): string {
  for (let a = parentElement(el); a !== null; a = parentElement(a)) {
    if (a.name === 'figure') {
      const caption = a.children.find((c): c is Element => c.type === 'tag' && (c as Element).name === 'figcaption');
      if (caption) return cap(ctx.name(caption) || '');
    }
    if (['p', 'li', 'td', 'section', 'article', 'a', 'button'].includes(a.name)) return cap(ctx.name(a) || '');
  }
  return '';
}

/** A link's programmatic context: the text of the block (paragraph, list item, cell …) it sits in. */
function linkContexts(ctx: WcagContext): Map<Element, string> {
  const contexts = new Map<Element, string>();
  for (const link of ctx.page.links) {
    const block = ctx.page.textBlocks[link.blockIndex];
    if (block !== undefined) contexts.set(link.element, cap(block.text));
  }
  return contexts;
}

/**
 * The summary; `located`, when given, receives every element it names by its selector (the
 * elements an AI answer may judge: the AI step's `selectorExists` and `snippetOf`).
 */
export function summarisePage(ctx: WcagContext, located?: Map<string, Element>): PageSummary {
  const visible = inTree(ctx);
  const selector = (el: Element) => {
    const at = ctx.locate(el).selector;
    located?.set(at, el);
    return at;
  };
  const headings = ctx
    .withRole('heading')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ level: Number(el.attribs['aria-level'] ?? el.name.slice(1)) || 2, text: cap(ctx.name(el)), selector: selector(el) }));
  const landmarks = LANDMARKS.flatMap((role) => ctx.withRole(role).filter(visible).map((el) => ({ el, role })))
    .sort((a, b) => ctx.position(a.el) - ctx.position(b.el))
    .slice(0, SUMMARY_LIST_MAX)
    .map(({ el, role }) => ({ role, name: cap(ctx.name(el)), selector: selector(el) }));
  const images = ctx
    .withRole('img')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ alt: cap(ctx.name(el)), src: cap(el.attribs.src ?? ''), context: imageContext(ctx, el), selector: selector(el) }));
  const contexts = linkContexts(ctx);
  const links = ctx
    .withRole('link')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ text: cap(ctx.name(el)), href: cap(el.attribs.href ?? ''), context: contexts.get(el) ?? '', selector: selector(el) }));
  const formControls = FIELDS.flatMap((role) => ctx.withRole(role).filter(visible).map((el) => ({ el, role })))
    .sort((a, b) => ctx.position(a.el) - ctx.position(b.el))
    .slice(0, SUMMARY_LIST_MAX)
    .map(({ el, role }) => ({ role, label: cap(ctx.name(el)), selector: selector(el) }));
  const titleElement = ctx.html ? (ctx.tagged('title')[0] ?? null) : null;
  const root = ctx.html ? ctx.htmlElement : null;
  const lang = root?.attribs.lang?.trim() ?? '';
  return {
    title: titleElement === null ? '' : cap(ctx.page.title),
    titleSelector: titleElement === null ? 'title' : selector(titleElement),
    lang: root && lang !== '' && knownPrimaryLanguage(lang) && ctx.page.text.trim() !== '' ? lang : null,
    langSelector: root ? selector(root) : 'html',
    textSample: truncate(ctx.page.text.replace(/\s+/g, ' ').trim(), SUMMARY_SAMPLE_MAX),
    headings,
    landmarks,
    images,
    links,
    formControls,
  };
}
