// The WCAG engine's view of one page: the shared page model (parsed once by page.ts) plus the
// indexes every rule reads, built in one walk over the elements: elements by tag and by role,
// ids, labels, the style cascade, whether each element is rendered, hidden from assistive
// technology or visible, and (memoised, on demand) accessible names. No rule walks the whole
// document itself; a rule reads these indexes and looks only at the elements it applies to.
//
// Three-valued answers: `Tri` is true, false or undefined (undecidable from the page alone, e.g.
// a `display` set by a rule inside a viewport media query).
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import type { Location } from '../control.ts';
import type { Page } from '../page.ts';
import { hasVisibleText, normalizeText } from '../page.ts';
import { locate } from '../page/location.ts';
import { HTML_NAMESPACE } from '../page/parse.ts';
import { parentElement } from '../page/dom.ts';
import { NOT_RENDERED } from '../page/visibility.ts';
import { accessibleName } from './accname.ts';
import { ATTRIBUTE, attributeFlags, DocumentOrder, ElementMemo } from './element-memo.ts';
import { explicitRole, implicitRole, inputType, GLOBAL_PROPERTIES } from './aria.ts';
import { CSS_TOO_LARGE, StyleIndex, UNKNOWN, linkedSheetApplies, parseLength, styleSheetOf, type StyleSheetSource } from './styles.ts';

export type Tri = boolean | undefined;

export function and(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : undefined;
}

export function not(a: Tri): Tri {
  return a === undefined ? undefined : !a;
}

/** Elements that may take focus by default (HTML's focusable areas), before `disabled` and `tabindex`. */
const NATIVELY_FOCUSABLE = new Set(['button', 'select', 'textarea', 'iframe']);
/** Any character `String#trim` would keep. */
const NOT_BLANK = /\S/;
const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option']);

/** Per-element facts computed in the walk, parents before children. */
interface ElementState {
  /** Not `display: none` (self or ancestor) and not a never-rendered element. */
  rendered: Tri;
  /** Computed `visibility` is visible. */
  visibilityVisible: Tri;
  /** `aria-hidden="true"` on an inclusive ancestor. */
  ariaHidden: boolean;
  /** Inert or inside a disabled fieldset and the like: cannot take focus. */
  inert: boolean;
  /** Inside content that is positioned or clipped out of sight, or fully transparent. */
  visuallyHidden: Tri;
}

/** Attributes that change an element's state from its parent's. */
const STATE_ATTRIBUTES = ATTRIBUTE.hidden | ATTRIBUTE.ariaHidden | ATTRIBUTE.inert;

export interface WcagOptions {
  /** The document is HTML (false for the SVG and XML documents of the ACT test suite). */
  html: boolean;
  /** The cascade's budget of selector matches (MATCH_BUDGET; smaller in tests). */
  matchBudget?: number;
}

export class WcagContext {
  readonly page: Page;
  readonly html: boolean;
  /** Every element in document order. */
  readonly elements: readonly Element[];
  readonly byTag = new Map<string, Element[]>();
  /**
   * Elements by id, every element carrying that id in document order, as `Page.ids` has them
   * (built here in the context's own walk, so the page model's extraction never runs for WCAG).
   */
  readonly ids = new Map<string, Element[]>();
  readonly styles: StyleIndex;
  /** `<label for=id>` by the id they point at. */
  readonly labelsFor = new Map<string, Element[]>();
  /** Every element carrying an attribute whose name starts with `aria-`. */
  readonly ariaElements: Element[] = [];
  /** Every element carrying a `role` attribute. */
  readonly roleElements: Element[] = [];
  /** Every element carrying a `style` attribute. */
  readonly styledElements: Element[] = [];
  /** Every element carrying a `lang` attribute (any namespace spelling), `<html>` included. */
  readonly langElements: Element[] = [];
  /** Elements with a direct text child that is not blank, in document order: where text is drawn. */
  readonly textElements: Element[] = [];
  /** Elements that are focusable by markup (before hiddenness), in document order. */
  readonly focusCandidates: Element[] = [];
  readonly htmlElement: Element | null;
  /** The page links style sheets (or imports them): CSS the service does not fetch may apply. */
  readonly externalStyles: boolean;
  /** Each element's position, for the memos of per-element facts. */
  readonly documentOrder: DocumentOrder;
  private readonly state: ElementMemo<ElementState>;
  private readonly roleMemo: ElementMemo<string | null>;
  private readonly nameMemo: ElementMemo<string>;
  private readonly byRoleMemo = new Map<string, Element[]>();

