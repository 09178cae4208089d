// The CSS the page itself carries (`<style>` elements and `style` attributes), cascaded per
// element for the few properties the rules read. Linked style sheets are never fetched, so the
// answer is only as complete as the page: a property that a rule in an undecidable context
// (a viewport media query, `@supports`, a selector css-select cannot evaluate) may set on an
// element is UNKNOWN there, and the rules reading it answer cantTell.
//
// Read as a browser reads it: sheets are cut into rules by CSS Syntax's block structure (so a
// sheet a browser discards, like one wrapped in `<![CDATA[`, contributes nothing), a `<style>`'s
// `media` attribute is evaluated like `@media`, and HTML's presentational hints (`bgcolor`,
// `<font color>`, …) and the UA sheet's link colour enter the cascade below every author rule.
//
// Cost: rules with the same selector form one group, matched once per element (20,000 copies of
// `p{color:red}` are one match per paragraph, not 20,000); every group is indexed once by the key
// of its rightmost compound selector (id, class, tag or universal), as browsers do, so an element
// is only matched against groups that could apply to it; structural pseudo-classes read positions
// computed once per parent (structural.ts); results are memoised per element. What is left is
// bounded: the page may spend MATCH_BUDGET group-by-element match attempts, and past that the
// cascade stops. An element it cannot finish gets UNKNOWN for every property its candidate rules
// set, so what depends on them is cantTell, never slow and never a guess.
import * as csstree from 'css-tree';
import { compile } from 'css-select';
import { isTag, type AnyNode, type Element } from 'domhandler';
import * as DomUtils from 'domutils';
import { parentElement } from '../page/dom.ts';
import { nearest } from './ancestry.ts';
import { ATTRIBUTE, attributeFlags, ElementMemo, type DocumentOrder } from './element-memo.ts';
import { stripComments } from '../page/visibility.ts';
import { parseLegacyColor, toHex } from './colors.ts';
import { NTH_PSEUDOS, StructuralPositions, type NthPseudo, type SelectAdapter } from './structural.ts';

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
/** The property's initial value: what `computed` answers as undefined. */
const INITIAL = Symbol('initial');
const NOTHING: ReadonlyMap<string, Cascaded> = new Map<string, Cascaded>();
export type Cascaded = { value: string; important: boolean; inline: boolean } | typeof UNKNOWN | undefined;

/** Elements with presentational hints the rules read (HTML §15.3), and links (the UA sheet's `:link` colour). */
const HINTED: ReadonlySet<string> = new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'marquee', 'font', 'a', 'area']);
/** A presentational hint ranks below every author rule (their ranks start at 0) and the UA sheet below it. */
const HINT_RANK = -1;
const UA_RANK = -2;
/** The UA style sheet's `:link` colour (HTML §15.3.4). */
const LINK_COLOR = '#0000ee';

const LEGACY_FONT_SIZES = ['x-small', 'small', 'medium', 'large', 'x-large', 'xx-large', 'xxx-large'];

/** HTML's "rules for parsing a legacy font size" (`<font size>`): 1–7, or ±n from 3, as a keyword. */
export function legacyFontSize(value: string): string | undefined {
  const match = /^[\t\n\f\r ]*([+-]?)(\d+)/.exec(value);
  if (match === null) return undefined;
  let n = Number.parseInt(match[2]!, 10);
  if (match[1] === '+') n += 3;
  else if (match[1] === '-') n = 3 - n;
  return LEGACY_FONT_SIZES[Math.min(7, Math.max(1, n)) - 1];
}

interface Declaration {
  property: string;
  value: string;
  important: boolean;
}

/** A declaration as it competes in the cascade: importance, specificity and order packed in `rank`. */
interface Offer {
  property: string;
  d: Declaration;
  rank: number;
}

/** One rule of a selector group: its place in the sheets, its declarations, and whether its context is decidable. */
interface Member {
  order: number;
  declarations: readonly Declaration[];
  undecidable: boolean;
}

/**
 * The rules that share one selector: matched once per element, their declarations folded into the
 * one that wins each property among them (the cascade's outcome is the same: they share a
 * specificity, so only importance and order decide between them).
 */
interface SelectorGroup {
  readonly match: (el: Element) => boolean;
  /** Hash bits of the ids, classes and tags the selector needs among the element's ancestors. */
  readonly ancestors: Uint32Array | null;
  /** Specificity packed as ids·10⁶ + classes·10³ + types. */
  readonly specificity: number;
  readonly members: Member[];
  /** The members folded, on first use (after every sheet is read): most selectors of a large sheet never match. */
  folded: Folded | undefined;
  /** css-select cannot evaluate the selector: every property it sets is UNKNOWN wherever it may match. */
  unevaluable: boolean;
}

