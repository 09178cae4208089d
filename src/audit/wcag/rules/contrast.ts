// ACT afw4f7: visible text has a contrast ratio of at least 4.5:1 (3:1 for large text) against
// its background. Decided only where the page states both colours: the text colour cascaded from
// inline and `<style>` CSS and presentational hints (`<font color>`, `<body text>`; black by
// default, #0000ee on links) and the background (`bgcolor` too) composited up the ancestors to
// an opaque colour (white at the root). A background image or gradient, a text shadow, partial
// opacity, positioned boxes (text may sit over something else) or a colour only a browser
// resolves make the answer cantTell.
import { isText, type Element } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import { nearest, type Memo } from '../ancestry.ts';
import type { WcagContext } from '../context.ts';
import { ATTRIBUTE } from '../element-memo.ts';
import { BLACK, WHITE, contrastRatio, over, parseColor, type Rgba } from '../colors.ts';
import { UNKNOWN } from '../styles.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

type Answer = Rgba | string;

const LINKED = 'colours may come from linked style sheets, which are not fetched';

/** Memos of one page's evaluation: each fact is decided once per element, not once per text below it. */
interface Memos {
  backdrops: Memo<Backdrop | string>;
  inlineColor: Memo<boolean>;
  disabled: Memo<boolean>;
  disabledNames: ReadonlySet<string>;
}

/** The nearest inline declaration of an inherited property wins over any linked sheet (unless that is !important). */
function inlineDecided(ctx: WcagContext, el: Element, memo: Memo<boolean>): boolean {
  return nearest(
    memo,
    el,
    (node) => {
      const c = ctx.styles.cascaded(node, 'color');
      return c !== undefined && c !== UNKNOWN ? c.inline : undefined;
    },
    false,
  );
}

function textColor(ctx: WcagContext, el: Element, memos: Memos): Answer {
  const value = ctx.styles.computed(el, 'color');
  if (value === UNKNOWN) return ctx.undecidedCss('the text colour is set by CSS the page does not decide');
  if (ctx.externalStyles && !inlineDecided(ctx, el, memos.inlineColor)) return LINKED;
  if (value === undefined) return BLACK;
  return parseColor(value) ?? `the text colour "${value}" needs a browser to resolve`;
}

const COLOR_TOKEN = /#[0-9a-f]{3,8}\b|(?:rgba?|hsla?)\([^)]*\)|\b[a-z]+\b/g;

/** The colours named in a CSS value (gradient stops, shadow colours); words that are not colours are skipped. */
function colorsIn(value: string): Rgba[] {
  const out: Rgba[] = [];
  for (const token of value.match(COLOR_TOKEN) ?? []) {
    const color = parseColor(token);
    if (color !== undefined) out.push(color);
  }
  return out;
}

interface Backdrop {
  /** Every opaque colour the text may sit on (one, or the stops of a gradient). */
  colors: Rgba[];
  /** Product of the opacities between the text and its background (applied to the text colour). */
  opacity: number;
}

const CANVAS: Backdrop = { colors: [WHITE], opacity: 1 };

/**
 * The backgrounds behind the element's text, composited to opaque colours. Memoised per element
 * and built from the parent's: each box paints its own background over what lies behind it.
 */
function backdrop(ctx: WcagContext, el: Element, memo: Memo<Backdrop | string>): Backdrop | string {
  const chain: Element[] = [];
  let below: Backdrop | string = CANVAS;
  for (let node: Element | null = el; node !== null; node = parentElement(node)) {
    const known = memo.get(node);
    if (known !== undefined) {
      below = known;
      break;
    }
    chain.push(node);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i]!;
    below = paint(ctx, node, below);
    memo.set(node, below);
  }
  return below;
}