  constructor(page: Page, options: WcagOptions) {
    this.page = page;
    this.html = options.html;
    const elements: Element[] = [];
    const styleSheets: StyleSheetSource[] = [];
    // One iterative walk: elements in document order, the indexes, the style sheets.
    const { byTag, langElements, ariaElements, roleElements, styledElements, textElements, focusCandidates } = this;
    const elementFlags: number[] = [];
    const stack: Element[] = [];
    for (let i = page.document.children.length - 1; i >= 0; i--) {
      const child = page.document.children[i]!;
      if (isTag(child)) stack.push(child);
    }
    while (stack.length > 0) {
      const node = stack.pop()!;
      elements.push(node);
      const tag = node.name;
      const sameTag = byTag.get(tag);
      if (sameTag === undefined) byTag.set(tag, [node]);
      else sameTag.push(node);
      const flags = attributeFlags(node);
      elementFlags.push(flags);
      if (flags !== 0) {
        if (flags & ATTRIBUTE.id && node.attribs.id !== '') push(this.ids, node.attribs.id!, node);
        if (flags & ATTRIBUTE.lang) langElements.push(node);
        if (flags & ATTRIBUTE.aria) ariaElements.push(node);
        if (flags & ATTRIBUTE.role) roleElements.push(node);
        if (flags & ATTRIBUTE.style) styledElements.push(node);
      }
      if (tag === 'label' && node.attribs.for !== undefined) push(this.labelsFor, node.attribs.for, node);
      if (tag === 'style') {
        const sheet = styleSheetOf(node, textOf(node));
        if (sheet !== null) styleSheets.push(sheet);
      }
      if (this.markupFocusable(node, flags)) focusCandidates.push(node);
      const children = node.children;
      let text = false;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        if (isTag(child)) stack.push(child);
        else if (!text && isText(child) && NOT_BLANK.test(child.data)) text = true;
      }
      if (text) textElements.push(node);
    }
    this.elements = elements;
    this.documentOrder = new DocumentOrder(elements, elementFlags);
    this.state = this.memo();
    this.roleMemo = this.memo();
    this.nameMemo = this.memo();
    this.locationMemo = this.memo();
    this.styles = new StyleIndex(styleSheets, this.documentOrder, options.matchBudget);
    this.htmlElement = this.byTag.get('html')?.[0] ?? null;
    this.externalStyles = (this.byTag.get('link') ?? []).some(linkedSheetApplies) || this.styles.imports;
    for (const el of elements) this.state.set(el, this.computeState(el));
  }

  private computeState(el: Element): ElementState {
    const parent = parentElement(el);
    const up = parent === null ? undefined : this.state.get(parent);
    const attribs = el.attribs;
    // Most elements declare nothing the rules read: they take their parent's state as it is.
    const styled = this.styles.declaresAny(el);
    const flags = this.documentOrder.flagsOf(el);
    // The UA style sheet hides an `<input type=hidden>` (display: none !important).
    const hiddenInput = el.name === 'input' && inputType(el) === 'hidden';
    if (up !== undefined && !styled && (flags & STATE_ATTRIBUTES) === 0 && !NOT_RENDERED.has(el.name) && parent!.name !== 'iframe' && el.name !== 'dialog' && !hiddenInput) {
      return up;
    }
    let rendered: Tri = up?.rendered ?? true;
    // An iframe's box is rendered; the markup inside it is fallback text that never is.
    const fallback = parent !== null && parent.name === 'iframe';
    if ((NOT_RENDERED.has(el.name) && el.name !== 'iframe') || fallback || hiddenInput || el.name === 'head' || (el.name === 'dialog' && attribs.open === undefined)) rendered = false;
    else if (rendered !== false) {
      const display = this.styles.cascaded(el, 'display');
      if (display === UNKNOWN) rendered = undefined;
      else if (display !== undefined && display.value === 'none') rendered = false;
      else if (attribs.hidden !== undefined && (display === undefined || display.value === 'none')) rendered = false;
    }
    const visibility = this.styles.cascaded(el, 'visibility');
    let visibilityVisible: Tri = up?.visibilityVisible ?? true;
    if (visibility === UNKNOWN) visibilityVisible = undefined;
    else if (visibility !== undefined) {
      if (visibility.value === 'hidden' || visibility.value === 'collapse') visibilityVisible = false;
      else if (visibility.value === 'visible') visibilityVisible = true;
    }
    const ariaHidden = (up?.ariaHidden ?? false) || (attribs['aria-hidden'] ?? '').trim().toLowerCase() === 'true';
    const inert = (up?.inert ?? false) || attribs.inert !== undefined;
    let visuallyHidden: Tri = up?.visuallyHidden ?? false;
    if (visuallyHidden !== true && styled) {
      const own = this.hiddenByStyle(el);
      visuallyHidden = own === true ? true : visuallyHidden === undefined || own === undefined ? undefined : false;
    }
    return { rendered, visibilityVisible, ariaHidden, inert, visuallyHidden };
  }

  /** Positioned off-screen, clipped to nothing, fully transparent or zero-sized with hidden overflow. */
  private hiddenByStyle(el: Element): Tri {
    const s = this.styles;
    const values = ['position', 'clip', 'clip-path', 'left', 'top', 'opacity', 'width', 'height', 'overflow-x', 'text-indent', 'transform'].map((p) => s.cascaded(el, p));
    if (values.every((v) => v === undefined)) return false;
    const get = (i: number) => {
      const v = values[i];
      return v === UNKNOWN ? UNKNOWN : v?.value;
    };
    if (values.some((v) => v === UNKNOWN)) return undefined;
    const position = get(0) as string | undefined;
    const positioned = position === 'absolute' || position === 'fixed';
    const clip = get(1) as string | undefined;
    if (positioned && clip !== undefined && /^rect\(\s*(?:0|1px)[\s,]+(?:0|1px)[\s,]+(?:0|1px)[\s,]+(?:0|1px)\s*\)$/.test(clip)) return true;
    const clipPath = get(2) as string | undefined;
    if (clipPath !== undefined && /inset\(\s*50%|circle\(\s*0/.test(clipPath)) return true;
    for (const i of [3, 4]) {
      const offset = get(i) as string | undefined;
      if (positioned && offset !== undefined) {
        const px = parseLength(offset, 16, 1000);
        if (px !== undefined && px <= -500) return true;
      }
    }
    const opacity = get(5) as string | undefined;
    if (opacity !== undefined && Number.parseFloat(opacity) === 0) return true;
    const width = get(6) as string | undefined;
    const height = get(7) as string | undefined;
    const overflow = get(8) as string | undefined;
    const zero = (v: string | undefined) => v !== undefined && parseLength(v, 16, 0) !== undefined && parseLength(v, 16, 0)! <= 1;
    if ((zero(width) || zero(height)) && overflow === 'hidden') return true;
    const indent = get(9) as string | undefined;
    if (indent !== undefined) {
      const px = parseLength(indent, 16, 1000);
      if (px !== undefined && px <= -500) return true;
    }
    const transform = get(10) as string | undefined;
    if (transform !== undefined && /scale\(\s*0\s*\)/.test(transform)) return true;
    return false;
  }

  private stateOf(el: Element): ElementState {
    return this.state.get(el) ?? DEFAULT_STATE;
  }

  /**
   * The note of a cantTell that CSS the page does not decide caused: `note`, or, once the cascade
   * has spent its budget of selector matches (any UNKNOWN may then be the budget's), that the
   * page's CSS is too large to evaluate.
   */
  undecidedCss(note: string): string {
    return this.styles.exhausted ? CSS_TOO_LARGE : note;
  }

  /** Rendered with `visibility: visible`: hidden from nobody by CSS or the `hidden` attribute. */
  isRendered(el: Element): Tri {
    const s = this.stateOf(el);
    return and(s.rendered, s.visibilityVisible);
  }

  /** Programmatically hidden: `display: none` or `aria-hidden="true"` on an inclusive ancestor, or not visibility visible. */
  isProgrammaticallyHidden(el: Element): Tri {
    const s = this.stateOf(el);
    if (s.ariaHidden) return true;
    return not(and(s.rendered, s.visibilityVisible));
  }

  /** Included in the accessibility tree. */
  isIncluded(el: Element): Tri {
    return not(this.isProgrammaticallyHidden(el));
  }

  /** Whether the element's own box would be seen: rendered and not positioned, clipped or faded out of sight. */
  isVisible(el: Element): Tri {
    const s = this.stateOf(el);
    return and(and(s.rendered, s.visibilityVisible), not(s.visuallyHidden));
  }

  /**
   * The semantic role: the explicit role, unless presentational-roles conflict resolution
   * applies (a focusable element or one with a global ARIA property keeps its implicit role);
   * otherwise the implicit role.
   */
  role(el: Element): string | null {
    const known = this.roleMemo.get(el);
    if (known !== undefined) return known;
    const explicit = this.documentOrder.flagsOf(el) & ATTRIBUTE.role ? explicitRole(el) : null;
    let role: string | null;
    if ((explicit === 'none' || explicit === 'presentation') && (this.isFocusable(el) || this.hasGlobalAria(el))) {
      role = implicitRole(el, this.roleOf);
    } else role = explicit ?? implicitRole(el, this.roleOf);
    // An img with alt="" that is focusable or carries global ARIA is an img, not presentation.
    if (role === 'presentation' && explicit === null && (this.isFocusable(el) || this.hasGlobalAria(el))) role = 'img';
    this.roleMemo.set(el, role);
    return role;
  }

  private readonly roleOf = (el: Element): string | null => this.role(el);

  /** Carries a global ARIA state or property (aria-hidden aside): presentational conflict resolution then keeps the implicit role. */
  hasGlobalAria(el: Element): boolean {
    if ((this.documentOrder.flagsOf(el) & ATTRIBUTE.aria) === 0) return false;
    for (const name in el.attribs) if (name !== 'aria-hidden' && GLOBAL_PROPERTIES.has(name)) return true;
    return false;
  }

  /** Elements whose semantic role is `role`, in document order (one pass over the elements, memoised per role). */
  withRole(role: string): readonly Element[] {
    let list = this.byRoleMemo.get(role);
    if (list === undefined) {
      if (this.byRoleMemo.size === 0) {
        for (const el of this.elements) {
          const r = this.role(el);
          if (r !== null) push(this.byRoleMemo, r, el);
        }
        this.byRoleMemo.set('\u0000indexed', []);
      }
      list = this.byRoleMemo.get(role) ?? [];
    }
    return list;
  }

  /** Elements whose semantic role is any of `roles`, in document order. */
  withAnyRole(roles: readonly string[]): Element[] {
    const out = roles.flatMap((role) => this.withRole(role));
    return roles.length > 1 ? out.sort((a, b) => this.position(a) - this.position(b)) : out;
  }

  /** Which of the attributes in ATTRIBUTE the element carries (read once, in the walk). */
  attributes(el: Element): number {
    return this.documentOrder.flagsOf(el);
  }

  /** A memo of one fact per element of this page. */
  memo<T>(): ElementMemo<T> {
    return new ElementMemo<T>(this.documentOrder);
  }

  /** The element's position in document order (elements of another document come last). */
  position(el: Element): number {
    return this.documentOrder.positionOf(el) ?? this.elements.length;
  }

  tagged(tag: string): readonly Element[] {
    return this.byTag.get(tag) ?? [];
  }

  /** The accessible name (memoised). */
  name(el: Element): string {
    let name = this.nameMemo.get(el);
    if (name === undefined) {
      name = accessibleName(this, el);
      this.nameMemo.set(el, name);
    }
    return name;
  }

  /** `tabindex` parsed by HTML's rules for integers; null when absent or unparseable. */
  tabindex(el: Element): number | null {
    const raw = el.attribs.tabindex;
    if (raw === undefined) return null;
    const match = /^\s*([+-]?\d+)/.exec(raw);
    return match === null ? null : Number.parseInt(match[1]!, 10);
  }

  private markupFocusable(el: Element, flags = this.documentOrder.flagsOf(el)): boolean {
    if (flags & ATTRIBUTE.tabindex && this.tabindex(el) !== null) return true;
    if (flags & ATTRIBUTE.contenteditable && el.attribs.contenteditable!.toLowerCase() !== 'false') return true;
    const tag = el.name;
    if (NATIVELY_FOCUSABLE.has(tag)) return true;
    if (tag === 'input') return (el.attribs.type ?? '').trim().toLowerCase() !== 'hidden';
    if ((tag === 'a' || tag === 'area') && el.attribs.href !== undefined) return true;
    if ((tag === 'audio' || tag === 'video') && el.attribs.controls !== undefined) return true;
    if (tag === 'summary') return parentElement(el)?.name === 'details';
    return false;
  }

  private isDisabled(el: Element): boolean {
    if (!DISABLEABLE.has(el.name)) return false;
    if (el.attribs.disabled !== undefined) return true;
    for (let a = parentElement(el); a !== null; a = parentElement(a)) {
      if (a.name === 'fieldset' && a.attribs.disabled !== undefined) {
        const legend = a.children.find((c): c is Element => isTag(c) && c.name === 'legend');
        return legend === undefined || !contains(legend, el);
      }
    }
    return false;
  }

  /** Focusable: can receive focus (by markup, not disabled, not inert, rendered). */
  isFocusable(el: Element): Tri {
    if (!this.markupFocusable(el)) return false;
    if (this.isDisabled(el) || this.stateOf(el).inert) return false;
    return this.isRendered(el);
  }

  /** Part of sequential focus navigation: focusable with no negative tabindex. */
  inSequentialFocus(el: Element): Tri {
    const focusable = this.isFocusable(el);
    if (focusable === false) return false;
    const tabindex = this.tabindex(el);
    if (tabindex !== null && tabindex < 0) return false;
    if (tabindex === null && !this.nativelySequential(el)) return false;
    return focusable;
  }

  private nativelySequential(el: Element): boolean {
    const tag = el.name;
    if (NATIVELY_FOCUSABLE.has(tag) || tag === 'input' || tag === 'summary') return true;
    if ((tag === 'a' || tag === 'area') && el.attribs.href !== undefined) return true;
    if ((tag === 'audio' || tag === 'video') && el.attribs.controls !== undefined) return true;
    return el.attribs.contenteditable !== undefined && el.attribs.contenteditable.toLowerCase() !== 'false';
  }

  private readonly locationMemo: ElementMemo<Location>;
  /** Where the element is (memoised: several rules and criteria report the same elements). */
  locate(el: Element): Location {
    let location = this.locationMemo.get(el);
    if (location === undefined) {
      location = locate(this.ids, el);
      this.locationMemo.set(el, location);
    }
    return location;
  }

  /** The first element with this id, as getElementById finds it. */
  byId(id: string): Element | undefined {
    return this.ids.get(id)?.[0];
  }

  private titleText: string | undefined;
  /** The text of the page's `<title>` (the first in the HTML namespace: not an SVG's), whitespace collapsed, as `Page.title`. */
  get pageTitle(): string {
    if (this.titleText === undefined) {
      const title = this.byTag.get('title')?.find((el) => el.namespace === HTML_NAMESPACE);
      this.titleText = title === undefined ? '' : normalizeText(title.children.map((c) => (isText(c) ? c.data : '')).join(''));
    }
    return this.titleText;
  }

  private visibleText: boolean | undefined;
  /** Whether the page shows any text (`Page.text` is not empty), without the page model's extraction walk. */
  get hasVisibleText(): boolean {
    return (this.visibleText ??= hasVisibleText(this.page.document));
  }
}

/** An element the walk did not index (another document's). */
const DEFAULT_STATE: ElementState = { rendered: true, visibilityVisible: true, ariaHidden: false, inert: false, visuallyHidden: false };

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

export function contains(ancestor: Element, el: Element): boolean {
  for (let node: Element | null = el; node !== null; node = parentElement(node)) if (node === ancestor) return true;
  return false;
}

export function textOf(el: Element): string {
  let text = '';
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return text;
}