interface Folded {
  /** The winning declaration of each property among the group's rules in decidable contexts. */
  readonly winners: readonly Offer[];
  /** Properties set by the group's rules in a context static HTML cannot decide: UNKNOWN wherever the selector matches. */
  readonly undecidable: ReadonlySet<string>;
  /** Every property the group's rules set. */
  readonly properties: ReadonlySet<string>;
}

function fold(group: SelectorGroup): Folded {
  if (group.folded !== undefined) return group.folded;
  const winners: Offer[] = [];
  const undecidable = new Set<string>();
  const properties = new Set<string>();
  for (const { order, declarations, undecidable: inUndecidableContext } of group.members) {
    for (const d of declarations) {
      for (const property of expand(d.property)) {
        properties.add(property);
        if (inUndecidableContext) undecidable.add(property);
        else offer(winners, property, d, (d.important ? 2e15 : 0) + group.specificity * 1e5 + order);
      }
    }
  }
  return (group.folded = { winners, undecidable, properties });
}

/** A style rule inside `@media`, kept with its condition for the rules that read media features (orientation). */
export interface ConditionalRule {
  media: string;
  selector: string;
  /** Whether the selector matches; undefined once the page's MATCH_BUDGET is spent. */
  match: (el: Element) => boolean | undefined;
  declarations: readonly Declaration[];
}

/**
 * The selector-matching work one page may spend on its cascade, in steps: an element tested
 * against a group of rules that could apply to it (Bloom-filtered or matched) is one, and every
 * node css-select visits inside a match (an ancestor for a descendant combinator, the siblings for
 * `~`, the children for `:has()`) one more. The largest need of the two real-page corpora (388
 * pages) is 143,793 steps, 1/14 of it (README: cost); a crafted page of 10,000 rules over 36,000
 * elements would need over 360 million.
 */
export const MATCH_BUDGET = 2_000_000;

/** Thrown through css-select when a match runs out of the page's budget (caught in the cascade). */
const OVER_BUDGET = new Error('over the selector-matching budget');

/** The note of a cantTell whose cause may be a cascade cut short by MATCH_BUDGET. */
export const CSS_TOO_LARGE = 'the page’s CSS is too large to evaluate statically (over the budget of selector matches)';

const STATE_PSEUDO_CLASSES = new Set([
  'hover', 'focus', 'focus-within', 'focus-visible', 'active', 'visited', 'target', 'checked', 'invalid', 'valid', 'user-invalid',
  'placeholder-shown', 'autofill', 'before', 'after', 'first-line', 'first-letter',
]);

function hasStatePseudo(selector: csstree.Selector): boolean {
  let found = false;
  csstree.walk(selector, (node) => {
    if (node.type === 'PseudoElementSelector') found = true;
    else if (node.type === 'PseudoClassSelector' && (STATE_PSEUDO_CLASSES.has(node.name.toLowerCase()) || node.name.startsWith('-'))) found = true;
  });
  return found;
}

/** One statement of a list of rules: an at-rule (`@import …;` has no block) or a qualified rule. */
export interface Statement {
  /** The text before the block (comments included), or the whole at-rule up to its semicolon. */
  prelude: string;
  /** The text inside the block, without its braces; null for an at-rule ended by a semicolon or by the sheet's end. */
  body: string | null;
}

const T = csstree.tokenTypes;

/**
 * The statements of a list of rules as CSS Syntax Level 3 reads them (§5.4.1 "consume a list of
 * rules"), over css-tree's tokenizer (the spec's). Only the block structure is built here: a
 * `(`, `[`, function or `{` block runs to its own closing token, or to the end of the sheet, and
 * swallows whatever rules it meets. So `<![CDATA[ p{…} ]]>` is one qualified rule whose prelude
 * holds everything and which never gets a block (browsers drop it whole; css-tree's parser
 * recovers it), and `a[href {…} b{…}` loses both rules. CDO and CDC (`<!--`, `-->`) are skipped
 * between the statements of a sheet (`topLevel`), not inside a block. A qualified rule the sheet
 * ends before its block is dropped; an at-rule or a block the sheet ends is kept (the spec
 * closes it).
 */
export function statements(text: string, topLevel: boolean): Statement[] {
  const out: Statement[] = [];
  // 0: between statements; 1: an at-rule's prelude; 2: a qualified rule's prelude; 3: a block.
  let state = 0;
  let start = 0;
  let open = 0;
  // The closing token each open nested block waits for.
  const closers: number[] = [];
  csstree.tokenize(text, (type, from) => {
    if (state === 0) {
      if (type === T.WhiteSpace || type === T.Comment || (topLevel && (type === T.CDO || type === T.CDC))) return;
      start = from;
      state = type === T.AtKeyword ? 1 : 2;
      if (state === 1) return;
    }
    if (closers.length === 0) {
      if (state === 3) {
        if (type === T.RightCurlyBracket) {
          out.push({ prelude: text.slice(start, open), body: text.slice(open + 1, from) });
          state = 0;
          return;
        }
      } else if (type === T.LeftCurlyBracket) {
        open = from;
        state = 3;
        return;
      } else if (type === T.Semicolon && state === 1) {
        out.push({ prelude: text.slice(start, from), body: null });
        state = 0;
        return;
      }
    }
    switch (type) {
      case T.LeftCurlyBracket: closers.push(T.RightCurlyBracket); break;
      case T.LeftSquareBracket: closers.push(T.RightSquareBracket); break;
      case T.LeftParenthesis: case T.Function: closers.push(T.RightParenthesis); break;
      case T.RightCurlyBracket: case T.RightSquareBracket: case T.RightParenthesis:
        // Only the token a block waits for closes it; any other closing token is kept inside.
        if (closers.length > 0 && closers[closers.length - 1] === type) closers.pop();
    }
  });
  if (state === 1) out.push({ prelude: text.slice(start), body: null });
  else if (state === 3) out.push({ prelude: text.slice(start, open), body: text.slice(open + 1) });
  return out;
}

