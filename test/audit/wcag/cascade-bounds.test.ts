// The cascade's bounds (issue 16): rules sharing a selector are matched once, structural
// pseudo-classes read positions computed once per parent, and a page's CSS may spend a budget of
// match attempts, past which what the cascade could not decide is UNKNOWN and the criteria it
// feeds are inconclusive with evidence that says so. Asserted on work counters and outcomes,
// never on time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectAll } from 'css-select';
import type { Element } from 'domhandler';
import { buildPage } from '../../../src/audit/page.ts';
import { WcagContext } from '../../../src/audit/wcag/context.ts';
import { runEngine } from '../../../src/audit/wcag/engine.ts';
import { aggregate, NO_AI_NOTE } from '../../../src/audit/wcag/findings.ts';
import { StructuralPositions } from '../../../src/audit/wcag/structural.ts';
import { CSS_TOO_LARGE, MATCH_BUDGET, UNKNOWN, type Cascaded } from '../../../src/audit/wcag/styles.ts';
import { deepAncestorsPage, identicalRulesPage, manyRulesPage, siblingsPage } from '../../support/pathological-pages.ts';

const URL_ = 'https://e.example/';
const shown = (c: Cascaded) => (c === UNKNOWN ? 'UNKNOWN' : c?.value);

function analysed(html: string, matchBudget?: number) {
  const options = matchBudget === undefined ? { html: true } : { html: true, matchBudget };
  const { context, runs } = runEngine(buildPage(html, URL_), options);
  return { context, result: aggregate(runs, 'WCAG22AA', true, { used: false, note: NO_AI_NOTE }) };
}

describe('pathological pages finish within the budget, or stop at it', () => {
  test('20,000 identical rules over 20,000 paragraphs: one match per paragraph, the outcome of one rule', () => {
    // Two-letter text, so that contrast applies (red on white fails 4.5:1).
    const many = analysed(identicalRulesPage(20_000, 'xy'));
    const one = analysed(`<style>p{color:red}</style>${'<p>xy</p>'.repeat(20_000)}`);
    assert.equal(many.context.styles.matchWork, 20_000);
    assert.equal(many.context.styles.exhausted, false);
    const outcomes = (r: typeof many.result) => r.controls.map((c) => [c.control, c.outcome, c.evidence]);
    assert.deepEqual(outcomes(many.result), outcomes(one.result));
    assert.equal(many.result.controls.find((c) => c.control === '1.4.3')?.outcome, 'fail');
  });

  test(':nth-last-of-type(2) over 100,000 siblings: each parent’s children visited once', () => {
    const html = siblingsPage();
    const ctx = new WcagContext(buildPage(html, URL_), { html: true });
    const paragraphs = ctx.tagged('p');
    assert.equal(paragraphs.length, 100_000);
    for (const el of ctx.elements) ctx.styles.cascaded(el, 'color');
    assert.equal(ctx.styles.exhausted, false);
    assert.ok(ctx.styles.matchWork <= ctx.elements.length, `${ctx.styles.matchWork} attempts`);
    // The body's 100,002 children once, plus the few other parents' children.
    assert.ok(ctx.styles.siblingVisits < 100_100, `${ctx.styles.siblingVisits} sibling visits`);
    assert.equal(shown(ctx.styles.cascaded(paragraphs.at(-2)!, 'color')), 'red');
    assert.equal(shown(ctx.styles.cascaded(paragraphs.at(-1)!, 'color')), undefined);
    assert.equal(shown(ctx.styles.cascaded(paragraphs.at(-3)!, 'color')), undefined);
  });

  test('10,000 rules × 36,000 elements: stops at the budget; colour criteria inconclusive, saying the CSS is too large', () => {
    const { context, result } = analysed(manyRulesPage());
    assert.equal(context.styles.exhausted, true);
    assert.equal(context.styles.matchWork, MATCH_BUDGET);
    const contrast = result.controls.find((c) => c.control === '1.4.3');
    assert.equal(contrast?.outcome, 'inconclusive');
    assert.ok(contrast.evidence.includes(CSS_TOO_LARGE), contrast.evidence);
    assert.ok(!result.controls.some((c) => c.outcome === 'fail'), 'nothing fails on colours the cascade did not decide');
  });

  test('50 keyless-ancestor rules over 2,000 nested divs: the ancestors each match visits count, and stop it', () => {
    const ctx = new WcagContext(buildPage(deepAncestorsPage(), URL_), { html: true });
    assert.equal(ctx.styles.exhausted, true);
    assert.equal(ctx.styles.matchWork, MATCH_BUDGET);
    const divs = ctx.tagged('div');
    // The first divs were matched within the budget (no ancestor carries data-x*); the deepest were not.
    assert.equal(shown(ctx.styles.cascaded(divs[1]!, 'color')), undefined);
    assert.equal(shown(ctx.styles.cascaded(divs.at(-1)!, 'color')), 'UNKNOWN');
  });
});

