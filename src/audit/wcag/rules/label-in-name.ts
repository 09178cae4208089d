// ACT 2ee8b8: a widget named from content but relabelled with aria-label or aria-labelledby
// keeps its visible text inside its accessible name, so speech users can say what they see.
// Text expressing non-text content (a lone symbol like "X", emoji, an icon font's ligature
// name) is exempt; icon ligatures cannot be recognised without the font, so an unmatched word
// inside an icon-font element is cantTell.
import type { Element } from 'domhandler';
import { isTag, isText, type AnyNode } from 'domhandler';
import { roleDefinition } from '../aria.ts';
import type { Tri, WcagContext } from '../context.ts';
import { CSS_TOO_LARGE, UNKNOWN } from '../styles.ts';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

/** Elements laid out inline by default; any other element starts a new line, which separates words. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'img', 'svg', 'label']);

function startsLine(ctx: WcagContext, el: Element): boolean {
  if (el.name === 'br') return true;
  const display = ctx.styles.cascaded(el, 'display');
  if (display !== undefined && display !== UNKNOWN) return !display.value.startsWith('inline');
  return !INLINE.has(el.name);
}

function normal(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim().toLowerCase();
}

/** Visible text nodes under `el`, and whether any node's visibility was undecidable. */
function visibleTextNodes(ctx: WcagContext, el: Element): { nodes: Array<{ text: string; parent: Element }>; unsure: boolean } {
  const nodes: Array<{ text: string; parent: Element }> = [];
  let unsure = false;
  const stack: Array<{ node: AnyNode; parent: Element }> = [...el.children].reverse().map((node) => ({ node, parent: el }));
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (isText(node)) {
      if (node.data.trim() === '') {
        // Whitespace still separates words; it is not text content of its own.
        if (nodes.length > 0) nodes.push({ text: ' ', parent });
        continue;
      }
      const visible: Tri = ctx.isVisible(parent);
      if (visible === true) nodes.push({ text: node.data, parent });
      else if (visible === undefined) unsure = true;
    } else if (isTag(node)) {
      if (startsLine(ctx, node)) nodes.push({ text: ' ', parent });
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, parent: node });
    }
  }
  const text = nodes.filter((n) => n.text.trim() !== '');
  return { nodes: text.length === 0 ? [] : nodes, unsure };
}

/** Words (letters and digits) in order; punctuation and symbols express no label words. */
function words(text: string): string[] {
  return normal(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return true;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** The visible words match a run of the name's words, where a word written with a full stop ("Ave.") may stand for a longer one. */
function abbreviates(name: readonly string[], text: string): boolean {
  const tokens = normal(text).split(/[^\p{L}\p{N}.]+/u).filter((w) => w !== '' && w !== '.');
  if (!tokens.some((t) => t.endsWith('.'))) return false;
  outer: for (let i = 0; i + tokens.length <= name.length; i++) {
    for (let j = 0; j < tokens.length; j++) {
      const token = tokens[j]!;
      const word = name[i + j]!;
      if (token.endsWith('.') ? !word.startsWith(token.slice(0, -1)) : word !== token) continue outer;
    }
    return true;
  }
  return false;
}

/** A lone "x" (a close symbol) or text without letters and digits stands for non-text content. */
function symbolic(text: string): boolean {
  const t = normal(text);
  return t === 'x' || t === '×' || !/[\p{L}\p{N}]/u.test(t);
}

function iconFont(ctx: WcagContext, el: Element): boolean {
  if (/\b(?:material-icons|material-symbols|fa|fas|far|glyphicon|icon)\b/.test(el.attribs.class ?? '')) return true;
  const family = ctx.styles.computed(el, 'font-family');
  return typeof family === 'string' && /icon|symbol|awesome/.test(family);
}

function widgetNamedFromContent(role: string | null): boolean {
  if (role === null) return false;
  const def = roleDefinition(role);
  if (def === undefined || def.nameFrom?.includes('contents') !== true) return false;
  return def.superClass.some((chain) => chain.includes('widget'));
}

export const labelInName: WcagRule = {
  id: 'label-in-name',
  actRules: ['2ee8b8'],
  criteria: ['2.5.3'],
  applicability: 'A widget that takes its name from content, has visible text, and has aria-label or aria-labelledby.',
  expectation: 'Its visible text (whitespace and case aside, symbols exempt) is contained in its accessible name.',
  *evaluate(ctx) {
    for (const el of ctx.ariaElements) {
      if (el.attribs['aria-label'] === undefined && el.attribs['aria-labelledby'] === undefined) continue;
      if (!widgetNamedFromContent(ctx.role(el))) continue;
      const { nodes, unsure } = visibleTextNodes(ctx, el);
      if (nodes.length === 0) {
        if (unsure) yield cantTell(el, ctx.undecidedCss('whether the widget shows text depends on CSS the page does not decide'));
        continue;
      }
      const name = words(ctx.name(el));
      // Text in parentheses is a hint beside the label (a date format), not the label itself.
      const text = nodes.map((n) => n.text).join('').replace(/\([^()]*\)/g, ' ');
      if (symbolic(text) || containsRun(name, words(text))) {
        yield passed(el);
        continue;
      }
      if (nodes.some((n) => n.text.trim() !== '' && iconFont(ctx, n.parent))) {
        yield cantTell(el, 'the visible text may be an icon font ligature');
        continue;
      }
      // Past the cascade's budget, an icon font may be set where the cascade did not finish.
      if (ctx.styles.exhausted && nodes.some((n) => ctx.styles.computed(n.parent, 'font-family') === UNKNOWN)) {
        yield cantTell(el, CSS_TOO_LARGE);
        continue;
      }
      // Hyphenation and abbreviation variants ("nonstandard", "Ave.") may be read as the same label.
      const rawName = ctx.name(el);
      if (containsRun(words(rawName.replace(/[-\u2010]/g, '')), words(text.replace(/[-\u2010]/g, ''))) || abbreviates(words(rawName), text)) {
        yield cantTell(el, 'the visible text differs from the name only by hyphenation or abbreviation');
        continue;
      }
      yield failed(el, `visible text "${normal(text).slice(0, 60)}" is not in the accessible name "${name.join(' ').slice(0, 60)}"`);
    }
  },
};
