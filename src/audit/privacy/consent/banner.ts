// Finding a consent banner in static markup and reading its structure: category controls, an
// accept control, and a separate reject/decline control.
//
// A candidate is a container whose id, class, aria-label or data-* attribute names cookies or
// consent (CONTAINER_NAME), a CMP's server-rendered banner container (knowledge data), or a
// dialog / alertdialog / region / aside whose text is about cookies or consent. A candidate is a
// banner when it holds an accept, reject or category control: an empty placeholder, a "Cookie
// settings" link or a "Cookie policy" link is not one. The banner judged is the visible one with
// the most complete structure; hidden ones (page/visibility.ts rules) never count.
//
// First layer and second layer: accept and reject must both be visible in the banner. Category
// controls may sit in a settings panel ("Manage preferences") that is in the static markup but
// hidden until opened, provided the banner shows a control to open it; a settings panel that is
// not in the static markup does not count (issue 3). A reject that exists only in such a panel
// does not count either: rejecting must be as direct as accepting.
import type { Element } from 'domhandler';
import { isTag, isText, type AnyNode } from 'domhandler';
import { isVisible, normalizeText, type HiddenReason, type Page } from '../../page.ts';
import { parentElement } from '../../page/dom.ts';
import type { StaticBannerTests } from './signals.ts';
import { CONSENT_WORDS, categoryOf, controlRole, fold, isNecessaryLabel, type ControlRole } from './wording.ts';

/** A candidate container found by the evidence walk. */
export interface Candidate {
  element: Element;
  /** Document order of the element. */
  order: number;
  /** The CMP whose server-rendered banner container this is, if any. */
  staticBanner?: StaticBannerTests;
}

export interface BannerControl {
  element: Element;
  /** The control's name as a reader sees it (whitespace collapsed, ≤ 80 characters). */
  name: string;
  role: ControlRole;
  visible: boolean;
}

export interface CategoryControl {
  element: Element;
  /** The label that named the category. */
  label: string;
  /** The category word matched (folded), e.g. `statistics`. */
  category: string;
  visible: boolean;
}

/** One scanned candidate. */
export interface Panel {
  element: Element;
  order: number;
  visible: boolean;
  cmpName?: string;
  controls: BannerControl[];
  categories: CategoryControl[];
}

export interface BannerStructure {
  panel: Panel;
  /** A visible accept control, distinct from `reject`. */
  accept?: BannerControl;
  /** A visible reject / decline control, distinct from `accept`. */
  reject?: BannerControl;
  /** One visible control that is both accept and reject ("Accept / Reject"). */
  both?: BannerControl;
  /** Accept and reject that do the same thing (same href or onclick). */
  sameAction?: { accept: BannerControl; reject: BannerControl };
  /** A reject control that exists only in a hidden settings panel (not in the first layer). */
  hiddenReject?: BannerControl;
  /** A visible control that opens the settings panel. */
  settings?: BannerControl;
  /** Non-essential category controls: in the banner, or in a settings panel of the markup. */
  categories: CategoryControl[];
  categoriesIn?: 'banner' | 'settings panel';
  /** Category controls exist only in a hidden panel, with no visible control to open it. */
  unreachableCategories?: CategoryControl;
  complete: boolean;
}

export interface BannerFinding {
  /** The visible banner judged, with its structure. */
  banner?: BannerStructure;
  /** When no banner is visible: one that is in the markup but hidden, and why. */
  hidden?: { panel: Panel; reason: HiddenReason | 'visibility-hidden' };
  /** Every candidate that counts as a banner (visible or not), in document order. */
  panels: readonly Panel[];
}

/** A candidate subtree bigger than this is a page wrapper, not a banner: its inner candidates are scanned instead. */
const MAX_PANEL_ELEMENTS = 1500;
/** Text read from a candidate to tell whether a dialog is about cookies. */
const TEXT_SAMPLE = 3000;
const NAME_MAX = 80;

const CONTROL_INPUT_TYPES: ReadonlySet<string> = new Set(['button', 'submit', 'reset', 'image']);
const CONTROL_ROLES: ReadonlySet<string> = new Set(['button', 'link', 'menuitem']);
const TOGGLE_ROLES: ReadonlySet<string> = new Set(['switch', 'checkbox']);

