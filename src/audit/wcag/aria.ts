// ARIA knowledge, all from aria-query (the WAI-ARIA 1.2 and HTML-AAM tables as a maintained
// package): which roles exist, each role's supported, required and prohibited properties, its
// required owned elements and context roles, and the implicit role of an HTML element. Nothing
// here is a hand-typed copy of those tables; the code only reads them.
import ariaQuery from 'aria-query';
import type { Element } from 'domhandler';
import { parentElement } from '../page/dom.ts';

const { aria, roles, elementRoles } = ariaQuery;

export type ARIARole = Parameters<typeof roles.get>[0];

/** What aria-query 5.3 holds per role (its published types lag the data by a few fields). */
export interface RoleDefinition {
  abstract: boolean;
  accessibleNameRequired: boolean;
  childrenPresentational: boolean;
  nameFrom?: readonly string[];
  props: Readonly<Record<string, unknown>>;
  requiredProps: Readonly<Record<string, unknown>>;
  prohibitedProps: readonly string[];
  requiredOwnedElements: readonly (readonly string[])[];
  requiredContextRole: readonly string[];
  superClass: readonly (readonly string[])[];
}

// aria-query's maps look keys up by a linear scan: copied once into real Maps.
const ROLE_DEFINITIONS = new Map<string, RoleDefinition>([...roles.entries()].map(([name, def]) => [name, def as unknown as RoleDefinition]));

export function roleDefinition(role: string): RoleDefinition | undefined {
  return ROLE_DEFINITIONS.get(role);
}

/** Roles whose children are presentational (button, img, checkbox, tab, …). */
export const CHILDREN_PRESENTATIONAL_ROLES: readonly string[] = [...ROLE_DEFINITIONS].filter(([, def]) => def.childrenPresentational).map(([name]) => name);

/** A role token that names a concrete (non-abstract) WAI-ARIA role. */
export function isConcreteRole(token: string): boolean {
  const def = roleDefinition(token);
  return def !== undefined && !def.abstract;
}

export type AriaPropertyDefinition = NonNullable<ReturnType<typeof aria.get>>;

const ARIA_PROPERTIES = new Map<string, AriaPropertyDefinition>([...aria.entries()]);

export function ariaProperty(name: string): AriaPropertyDefinition | undefined {
  return ARIA_PROPERTIES.get(name);
}

/** Whether an `aria-*` attribute is defined by WAI-ARIA. */
export function isAriaProperty(name: string): boolean {
  return ariaProperty(name) !== undefined;
}

/** Global states and properties: the ones `roletype` supports, which every role inherits. */
export const GLOBAL_PROPERTIES: ReadonlySet<string> = new Set(Object.keys(roleDefinition('roletype')?.props ?? {}));

/** A role and every concrete role whose superclass chain includes it. */
export function rolesInheriting(role: string): string[] {
  const out = [role];
  for (const [name, def] of ROLE_DEFINITIONS) {
    if (name !== role && !def.abstract && def.superClass.some((chain) => chain.includes(role))) out.push(name);
  }
  return out;
}

/** The first token of a `role` attribute that names a concrete role (the role a browser uses), or null. */
export function explicitRole(el: Element): string | null {
  const value = el.attribs.role;
  if (value === undefined) return null;
  for (const token of value.trim().toLowerCase().split(/\s+/)) if (token !== '' && isConcreteRole(token)) return token;
  return null;
}

interface ConceptAttribute {
  name: string;
  value?: string | number;
  constraints?: readonly string[];
}
interface Concept {
  name: string;
  attributes?: readonly ConceptAttribute[];
  constraints?: readonly string[];
}

/** elementRoles, grouped by element name, most specific concept (most attributes) first. */
const CONCEPTS_BY_TAG = new Map<string, Array<{ concept: Concept; roles: string[] }>>();
for (const [concept, roleSet] of elementRoles.entries()) {
  const c = concept as unknown as Concept;
  const list = CONCEPTS_BY_TAG.get(c.name) ?? [];
  list.push({ concept: c, roles: [...roleSet] as string[] });
  CONCEPTS_BY_TAG.set(c.name, list);
}
for (const list of CONCEPTS_BY_TAG.values()) list.sort((a, b) => (b.concept.attributes?.length ?? 0) - (a.concept.attributes?.length ?? 0));

