// A compact, bounded summary of the page for the AI judgement step (issue 10), read from the
// engine's indexes without parsing again: title, language, heading outline, landmarks, images
// with their text alternative and context, links with text and href, and form controls with
// their labels. Every list and string is capped, whatever the page's size.
import type { Element } from 'domhandler';
import { parentElement } from '../page/dom.ts';
import { truncate } from '../page.ts';
import type { WcagContext } from './context.ts';

export const SUMMARY_LIST_MAX = 60;
export const SUMMARY_TEXT_MAX = 160;

export interface PageSummary {
  title: string;
  lang: string | null;
  headings: Array<{ level: number; text: string; selector: string }>;
  landmarks: Array<{ role: string; name: string; selector: string }>;
  images: Array<{ alt: string; src: string; context: string; selector: string }>;
  links: Array<{ text: string; href: string; selector: string }>;
  formControls: Array<{ role: string; label: string; selector: string }>;
}

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

export function summarisePage(ctx: WcagContext): PageSummary {
  const visible = inTree(ctx);
  const selector = (el: Element) => ctx.locate(el).selector;
  const headings = ctx
    .withRole('heading')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ level: Number(el.attribs['aria-level'] ?? el.name.slice(1)) || 2, text: cap(ctx.name(el)), selector: selector(el) }));
  const landmarks = LANDMARKS.flatMap((role) => ctx.withRole(role).filter(visible).map((el) => ({ el, role })))
    .sort((a, b) => ctx.order().get(a.el)! - ctx.order().get(b.el)!)
    .slice(0, SUMMARY_LIST_MAX)
    .map(({ el, role }) => ({ role, name: cap(ctx.name(el)), selector: selector(el) }));
  const images = ctx
    .withRole('img')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ alt: cap(ctx.name(el)), src: cap(el.attribs.src ?? ''), context: imageContext(ctx, el), selector: selector(el) }));
  const links = ctx
    .withRole('link')
    .filter(visible)
    .slice(0, SUMMARY_LIST_MAX)
    .map((el) => ({ text: cap(ctx.name(el)), href: cap(el.attribs.href ?? ''), selector: selector(el) }));
  const formControls = FIELDS.flatMap((role) => ctx.withRole(role).filter(visible).map((el) => ({ el, role })))
    .sort((a, b) => ctx.order().get(a.el)! - ctx.order().get(b.el)!)
    .slice(0, SUMMARY_LIST_MAX)
    .map(({ el, role }) => ({ role, label: cap(ctx.name(el)), selector: selector(el) }));
  return { title: cap(ctx.page.title), lang: ctx.htmlElement?.attribs.lang?.trim() ?? null, headings, landmarks, images, links, formControls };
}
