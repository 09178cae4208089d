// ACT akn7bn: an iframe holding content in sequential focus navigation is not taken out of the
// tab order with a negative tabindex (keyboard users could not reach that content). Only an
// iframe's `srcdoc` document can be read statically; for one loaded from `src` the content is
// unknown, and a negative tabindex there is cantTell.
import { buildPage } from '../../page.ts';
import { WcagContext } from '../context.ts';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

/** Whether a nested document has visible content in sequential focus navigation. */
function hasTabbableContent(srcdoc: string, url: URL): boolean | undefined {
  const inner = new WcagContext(buildPage(srcdoc, url), { html: true });
  let unsure = false;
  for (const el of inner.focusCandidates) {
    const focus = inner.inSequentialFocus(el);
    const visible = inner.isVisible(el);
    if (focus === true && visible === true) return true;
    if (focus !== false && visible !== false) unsure = true;
  }
  return unsure ? undefined : false;
}

export const iframeFocus: WcagRule = {
  id: 'iframe-tabindex',
  actRules: ['akn7bn'],
  criteria: ['2.1.1'],
  applicability: 'A visible, non-inert iframe whose document has visible content in sequential focus navigation.',
  expectation: 'The iframe has no negative tabindex.',
  *evaluate(ctx) {
    for (const el of ctx.tagged('iframe')) {
      if (el.attribs.inert !== undefined || ctx.isVisible(el) === false) continue;
      // A 1×1 frame shows nothing of its content.
      if (Number(el.attribs.width) <= 1 || Number(el.attribs.height) <= 1) continue;
      const negative = (ctx.tabindex(el) ?? 0) < 0;
      const srcdoc = el.attribs.srcdoc;
      if (srcdoc === undefined) {
        if (negative && el.attribs.src !== undefined) yield cantTell(el, 'an iframe taken out of the tab order; its content is not loaded statically');
        continue;
      }
      const tabbable = hasTabbableContent(srcdoc, ctx.page.url);
      if (tabbable === false) continue;
      if (!negative) yield passed(el);
      else if (tabbable === undefined) yield cantTell(el, 'an iframe taken out of the tab order may hold focusable content');
      else yield failed(el, 'tabindex="-1" takes the iframe and the focusable content inside it out of the tab order');
    }
  },
};