/** What `node` shows behind its content: its own background over `below` (ignored where its own is opaque). */
function paint(ctx: WcagContext, node: Element, below: Backdrop | string): Backdrop | string {
  const s = ctx.styles;
  if (node.name === 'img' || node.name === 'video' || node.name === 'canvas') return 'the text sits on an image';
  for (const p of ['filter', 'mix-blend-mode']) {
    const v = s.cascaded(node, p);
    if (v === UNKNOWN) return ctx.undecidedCss(`a CSS ${p} changes the colours`);
    if (v !== undefined && v.value !== 'none' && v.value !== 'normal') return `a CSS ${p} changes the colours`;
  }
  const position = s.cascaded(node, 'position');
  if (position === UNKNOWN) return ctx.undecidedCss('positioned content may sit over another background');
  if (position !== undefined && (position.value === 'absolute' || position.value === 'fixed')) {
    return 'positioned content may sit over another background';
  }
  const image = s.cascaded(node, 'background-image');
  const color = s.cascaded(node, 'background-color');
  if (image === UNKNOWN || color === UNKNOWN) return ctx.undecidedCss('a background is set by CSS the page does not decide');
  // With linked sheets, only a background declared inline is known not to be painted over.
  if (ctx.externalStyles && !(color !== undefined && color.inline && image === undefined)) {
    if (color === undefined || !color.inline) return LINKED;
  }
  const gradient: Rgba[] = [];
  if (image !== undefined && image.value !== 'none' && image.value !== 'initial') {
    if (!/gradient\(/.test(image.value) || /url\(/.test(image.value)) return 'the text sits on a background image';
    gradient.push(...colorsIn(image.value.replace(/^[^(]*\(/, '')));
    if (gradient.length === 0) return 'a gradient whose colours need a browser to resolve';
  }
  let base: Rgba | undefined;
  if (color !== undefined && color.value !== 'transparent' && color.value !== 'initial' && color.value !== 'inherit') {
    base = parseColor(color.value);
    if (base === undefined) return `the background "${color.value}" needs a browser to resolve`;
  }
  let opacity = 1;
  const nodeOpacity = s.cascaded(node, 'opacity');
  if (nodeOpacity === UNKNOWN) return ctx.undecidedCss('opacity is set by CSS the page does not decide');
  if (nodeOpacity !== undefined && Number.parseFloat(nodeOpacity.value) < 1) {
    // Opacity on a box with a background of its own fades both: not decided here.
    if (gradient.length > 0 || base !== undefined) return 'partial opacity changes the colours';
    opacity = Math.max(0, Number.parseFloat(nodeOpacity.value));
  }
  // One box paints its background colour, then its gradient over it.
  const layers: Rgba[][] = [];
  if (base !== undefined) layers.push([base]);
  if (gradient.length > 0) layers.push(gradient);
  const opaque = (base !== undefined && base[3] >= 1) || (gradient.length > 0 && gradient.every((c) => c[3] >= 1));
  let colors: Rgba[];
  if (opaque) colors = [];
  else if (typeof below === 'string') return below;
  else colors = below.colors;
  for (const layer of layers) {
    if (colors.length === 0 && layer.every((c) => c[3] >= 1)) {
      colors = [...layer];
      continue;
    }
    const next: Rgba[] = [];
    for (const top of layer) for (const bottom of colors.length === 0 ? [WHITE] : colors) if (next.length < 64) next.push(over(top, bottom));
    colors = next;
  }
  const inherited = opaque || typeof below === 'string' ? 1 : below.opacity;
  return { colors, opacity: inherited * opacity };
}

const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'option', 'optgroup']);
const LABELABLE = new Set(['input', 'select', 'textarea', 'button']);

/** Inside a disabled control or group, or the label of a disabled control: exempt. */
function disabledContext(ctx: WcagContext, el: Element, memos: Memos): boolean {
  return nearest(memos.disabled, el, (a) => (disables(ctx, a, memos.disabledNames) ? true : undefined), false);
}

/** The element itself makes its content disabled text. */
function disables(ctx: WcagContext, a: Element, disabledNames: ReadonlySet<string>): boolean {
  const attributes = ctx.attributes(a);
  if (attributes & ATTRIBUTE.id && disabledNames.has(a.attribs.id!)) return true;
  if (attributes & ATTRIBUTE.aria && (a.attribs['aria-disabled'] ?? '').trim().toLowerCase() === 'true') return true;
  if (attributes & ATTRIBUTE.disabled && DISABLEABLE.has(a.name)) return true;
  if (a.name === 'label') {
    const target = a.attribs.for !== undefined ? ctx.byId(a.attribs.for) : undefined;
    if (target?.attribs.disabled !== undefined) return true;
    const stack = [...a.children];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (c.type !== 'tag') continue;
      const e = c as Element;
      if (LABELABLE.has(e.name) && e.attribs.disabled !== undefined) return true;
      stack.push(...e.children);
    }
  }
  return false;
}

function largeText(ctx: WcagContext, el: Element): boolean | undefined {
  const size = ctx.styles.fontSize(el);
  if (size === UNKNOWN) return undefined;
  if (size >= 24) return true;
  const weight = ctx.styles.computed(el, 'font-weight');
  if (weight === UNKNOWN) return undefined;
  const bold = weight === 'bold' || weight === 'bolder' || (weight !== undefined && Number.parseInt(weight, 10) >= 700) || /^(?:b|strong|h[1-6]|th)$/.test(el.name);
  return size >= 18.66 && bold;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The element's own text: its text children joined (most elements have one, returned as it is). */
function directText(el: Element): string {
  let text = '';
  for (const child of el.children) if (isText(child)) text = text === '' ? child.data : text + child.data;
  return text;
}

function evaluateText(ctx: WcagContext, el: Element, memos: Memos): RuleResult | undefined {
  // A text element (ctx.textElements) has its text: what is left to ask is whether it is seen.
  const visible = ctx.isVisible(el);
  if (visible === false || disabledContext(ctx, el, memos)) return undefined;
  // Text that expresses nothing in a human language (symbols, punctuation, a lone character) is exempt.
  const text = directText(el);
  if (!WORD_CHARACTER.test(text)) return undefined;
  if (text.trim().length <= 1) return undefined;
  const fg = textColor(ctx, el, memos);
  if (typeof fg === 'string') return cantTell(el, fg);
  const behind = backdrop(ctx, el, memos.backdrops);
  if (typeof behind === 'string') return cantTell(el, behind);
  const shadow = ctx.styles.computed(el, 'text-shadow');
  if (shadow === UNKNOWN) return cantTell(el, ctx.undecidedCss('a text shadow is set by CSS the page does not decide'));
  // The highest possible contrast: against any colour the text may sit on, a shadow's colour included.
  const backgrounds = [...behind.colors];
  const shadowed = shadow !== undefined && shadow !== 'none';
  if (shadowed) for (const c of colorsIn(shadow)) for (const b of behind.colors) backgrounds.push(over(c, b));
  const ink = [fg[0], fg[1], fg[2], fg[3] * behind.opacity] as const;
  let ratio = 0;
  let invisible = true;
  for (const bg of backgrounds) {
    const r = contrastRatio(over(ink, bg), bg);
    ratio = Math.max(ratio, r);
    if (r > 1.0001) invisible = false;
  }
  // Text in the colour of its background is not visible at all: nothing to contrast.
  if (invisible) return undefined;
  const large = largeText(ctx, el);
  const needed = large === true ? 3 : 4.5;
  if (ratio >= needed - 1e-9) {
    // How far a shadow covers the background behind the glyphs takes a renderer to tell.
    if (shadowed) return cantTell(el, 'a text shadow may cover the background the contrast depends on');
    return visible === true ? passed(el) : cantTell(el, ctx.undecidedCss('whether the text is visible depends on CSS the page does not decide'));
  }
  if (large === undefined && ratio >= 3) return cantTell(el, ctx.undecidedCss(`contrast ${ratio.toFixed(2)}:1 suffices only if the text is large, and its size is not decided`));
  if (visible === undefined) return cantTell(el, ctx.undecidedCss(`contrast ${ratio.toFixed(2)}:1, but whether the text is visible is not decided`));
  return failed(el, `contrast ${ratio.toFixed(2)}:1 is below ${needed}:1`);
}

export const textContrast: WcagRule = {
  id: 'text-contrast',
  actRules: ['afw4f7'],
  criteria: ['1.4.3'],
  applicability: 'Visible text (a non-blank text node child of an element), except in disabled controls and their labels.',
  expectation: 'Contrast against the background is at least 4.5:1, or 3:1 for large text (24px, or 18.66px bold).',
  *evaluate(ctx) {
    // Ids whose text names a disabled widget through aria-labelledby: that text is exempt too.
    const disabledNames = new Set<string>();
    for (const el of ctx.ariaElements) {
      const disabled = (el.attribs['aria-disabled'] ?? '').trim().toLowerCase() === 'true' || el.attribs.disabled !== undefined;
      if (disabled) for (const id of (el.attribs['aria-labelledby'] ?? '').trim().split(/\s+/)) if (id !== '') disabledNames.add(id);
    }
    const memos: Memos = { backdrops: ctx.memo(), inlineColor: ctx.memo(), disabled: ctx.memo(), disabledNames };
    for (const el of ctx.textElements) {
      const result = evaluateText(ctx, el, memos);
      if (result !== undefined) yield result;
    }
  },
};
