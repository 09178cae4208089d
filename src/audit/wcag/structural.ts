// The structural pseudo-classes (:nth-child, :nth-last-child, :nth-of-type, :nth-last-of-type,
// :first-/last-/only-child, :first-/last-/only-of-type) answered from positions computed once per
// parent: one pass over a parent's children gives every child its index among its element
// siblings and among those of its own type, from either end. css-select's own implementations
// walk the siblings for each element they test, which is quadratic in a parent's child count
// (one rule `:nth-last-of-type(2)` over 100,000 sibling paragraphs took 46 s).
//
// Handed to css-select as user pseudo-classes (its `pseudos` option), with css-select's semantics
// kept exactly, quirks included: a child of the document counts its siblings in the document's
// children; `:nth-child(n)` (every index) needs a parent element; `An+B of S` needs whitespace
// around `of`, else the argument is invalid (and the selector undecidable, as before).
import { compile, type Options } from 'css-select';
import { isTag, type AnyNode, type Element } from 'domhandler';
import { compile as compileNth, parse as parseNth } from 'nth-check';
import { ElementMemo, type DocumentOrder } from './element-memo.ts';

/** An element's 0-based index among its element siblings and among its type, from the start and from the end. */
interface Position {
  child: number;
  childLast: number;
  type: number;
  typeLast: number;
}

/** An `An+B [of S]` argument, compiled once per distinct text. */
interface NthArgument {
  check: (index: number) => boolean;
  /** Every index matches and there is no `of S`: css-select then asks only for a parent element. */
  any: boolean;
  /** The `of S` selector's positions, memoised per parent like the plain ones. */
  of: FilteredPositions | undefined;
}

/** Positions among the siblings that match one selector (`:nth-child(An+B of S)`); null for a non-matching element. */
class FilteredPositions {
  private readonly test: (el: Element) => boolean;
  private readonly memo: ElementMemo<{ index: number; last: number } | null>;
  /** Told how many siblings each pass tests (counted, and charged to the cascade's budget). */
  private readonly visited: (count: number) => void;

  constructor(test: (el: Element) => boolean, order: DocumentOrder | undefined, visited: (count: number) => void) {
    this.test = test;
    this.memo = new ElementMemo(order);
    this.visited = visited;
  }

  get(el: Element): { index: number; last: number } | null {
    let known = this.memo.get(el);
    if (known === undefined) {
      const matching: Element[] = [];
      const siblings = siblingsOf(el);
      this.visited(siblings.length);
      for (const sibling of siblings) if (isTag(sibling)) {
        if (this.test(sibling)) matching.push(sibling);
        else this.memo.set(sibling, null);
      }
      for (let i = 0; i < matching.length; i++) this.memo.set(matching[i]!, { index: i, last: matching.length - 1 - i });
      known = this.memo.get(el)!;
    }
    return known;
  }
}

/** What css-select's `getSiblings` gives: the parent's children, or the chain of `prev`/`next` links of a parentless node. */
function siblingsOf(el: Element): readonly AnyNode[] {
  if (el.parent !== null) return el.parent.children;
  let first: AnyNode = el;
  while (first.prev !== null) first = first.prev;
  const out: AnyNode[] = [];
  for (let node: AnyNode | null = first; node !== null; node = node.next) out.push(node);
  return out;
}

/** A `:nth-*(An+B of S)` argument as css-select splits it (whitespace around `of` required). */
const NTH_OF = /^(.+?)\s+of\s+(.+)$/is;

/** css-select's view of the DOM (the package does not export the type by name). */
export type SelectAdapter = NonNullable<Options<AnyNode, Element>['adapter']>;

export type NthPseudo = 'nth-child' | 'nth-last-child' | 'nth-of-type' | 'nth-last-of-type';
export const NTH_PSEUDOS: ReadonlySet<string> = new Set<NthPseudo>(['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type']);

export class StructuralPositions {
  private readonly order: DocumentOrder | undefined;
  private readonly positions: ElementMemo<Position>;
  /** Compiled arguments by pseudo-class, then by text (css-select passes the text on every match). */
  private readonly nthArguments = new Map<NthPseudo, Map<string, NthArgument>>();
  /** Sibling nodes visited computing positions: each parent's children once per kind of position. */
  siblingVisits = 0;
  /** css-select's options with these pseudo-classes: the compile options of every selector of the page. */
  readonly options: Options<AnyNode, Element>;