export class StyleIndex {
  private readonly byId = new Map<string, SelectorGroup[]>();
  private readonly byClass = new Map<string, SelectorGroup[]>();
  private readonly byTag = new Map<string, SelectorGroup[]>();
  private readonly universal: SelectorGroup[] = [];
  /** Groups by selector text: a rule whose selector has a group joins it. */
  private readonly groups = new Map<string, SelectorGroup>();
  private readonly structural: StructuralPositions;
  /** Match attempts this page may spend (MATCH_BUDGET unless a test sets a smaller one). */
  private readonly budget: number;
  /** Match attempts spent so far (at most the budget, plus one). */
  private spent = 0;
  private readonly documentOrder: DocumentOrder | undefined;
  private readonly memo: ElementMemo<ReadonlyMap<string, Cascaded>>;
  private readonly fontSizeMemo: ElementMemo<number | typeof UNKNOWN>;
  private readonly maskMemo: ElementMemo<Uint32Array>;
  readonly conditional: ConditionalRule[] = [];
  /** A sheet that applies imports another (`@import`, never fetched): CSS the page does not carry may apply. */
  imports = false;
  private order = 0;

  /** `documentOrder`: the page's elements, for array-backed memos (without it, Maps). */
  constructor(sheets: readonly (string | StyleSheetSource)[], documentOrder?: DocumentOrder, budget = MATCH_BUDGET) {
    this.documentOrder = documentOrder;
    this.budget = budget;
    this.memo = new ElementMemo(documentOrder);
    this.fontSizeMemo = new ElementMemo(documentOrder);
    this.maskMemo = new ElementMemo(documentOrder);
    this.structural = new StructuralPositions(documentOrder, this.budgetedAdapter(), this.charge);
    for (const sheet of sheets) this.addSheet(sheet);
  }

  /** Selector-matching steps spent on this page so far (attempts and the nodes visited inside them). */
  get matchWork(): number {
    return Math.min(this.spent, this.budget);
  }

  /** Sibling nodes visited to answer structural pseudo-classes (each parent's children once). */
  get siblingVisits(): number {
    return this.structural.siblingVisits;
  }

  /** The page's CSS outgrew its budget: some cascades were cut short and answer UNKNOWN. */
  get exhausted(): boolean {
    return this.spent > this.budget;
  }

  /** Spends `steps` of the budget; false once it is gone. */
  private spend(steps = 1): boolean {
    if (this.spent > this.budget) return false;
    this.spent += steps;
    return this.spent <= this.budget;
  }

  /** Spends `steps` inside a match: throws OVER_BUDGET through css-select once the budget is gone. */
  private readonly charge = (steps: number): void => {
    if (!this.spend(steps)) throw OVER_BUDGET;
  };

  /** css-select's default adapter (domutils), charging every node a match visits to the budget. */
  private budgetedAdapter(): SelectAdapter {
    const charge = this.charge;
    return {
      ...DomUtils,
      isTag,
      getParent: (node: AnyNode) => {
        charge(1);
        return DomUtils.getParent(node) as Element | null;
      },
      getSiblings: (node: AnyNode) => {
        const siblings = DomUtils.getSiblings(node);
        charge(siblings.length);
        return siblings;
      },
      getChildren: (node: AnyNode) => {
        const children = DomUtils.getChildren(node);
        charge(children.length);
        return children;
      },
      getText: (node: AnyNode) => {
        const text = DomUtils.getText(node);
        charge(1 + (text.length >> 6));
        return text;
      },
    };
  }

  private addSheet(sheet: string | StyleSheetSource): void {
    const { text, media } = typeof sheet === 'string' ? { text: sheet, media: undefined } : sheet;
    // A `media` attribute is a media query list like `@media`'s, evaluated the same way.
    const condition = media?.trim().toLowerCase() ?? '';
    const applies = condition === '' ? true : mediaApplies(condition);
    if (applies === false) return;
    this.addStatements(text, { undecidable: applies === undefined, media: applies === undefined ? condition : null }, true);
  }

