// Language of the page and of parts (ACT b5c3f8, bf051a, de46e4): the `<html>` element has a
// `lang`, and every `lang` has a known primary language tag. Known means ACT's definition: the
// tag's first subtag (case-insensitive) is a subtag of Type `language` in the IANA Language
// Subtag Registry, read from the `language-subtag-registry` package (its `language.json` index,
// loaded once per thread on first use). So registered subtags that have no display name in ICU
// (`son`, `bcl`, `azb`, …) are known, and ISO 639-2 codes with a two-letter subtag (`eng`) are
// not, since the registry lists only the two-letter one. Choices (README, "Language tags"):
// deprecated subtags (`iw`, `in`, `mo`) are still registered and pass; the private-use range
// `qaa..qtz` is a range, not a subtag, and fails; a grandfathered tag (the whole tag, from the
// registry's `grandfathered.json`) has no known primary language tag, as ACT's definition says,
// so `zh-min-nan` and `en-GB-oed` fail like `i-klingon`.
import { createRequire } from 'node:module';
import type { Element } from 'domhandler';
import { isText, type AnyNode } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import type { WcagContext } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

interface Registry {
  /** Every subtag of Type language, lower case. */
  languages: ReadonlySet<string>;
  /** Every grandfathered tag, lower case. */
  grandfathered: ReadonlySet<string>;
}

/** Built once per thread, on the first `lang` asked about. */
let registry: Registry | undefined;

function loadRegistry(): Registry {
  const require = createRequire(import.meta.url);
  // Each index maps a subtag (or tag), lower case, to its record's position in the registry.
  const languages = require('language-subtag-registry/data/json/language.json') as Record<string, number>;
  const grandfathered = require('language-subtag-registry/data/json/grandfathered.json') as Record<string, number>;
  return {
    languages: new Set(Object.keys(languages).filter((subtag) => /^[a-z]{2,8}$/.test(subtag))),
    grandfathered: new Set(Object.keys(grandfathered)),
  };
}

/** Whether a language tag has a known primary language tag (ACT): its first subtag is a registered language subtag, and it is not grandfathered. */
export function knownPrimaryLanguage(tag: string): boolean {
  registry ??= loadRegistry();
  const trimmed = tag.trim();
  const dash = trimmed.indexOf('-');
  const primary = (dash < 0 ? trimmed : trimmed.slice(0, dash)).toLowerCase();
  if (!registry.languages.has(primary)) return false;
  return dash < 0 || !registry.grandfathered.has(trimmed.toLowerCase());
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
