// Per-element facts of one page (state, cascade, role, name, inherited values…) kept in arrays
// indexed by document position rather than in Maps keyed by the element. The engine asks several
// facts of every element, and a Map lookup hashes the element each time: on the corpus a Map
// set + get pair cost 3–4× an array slot. The context's walk records each element's position
// under a module-private symbol; a memo trusts a position only when its own document has that
// very element there, and keeps any other element (another document's) in a Map.
import type { Element } from 'domhandler';

const POSITION = Symbol('position in document order');
type Positioned = Element & { [POSITION]?: number };

/** The elements of one document in document order, each knowing its position. */
export class DocumentOrder {
  readonly elements: readonly Element[];

  constructor(elements: readonly Element[]) {
    this.elements = elements;
    for (let i = 0; i < elements.length; i++) (elements[i] as Positioned)[POSITION] = i;
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
