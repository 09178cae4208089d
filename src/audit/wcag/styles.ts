// The CSS the page itself carries (`<style>` elements and `style` attributes), cascaded per
// element for the few properties the rules read. Linked style sheets are never fetched, so the
// answer is only as complete as the page: a property that a rule in an undecidable context
// (a viewport media query, `@supports`, a selector css-select cannot evaluate) may set on an
// element is UNKNOWN there, and the rules reading it answer cantTell.
//
// Cost: every rule is indexed once by the key of its rightmost compound selector (id, class,
// tag or universal), as browsers do, so an element is only matched against rules that could
// apply to it; results are memoised per element.
import * as csstree from 'css-tree';
import { compile } from 'css-select';
import type { Element } from 'domhandler';
import { parentElement } from '../page/dom.ts';

/** The properties read by the rules; declarations of any other property are dropped at parse time. */
const READ: ReadonlySet<string> = new Set([
  'display', 'visibility', 'color', 'background-color', 'background-image', 'background', 'font-size', 'font-weight',
  'letter-spacing', 'word-spacing', 'line-height', 'position', 'clip', 'clip-path', 'left', 'top', 'right',
  'text-indent', 'opacity', 'transform', 'rotate', 'overflow', 'overflow-x', 'overflow-y', 'width', 'height', 'font',
  'text-shadow', 'filter', 'mix-blend-mode', 'content', 'max-width', 'font-family',
]);

/** Properties whose value an element takes from its parent when it sets none. */
const INHERITED: ReadonlySet<string> = new Set([
  'visibility', 'color', 'font-size', 'font-weight', 'letter-spacing', 'word-spacing', 'line-height', 'text-indent', 'text-shadow', 'font-family',
]);

export const UNKNOWN = Symbol('unknown');
export type Cascaded = { value: string; important: boolean; inline: boolean } | typeof UNKNOWN | undefined;

interface Declaration {
  property: string;
  value: string;
  important: boolean;
}

interface IndexedSelector {
  match: (el: Element) => boolean;
  /** Specificity packed as ids·10⁶ + classes·10³ + types. */
  specificity: number;
  order: number;
  declarations: readonly Declaration[];
  /** The rule sits in a context static HTML cannot decide: it makes its properties UNKNOWN wherever it may match. */
  undecidable: boolean;
}

/** A style rule inside `@media`, kept with its condition for the rules that read media features (orientation). */
export interface ConditionalRule {
  media: string;
  selector: string;
  match: (el: Element) => boolean;
  declarations: readonly Declaration[];
}

const STATE_PSEUDO = /:(?:hover|focus|focus-within|focus-visible|active|visited|target|checked|invalid|valid|user-invalid|placeholder-shown|autofill)\b|::?(?:before|after|first-line|first-letter|placeholder|selection|marker|backdrop|file-selector-button|-webkit-|-moz-)/i;

export class StyleIndex {
  private readonly byId = new Map<string, IndexedSelector[]>();
  private readonly byClass = new Map<string, IndexedSelector[]>();
  private readonly byTag = new Map<string, IndexedSelector[]>();
  private readonly universal: IndexedSelector[] = [];
  private readonly memo = new Map<Element, Map<string, Cascaded>>();
  private readonly fontSizeMemo = new Map<Element, number | typeof UNKNOWN>();
  readonly conditional: ConditionalRule[] = [];
  private order = 0;

  constructor(styleTexts: readonly string[]) {
    for (const text of styleTexts) this.addSheet(text);
  }

  private addSheet(text: string): void {
    let ast: csstree.CssNode;
    try {
      ast = csstree.parse(text, { parseValue: false, parseAtrulePrelude: true, parseRulePrelude: true, parseCustomProperty: false });
    } catch {
      return;
    }
    if (ast.type !== 'StyleSheet') return;
    this.addChildren(ast.children, { undecidable: false, media: null });
  }

  private addChildren(children: csstree.List<csstree.CssNode>, context: { undecidable: boolean; media: string | null }): void {
    children.forEach((node) => {
      if (node.type === 'Rule') this.addRule(node, context);
      else if (node.type === 'Atrule' && node.block) {
        const name = node.name.toLowerCase();
        const prelude = node.prelude ? csstree.generate(node.prelude).toLowerCase().trim() : '';
        if (name === 'media') {
          const applies = mediaApplies(prelude);
          if (applies === false) return;
          this.addChildren(node.block.children, { undecidable: context.undecidable || applies === undefined, media: applies === undefined ? prelude : context.media });
        } else if (name === 'layer') this.addChildren(node.block.children, context);
        else if (name === 'supports' || name === 'container' || name === 'scope' || name === 'document') {
          this.addChildren(node.block.children, { ...context, undecidable: true });
        }
        // @font-face, @keyframes, @page, @property: nothing a rule here reads.
      }
    });
  }

