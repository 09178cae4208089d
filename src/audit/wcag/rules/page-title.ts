// ACT 2779a5: an HTML page has a non-empty title.
import { parentElement } from '../../page/dom.ts';
import { textOf } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

export const pageTitle: WcagRule = {
  id: 'page-title',
  actRules: ['2779a5'],
  criteria: ['2.4.2'],
  applicability: 'The root element of an HTML page.',
  expectation: 'The page has a title element, and the first one holds text other than whitespace.',
  *evaluate(ctx) {
    const root = ctx.htmlElement;
    if (!ctx.html || root === null) return;
    const title = ctx.tagged('title').find((t) => !insideSvg(t));
    if (title === undefined) yield failed(root, 'no <title> element');
    else if (textOf(title).trim() === '') yield failed(title, 'the <title> is empty');
    else yield passed(title);
  },
};

function insideSvg(el: import('domhandler').Element): boolean {
  for (let a = parentElement(el); a !== null; a = parentElement(a)) if (a.name === 'svg') return true;
  return false;
}