describe('past the budget', () => {
  // Budget 2: #one spends both attempts (its .a and p lists); #two's cascade is cut.
  const css = 'p{color:red} .a{display:none}';
  const body = '<p id="one" class="a">ab</p><p id="two" style="display:block">cd</p><span id="three" style="color:#767676">ef</span>';
  const ctx = new WcagContext(buildPage(`<style>${css}</style>${body}`, URL_), { html: true, matchBudget: 2 });
  const value = (id: string, property: string) => shown(ctx.styles.cascaded(ctx.byId(id)!, property));
  const rows: [string, string, string, string | undefined][] = [
    ['a cascade finished within the budget keeps its values', 'one', 'color', 'red'],
    ['… and its display', 'one', 'display', 'none'],
    ['a property a candidate rule sets is UNKNOWN where the cascade was cut', 'two', 'color', 'UNKNOWN'],
    ['near-miss: a property only the style attribute sets stays decided', 'two', 'display', 'block'],
    ['near-miss: an element no rule could apply to stays decided', 'three', 'color', '#767676'],
  ];
  for (const [name, id, property, expected] of rows) test(name, () => assert.equal(value(id, property), expected));

  test('the budget is spent and counted', () => {
    assert.equal(ctx.styles.exhausted, true);
    assert.equal(ctx.styles.matchWork, 2);
    assert.equal(ctx.isRendered(ctx.byId('one')!), false);
    assert.equal(ctx.isRendered(ctx.byId('two')!), true);
  });

  // Budget 1: the first element with a candidate rule spends it; the second is cut. Without a
  // budget both pages fail: red on white is 4:1, and the second link has no name.
  const consumers: [string, string, string, 'pass' | 'fail' | 'inconclusive'][] = [
    ['contrast: text coloured by a rule the cascade did not reach', 'p{color:red}', '<p style="color:#000">first text</p><p>second text</p>', 'inconclusive'],
    ['hiddenness: an unnamed link whose display the cascade did not reach', 'a{display:inline}', '<a href="/a">named</a><a href="/b"></a>', 'inconclusive'],
  ];
  for (const [name, sheet, page, expected] of consumers) {
    test(name, () => {
      const html = `<!doctype html><html lang="en"><head><title>t</title><style>${sheet}</style></head><body>${page}</body></html>`;
      const criterion = name.startsWith('contrast') ? '1.4.3' : '2.4.4';
      const full = analysed(html).result.controls.find((c) => c.control === criterion);
      assert.equal(full?.outcome, 'fail');
      const capped = analysed(html, 1).result.controls.find((c) => c.control === criterion);
      assert.equal(capped?.outcome, expected);
      assert.ok(capped.evidence.includes(CSS_TOO_LARGE), capped.evidence);
    });
  }
});

describe('rules sharing a selector: matched once, cascaded as written', () => {
  const rows: [string, string, string, string, string | undefined][] = [
    ['the later of two identical rules wins', 'p{color:red} p{color:blue}', '<p id="t">x</p>', 'color', 'blue'],
    ['a rule between two identical ones with more specificity wins', 'p{color:red} div p{color:green} p{color:blue}', '<div><p id="t">x</p></div>', 'color', 'green'],
    ['near-miss: the same between-rule without its ancestor', 'p{color:red} div p{color:green} p{color:blue}', '<p id="t">x</p>', 'color', 'blue'],
    ['an earlier !important copy beats a later plain one', 'p{color:red !important} p{color:blue}', '<p id="t">x</p>', 'color', 'red'],
    ['a class rule between two type copies wins', 'p{color:red} .c{color:green} p{color:blue}', '<p id="t" class="c">x</p>', 'color', 'green'],
    ['a copy in a viewport query makes the property UNKNOWN', 'p{color:red} @media (min-width:1px){p{color:blue}} p{color:green}', '<p id="t">x</p>', 'color', 'UNKNOWN'],
    ['near-miss: an !important copy still beats the undecidable one', 'p{color:red !important} @media (min-width:1px){p{color:blue}}', '<p id="t">x</p>', 'color', 'red'],
    ['shorthand then longhand across copies', 'p{background:red} p{background-color:blue}', '<p id="t">x</p>', 'background-color', 'blue'],
    ['longhand then shorthand across copies', 'p{background-color:blue} p{background:red}', '<p id="t">x</p>', 'background-color', 'red'],
    ['the later declaration of one rule wins', 'p{color:red;color:blue} p{font-size:20px}', '<p id="t">x</p>', 'color', 'blue'],
  ];
  for (const [name, css, body, property, expected] of rows) {
    test(name, () => {
      const ctx = new WcagContext(buildPage(`<style>${css}</style>${body}`, URL_), { html: true });
      assert.equal(shown(ctx.styles.cascaded(ctx.byId('t')!, property)), expected);
    });
  }

  test('five copies of one selector over four paragraphs: four match attempts', () => {
    const ctx = new WcagContext(buildPage(`<style>${'p{color:red}'.repeat(5)}</style>${'<p>x</p>'.repeat(4)}`, URL_), { html: true });
    for (const el of ctx.elements) ctx.styles.cascaded(el, 'color');
    assert.equal(ctx.styles.matchWork, 4);
  });
});