  /** Charged with the sibling tests of an `of S` pass (one match of S per sibling). */
  private readonly charge: (steps: number) => void;

  /** `adapter`: css-select's, unless given; `charge`: the cascade's budget (throws once it is spent). */
  constructor(order?: DocumentOrder, adapter?: SelectAdapter, charge: (steps: number) => void = () => {}) {
    this.order = order;
    this.charge = charge;
    this.positions = new ElementMemo(order);
    const at = (el: Element) => this.position(el);
    // Two parameters, as css-select tells pseudo-classes that take an argument by the function's length.
    const nth = (name: NthPseudo) => (el: Element, data?: string | null) => this.nth(el, name, data ?? '');
    this.options = {
      ...(adapter === undefined ? {} : { adapter }),
      pseudos: {
        'first-child': (el: Element) => at(el).child === 0,
        'last-child': (el: Element) => at(el).childLast === 0,
        'only-child': (el: Element) => at(el).child === 0 && at(el).childLast === 0,
        'first-of-type': (el: Element) => at(el).type === 0,
        'last-of-type': (el: Element) => at(el).typeLast === 0,
        'only-of-type': (el: Element) => at(el).type === 0 && at(el).typeLast === 0,
        'nth-child': nth('nth-child'),
        'nth-last-child': nth('nth-last-child'),
        'nth-of-type': nth('nth-of-type'),
        'nth-last-of-type': nth('nth-last-of-type'),
      },
    };
  }

  /** The element's positions, computed for all its siblings at once on first ask. */
  position(el: Element): Position {
    const known = this.positions.get(el);
    if (known !== undefined) return known;
    const siblings = siblingsOf(el);
    const perType = new Map<string, number>();
    const tags: Element[] = [];
    this.siblingVisits += siblings.length;
    for (const sibling of siblings) {
      if (!isTag(sibling)) continue;
      const type = perType.get(sibling.name) ?? 0;
      perType.set(sibling.name, type + 1);
      this.positions.set(sibling, { child: tags.length, childLast: 0, type, typeLast: 0 });
      tags.push(sibling);
    }
    for (const sibling of tags) {
      const p = this.positions.get(sibling)!;
      p.childLast = tags.length - 1 - p.child;
      p.typeLast = perType.get(sibling.name)! - 1 - p.type;
    }
    return this.positions.get(el)!;
  }

  /**
   * The compiled `An+B [of S]` argument of a `:nth-*` pseudo-class; throws where css-select's
   * compilation would (an invalid formula or `of` selector). Called before compiling a selector,
   * so that an invalid argument fails the compilation, not a match.
   */
  argument(name: NthPseudo, data: string): NthArgument {
    let byText = this.nthArguments.get(name);
    if (byText === undefined) this.nthArguments.set(name, (byText = new Map()));
    let argument = byText.get(data);
    if (argument === undefined) {
      const ofMatch = name === 'nth-child' || name === 'nth-last-child' ? NTH_OF.exec(data) : null;
      const parsed = parseNth(ofMatch === null ? data : ofMatch[1]!.trim());
      const test = ofMatch === null ? undefined : compile<AnyNode, Element>(ofMatch[2]!.trim(), this.options);
      argument = {
        check: compileNth(parsed),
        // nth-check's own shortcut (boolbase's trueFunc) for a = 1, b ≤ 0: css-select then checks the parent only.
        any: test === undefined && parsed[0] === 1 && parsed[1] <= 0,
        of:
          test === undefined
            ? undefined
            : new FilteredPositions(test, this.order, (count) => {
                this.siblingVisits += count;
                this.charge(count);
              }),
      };
      byText.set(data, argument);
    }
    return argument;
  }

  private nth(el: Element, name: NthPseudo, data: string): boolean {
    const { check, any, of } = this.argument(name, data);
    if (any) return el.parent !== null && isTag(el.parent);
    const last = name === 'nth-last-child' || name === 'nth-last-of-type';
    if (of !== undefined) {
      const p = of.get(el);
      return p !== null && check(last ? p.last : p.index);
    }
    const p = this.position(el);
    if (name === 'nth-child') return check(p.child);
    if (name === 'nth-last-child') return check(p.childLast);
    return check(name === 'nth-of-type' ? p.type : p.typeLast);
  }
}
