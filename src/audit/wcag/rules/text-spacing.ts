// Text spacing set with !important in a style attribute (ACT 24afc2 letter spacing, 9e45ec word
// spacing, 78fd32 line height): users cannot override an important inline declaration, so it
// must already be wide enough (WCAG 1.4.12 values: 0.12, 0.16 and 1.5 times the font size).
// Line height only matters where the text wraps; whether it does is estimated from a width the
// page states in px (a conservative average glyph width), and cannot be told otherwise.
import type { Element } from 'domhandler';
import { isText } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import type { Tri, WcagContext } from '../context.ts';
import type { WcagCriterion } from '../criteria.ts';
import { UNKNOWN, parseLength } from '../styles.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

const NOT_BLANK = /\S/;

/** The element has a direct text child that is not blank, and the element is visible. */
export function visibleTextChild(ctx: WcagContext, el: Element): Tri {
  if (!el.children.some((c) => isText(c) && NOT_BLANK.test(c.data))) return false;
  return ctx.isVisible(el);
}

function directText(el: Element): string {
  return el.children.map((c) => (isText(c) ? c.data : '')).join('').replace(/\s+/g, ' ').trim();
}

interface SpacingSpec {
  id: string;
  act: string;
  property: 'letter-spacing' | 'word-spacing' | 'line-height';
  factor: number;
}

/** The spacing as a multiple of the font size; undefined when it cannot be computed from the page. */
function ratio(property: SpacingSpec['property'], value: string, fontSize: number): number | undefined {
  if (value === 'normal' || value === 'initial') return property === 'line-height' ? 1.2 : 0;
  if (property === 'line-height' && /^\d*\.?\d+$/.test(value)) return Number(value);
  if (property === 'line-height' && value.endsWith('%')) return Number.parseFloat(value) / 100;
  const px = parseLength(value, fontSize, fontSize);
  return px === undefined ? undefined : px / fontSize;
}

/** Whether the element's text wraps: estimated against the nearest width or max-width given in px. */
function wraps(ctx: WcagContext, el: Element, fontSize: number): Tri {
  const textWidth = directText(el).length * 0.45 * fontSize;
  for (let a: Element | null = el; a !== null; a = parentElement(a)) {
    for (const property of ['max-width', 'width']) {
      const c = ctx.styles.cascaded(a, property);
      if (c === UNKNOWN) return undefined;
      if (c === undefined) continue;
      const px = parseLength(c.value, fontSize, Number.NaN);
      if (px === undefined || Number.isNaN(px)) continue;
      if (textWidth > px * 1.1) return true;
      if (textWidth * 1.6 < px) return false;
      return undefined;
    }
  }
  return undefined;
}

function spacingRule(spec: SpacingSpec): WcagRule {
  const criteria: readonly WcagCriterion[] = ['1.4.12'];
  return {
    id: spec.id,
    actRules: [spec.act],
    criteria,
    applicability: `An element with visible text whose \`${spec.property}\` is declared !important in its style attribute.`,
    expectation: `The ${spec.property} is at least ${spec.factor} times the font size.`,
    *evaluate(ctx) {
      for (const el of ctx.styledElements) {
        const result = check(ctx, el, spec);
        if (result !== undefined) yield result;
      }
    },
  };
}

function check(ctx: WcagContext, el: Element, spec: SpacingSpec): RuleResult | undefined {
  const declared = ctx.styles.cascaded(el, spec.property);
  if (declared === undefined || declared === UNKNOWN || !declared.inline || !declared.important) return undefined;
  if (declared.value === 'inherit' || declared.value === 'unset' || declared.value === 'revert') return undefined;
  const visible = visibleTextChild(ctx, el);
  if (visible === false) return undefined;
  const fontSize = ctx.styles.fontSize(el);
  if (visible === undefined || fontSize === UNKNOWN) return cantTell(el, ctx.undecidedCss(`whether the ${spec.property} suffices depends on CSS the page does not decide`));
  if (spec.property === 'line-height') {
    const wrapping = wraps(ctx, el, fontSize);
    if (wrapping === false) return undefined;
    const r = ratio(spec.property, declared.value, fontSize);
    if (r !== undefined && r >= spec.factor - 1e-6) return passed(el);
    if (wrapping === undefined) return cantTell(el, 'line-height is fixed below 1.5, and whether the text wraps depends on the viewport');
    return r === undefined ? cantTell(el, `line-height ${declared.value} cannot be computed statically`) : failed(el, `line-height ${declared.value} !important is ${r.toFixed(2)}× the font size (needs 1.5)`);
  }
  const r = ratio(spec.property, declared.value, fontSize);
  if (r === undefined) return cantTell(el, `${spec.property} ${declared.value} cannot be computed statically`);
  return r >= spec.factor - 1e-6 ? passed(el) : failed(el, `${spec.property} ${declared.value} !important is ${r.toFixed(3)}× the font size (needs ${spec.factor})`);
}

export const letterSpacing = spacingRule({ id: 'important-letter-spacing', act: '24afc2', property: 'letter-spacing', factor: 0.12 });
export const wordSpacing = spacingRule({ id: 'important-word-spacing', act: '9e45ec', property: 'word-spacing', factor: 0.16 });
export const lineHeight = spacingRule({ id: 'important-line-height', act: '78fd32', property: 'line-height', factor: 1.5 });
