// ARIA role structure (ACT 4e8ab6, bc4a75, ff89c9): a role's required states and properties are
// set, a role that requires owned elements owns only those, and a role that needs a context
// sits in it. Owned and context relations skip elements without semantics (no role, generic,
// none, presentation), as the accessibility tree does, and follow aria-owns.
import type { Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import { explicitRole, implicitRole, roleDefinition } from '../aria.ts';
import type { WcagContext } from '../context.ts';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

/** An element the accessibility tree leaves out of parent/child relations: no role, none, or a generic without global ARIA. */
function transparent(ctx: WcagContext, el: Element): boolean {
  const role = ctx.role(el);
  if (role === null || role === 'none' || role === 'presentation') return true;
  return role === 'generic' && !ctx.hasGlobalAria(el);
}

/** Elements with an explicit role different from their implicit one, included in the accessibility tree. */
function* explicitlyRoled(ctx: WcagContext): Generator<[Element, string]> {
  for (const el of ctx.roleElements) {
    const role = explicitRole(el);
    if (role === null || ctx.role(el) !== role) continue;
    if (implicitRole(el, (a) => ctx.role(a)) === role) continue;
    if (ctx.isIncluded(el) === false) continue;
    yield [el, role];
  }
}

/**
 * Required properties for which WAI-ARIA states an implicit value for the role (range bounds and
 * orientation). aria-query also lists core-aam's author-error defaults (a heading's level 2, a
 * combobox's collapsed state); those repair a mistake and do not make the property optional.
 * aria-selected on option is listed as required by aria-query's ARIA 1.1 heritage; WAI-ARIA 1.2
 * dropped that requirement (an option is unselected by default).
 */
const IMPLICIT_VALUE = new Set(['aria-valuemin', 'aria-valuemax', 'aria-orientation', 'aria-selected']);

export const ariaRequiredProps: WcagRule = {
  id: 'aria-required-props',
  actRules: ['4e8ab6'],
  // ACT maps it to 1.3.1 and 4.1.2 only as secondary requirements (a page may fail it and satisfy
  // them): a fail is a warning there, never an error (README, "Criteria and ACT mappings").
  criteria: [],
  secondary: ['1.3.1', '4.1.2'],
  applicability: 'An element in the accessibility tree with an explicit role that is not its implicit role.',
  expectation: 'Every state or property the role requires, and has no default value for, is set and not empty.',
  *evaluate(ctx) {
    for (const [el, role] of explicitlyRoled(ctx)) {
      const def = roleDefinition(role)!;
      const missing: string[] = [];
      const required = Object.keys(def.requiredProps).filter((name) => !IMPLICIT_VALUE.has(name));
      // A focusable separator is a widget: it needs a value.
      if (role === 'separator' && ctx.isFocusable(el) !== false) required.push('aria-valuenow');
      for (const name of required) {
        if ((el.attribs[name] ?? '').trim() === '' && !nativelyProvided(el, name)) missing.push(name);
      }
      yield missing.length === 0 ? passed(el) : failed(el, `role ${role} needs ${missing.join(', ')}`);
    }
  },
};

/** Native attributes that supply a required state (a checkbox input's checkedness, a range input's value). */
function nativelyProvided(el: Element, name: string): boolean {
  if (el.name !== 'input') return false;
  const type = (el.attribs.type ?? '').toLowerCase();
  if (name === 'aria-checked') return type === 'checkbox' || type === 'radio';
  if (name === 'aria-valuenow') return type === 'range' || type === 'number';
  return false;
}

/**
 * What an element owns in the accessibility tree: its children and aria-owns targets, through
 * elements without semantics. Non-blank text owned directly is reported as the string '#text'.
 */
function owned(ctx: WcagContext, el: Element): Array<Element | '#text'> {
  const out: Array<Element | '#text'> = [];
  const stack: Element[] = [];
  const pushChildren = (parent: Element) => {
    for (let i = parent.children.length - 1; i >= 0; i--) {
      const child = parent.children[i]!;
      if (isTag(child)) stack.push(child);
      else if (isText(child) && child.data.trim() !== '' && ctx.isIncluded(parent) !== false) out.push('#text');
    }
  };
  pushChildren(el);
  for (const id of (el.attribs['aria-owns'] ?? '').trim().split(/\s+/)) {
    const target = id === '' ? undefined : ctx.byId(id);
    if (target !== undefined) stack.push(target);
  }
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (ctx.isIncluded(node) === false) continue;
    if (transparent(ctx, node)) {
      pushChildren(node);
      continue;
    }
    out.push(node);
  }
  return out;
}

function busy(el: Element): boolean {
  for (let a: Element | null = el; a !== null; a = parentElement(a)) if ((a.attribs['aria-busy'] ?? '').trim().toLowerCase() === 'true') return true;
  return false;
}

/**
 * The first owned element whose role is not allowed, or undefined. aria-query writes an entry
 * `[x, c]` for "a c owning x": a c (a menu's group, a table's rowgroup) is allowed when it in turn
 * owns only such x (or further c).
 */