  private addRule(rule: csstree.Rule, context: { undecidable: boolean; media: string | null }): void {
    const declarations: Declaration[] = [];
    rule.block.children.forEach((node) => {
      if (node.type !== 'Declaration') return;
      const property = node.property.toLowerCase();
      if (!READ.has(property)) return;
      const value = node.value.type === 'Raw' ? node.value.value : csstree.generate(node.value);
      declarations.push({ property, value: value.trim().toLowerCase(), important: node.important !== false });
    });
    if (declarations.length === 0 || rule.prelude.type !== 'SelectorList') return;
    rule.prelude.children.forEach((selector) => {
      if (selector.type !== 'Selector') return;
      const text = csstree.generate(selector);
      // State and pseudo-element rules do not apply to the page as served (nothing is hovered or focused).
      if (STATE_PSEUDO.test(text)) return;
      let match: (el: Element) => boolean;
      let undecidable = context.undecidable;
      try {
        const compiled = compile(text);
        match = (el) => compiled(el);
      } catch {
        match = () => true;
        undecidable = true;
      }
      const indexed: IndexedSelector = { match, specificity: specificityOf(selector), order: this.order++, declarations, undecidable };
      if (context.media !== null) this.conditional.push({ media: context.media, selector: text, match, declarations });
      this.index(selector, indexed);
    });
  }

  private index(selector: csstree.Selector, indexed: IndexedSelector): void {
    // The rightmost compound: the nodes after the last combinator.
    let id: string | undefined;
    let cls: string | undefined;
    let tag: string | undefined;
    selector.children.forEach((node) => {
      if (node.type === 'Combinator') {
        id = cls = tag = undefined;
      } else if (node.type === 'IdSelector') id = node.name;
      else if (node.type === 'ClassSelector') cls = node.name;
      else if (node.type === 'TypeSelector' && node.name !== '*') tag = node.name.toLowerCase();
    });
    if (id !== undefined) push(this.byId, id, indexed);
    else if (cls !== undefined) push(this.byClass, cls, indexed);
    else if (tag !== undefined) push(this.byTag, tag, indexed);
    else this.universal.push(indexed);
  }

  /** The cascaded (specified, not inherited) value of `property` on `el`; UNKNOWN when the page cannot decide it. */
  cascaded(el: Element, property: string): Cascaded {
    let values = this.memo.get(el);
    if (values === undefined) {
      values = this.cascadeAll(el);
      this.memo.set(el, values);
    }
    return values.get(property);
  }

  /** The cascaded value from rules that apply unconditionally (rules in undecidable contexts left out). */
  unconditional(el: Element, property: string): Cascaded {
    return this.cascadeAll(el, true).get(property);
  }

  private cascadeAll(el: Element, skipUndecidable = false): Map<string, Cascaded> {
    const candidates: IndexedSelector[] = [...this.universal];
    const id = el.attribs.id;
    if (id !== undefined) candidates.push(...(this.byId.get(id) ?? []));
    const classes = el.attribs.class;
    if (classes !== undefined) for (const c of classes.split(/\s+/)) if (c !== '') candidates.push(...(this.byClass.get(c) ?? []));
    candidates.push(...(this.byTag.get(el.name) ?? []));
    const winners = new Map<string, { d: Declaration; rank: number; inline: boolean }>();
    const unknown = new Set<string>();
    for (const candidate of candidates) {
      if (!candidate.match(el)) continue;
      for (const d of candidate.declarations) {
        for (const property of expand(d.property)) {
          if (candidate.undecidable) {
            if (!skipUndecidable) unknown.add(property);
            continue;
          }
          // Rank: importance, then specificity, then order (inline styles rank above every sheet rule).
          const rank = (d.important ? 2e15 : 0) + candidate.specificity * 1e5 + candidate.order;
          const current = winners.get(property);
          if (current === undefined || rank >= current.rank) winners.set(property, { d, rank, inline: false });
        }
      }
    }
    const style = el.attribs.style;
    if (style !== undefined && style.trim() !== '') {
      for (const d of parseDeclarations(style)) {
        for (const property of expand(d.property)) {
          const rank = (d.important ? 2e15 : 0) + 1.5e15;
          const current = winners.get(property);
          if (current === undefined || rank >= current.rank) winners.set(property, { d, rank, inline: true });
        }
      }
    }
    const out = new Map<string, Cascaded>();
    for (const property of unknown) out.set(property, UNKNOWN);
    for (const [property, { d, inline }] of winners) {
      // An undecidable rule could still lose to a declared !important one.
      if (unknown.has(property) && !d.important) continue;
      out.set(property, { value: longhandValue(d, property), important: d.important, inline });
    }
    return out;
  }