  /**
   * The sheet's statements, cut by CSS Syntax's block structure (`statements`) rather than
   * css-tree's full parse: declarations are kept as raw text, so only selectors need a parser,
   * and only for rules that declare a property the rules read. On large sheets the full parse
   * was most of the analysis time, and css-tree renders a source excerpt for every recoverable
   * error by scanning its whole input (quadratic over a sheet full of IE hacks).
   */
  private addStatements(text: string, context: { undecidable: boolean; media: string | null }, topLevel = false): void {
    for (const statement of statements(text, topLevel)) {
      const prelude = stripComments(statement.prelude).trim();
      const body = statement.body;
      if (prelude.startsWith('@')) {
        const name = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase() ?? '';
        const condition = prelude.slice(name.length + 1).trim().toLowerCase();
        if (body === null) {
          // `@import url(…) print;` imports nothing a screen shows.
          if (topLevel && name === 'import' && importMediaApplies(condition) !== false) this.imports = true;
          continue; // @charset, @namespace, @layer a, b;
        }
        if (name === 'media') {
          const applies = mediaApplies(condition);
          if (applies === false) continue;
          this.addStatements(body, { undecidable: context.undecidable || applies === undefined, media: applies === undefined ? condition : context.media });
        } else if (name === 'layer') this.addStatements(body, context);
        else if (name === 'supports' || name === 'container' || name === 'scope' || name === 'document') {
          this.addStatements(body, { ...context, undecidable: true });
        }
        // @font-face, @keyframes, @page, @property: nothing a rule here reads.
        continue;
      }
      if (body !== null) this.addRule(prelude, body, context);
    }
  }

  private addRule(prelude: string, body: string, context: { undecidable: boolean; media: string | null }): void {
    const declarations = parseDeclarations(body);
    if (declarations.length === 0) return;
    // A selector list with any invalid part is dropped whole, as browsers do (css-tree would recover
    // and keep a fragment: `.a&gt; section` must not become `section`).
    let invalid = false;
    let selectors: csstree.CssNode;
    try {
      selectors = csstree.parse(prelude, { context: 'selectorList', onParseError: () => (invalid = true) });
    } catch {
      return;
    }
    if (invalid || selectors.type !== 'SelectorList') return;
    let raw = false;
    csstree.walk(selectors, (node) => {
      if (node.type === 'Raw') raw = true;
    });
    if (raw) return;
    const single = selectors.children.size === 1;
    selectors.children.forEach((selector) => {
      if (selector.type !== 'Selector') return;
      // State and pseudo-element rules do not apply to the page as served (nothing is hovered or focused).
      if (hasStatePseudo(selector)) return;
      // The group's key: the prelude as written when it is the one selector (printing it back costs more than the parse).
      const key = single ? prelude : csstree.generate(selector);
      let group = this.groups.get(key);
      if (group === undefined) {
        group = this.newGroup(selector);
        this.groups.set(key, group);
        this.index(selector, group);
      }
      group.members.push({ order: this.order++, declarations, undecidable: context.undecidable });
      if (context.media !== null) {
        const match = group.match;
        this.conditional.push({ media: context.media, selector: csstree.generate(selector), match: (el) => this.budgeted(() => this.spend() && match(el)), declarations });
      }
    });
  }

  private newGroup(selector: csstree.Selector): SelectorGroup {
    // Compiled on first use: most selectors of a large sheet never meet an element they could match.
    let compiled: ((el: Element) => boolean) | undefined;
    const group: SelectorGroup = {
      ancestors: ancestorKeys(selector),
      match: (el) => {
        if (compiled === undefined) {
          try {
            // An invalid `:nth-*` argument fails here, as it did inside css-select's compilation.
            csstree.walk(selector, (node) => {
              if (node.type === 'PseudoClassSelector' && NTH_PSEUDOS.has(node.name.toLowerCase()) && node.children !== null) {
                const generated = csstree.generate(node);
                this.structural.argument(node.name.toLowerCase() as NthPseudo, generated.slice(node.name.length + 2, -1));
              }
            });
            const fn = compile(csstree.generate(selector), this.structural.options);
            compiled = (e) => fn(e);
          } catch {
            // A selector css-select cannot evaluate may match anything: what it sets is undecidable.
            group.unevaluable = true;
            compiled = () => true;
          }
        }
        return compiled(el);
      },
      specificity: specificityOf(selector),
      members: [],
      folded: undefined,
      unevaluable: false,
    };
    return group;
  }

  private index(selector: csstree.Selector, group: SelectorGroup): void {
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
    if (id !== undefined) push(this.byId, id, group);
    else if (cls !== undefined) push(this.byClass, cls, group);
    else if (tag !== undefined) push(this.byTag, tag, group);
    else this.universal.push(group);
  }

  /** The Bloom bits of each distinct `class` value. */
  private readonly classBits = new Map<string, readonly number[]>();