function wrongOwned(ctx: WcagContext, el: Element, required: readonly (readonly string[])[]): Element | '#text' | undefined {
  const direct = new Set(required.filter((entry) => entry.length === 1).map((entry) => entry[0]!));
  // A table's caption is part of it (WAI-ARIA 1.3 lists it; aria-query's 1.2 table does not).
  if (direct.has('row') && !direct.has('cell')) direct.add('caption');
  const inside = new Map<string, Set<string>>();
  for (const [inner, container] of required.filter((entry) => entry.length > 1)) {
    const set = inside.get(container!) ?? new Set<string>();
    set.add(inner!);
    inside.set(container!, set);
  }
  const stack: Array<{ owner: Element; allowed: ReadonlySet<string> }> = [{ owner: el, allowed: direct }];
  while (stack.length > 0) {
    const { owner, allowed } = stack.pop()!;
    for (const child of ownedForStructure(ctx, owner)) {
      if (child === '#text') return child;
      const role = ctx.role(child) ?? 'generic';
      // (A cell written straight into a table or row group needs no exception here: the page
      // model is the browser's tree, where the parser has put it in an implied <tr>/<tbody>.)
      const grouped = inside.get(role);
      if (grouped !== undefined) {
        stack.push({ owner: child, allowed: grouped });
        continue;
      }
      if (!allowed.has(role)) return child;
    }
  }
  return undefined;
}

/**
 * Owned elements as the structure rule sees them: a generic element that owns nothing itself
 * (an empty `<div>` in a `<ul>`) is an owned element of its own, not a wrapper to look through.
 */
function ownedForStructure(ctx: WcagContext, el: Element): Array<Element | '#text'> {
  const out: Array<Element | '#text'> = [];
  for (const child of owned(ctx, el)) out.push(child);
  for (const child of el.children) {
    if (!isTag(child) || ctx.isIncluded(child) === false || ctx.role(child) !== 'generic') continue;
    if (owned(ctx, child).length === 0 && !out.includes(child)) out.push(child);
  }
  return out;
}

/** Elements in the accessibility tree whose role, explicit or implicit, requires owned elements. */
function* structuralTargets(ctx: WcagContext): Generator<[Element, string]> {
  for (const role of ROLES_WITH_OWNED) {
    for (const el of ctx.withRole(role)) {
      if (ctx.isIncluded(el) === false) continue;
      // Rows of a layout table (role presentation or none) take on its lack of semantics.
      if ((role === 'row' || role === 'rowgroup') && explicitRole(el) === null && !inDataTable(ctx, el)) continue;
      yield [el, role];
    }
  }
}

function inDataTable(ctx: WcagContext, el: Element): boolean {
  for (let a = parentElement(el); a !== null; a = parentElement(a)) {
    const role = ctx.role(a);
    if (role === 'table' || role === 'grid' || role === 'treegrid') return true;
    if (a.name === 'table') return false;
  }
  return false;
}

const ROLES_WITH_OWNED = ['list', 'listbox', 'menu', 'menubar', 'radiogroup', 'tablist', 'tree', 'treegrid', 'grid', 'table', 'row', 'rowgroup', 'feed'].filter(
  (role) => (roleDefinition(role)?.requiredOwnedElements.length ?? 0) > 0,
);

export const ariaRequiredChildren: WcagRule = {
  id: 'aria-required-children',
  actRules: ['bc4a75'],
  criteria: ['1.3.1'],
  applicability: 'An element in the accessibility tree whose role (explicit or implicit: ul, ol, select, table, tr, …) has required owned elements, not inside aria-busy="true"; rows of layout tables excepted.',
  expectation: 'It owns only elements whose role is one of the required owned roles.',
  *evaluate(ctx) {
    for (const [el, role] of structuralTargets(ctx)) {
      const def = roleDefinition(role)!;
      const required = def.requiredOwnedElements;
      if (required.length === 0 || busy(el)) continue;
      const wrong = wrongOwned(ctx, el, required);
      if (wrong === undefined) yield passed(el);
      else yield failed(el, `role ${role} owns ${wrong === '#text' ? 'text' : `a ${ctx.role(wrong) ?? 'element'} (<${wrong.name}>)`}`);
    }
  },
};

/** The element's parent in the accessibility tree: the aria-owns owner, else the nearest ancestor with semantics. */
function treeParent(ctx: WcagContext, el: Element, owners: ReadonlyMap<string, Element>): Element | null {
  const id = el.attribs.id;
  if (id !== undefined && owners.has(id)) return owners.get(id)!;
  for (let a = parentElement(el); a !== null; a = parentElement(a)) {
    if (!transparent(ctx, a) && ctx.isIncluded(a) !== false) return a;
  }
  return null;
}

export const ariaRequiredParent: WcagRule = {
  id: 'aria-required-parent',
  actRules: ['ff89c9'],
  criteria: ['1.3.1'],
  applicability: 'An element in the accessibility tree with an explicit role that needs a context role, other than its implicit role.',
  expectation: 'Its parent in the accessibility tree has one of the required context roles.',
  *evaluate(ctx) {
    let owners: Map<string, Element> | undefined;
    for (const [el, role] of explicitlyRoled(ctx)) {
      const def = roleDefinition(role)!;
      const context = def.requiredContextRole;
      if (context.length === 0) continue;
      if (owners === undefined) {
        owners = new Map();
        for (const owner of ctx.ariaElements) {
          for (const id of (owner.attribs['aria-owns'] ?? '').trim().split(/\s+/)) if (id !== '') owners.set(id, owner);
        }
      }
      const parent = treeParent(ctx, el, owners);
      const parentRole = parent === null ? null : ctx.role(parent);
      if (parentRole !== null && context.includes(parentRole)) yield passed(el);
      else if (parent !== null && ctx.isIncluded(parent) === undefined) yield cantTell(el, ctx.undecidedCss('whether the parent is in the accessibility tree depends on undecidable CSS'));
      else yield failed(el, `role ${role} is not inside ${context.join(' or ')}`);
    }
  },
};