/** Whether an element is an action control (button, link, button-like input or role). */
function isActionControl(el: Element): boolean {
  const name = el.name;
  if (name === 'button') return !TOGGLE_ROLES.has((el.attribs.role ?? '').trim().toLowerCase());
  if (name === 'a') return true;
  if (name === 'input') return CONTROL_INPUT_TYPES.has((el.attribs.type ?? '').trim().toLowerCase());
  const role = (el.attribs.role ?? '').trim().toLowerCase();
  if (CONTROL_ROLES.has(role)) return true;
  return el.attribs.onclick !== undefined && name !== 'body' && name !== 'form';
}

/** Whether an element is a category toggle (checkbox, radio, switch). */
function isToggle(el: Element): boolean {
  if (el.name === 'input') {
    const type = (el.attribs.type ?? '').trim().toLowerCase();
    return type === 'checkbox' || type === 'radio';
  }
  return TOGGLE_ROLES.has((el.attribs.role ?? '').trim().toLowerCase());
}

/** Text of a subtree (text nodes plus `<img alt>`), at most `max` characters, iteratively. */
export function boundedText(root: Element, max: number): string {
  let out = '';
  const stack: AnyNode[] = [root];
  while (stack.length > 0 && out.length < max) {
    const node = stack.pop()!;
    if (isText(node)) out += node.data;
    else if (isTag(node)) {
      if (node.name === 'script' || node.name === 'style' || node.name === 'template') continue;
      if (node.name === 'img' && node.attribs.alt) out += ` ${node.attribs.alt} `;
      if (node.name === 'br' || node.name === 'p' || node.name === 'div' || node.name === 'li') out += ' ';
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out.length > max ? out.slice(0, max) : out;
}

function textOfIds(page: Page, ids: string): string {
  const parts: string[] = [];
  for (const id of ids.trim().split(/\s+/)) {
    const el = page.ids.get(id)?.[0];
    if (el !== undefined) parts.push(boundedText(el, NAME_MAX * 2));
  }
  return parts.join(' ');
}

/** A control's name: aria-label, aria-labelledby, its text (and image alts), an input's value, title. */
export function controlName(page: Page, el: Element): string {
  const attribs = el.attribs;
  const sources = [
    attribs['aria-label'],
    attribs['aria-labelledby'] === undefined ? undefined : textOfIds(page, attribs['aria-labelledby']),
    el.name === 'input' ? attribs.value ?? attribs.alt : boundedText(el, NAME_MAX * 2),
    attribs.title,
  ];
  for (const source of sources) {
    if (source === undefined) continue;
    const name = normalizeText(source);
    if (name !== '') return name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name;
  }
  return '';
}

const REJECT_HINT = /reject|decline|deny|refuse|ablehnen|refuser|rechazar/i;
const ACCEPT_HINT = /accept|allow|agree|akzeptieren|accepter|aceptar/i;

function roleOf(el: Element, name: string, staticBanner: StaticBannerTests | undefined): ControlRole | undefined {
  if (staticBanner !== undefined) {
    if (staticBanner.reject(el)) return 'reject';
    if (staticBanner.accept(el)) return 'accept';
    if (staticBanner.preferences(el)) return 'settings';
  }
  const role = controlRole(name);
  if (role !== undefined || name !== '') return role;
  // An unnamed (icon) control: its id or class may still say what it does.
  const hint = `${el.attribs.id ?? ''} ${el.attribs.class ?? ''}`;
  if (REJECT_HINT.test(hint)) return 'reject';
  if (ACCEPT_HINT.test(hint)) return 'accept';
  return undefined;
}

/** The label sources of a toggle, most specific first. */
function toggleLabels(page: Page, el: Element, root: Element, labelsFor: ReadonlyMap<string, readonly Element[]>): string[] {
  const attribs = el.attribs;
  const out: string[] = [];
  if (attribs['aria-label'] !== undefined) out.push(attribs['aria-label']);
  if (attribs['aria-labelledby'] !== undefined) out.push(textOfIds(page, attribs['aria-labelledby']));
  const id = attribs.id;
  if (id !== undefined && id !== '') for (const label of labelsFor.get(id) ?? []) out.push(boundedText(label, NAME_MAX * 2));
  for (let node = parentElement(el); node !== null && node !== root; node = parentElement(node)) {
    if (node.name === 'label') {
      out.push(boundedText(node, NAME_MAX * 2));
      break;
    }
  }
  if (el.name !== 'input') out.push(boundedText(el, NAME_MAX * 2));
  out.push([attribs.name, attribs.value, attribs.id, attribs['data-category'], attribs['data-cookie-category'], attribs['data-consent']].filter((v) => v !== undefined).join(' '));
  const parent = parentElement(el);
  if (parent !== null && parent !== root) out.push(boundedText(parent, NAME_MAX));
  return out;
}

function categoryControl(
  page: Page,
  el: Element,
  root: Element,
  labelsFor: ReadonlyMap<string, readonly Element[]>,
  staticBanner: StaticBannerTests | undefined,
): CategoryControl | undefined {
  const attribs = el.attribs;
  if (attribs.disabled !== undefined || (attribs['aria-disabled'] ?? '').trim().toLowerCase() === 'true') return undefined;
  const isCmpInput = staticBanner?.categoryInput(el) ?? false;
  for (const source of toggleLabels(page, el, root, labelsFor)) {
    const label = normalizeText(source);
    if (label === '') continue;
    const category = categoryOf(label);
    if (category !== undefined) {
      return { element: el, label: label.length > 40 ? `${label.slice(0, 39)}…` : label, category, visible: isVisible(page, el) };
    }
    if (isNecessaryLabel(label)) return undefined;
  }
  if (isCmpInput) return { element: el, label: attribs['data-category'] ?? attribs.name ?? 'category', category: 'category', visible: isVisible(page, el) };
  return undefined;
}

/**
 * Scans one candidate's subtree: its controls and category toggles. Returns undefined when the
 * subtree is too big to be a banner.
 */
function scanPanel(page: Page, candidate: Candidate, labelsFor: ReadonlyMap<string, readonly Element[]>): Panel | undefined {
  const root = candidate.element;
  const controls: BannerControl[] = [];
  const categories: CategoryControl[] = [];
  let count = 0;
  // Iterative walk; `skipUntil` marks the control whose descendants are its name, not controls.
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (++count > MAX_PANEL_ELEMENTS) return undefined;
    if (el.name === 'script' || el.name === 'style' || el.name === 'template') continue;
    if (el !== root && isToggle(el)) {
      const category = categoryControl(page, el, root, labelsFor, candidate.staticBanner);
      if (category !== undefined) categories.push(category);
      continue;
    }
    if (el !== root && isActionControl(el)) {
      const name = controlName(page, el);
      const role = roleOf(el, name, candidate.staticBanner);
      if (role !== undefined) controls.push({ element: el, name: name === '' ? `#${el.attribs.id ?? el.name}` : name, role, visible: isVisible(page, el) });
      // Toggles inside a control (a switch drawn in a button) are still category controls.
      for (let i = el.children.length - 1; i >= 0; i--) {
        const child = el.children[i]!;
        if (isTag(child) && isToggle(child)) stack.push(child);
      }
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (isTag(child)) stack.push(child);
    }
  }
  const panel: Panel = { element: root, order: candidate.order, visible: isVisible(page, root), controls, categories };
  if (candidate.staticBanner !== undefined) panel.cmpName = candidate.staticBanner.cmp.name;
  return panel;
}

/** Whether a dialog / region / aside is about cookies or consent, from its label or text. */
export function isConsentDialog(page: Page, el: Element): boolean {
  const label = el.attribs['aria-label'] ?? (el.attribs['aria-labelledby'] === undefined ? '' : textOfIds(page, el.attribs['aria-labelledby']));
  if (label !== '' && CONSENT_WORDS.test(fold(label))) return true;
  return CONSENT_WORDS.test(fold(boundedText(el, TEXT_SAMPLE)));
}

/**
 * A candidate is a banner when it has an accept or reject control, or category toggles for at
 * least two categories (one "marketing" checkbox is more likely a newsletter opt-in).
 */
function isBanner(panel: Panel): boolean {
  return new Set(panel.categories.map((c) => c.category)).size >= 2 || panel.controls.some((c) => c.role === 'accept' || c.role === 'reject' || c.role === 'both');
}

/** The first mark on an element or its ancestors that hides it. */
function hiddenReason(page: Page, el: Element): HiddenReason | 'visibility-hidden' {
  for (let node: Element | null = el; node !== null; node = parentElement(node)) {
    const mark = page.visibilityMarks.get(node);
    if (mark !== undefined && mark !== 'visibility-visible') return mark;
  }
  return 'visibility-hidden';
}

const TRIVIAL_HREF = /^(?:#.*|javascript:.*|)$/i;

/** Two controls that do the same thing: the same real href, or the same onclick code. */
function sameAction(a: BannerControl, b: BannerControl): boolean {
  const hrefA = (a.element.attribs.href ?? '').trim();
  const hrefB = (b.element.attribs.href ?? '').trim();
  if (hrefA !== '' && hrefA === hrefB && !TRIVIAL_HREF.test(hrefA)) return true;
  const clickA = (a.element.attribs.onclick ?? '').replace(/\s+/g, '');
  const clickB = (b.element.attribs.onclick ?? '').replace(/\s+/g, '');
  return clickA !== '' && clickA === clickB;
}

/** Ids a settings control says it opens: `aria-controls`, `data-target` / `data-bs-target`, or an `href="#id"`. */
function settingsTargets(settings: BannerControl | undefined): string[] {
  if (settings === undefined) return [];
  const attribs = settings.element.attribs;
  const ids: string[] = [];
  if (attribs['aria-controls'] !== undefined) ids.push(...attribs['aria-controls'].trim().split(/\s+/));
  for (const value of [attribs['data-target'], attribs['data-bs-target'], attribs.href]) {
    const trimmed = value?.trim() ?? '';
    if (/^#[^\s#]+$/.test(trimmed)) ids.push(trimmed.slice(1));
  }
  return ids.filter((id) => id !== '');
}

/** Judges one visible banner panel, with the other panels and aria-controls targets as its possible second layer. */
function structureOf(page: Page, panel: Panel, others: readonly Panel[], labelsFor: ReadonlyMap<string, readonly Element[]>): BannerStructure {
  const visible = panel.controls.filter((c) => c.visible);
  const accepts = visible.filter((c) => c.role === 'accept');
  const rejects = visible.filter((c) => c.role === 'reject');
  const settings = visible.find((c) => c.role === 'settings');
  const structure: BannerStructure = { panel, categories: [], complete: false };
  if (settings !== undefined) structure.settings = settings;

  let pair: { accept: BannerControl; reject: BannerControl } | undefined;
  let same: { accept: BannerControl; reject: BannerControl } | undefined;
  for (const accept of accepts) {
    for (const reject of rejects) {
      if (!sameAction(accept, reject)) pair ??= { accept, reject };
      else same ??= { accept, reject };
    }
  }
  if (pair !== undefined) {
    structure.accept = pair.accept;
    structure.reject = pair.reject;
  } else {
    if (accepts[0] !== undefined) structure.accept = accepts[0];
    if (rejects[0] !== undefined && same === undefined) structure.reject = rejects[0];
    if (same !== undefined) structure.sameAction = same;
    const both = visible.find((c) => c.role === 'both');
    if (both !== undefined) structure.both = both;
  }

  // The second layer: hidden parts of this panel, other consent panels, and what the settings
  // control says it opens (aria-controls, data-target, href="#id").
  const secondLayer: Panel[] = [...others];
  for (const id of settingsTargets(settings)) {
    const target = page.ids.get(id)?.[0];
    if (target === undefined || contains(panel.element, target) || others.some((p) => contains(p.element, target))) continue;
    const scanned = scanPanel(page, { element: target, order: panel.order }, labelsFor);
    if (scanned !== undefined) secondLayer.push(scanned);
  }
  if (structure.reject === undefined && structure.sameAction === undefined) {
    const hiddenReject = panel.controls.find((c) => c.role === 'reject' && !c.visible) ?? secondLayer.flatMap((p) => p.controls).find((c) => c.role === 'reject');
    if (hiddenReject !== undefined) structure.hiddenReject = hiddenReject;
  }

  const firstLayer = panel.categories.filter((c) => c.visible);
  if (firstLayer.length > 0) {
    structure.categories = firstLayer;
    structure.categoriesIn = 'banner';
  } else {
    const second = [...panel.categories, ...secondLayer.flatMap((p) => p.categories)];
    if (second.length > 0) {
      if (settings !== undefined) {
        structure.categories = second;
        structure.categoriesIn = 'settings panel';
      } else {
        structure.unreachableCategories = second[0]!;
      }
    }
  }
  structure.complete = structure.accept !== undefined && structure.reject !== undefined && structure.categories.length > 0;
  return structure;
}

function score(s: BannerStructure): number {
  return (s.accept !== undefined ? 2 : 0) + (s.reject !== undefined ? 2 : 0) + (s.categories.length > 0 ? 1 : 0) + (s.categoriesIn === 'banner' ? 1 : 0);
}

/** Finds and judges the page's consent banner from the walk's candidates (in document order). */
export function analyseBanner(
  page: Page,
  candidates: readonly Candidate[],
  labelsFor: ReadonlyMap<string, readonly Element[]>,
  cmpCategoryInputs: ReadonlyArray<{ element: Element; banner: StaticBannerTests }> = [],
): BannerFinding {
  const panels: Panel[] = [];
  const scannedRoots: Element[] = [];
  const inside = (el: Element): boolean => {
    for (let node = parentElement(el); node !== null; node = parentElement(node)) if (scannedRoots.includes(node)) return true;
    return false;
  };
  for (const candidate of candidates) {
    if (inside(candidate.element)) continue;
    const panel = scanPanel(page, candidate, labelsFor);
    if (panel === undefined) continue;
    scannedRoots.push(candidate.element);
    if (isBanner(panel)) panels.push(panel);
  }
  const finding: BannerFinding = { panels };
  let best: BannerStructure | undefined;
  // A CMP's category inputs outside every panel (CookieYes legacy keeps them in a separate modal).
  const loose: CategoryControl[] = [];
  for (const { element, banner } of cmpCategoryInputs) {
    if (panels.some((p) => contains(p.element, element))) continue;
    const category = categoryControl(page, element, page.document.children.find(isTag) ?? element, labelsFor, banner);
    if (category !== undefined) loose.push(category);
  }
  const loosePanel: Panel[] = loose.length === 0 ? [] : [{ element: loose[0]!.element, order: -1, visible: false, controls: [], categories: loose }];
  for (const panel of panels) {
    if (!panel.visible) continue;
    const structure = structureOf(page, panel, [...panels.filter((p) => p !== panel), ...loosePanel], labelsFor);
    if (best === undefined || score(structure) > score(best)) best = structure;
  }
  if (best !== undefined) finding.banner = best;
  else {
    const hidden = panels.find((p) => !p.visible);
    if (hidden !== undefined) finding.hidden = { panel: hidden, reason: hiddenReason(page, hidden.element) };
  }
  return finding;
}

function contains(ancestor: Element, el: Element): boolean {
  for (let node: Element | null = el; node !== null; node = parentElement(node)) if (node === ancestor) return true;
  return false;
}

/** Whether an element's attributes name a consent container (see CONTAINER_NAME). */
export function namesConsentContainer(el: Element, pattern: RegExp): boolean {
  const attribs = el.attribs;
  if (attribs.id !== undefined && pattern.test(attribs.id)) return true;
  if (attribs.class !== undefined && pattern.test(attribs.class)) return true;
  if (attribs['aria-label'] !== undefined && pattern.test(attribs['aria-label'])) return true;
  for (const name in attribs) if (name.startsWith('data-') && name.length < 40 && pattern.test(name)) return true;
  return false;
}