  /** Hash bits of every id, class and tag among the element's ancestors (memoised down the tree). */
  private ancestorMask(el: Element): Uint32Array {
    const chain: Element[] = [];
    let node = parentElement(el);
    let base: Uint32Array = EMPTY_MASK;
    while (node !== null) {
      const memo = this.maskMemo.get(node);
      if (memo !== undefined) {
        base = memo;
        break;
      }
      chain.push(node);
      node = parentElement(node);
    }
    // Masks for the chain from the top down: an ancestor's mask is its parent's plus the parent's own tokens.
    for (let i = chain.length - 1; i >= 0; i--) {
      const ancestor = chain[i]!;
      const parent = parentElement(ancestor);
      const mask = Uint32Array.from(base);
      if (parent !== null) addTokens(mask, parent, this.classBits);
      this.maskMemo.set(ancestor, mask);
      base = mask;
    }
    const parent = parentElement(el);
    if (parent === null) return EMPTY_MASK;
    const mask = Uint32Array.from(this.maskMemo.get(parent)!);
    addTokens(mask, parent, this.classBits);
    return mask;
  }

  /** Whether any rule or the style attribute declares, on this element, a property the rules read. */
  declaresAny(el: Element): boolean {
    let values = this.memo.get(el);
    if (values === undefined) {
      values = this.cascadeAll(el);
      this.memo.set(el, values);
    }
    return values.size > 0;
  }

