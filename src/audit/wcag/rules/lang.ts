// Language of the page and of parts (ACT b5c3f8, bf051a, de46e4): the `<html>` element has a
// `lang`, and every `lang` names a known primary language. Known means the platform's language
// data (ICU's display names, as shipped with Node) has a name for the primary subtag.
import type { Element } from 'domhandler';
import { isText, type AnyNode } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import type { WcagContext } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Answers per primary subtag: ICU's lookup is slow, and at most 26³ + 26² subtags can be asked. */
const KNOWN = new Map<string, boolean>();

/** Whether a language tag's primary subtag is a known language (2–3 letters with a registered name, or a private `x-`/`i-` tag is not). */
export function knownPrimaryLanguage(tag: string): boolean {
  const primary = tag.trim().split('-')[0]!.toLowerCase();
  if (!/^[a-z]{2,3}$/.test(primary)) return false;
  let known = KNOWN.get(primary);
  if (known === undefined) KNOWN.set(primary, (known = lookUp(primary)));
  return known;
}

function lookUp(primary: string): boolean {
  try {
    // A three-letter code with a two-letter equivalent ("eng") is not a registered subtag.
    if (primary.length === 3 && new Intl.Locale(primary).language !== primary) return false;
    return languageNames.of(primary) !== undefined;
  } catch {
    return false;
  }
}

export const htmlHasLang: WcagRule = {
  id: 'html-has-lang',
  actRules: ['b5c3f8'],
  criteria: ['3.1.1'],
  applicability: 'The `<html>` element of an HTML page.',
  expectation: 'It has a `lang` attribute that is not empty.',
  *evaluate(ctx) {
    const root = ctx.htmlElement;
    if (!ctx.html || root === null || parentElement(root) !== null) return;
    if ((root.attribs.lang ?? '').trim() === '') yield failed(root, 'the <html> element has no lang attribute');
    else yield passed(root);
  },
};

export const htmlLangValid: WcagRule = {
  id: 'html-lang-valid',
  actRules: ['bf051a'],
  criteria: ['3.1.1'],
  applicability: 'The `<html>` element of an HTML page with a non-empty `lang`.',
  expectation: 'The `lang` has a known primary language subtag.',
  *evaluate(ctx) {
    const root = ctx.htmlElement;
    if (!ctx.html || root === null) return;
    const lang = root.attribs.lang;
    if (lang === undefined || lang.trim() === '') return;
    if (knownPrimaryLanguage(lang)) yield passed(root);
    else yield failed(root, `lang="${lang.trim()}" is not a known language`);
  },
};

export const elementLangValid: WcagRule = {
  id: 'element-lang-valid',
  actRules: ['de46e4'],
  criteria: ['3.1.2'],
  applicability: 'An element in the body with a non-empty `lang` from which some non-blank text takes its language.',
  expectation: 'The `lang` has a known primary language subtag.',
  *evaluate(ctx) {
    if (!ctx.html) return;
    for (const el of ctx.langElements) {
      const lang = el.attribs.lang;
      if (lang === undefined || lang === '' || el.name === 'html' || !inBody(el)) continue;
      if (!hasInheritingText(ctx, el)) continue;
      if (knownPrimaryLanguage(lang)) yield passed(el);
      else yield failed(el, `lang="${lang.trim()}" is not a known language`);
    }
  },
};

function inBody(el: Element): boolean {
  for (let a: Element | null = el; a !== null; a = parentElement(a)) if (a.name === 'body') return true;
  return false;
}

/** Text (visible or in the accessibility tree) that inherits its language from `el`: not under a nested `lang`. */
function hasInheritingText(ctx: WcagContext, el: Element): boolean {
  const stack: AnyNode[] = [...el.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) {
      if (node.data.trim() === '') continue;
      const parent = parentElement(node as unknown as Element) ?? el;
      if (ctx.isVisible(parent) !== false || ctx.isIncluded(parent) !== false) return true;
    } else if (node.type === 'tag') {
      const child = node as Element;
      if (child.attribs.lang !== undefined && child.attribs.lang.trim() !== '') continue;
      if (['script', 'style', 'template', 'noscript'].includes(child.name)) continue;
      // Text alternatives inherit the language too.
      const alt = child.attribs.alt ?? child.attribs['aria-label'] ?? child.attribs.title;
      if (alt !== undefined && alt.trim() !== '' && ctx.isIncluded(child) !== false) return true;
      for (const c of child.children) stack.push(c);
    }
  }
  return false;
}