  /** The value in effect: cascaded, else inherited (for inherited properties), else undefined (the initial value). */
  computed(el: Element, property: string): string | typeof UNKNOWN | undefined {
    for (let node: Element | null = el; node !== null; node = parentElement(node)) {
      const c = this.cascaded(node, property);
      if (c === UNKNOWN) return UNKNOWN;
      if (c !== undefined && c.value !== 'inherit' && c.value !== 'unset' && c.value !== 'revert') {
        return c.value === 'initial' ? undefined : c.value;
      }
      if (c === undefined && !INHERITED.has(property)) return undefined;
    }
    return undefined;
  }

  /** Computed font size in px (16px root default); UNKNOWN when a size on the way is undecidable or not absolute. */
  fontSize(el: Element | null): number | typeof UNKNOWN {
    if (el === null) return 16;
    const memo = this.fontSizeMemo.get(el);
    if (memo !== undefined) return memo;
    // Iterative over ancestors first so deep pages cannot overflow the stack.
    const chain: Element[] = [];
    for (let node: Element | null = el; node !== null && !this.fontSizeMemo.has(node); node = parentElement(node)) chain.push(node);
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = chain[i]!;
      const parent = parentElement(node);
      const parentSize = parent === null ? 16 : this.fontSizeMemo.get(parent)!;
      this.fontSizeMemo.set(node, sizeOf(this.cascaded(node, 'font-size'), parentSize, node.name));
    }
    return this.fontSizeMemo.get(el)!;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

const HEADING_SIZE: Readonly<Record<string, number>> = { h1: 2, h2: 1.5, h3: 1.17, h4: 1, h5: 0.83, h6: 0.67 };

function sizeOf(c: Cascaded, parent: number | typeof UNKNOWN, tag: string): number | typeof UNKNOWN {
  if (c === UNKNOWN || parent === UNKNOWN) return UNKNOWN;
  if (c === undefined || c.value === 'inherit') {
    const factor = HEADING_SIZE[tag];
    return factor === undefined ? parent : parent * factor;
  }
  const length = parseLength(c.value, parent, 16);
  if (length !== undefined) return length;
  const keyword = FONT_SIZE_KEYWORDS[c.value];
  if (keyword !== undefined) return keyword;
  if (c.value === 'smaller') return parent / 1.2;
  if (c.value === 'larger') return parent * 1.2;
  return UNKNOWN;
}

const FONT_SIZE_KEYWORDS: Readonly<Record<string, number>> = {
  'xx-small': 9, 'x-small': 10, small: 13, medium: 16, large: 18, 'x-large': 24, 'xx-large': 32, 'xxx-large': 48,
};

/** A CSS length in px: `px`, `pt`, `em`, `rem`, `%` (of `percentOf`), unitless 0. Undefined for anything relative to layout. */
export function parseLength(value: string, em: number, percentOf: number): number | undefined {
  const match = /^(-?(?:\d+\.?\d*|\.\d+))(px|pt|pc|in|cm|mm|em|rem|%|q)?$/.exec(value.trim());
  if (match === null) return undefined;
  const n = Number(match[1]);
  switch (match[2]) {
    case undefined:
      return n === 0 ? 0 : undefined;
    case 'px':
      return n;
    case 'pt':
      return (n * 4) / 3;
    case 'pc':
      return n * 16;
    case 'in':
      return n * 96;
    case 'cm':
      return (n * 96) / 2.54;
    case 'mm':
      return (n * 96) / 25.4;
    case 'q':
      return (n * 96) / 101.6;
    case 'em':
      return n * em;
    case 'rem':
      return n * 16;
    case '%':
      return (n * percentOf) / 100;
  }
  return undefined;
}

/** Declarations of a `style` attribute (or any declaration list), READ properties only, in order. */
export function parseDeclarations(text: string): Declaration[] {
  const out: Declaration[] = [];
  let ast: csstree.CssNode;
  try {
    ast = csstree.parse(text, { context: 'declarationList', parseValue: false });
  } catch {
    return out;
  }
  if (ast.type !== 'DeclarationList') return out;
  ast.children.forEach((node) => {
    if (node.type !== 'Declaration') return;
    const property = node.property.toLowerCase();
    if (!READ.has(property)) return;
    const value = node.value.type === 'Raw' ? node.value.value : csstree.generate(node.value);
    out.push({ property, value: value.trim().toLowerCase(), important: node.important !== false });
  });
  return out;
}

/** Every declaration of a style attribute, whatever the property (for the text-spacing rules). */
export function parseAllDeclarations(text: string): Declaration[] {
  const out: Declaration[] = [];
  let ast: csstree.CssNode;
  try {
    ast = csstree.parse(text, { context: 'declarationList', parseValue: false });
  } catch {
    return out;
  }
  if (ast.type !== 'DeclarationList') return out;
  ast.children.forEach((node) => {
    if (node.type !== 'Declaration') return;
    const value = node.value.type === 'Raw' ? node.value.value : csstree.generate(node.value);
    out.push({ property: node.property.toLowerCase(), value: value.trim().toLowerCase(), important: node.important !== false });
  });
  return out;
}

/** The longhands a shorthand sets that the rules read. */
function expand(property: string): readonly string[] {
  if (property === 'background') return ['background-color', 'background-image'];
  if (property === 'font') return ['font-size', 'line-height', 'font-weight'];
  if (property === 'overflow') return ['overflow-x', 'overflow-y'];
  return [property];
}

/** The part of a shorthand's value that belongs to `property`; the shorthand itself when it cannot be split. */
function longhandValue(d: Declaration, property: string): string {
  if (d.property === property) return d.value;
  if (d.property === 'background') {
    const hasImage = /url\(|gradient\(/.test(d.value);
    if (property === 'background-image') return hasImage ? d.value : 'none';
    // A background shorthand's colour is its last component when the value is a single layer.
    if (property === 'background-color') return lastColorToken(d.value.replace(/(?:url|[a-z-]*gradient)\((?:[^()]|\([^()]*\))*\)/g, ' ')) ?? 'transparent';
  }
  if (d.property === 'overflow') {
    const [x, y] = d.value.split(/\s+/);
    return property === 'overflow-x' ? x! : (y ?? x!);
  }
  if (d.property === 'font') {
    // font: [style] [weight] size[/line-height] family
    const match = /(?:^|\s)((?:\d*\.?\d+)(?:px|pt|em|rem|%)|xx-small|x-small|small|medium|large|x-large|xx-large)(?:\s*\/\s*(\S+))?\s/.exec(`${d.value} `);
    if (property === 'font-size') return match?.[1] ?? 'unset';
    if (property === 'line-height') return match?.[2] ?? 'normal';
    if (property === 'font-weight') return /\b(bold|bolder|[6-9]00)\b/.exec(d.value)?.[1] ?? 'normal';
  }
  return d.value;
}

/** The colour among a background shorthand's components (the other keywords are positions, sizes and repeats). */
function lastColorToken(value: string): string | undefined {
  const tokens = value.match(/#[0-9a-f]+|(?:rgba?|hsla?)\([^)]*\)|[a-z]+/g) ?? [];
  const NOT_COLOR = /^(?:none|repeat|repeat-x|repeat-y|no-repeat|space|round|scroll|fixed|local|top|bottom|left|right|center|cover|contain|auto|border-box|padding-box|content-box|text)$/;
  return tokens.filter((t) => !NOT_COLOR.test(t)).pop();
}

function specificityOf(selector: csstree.Selector): number {
  let ids = 0;
  let classes = 0;
  let types = 0;
  csstree.walk(selector, (node) => {
    if (node.type === 'IdSelector') ids++;
    else if (node.type === 'ClassSelector' || node.type === 'AttributeSelector') classes++;
    else if (node.type === 'PseudoClassSelector' && !['not', 'is', 'where', 'has', 'matches'].includes(node.name)) classes++;
    else if (node.type === 'TypeSelector' && node.name !== '*') types++;
    else if (node.type === 'PseudoElementSelector') types++;
  });
  return Math.min(ids, 999) * 1e6 + Math.min(classes, 999) * 1e3 + Math.min(types, 999);
}

/**
 * Whether a media query list applies on a screen: true for `all`/`screen` without features, false
 * when every query is for another medium (print, speech), undefined when it depends on the
 * viewport or the device (widths, orientation, preferences).
 */
function mediaApplies(prelude: string): boolean | undefined {
  const queries = prelude.split(',').map((q) => q.trim());
  let any: boolean | undefined = false;
  for (const query of queries) {
    if (query === '' || query === 'all' || query === 'screen' || query === 'only screen') return true;
    if (/^(?:only\s+)?(?:print|speech|aural|braille|embossed|handheld|projection|tty|tv)$/.test(query)) continue;
    if (/^not\s+(?:print|speech)$/.test(query)) return true;
    any = undefined;
  }
  return any;
}