  /** The cascaded (specified, not inherited) value of `property` on `el`; UNKNOWN when the page cannot decide it. */
  cascaded(el: Element, property: string): Cascaded {
    let values: ReadonlyMap<string, Cascaded> | undefined = this.memo.get(el);
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

  /** The candidate lists of each distinct `class` value: pages repeat the same few, and splitting is most of the cost. */
  private readonly classCandidates = new Map<string, readonly (readonly SelectorGroup[])[]>();

  private candidatesOfClasses(classes: string): readonly (readonly SelectorGroup[])[] {
    let lists = this.classCandidates.get(classes);
    if (lists === undefined) {
      const found: (readonly SelectorGroup[])[] = [];
      for (const c of classes.split(/\s+/)) {
        const list = c === '' ? undefined : this.byClass.get(c);
        if (list !== undefined) found.push(list);
      }
      lists = found;
      this.classCandidates.set(classes, lists);
    }
    return lists;
  }

  /** The candidate lists of the element being cascaded (reused: a cascade never starts another). */
  private readonly lists: (readonly SelectorGroup[])[] = [];

  private cascadeAll(el: Element, skipUndecidable = false): ReadonlyMap<string, Cascaded> {
    const attribs = el.attribs;
    const flags = this.documentOrder?.flagsOf(el) ?? attributeFlags(el);
    const style = flags & ATTRIBUTE.style ? attribs.style : undefined;
    const inline = style !== undefined && style.trim() !== '';
    const hinted = HINTED.has(el.name);
    if (this.order === 0 && !inline && !hinted) return NOTHING;
    // Most elements meet no rule that matches them: nothing is allocated until one does.
    const matching = { cascade: null as Cascade | null, ancestors: null as Uint32Array | null };
    if (this.order > 0) {
      const lists = this.lists;
      lists.length = 0;
      if (this.universal.length > 0) lists.push(this.universal);
      const byId = flags & ATTRIBUTE.id && this.byId.size > 0 ? this.byId.get(attribs.id!) : undefined;
      if (byId !== undefined) lists.push(byId);
      if (flags & ATTRIBUTE.class && this.byClass.size > 0) for (const list of this.candidatesOfClasses(attribs.class!)) lists.push(list);
      const byTag = this.byTag.get(el.name);
      if (byTag !== undefined) lists.push(byTag);
      for (const list of lists) {
        if (this.consider(el, list, matching, skipUndecidable)) continue;
        // Over the budget: whatever a candidate rule sets is UNKNOWN here, matched or not.
        const cascade = (matching.cascade = new Cascade());
        for (const candidates of lists) cascade.cut(this.propertiesOf(candidates));
        break;
      }
    }
    if (hinted) for (const { d, rank } of this.hints(el)) (matching.cascade ??= new Cascade()).offer(d.property, d, rank, false);
    if (inline) {
      const declarations = parseDeclarations(style);
      if (declarations.length > 0) (matching.cascade ??= new Cascade()).addInline(declarations);
    }
    return matching.cascade === null ? NOTHING : matching.cascade.result();
  }

  /** The colour of unvisited links: the body's `link` attribute, else the UA style sheet's (undefined until asked). */
  private linkColor: Offer | undefined;

  /**
   * The element's presentational hints (HTML §15.3: legacy attributes that enter the cascade as
   * author declarations of specificity zero before every sheet, so any rule or style attribute
   * overrides them), and the UA style sheet's link colour below them. Links are taken as
   * unvisited and not active: `vlink` and `alink` (`:visited`, `:active`) do not apply to the
   * page as served, like `:hover` rules.
   */
  private hints(el: Element): Offer[] {
    const attribs = el.attribs;
    const out: Offer[] = [];
    const hint = (property: string, value: string | undefined) => {
      if (value !== undefined) out.push({ property, d: { property, value, important: false }, rank: HINT_RANK });
    };
    const color = (value: string | undefined) => {
      const parsed = value === undefined ? undefined : parseLegacyColor(value);
      return parsed === undefined ? undefined : toHex(parsed);
    };
    switch (el.name) {
      case 'a':
      case 'area':
        // An SVG link's text is painted with `fill`, which no `color` changes.
        if (attribs.href !== undefined && el.namespace !== SVG_NAMESPACE) out.push(this.linkColor ??= this.findLinkColor(el));
        break;
      case 'font':
        hint('color', color(attribs.color));
        hint('font-size', attribs.size === undefined ? undefined : legacyFontSize(attribs.size));
        if (attribs.face !== undefined && attribs.face.trim() !== '') hint('font-family', attribs.face.trim().toLowerCase());
        break;
      default:
        hint('background-color', color(attribs.bgcolor));
        if (el.name !== 'marquee' && attribs.background !== undefined && attribs.background.trim() !== '') {
          hint('background-image', `url(${JSON.stringify(attribs.background.trim())})`);
        }
        if (el.name === 'body') hint('color', color(attribs.text));
    }
    return out;
  }

  private findLinkColor(el: Element): Offer {
    let root = el;
    for (let node = parentElement(el); node !== null; node = parentElement(node)) root = node;
    const body = root.name === 'body' ? root : root.children.find((c): c is Element => isTag(c) && c.name === 'body');
    const parsed = body?.attribs.link === undefined ? undefined : parseLegacyColor(body.attribs.link);
    const value = parsed === undefined ? LINK_COLOR : toHex(parsed);
    return { property: 'color', d: { property: 'color', value, important: false }, rank: parsed === undefined ? UA_RANK : HINT_RANK };
  }

  /** `match`'s answer, or undefined when the budget is gone (before it, or inside css-select). */
  private budgeted(match: () => boolean): boolean | undefined {
    if (this.exhausted) return undefined;
    try {
      const matches = match();
      return this.exhausted ? undefined : matches;
    } catch (error) {
      if (error === OVER_BUDGET) return undefined;
      throw error;
    }
  }

  /** False when the budget ran out before every candidate was tried. */
  private consider(
    el: Element,
    candidates: readonly SelectorGroup[],
    matching: { cascade: Cascade | null; ancestors: Uint32Array | null },
    skipUndecidable: boolean,
  ): boolean {
    try {
      for (const candidate of candidates) {
        if (!this.spend()) return false;
        // Like a browser's Bloom filter: a selector needing an ancestor token no ancestor has cannot match.
        if (candidate.ancestors !== null) {
          matching.ancestors ??= this.ancestorMask(el);
          if (!covers(matching.ancestors, candidate.ancestors)) continue;
        }
        if (!candidate.match(el)) continue;
        (matching.cascade ??= new Cascade()).addGroup(candidate, skipUndecidable);
      }
    } catch (error) {
      if (error === OVER_BUDGET) return false;
      throw error;
    }
    return true;
  }

  /** Every property some group of a candidate list sets (computed once per list, only past the budget). */
  private readonly listProperties = new WeakMap<readonly SelectorGroup[], ReadonlySet<string>>();

  private propertiesOf(list: readonly SelectorGroup[]): ReadonlySet<string> {
    let properties = this.listProperties.get(list);
    if (properties === undefined) {
      const union = new Set<string>();
      for (const group of list) for (const property of fold(group).properties) union.add(property);
      this.listProperties.set(list, (properties = union));
    }
    return properties;
  }

  private readonly computedMemo = new Map<string, ElementMemo<string | typeof UNKNOWN | typeof INITIAL>>();

  /** The value in effect: cascaded, else inherited (for inherited properties), else undefined (the initial value). */
  computed(el: Element, property: string): string | typeof UNKNOWN | undefined {
    let memo = this.computedMemo.get(property);
    if (memo === undefined) this.computedMemo.set(property, (memo = new ElementMemo(this.documentOrder)));
    const inherited = INHERITED.has(property);
    const value = nearest(
      memo,
      el,
      (node) => {
        const c = this.cascaded(node, property);
        if (c === UNKNOWN) return UNKNOWN;
        if (c === undefined) return inherited ? undefined : INITIAL;
        if (c.value === 'inherit' || c.value === 'unset' || c.value === 'revert') return undefined;
        return c.value === 'initial' ? INITIAL : c.value;
      },
      INITIAL,
    );
    return value === INITIAL ? undefined : value;
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

/** The declarations competing for one element's properties: importance, then specificity, then order. */
class Cascade {
  private readonly winners = new Map<string, { d: Declaration; rank: number; inline: boolean }>();
  private readonly unknown = new Set<string>();
  /** Properties the cascade could not finish (over the budget): UNKNOWN whatever else declares them. */
  private readonly unfinished = new Set<string>();

  addGroup(group: SelectorGroup, skipUndecidable: boolean): void {
    const { winners, undecidable, properties } = fold(group);
    if (group.unevaluable) {
      if (!skipUndecidable) for (const property of properties) this.unknown.add(property);
      return;
    }
    if (!skipUndecidable) for (const property of undecidable) this.unknown.add(property);
    for (const { property, d, rank } of winners) this.offer(property, d, rank, false);
  }

  cut(properties: ReadonlySet<string>): void {
    for (const property of properties) this.unfinished.add(property);
  }

  /** A style attribute ranks above every sheet rule of the same importance. */
  addInline(declarations: readonly Declaration[]): void {
    for (const d of declarations) for (const property of expand(d.property)) this.offer(property, d, (d.important ? 2e15 : 0) + 1.5e15, true);
  }

  offer(property: string, d: Declaration, rank: number, inline: boolean): void {
    const current = this.winners.get(property);
    if (current === undefined || rank >= current.rank) this.winners.set(property, { d, rank, inline });
  }

  result(): ReadonlyMap<string, Cascaded> {
    if (this.winners.size === 0 && this.unknown.size === 0 && this.unfinished.size === 0) return NOTHING;
    const out = new Map<string, Cascaded>();
    for (const property of this.unfinished) out.set(property, UNKNOWN);
    for (const property of this.unknown) out.set(property, UNKNOWN);
    for (const [property, { d, inline }] of this.winners) {
      if (this.unfinished.has(property)) continue;
      // An undecidable rule could still lose to a declared !important one.
      if (this.unknown.has(property) && !d.important) continue;
      out.set(property, { value: longhandValue(d, property), important: d.important, inline });
    }
    return out;
  }
}

/** Offers a declaration to a group's winners: the higher rank wins, the later of equal rank (the same rule's later declaration). */
function offer(winners: Offer[], property: string, d: Declaration, rank: number): void {
  for (const w of winners) {
    if (w.property !== property) continue;
    if (rank >= w.rank) {
      w.d = d;
      w.rank = rank;
    }
    return;
  }
  winners.push({ property, d, rank });
}

const MASK_WORDS = 4;
const EMPTY_MASK = new Uint32Array(MASK_WORDS);

function hashToken(token: string): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return (h >>> 0) % (MASK_WORDS * 32);
}

function setBit(mask: Uint32Array, token: string): void {
  const bit = hashToken(token);
  mask[bit >>> 5]! |= 1 << (bit & 31);
}

function addTokens(mask: Uint32Array, el: Element, classBits: Map<string, readonly number[]>): void {
  setBit(mask, el.name);
  const id = el.attribs.id;
  if (id !== undefined && id !== '') setBit(mask, `#${id}`);
  const classes = el.attribs.class;
  if (classes === undefined) return;
  let bits = classBits.get(classes);
  if (bits === undefined) {
    bits = classes.split(/\s+/).filter((c) => c !== '').map((c) => hashToken(`.${c}`));
    classBits.set(classes, bits);
  }
  for (const bit of bits) mask[bit >>> 5]! |= 1 << (bit & 31);
}

function covers(have: Uint32Array, need: Uint32Array): boolean {
  for (let i = 0; i < MASK_WORDS; i++) if ((need[i]! & ~have[i]!) !== 0) return false;
  return true;
}

/**
 * Tokens the subject's ancestors must carry: one key (id, else class, else tag) of each compound
 * followed by a descendant or child combinator. Null when there are none.
 */
function ancestorKeys(selector: csstree.Selector): Uint32Array | null {
  const compounds: Array<{ key: string | undefined; combinator: string | undefined }> = [];
  let current: { id?: string; cls?: string; tag?: string } = {};
  const close = (combinator: string | undefined) => {
    compounds.push({ key: current.id !== undefined ? `#${current.id}` : current.cls !== undefined ? `.${current.cls}` : current.tag, combinator });
    current = {};
  };
  selector.children.forEach((node) => {
    if (node.type === 'Combinator') close(node.name);
    else if (node.type === 'IdSelector') current.id ??= node.name;
    else if (node.type === 'ClassSelector') current.cls ??= node.name;
    else if (node.type === 'TypeSelector' && node.name !== '*') current.tag ??= node.name.toLowerCase();
  });
  const mask = new Uint32Array(MASK_WORDS);
  let any = false;
  for (const { key, combinator } of compounds) {
    if (key === undefined || (combinator !== ' ' && combinator !== '>')) continue;
    setBit(mask, key);
    any = true;
  }
  return any ? mask : null;
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

/** Declarations of a `style` attribute or a rule's block, READ properties only, in order. */
export function parseDeclarations(text: string): Declaration[] {
  const out: Declaration[] = [];
  for (const raw of splitTopLevel(stripComments(text), 0x3b /* ; */)) {
    // A nested rule (CSS nesting) is not a declaration of this element.
    if (raw.includes('{')) continue;
    const colon = raw.indexOf(':');
    if (colon < 0) continue;
    const property = raw.slice(0, colon).trim().toLowerCase();
    if (!READ.has(property)) continue;
    let value = raw.slice(colon + 1).trim();
    const important = /!\s*important\s*$/i.test(value);
    if (important) value = value.replace(/!\s*important\s*$/i, '').trim();
    if (value === '') continue;
    out.push({ property, value: value.toLowerCase(), important });
  }
  return out;
}

/** Splits on `separator` outside strings, parentheses and brackets. */
function splitTopLevel(text: string, separator: number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === c || d === 0x0a) break;
      }
    } else if (c === 0x28 || c === 0x5b) depth++;
    else if ((c === 0x29 || c === 0x5d) && depth > 0) depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
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
 * Whether a media query list (an `@media` prelude, a `<style>`'s `media` attribute, an
 * `@import`'s media) applies on the screen the page is judged for: true for `all`/`screen` without
 * features (and `not print`), false when every query is for another medium (`print`, `speech`,
 * the deprecated types, an unknown type) or is malformed (Media Queries 4: `not all`), undefined
 * when it depends on the viewport or the device (widths, orientation, preferences): the rules it
 * guards are then undecidable, wherever the query is written.
 */
export function mediaApplies(list: string): boolean | undefined {
  const text = stripComments(list).trim().toLowerCase();
  if (text === '') return true;
  let any: boolean | undefined = false;
  for (const query of splitTopLevel(text, 0x2c /* , */)) {
    const applies = queryApplies(query.trim());
    if (applies === true) return true;
    if (applies === undefined) any = undefined;
  }
  return any;
}

function queryApplies(query: string): boolean | undefined {
  if (query === '') return false;
  // A condition alone: `(min-width: 600px)`, `not (hover)`, `(a) and (b)`.
  if (/^(?:not\s*)?\(/.test(query)) return undefined;
  const match = /^(?:(not|only)\s+)?([a-z][a-z0-9-]*)(?:\s+and\s*(\(.*))?$/s.exec(query);
  if (match === null) return false;
  const [, modifier, type, condition] = match;
  if (type === 'not' || type === 'only' || type === 'and' || type === 'or' || type === 'layer') return false;
  const onScreen = type === 'all' || type === 'screen';
  const matches = !onScreen ? false : condition === undefined ? true : undefined;
  return modifier === 'not' && matches !== undefined ? !matches : matches;
}

/** The media list of an `@import` prelude (after `import`): what follows its URL, `layer` and `supports()`. */
function importMediaApplies(prelude: string): boolean | undefined {
  const rest = /^(?:url\((?:"[^"]*"|'[^']*'|[^)]*)\)|"[^"]*"|'[^']*')\s*(?:layer(?:\([^)]*\))?\s*)?(?:supports\((?:[^()]|\([^()]*\))*\)\s*)?(.*)$/s.exec(prelude.trim());
  return rest === null ? undefined : mediaApplies(rest[1]!);
}

/** A `<style>` element's sheet as the index reads it: its text and its `media` attribute. */
export interface StyleSheetSource {
  text: string;
  media?: string | undefined;
}

/** Types a browser reads as CSS (HTML: a `<style>` or `<link>` of any other type is ignored). */
const CSS_TYPE = /^\s*(?:text\/css)?\s*$/i;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/**
 * The sheet of a `<style>` element, or null when browsers ignore it (a `type` other than text/css).
 * A `<style>` inside `<noscript>` or `<template>` is none of the document's: the parse leaves it
 * out of the tree (noscript content is text to a browser running scripts, template content sits
 * in its own fragment), so PageSpeed's fallback `<noscript><style>…{display:none}` hides nothing.
 */
export function styleSheetOf(style: Element, text: string): StyleSheetSource | null {
  const type = style.attribs.type;
  if (type !== undefined && !CSS_TYPE.test(type)) return null;
  return { text, media: style.attribs.media };
}

/**
 * Whether a `<link>` may bring a style sheet (it is never fetched): its rel has `stylesheet`.
 * Its `media`, `disabled` and `alternate` are not read, nor a place inside `<noscript>`: pages
 * load their CSS asynchronously by linking it for `print` (or `only x`) and switching it to `all`
 * from a script (`onload="this.media='all'"`, loadCSS), or keep the link in `<noscript>` and
 * insert it from a script (PageSpeed); on the corpora, reading them made colours decidable on
 * pages whose real colours come from those sheets.
 */
export function linkedSheetApplies(link: Element): boolean {
  return /(?:^|[\t\n\f\r ])stylesheet(?:[\t\n\f\r ]|$)/i.test(link.attribs.rel ?? '');
}