/** Tags whose every concept names no attribute: their implicit role is the tag's alone (div, p, ul, …). */
const ROLE_OF_TAG = new Map<string, string | null>(
  [...CONCEPTS_BY_TAG].filter(([, list]) => list.every(({ concept }) => (concept.attributes?.length ?? 0) === 0)).map(([tag, list]) => [tag, list[0]?.roles[0] ?? null]),
);

const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
/** Input types whose implicit role is textbox (or combobox with a list), per HTML-AAM: an unknown type is text. */
const TEXT_LIKE_INPUT = new Set(['text', 'email', 'tel', 'url', 'search']);
const KNOWN_INPUT_TYPES = new Set([
  'hidden', 'text', 'search', 'tel', 'url', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number',
  'range', 'color', 'checkbox', 'radio', 'file', 'submit', 'image', 'reset', 'button',
]);

/**
 * Elements HTML-AAM maps to a platform role with no WAI-ARIA counterpart (aria-query lists none):
 * they carry native semantics, so they are never `generic`, though their ARIA role is null. The
 * value is the platform role Chromium exposes, for notes.
 */
const NATIVE_ONLY_ROLES = new Map<string, string>([
  ['audio', 'Audio'], ['video', 'Video'], ['iframe', 'Iframe'], ['frame', 'Iframe'], ['object', 'PluginObject'], ['embed', 'EmbeddedObject'],
  ['canvas', 'Canvas'], ['dl', 'DescriptionList'],
]);
const NATIVE_ONLY_INPUTS = new Map<string, string>([
  ['color', 'ColorWell'], ['date', 'Date'], ['datetime-local', 'DateTime'], ['month', 'DateTime'], ['week', 'DateTime'], ['time', 'InputTime'], ['file', 'FileUpload'],
]);

/**
 * The platform role of an element HTML-AAM gives no ARIA role but native semantics (audio, video,
 * iframe, object, embed, canvas, dl; colour, date, time and file inputs), or null.
 */
export function nativeOnlyRole(el: Element): string | null {
  if (el.name === 'input') return NATIVE_ONLY_INPUTS.get(inputType(el)) ?? null;
  return NATIVE_ONLY_ROLES.get(el.name) ?? null;
}

/** The input's type as the browser understands it (an unknown or missing type is `text`). */
export function inputType(el: Element): string {
  const type = (el.attribs.type ?? '').trim().toLowerCase();
  return KNOWN_INPUT_TYPES.has(type) ? type : 'text';
}

/**
 * The implicit role of an HTML element (HTML-AAM through aria-query's element concepts), or
 * null when it has none. The constraints aria-query states in prose (scoping of header/footer,
 * list parents, table roles) are decided here from the element's ancestors.
 */
