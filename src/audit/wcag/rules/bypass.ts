// ACT cf77f2 (Bypass Blocks of Repeated Content) through three of its input rules: a page that has
// a main landmark (b40fd1), a heading (047fe0) or an internal link, a skip link (ye5d6e), passes.
// Like axe's bypass rule it applies to a page with a link, and any heading, main landmark or
// internal link passes it (axe asks no more of where they are; neither does this rule, so it
// passes where the atomic ACT rules may not). A fail asks more than axe's: none of the three,
// and the page's first perceivable content is a block that repeats across pages (a link, or
// content in navigation, a banner or a complementary landmark), so the content cannot be reached
// but through it. Pages with none of the three whose first content is something else are
// cantTell: whether that content repeats on other pages needs the site. Frames (which group
// blocks, technique H70) and iframes (which may hold the navigation) leave it cantTell too.
// Collapsible blocks (3e12e1) need script to see: not credited, so at worst cantTell.
import type { Element } from 'domhandler';
import type { WcagContext } from '../context.ts';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

/** axe's internal-link-present: an in-page fragment link (not a `#/` or `#!` route). */
const INTERNAL_LINK = /^#[^/!]/;
/** Landmarks whose content repeats across the pages of a site by their definition. */
const REPEATED_ROLES = new Set(['navigation', 'banner', 'complementary']);

/** Whether any of the elements counts (included in the accessibility tree): true, false, or undefined when CSS leaves it open. */
function anyIncluded(ctx: WcagContext, elements: readonly Element[]): boolean | undefined {
  let open = false;
  for (const el of elements) {
    const included = ctx.isIncluded(el);
    if (included === true) return true;
    if (included === undefined) open = true;
  }
  return open ? undefined : false;
}

/**
 * The first element, in document order, that draws text or an image in the body; null when none.
 * Every element after `<body>` in document order is inside it: tree construction puts whatever
 * follows `</body>` back into the body.
 */
function firstContent(ctx: WcagContext, body: Element): Element | null {
  const start = ctx.position(body);
  const drawsText = new Set(ctx.textElements);
  for (let i = start + 1; i < ctx.elements.length; i++) {
    const el = ctx.elements[i]!;
    if (ctx.isRendered(el) === false || ctx.isIncluded(el) === false) continue;
    const draws = drawsText.has(el) || (el.name === 'img' && (el.attribs.alt ?? '').trim() !== '') || (el.name === 'input' && el.attribs.type !== 'hidden');
    if (draws) return el;
  }
  return null;
}

/** Why an element is repeated content (inside a link, navigation, banner or complementary landmark), or null. */
function repeatedBlock(ctx: WcagContext, el: Element): string | null {
  for (let a: Element | null = el; a !== null; a = a.parent !== null && a.parent.type === 'tag' ? (a.parent as Element) : null) {
    const role = ctx.role(a);
    if (role === 'link') return 'a link';
    if (role !== null && REPEATED_ROLES.has(role)) return `a ${role} landmark`;
  }
  return null;
}

export const bypassBlocks: WcagRule = {
  id: 'bypass-blocks',
  actRules: ['cf77f2'],
  criteria: ['2.4.1'],
  applicability: 'An HTML page with at least one link (`a[href]`), as axe’s bypass rule.',
  expectation: 'It has a main landmark, a heading or an internal (skip) link in the accessibility tree; it fails only when it has none and its first content is a link or sits in navigation, a banner or a complementary landmark.',
  *evaluate(ctx) {
    if (!ctx.html) return;
    // The body, which tree construction always builds; a frameset page has none, and no content
    // of its own to bypass to.
    const body = ctx.tagged('body')[0];
    if (body === undefined) return;
    const links = ctx.tagged('a').filter((a) => a.attribs.href !== undefined);
    if (links.length === 0) return;
    if (links.some((a) => INTERNAL_LINK.test(a.attribs.href!))) {
      yield passed(body, 'an internal link');
      return;
    }
    const landmark = anyIncluded(ctx, ctx.withRole('main'));
    const heading = anyIncluded(ctx, ctx.withRole('heading'));
    if (landmark === true || heading === true) {
      yield passed(body, landmark === true ? 'a main landmark' : 'a heading');
      return;
    }
    if (landmark === undefined || heading === undefined) {
      yield cantTell(body, ctx.undecidedCss('no skip link, and whether a heading or main landmark is in the accessibility tree depends on undecidable CSS'));
      return;
    }
    if (ctx.tagged('frame').length + ctx.tagged('frameset').length + ctx.tagged('iframe').length > 0) {
      yield cantTell(body, 'no heading, main landmark or skip link; frames may group or hold the repeated blocks');
      return;
    }
    const first = firstContent(ctx, body);
    const repeated = first === null ? null : repeatedBlock(ctx, first);
    if (repeated === null) {
      yield cantTell(body, 'no heading, main landmark or skip link; whether the content before the main content repeats on other pages needs the site');
      return;
    }
    yield failed(body, `no heading, main landmark or skip link, and the page opens with ${repeated}: its repeated content cannot be bypassed`);
  },
};
