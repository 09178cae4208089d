// List structure (1.3.1 Info and Relationships), from HTML's content models: a list item is
// announced as one only inside a list, and a description list pairs its terms with their
// descriptions only when its children are dt/dd groups. No ACT rule covers either; axe-core's
// `listitem` and `definition-list` do, and these find what they find on the real-page corpus.
//
// Only elements in the accessibility tree are judged, and a dl's children that are not (hidden
// ones) take no part in its structure; where that cannot be decided, a failure is cantTell.
import { isTag, isText, type Element } from 'domhandler';
import { parentElement } from '../../page/dom.ts';
import { explicitRole, roleDefinition } from '../aria.ts';
import type { Tri, WcagContext } from '../context.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

/** Elements whose children HTML makes list items. */
const LIST_TAGS = new Set(['ul', 'ol', 'menu']);
/** Script-supporting elements: allowed anywhere in a dl, part of no group. */
const SCRIPT_SUPPORTING = new Set(['script', 'template']);
const NOT_BLANK = /\S/;

/** A failure that only stands if the target is in the accessibility tree. */
function failUnlessHidden(ctx: WcagContext, el: Element, included: Tri, note: string): RuleResult {
  return included === true ? failed(el, note) : cantTell(el, ctx.undecidedCss(`${note}, if it is rendered (its hiddenness depends on undecidable CSS)`));
}

/** The roles a list item needs around it (list, and ARIA 1.1's directory), from aria-query. */
const LIST_ROLES: readonly string[] = roleDefinition('listitem')?.requiredContextRole ?? ['list'];

/** Why a list item's parent does not make it one, or undefined when it does. */
function notInList(ctx: WcagContext, parent: Element | null): string | undefined {
  if (parent === null) return 'the <li> has no parent list';
  const role = explicitRole(parent);
  if (LIST_TAGS.has(parent.name)) {
    // A list whose role is overridden no longer is one; a presentational one removes the items' semantics too.
    if (role === null || LIST_ROLES.includes(role) || role === 'none' || role === 'presentation') return undefined;
    return `the <li> sits in a <${parent.name}> whose role is ${role}, not list`;
  }
  if (LIST_ROLES.includes(ctx.role(parent) ?? '')) return undefined;
  return `the <li> sits in a <${parent.name}>, not in a <ul>, <ol>, <menu> or role list`;
}

/** A declarative shadow root: the host's children are slotted into a tree static HTML does not compose. */
function isShadowHost(el: Element | null): boolean {
  return el !== null && el.children.some((c) => isTag(c) && c.name === 'template' && (c.attribs.shadowrootmode !== undefined || c.attribs.shadowroot !== undefined));
}

export const listitemParent: WcagRule = {
  id: 'listitem-parent',
  actRules: [],
  criteria: ['1.3.1'],
  applicability: 'An `<li>` without an explicit role, included in the accessibility tree.',
  expectation: 'Its parent is a `<ul>`, `<ol>` or `<menu>` (with no role, or role list, none or presentation), or an element with role list.',
  *evaluate(ctx) {
    for (const el of ctx.tagged('li')) {
      if (el.attribs.role !== undefined && explicitRole(el) !== null) continue;
      const included = ctx.isIncluded(el);
      if (included === false) continue;
      const parent = parentElement(el);
      const wrong = notInList(ctx, parent);
      if (wrong === undefined) yield passed(el);
      else if (isShadowHost(parent)) yield cantTell(el, 'the <li> is slotted into a shadow tree, whose list static HTML does not compose');
      else yield failUnlessHidden(ctx, el, included, wrong);
    }
  },
};

/**
 * A run of dt/dd whose descriptions have no term: a dd before any dt. A term left without a
 * description at the end is invalid HTML, but it loses no relationship a reader sees, so it
 * passes here.
 */
class GroupOrder {
  private sawTerm = false;
  problem: string | undefined;

  add(tag: 'dt' | 'dd'): void {
    if (tag === 'dt') this.sawTerm = true;
    else if (!this.sawTerm) this.problem ??= 'a <dd> comes before any <dt>';
  }
}

function where(container: Element): string {
  return container.name === 'dl' ? '<dl>' : '<div> group of a <dl>';
}

/**
 * The first thing wrong with a dl's (or its div group's) children: an element other than dt, dd,
 * a div group (dl only) or a script-supporting element, non-blank text, or dt/dd out of order.
 * Children not in the accessibility tree are skipped; `unsure` collects those whose hiddenness
 * is undecidable and that would be wrong.
 */
function structureProblem(ctx: WcagContext, container: Element, groupsAllowed: boolean, unsure: { value: boolean }): string | undefined {
  const order = new GroupOrder();
  for (const child of container.children) {
    if (isText(child)) {
      if (NOT_BLANK.test(child.data)) return `text sits directly in the ${where(container)}, outside <dt> and <dd>`;
      continue;
    }
    if (!isTag(child) || SCRIPT_SUPPORTING.has(child.name)) continue;
    const included = ctx.isIncluded(child);
    if (included === false) continue;
    const tag = child.name;
    if (tag === 'dt' || tag === 'dd') {
      order.add(tag);
      continue;
    }
    let problem: string | undefined;
    if (tag === 'div' && groupsAllowed) problem = structureProblem(ctx, child, false, unsure);
    else problem = `a <${tag}> sits directly in the ${where(container)}`;
    if (problem === undefined) continue;
    if (included === true) return problem;
    unsure.value = true;
  }
  return order.problem;
}

export const dlStructure: WcagRule = {
  id: 'dl-structure',
  actRules: [],
  criteria: ['1.3.1'],
  applicability: 'A `<dl>` without an explicit role, included in the accessibility tree.',
  expectation:
    'Its children are groups of one or more `<dt>` followed by one or more `<dd>`, each group bare or wrapped in a `<div>`, with `<script>` and `<template>` allowed anywhere.',
  *evaluate(ctx) {
    for (const el of ctx.tagged('dl')) {
      if (el.attribs.role !== undefined && explicitRole(el) !== null) continue;
      const included = ctx.isIncluded(el);
      if (included === false) continue;
      const unsure = { value: false };
      const problem = structureProblem(ctx, el, true, unsure);
      if (problem !== undefined) yield failUnlessHidden(ctx, el, included, problem);
      else if (unsure.value) yield cantTell(el, ctx.undecidedCss('a child that does not belong in a <dl> may be hidden by CSS the page does not decide'));
      else yield passed(el);
    }
  },
};