describe('structural pseudo-classes match as css-select’s own', () => {
  const page = buildPage(
    `<!doctype html><html><head><title>t</title></head><body>
      <ul><li class="x">1</li><!-- c --><li>2</li> text <li class="x">3</li><li>4</li><li class="x">5</li><li>6</li><li class="x">7</li></ul>
      <div><p>a</p><span>b</span><p class="x">c</p><em>d</em><p>e</p><span class="x">f</span></div>
      <section><b>only child</b></section>
      <nav><i>one</i>text<b>two</b></nav>
    </body></html>`,
    URL_,
  );
  const selectors = [
    ':nth-child(2n+1)', ':nth-child(odd)', ':nth-child(even)', ':nth-child(-n+3)', ':nth-child(n)', ':nth-child(n+1)', ':nth-child(0n+0)', ':nth-child(3)',
    ':nth-last-child(2)', ':nth-last-child(-n+2)', ':nth-of-type(2)', 'p:nth-of-type(2n)', ':nth-last-of-type(2)', 'p:nth-last-of-type(1)', 'span:nth-last-of-type(2)',
    ':first-child', ':last-child', ':only-child', ':first-of-type', ':last-of-type', ':only-of-type', 'b:only-of-type', 'i:only-child',
    ':nth-child(2n+1 of .x)', ':nth-last-child(1 of .x)', ':nth-child(2 of li)', ':nth-last-child(n of .x)',
    ':not(:nth-child(3))', 'li:nth-child(2) ~ li', ':is(:first-child, :last-of-type)', 'ul > :nth-child(2n) + li', ':nth-child(1 of :nth-child(odd))',
  ];
  /** Near-misses that match nothing on the fixture (the <i> has a sibling element). */
  const MATCH_NOTHING = new Set([':nth-child(0n+0)', 'i:only-child']);
  for (const selector of selectors) {
    test(selector, () => {
      const structural = new StructuralPositions();
      const ours = selectAll<Element, Element>(selector, page.document as never, structural.options as never);
      const theirs = selectAll<Element, Element>(selector, page.document as never);
      assert.ok(theirs.length > 0 || MATCH_NOTHING.has(selector), `the fixture has matches for ${selector}`);
      assert.deepEqual(ours, theirs);
    });
  }

  test('an `of S` pass tests S once per sibling, and those tests are charged to the budget', () => {
    const ctx = new WcagContext(buildPage(`<style>:nth-child(2 of p.a){color:red}</style><div>${'<p class="a">x</p><p>y</p>'.repeat(50)}</div>`, URL_), { html: true });
    const paragraphs = ctx.tagged('p');
    for (const el of ctx.elements) ctx.styles.cascaded(el, 'color');
    assert.equal(shown(ctx.styles.cascaded(paragraphs[2]!, 'color')), 'red');
    assert.equal(paragraphs.filter((p) => shown(ctx.styles.cascaded(p, 'color')) === 'red').length, 1);
    // One attempt per element, plus each parent's children once for S.
    assert.ok(ctx.styles.matchWork >= ctx.elements.length + 100, `${ctx.styles.matchWork}`);
    assert.ok(ctx.styles.matchWork < 2 * ctx.elements.length + 20, `${ctx.styles.matchWork}`);
  });

  test('an invalid argument fails the compilation, as in css-select (the selector is undecidable)', () => {
    const ctx = new WcagContext(buildPage('<style>p:nth-of-type(2n of p){color:red}</style><p id="t">x</p>', URL_), { html: true });
    assert.equal(shown(ctx.styles.cascaded(ctx.byId('t')!, 'color')), 'UNKNOWN');
  });
});
