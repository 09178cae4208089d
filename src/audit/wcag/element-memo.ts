// Per-element facts of one page (state, cascade, role, name, inherited values…) kept in arrays
// indexed by document position rather than in Maps keyed by the element. The engine asks several
// facts of every element, and a Map lookup hashes the element each time: on the corpus a Map
// set + get pair cost 3–4× an array slot. The context's walk records each element's position
// under a module-private symbol; a memo trusts a position only when its own document has that
// very element there, and keeps any other element (another document's) in a Map.
//
// The walk also notes which of the attributes the engine asks about every element carries
// (`ATTRIBUTE` flags): attribute objects come in as many shapes as attribute orders, so each
// `attribs.x` read is a megamorphic lookup, and most elements carry none of them.
import type { Element } from 'domhandler';

const POSITION = Symbol('position in document order');
type Positioned = Element & { [POSITION]?: number };

/** Attributes the engine reads of every element, as bits. */
export const ATTRIBUTE = {
  aria: 1 << 0, // any aria-*
  role: 1 << 1,
  style: 1 << 2,
  class: 1 << 3,
  id: 1 << 4,
  hidden: 1 << 5,
  ariaHidden: 1 << 6,
  inert: 1 << 7,
  tabindex: 1 << 8,
  contenteditable: 1 << 9,
  lang: 1 << 10, // lang or xml:lang
  title: 1 << 11,
  disabled: 1 << 12,
} as const;

/** The ATTRIBUTE bits of an element, from one pass over its attribute names. */
export function attributeFlags(el: Element): number {
  let flags = 0;
  for (const name in el.attribs) {
    switch (name) {
      case 'role': flags |= ATTRIBUTE.role; break;
      case 'style': flags |= ATTRIBUTE.style; break;
      case 'class': flags |= ATTRIBUTE.class; break;
      case 'id': flags |= ATTRIBUTE.id; break;
      case 'hidden': flags |= ATTRIBUTE.hidden; break;
      case 'aria-hidden': flags |= ATTRIBUTE.ariaHidden | ATTRIBUTE.aria; break;
      case 'inert': flags |= ATTRIBUTE.inert; break;
      case 'tabindex': flags |= ATTRIBUTE.tabindex; break;
      case 'contenteditable': flags |= ATTRIBUTE.contenteditable; break;
      case 'lang': case 'xml:lang': flags |= ATTRIBUTE.lang; break;
      case 'title': flags |= ATTRIBUTE.title; break;
      case 'disabled': flags |= ATTRIBUTE.disabled; break;
      default: if (name.startsWith('aria-')) flags |= ATTRIBUTE.aria;
    }
  }
  return flags;
}

/** The elements of one document in document order, each knowing its position and its ATTRIBUTE bits. */
export class DocumentOrder {
  readonly elements: readonly Element[];
  private readonly flags: readonly number[];

  /** `flags[i]`: the ATTRIBUTE bits of `elements[i]`. */
  constructor(elements: readonly Element[], flags: readonly number[]) {
    this.elements = elements;
    this.flags = flags;
    for (let i = 0; i < elements.length; i++) (elements[i] as Positioned)[POSITION] = i;
  }

  /** The element's ATTRIBUTE bits (read from its attributes for an element of another document). */
  flagsOf(el: Element): number {
    const i = this.positionOf(el);
    return i === undefined ? attributeFlags(el) : this.flags[i]!;
  }

  /** The element's position in this document, or undefined for an element of another document. */
  positionOf(el: Element): number | undefined {
    const i = (el as Positioned)[POSITION];
    return i !== undefined && this.elements[i] === el ? i : undefined;
  }
}

/** A Map-like memo from element to value (never undefined), array-backed for the document's elements. */
export class ElementMemo<T> {
  private readonly order: DocumentOrder | undefined;
  private slots: (T | undefined)[] | undefined;
  private others: Map<Element, T> | undefined;

  constructor(order?: DocumentOrder) {
    this.order = order;
  }

  get(el: Element): T | undefined {
    const i = this.order?.positionOf(el);
    return i === undefined ? this.others?.get(el) : this.slots?.[i];
  }

  has(el: Element): boolean {
    return this.get(el) !== undefined;
  }

  set(el: Element, value: T): this {
    const i = this.order?.positionOf(el);
    if (i === undefined) (this.others ??= new Map()).set(el, value);
    else (this.slots ??= this.allocate())[i] = value;
    return this;
  }

  /** Filled, not preallocated: a long `new Array(n)` is a dictionary in V8, and holes slow every read. */
  private allocate(): (T | undefined)[] {
    const slots: (T | undefined)[] = [];
    for (let i = this.order!.elements.length; i > 0; i--) slots.push(undefined);
    return slots;
  }
}