export function implicitRole(el: Element, roleOf: (el: Element) => string | null): string | null {
  const name = el.name;
  if (name === 'input') {
    const type = inputType(el);
    if (TEXT_LIKE_INPUT.has(type)) {
      if (el.attribs.list !== undefined) return 'combobox';
      return type === 'search' ? 'searchbox' : 'textbox';
    }
    // HTML-AAM gives a password field no ARIA role; Chromium exposes it as a (protected) textbox.
    if (type === 'password') return 'textbox';
  }
  // HTML-AAM's marquee role, which aria-query's element concepts lack.
  if (name === 'marquee') return 'marquee';
  if (name === 'header' || name === 'footer') {
    for (let a = parentElement(el); a !== null; a = parentElement(a)) {
      if (SECTIONING.has(a.name) || ['article', 'complementary', 'main', 'navigation', 'region'].includes(roleOf(a) ?? '')) return 'generic';
    }
    return name === 'header' ? 'banner' : 'contentinfo';
  }
  if (name === 'aside') {
    const named = hasNonEmpty(el, 'aria-label') || hasNonEmpty(el, 'aria-labelledby') || hasNonEmpty(el, 'title');
    for (let a = parentElement(el); a !== null; a = parentElement(a)) {
      if (a.name === 'article' || a.name === 'aside' || a.name === 'nav' || a.name === 'section') return named ? 'complementary' : 'generic';
    }
    return 'complementary';
  }
  if (name === 'li') {
    const parent = parentElement(el);
    return parent !== null && (parent.name === 'ol' || parent.name === 'ul' || parent.name === 'menu') ? 'listitem' : 'generic';
  }
  if (name === 'td' || name === 'th') {
    const table = closest(el, 'table');
    const tableRole = table === null ? null : roleOf(table);
    if (name === 'td') return tableRole === 'grid' || tableRole === 'treegrid' ? 'gridcell' : tableRole === 'table' ? 'cell' : null;
    if (tableRole !== 'table' && tableRole !== 'grid' && tableRole !== 'treegrid') return null;
    const scope = (el.attribs.scope ?? '').toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    return thIsRowHeader(el) ? 'rowheader' : 'columnheader';
  }
  if (name === 'select') {
    const size = Number.parseInt(el.attribs.size ?? '', 10);
    return el.attribs.multiple !== undefined || size > 1 ? 'listbox' : 'combobox';
  }
  if (name === 'section') return hasNonEmpty(el, 'aria-label') || hasNonEmpty(el, 'aria-labelledby') || hasNonEmpty(el, 'title') ? 'region' : 'generic';
  if (name === 'form') return hasNonEmpty(el, 'aria-label') || hasNonEmpty(el, 'aria-labelledby') || hasNonEmpty(el, 'title') || hasNonEmpty(el, 'name') ? 'form' : null;
  if (name === 'img') {
    const alt = el.attribs.alt;
    return alt === '' ? 'presentation' : 'img';
  }
  if (name === 'a' || name === 'area') return el.attribs.href !== undefined ? 'link' : name === 'a' ? 'generic' : null;
  if (name === 'svg') return 'graphics-document';
  if (name === 'summary') return detailsSummary(el) ? 'button' : null;
  if (name === 'search') return 'search';
  const fixed = ROLE_OF_TAG.get(name);
  if (fixed !== undefined) return fixed;
  const concepts = CONCEPTS_BY_TAG.get(name);
  if (concepts === undefined) return null;
  for (const { concept, roles: conceptRoles } of concepts) {
    if (attributesMatch(el, concept.attributes)) return conceptRoles[0] ?? null;
  }
  return null;
}

function attributesMatch(el: Element, attributes: readonly ConceptAttribute[] | undefined): boolean {
  if (attributes === undefined) return true;
  for (const attribute of attributes) {
    const value = attribute.name === 'type' && el.name === 'input' ? inputType(el) : el.attribs[attribute.name];
    const constraints = attribute.constraints ?? [];
    if (constraints.includes('undefined')) {
      if (value !== undefined) return false;
      continue;
    }
    if (value === undefined) return false;
    if (constraints.includes('>1') && !(Number(value) > 1)) return false;
    if (attribute.value !== undefined && String(attribute.value) !== value.trim().toLowerCase()) return false;
  }
  return true;
}

function hasNonEmpty(el: Element, attribute: string): boolean {
  const value = el.attribs[attribute];
  return value !== undefined && value.trim() !== '';
}

function closest(el: Element, tag: string): Element | null {
  for (let a = parentElement(el); a !== null; a = parentElement(a)) if (a.name === tag) return a;
  return null;
}

/** A `<summary>` that is the first summary child of a `<details>` (the one that toggles it). */
function detailsSummary(el: Element): boolean {
  const parent = parentElement(el);
  if (parent === null || parent.name !== 'details') return false;
  for (const child of parent.children) if (child.type === 'tag' && (child as Element).name === 'summary') return child === el;
  return false;
}

/** A `<th>` without scope heads its row when its row holds no other `<th>` before a `<td>`… approximated: its row has a `<td>`. */
function thIsRowHeader(th: Element): boolean {
  const row = parentElement(th);
  if (row === null) return false;
  let cells = 0;
  let dataCells = 0;
  for (const child of row.children) {
    if (child.type !== 'tag') continue;
    const tag = (child as Element).name;
    if (tag === 'td') dataCells++;
    if (tag === 'td' || tag === 'th') cells++;
  }
  return dataCells > 0 && cells > 1 && isFirstHeaderOfRow(th, row);
}

function isFirstHeaderOfRow(th: Element, row: Element): boolean {
  for (const child of row.children) if (child.type === 'tag') return child === th;
  return false;
}
