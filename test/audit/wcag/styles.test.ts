// The page's own CSS: cascade order (importance, specificity, inline), what stays undecidable,
// and the statement scanner that keeps large sheets cheap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../src/audit/page.ts';
import { WcagContext } from '../../../src/audit/wcag/context.ts';
import { statements, UNKNOWN } from '../../../src/audit/wcag/styles.ts';

function context(css: string, body: string) {
  return new WcagContext(buildPage(`<!doctype html><html><head><style>${css}</style></head><body>${body}</body></html>`, 'https://e.example/'), { html: true });
}
const value = (ctx: WcagContext, property: string) => {
  const c = ctx.styles.cascaded(ctx.byId('t')!, property);
  return c === UNKNOWN ? 'UNKNOWN' : c?.value;
};

describe('style cascade', () => {
  const rows: [string, string, string, string, string | undefined][] = [
    ['later rule of equal specificity wins', 'p{color:red} p{color:blue}', '<p id="t">x</p>', 'color', 'blue'],
    ['class beats type', '.a{color:red} p{color:blue}', '<p id="t" class="a">x</p>', 'color', 'red'],
    ['!important beats specificity', '#t{color:red} p{color:blue !important}', '<p id="t">x</p>', 'color', 'blue'],
    ['inline beats a sheet rule', '#t{color:red}', '<p id="t" style="color:green">x</p>', 'color', 'green'],
    ['an important sheet rule beats inline', 'p{color:red !important}', '<p id="t" style="color:green">x</p>', 'color', 'red'],
    ['descendant selector', 'nav a{display:none}', '<nav><ul><li><a id="t" href="/">x</a></li></ul></nav>', 'display', 'none'],
    ['near-miss: descendant selector whose ancestor is missing', 'nav a{display:none}', '<div><a id="t" href="/">x</a></div>', 'display', undefined],
    ['a viewport media query is undecidable', '@media (max-width: 600px){p{display:none}}', '<p id="t">x</p>', 'display', 'UNKNOWN'],
    ['print rules never apply on screen', '@media print{p{display:none}}', '<p id="t">x</p>', 'display', undefined],
    ['screen rules apply', '@media screen{p{display:none}}', '<p id="t">x</p>', 'display', 'none'],
    [':hover rules do not apply to the page as served', 'p:hover{color:red}', '<p id="t">x</p>', 'color', undefined],
    ['an invalid selector list is dropped whole', '.a&gt; p, p{color:red}', '<p id="t">x</p>', 'color', undefined],
    ['background shorthand gives its colour', 'p{background:url(a.png) no-repeat #123456}', '<p id="t">x</p>', 'background-color', '#123456'],
  ];
  for (const [name, css, body, property, expected] of rows) {
    test(name, () => assert.equal(value(context(css, body), property), expected));
  }

  test('a semicolon ends an at-rule, never a style rule prelude', () => {
    assert.deepEqual(statements('@import "a.css"; .x&gt;\n p{color:red} /* } */ q{color:blue}', true), [
      { prelude: '@import "a.css"', body: null },
      { prelude: '.x&gt;\n p', body: 'color:red' },
      { prelude: 'q', body: 'color:blue' },
    ]);
  });

  test('hiddenness: display none from a sheet, visually hidden off-screen text, undecidable media', () => {
    const ctx = context('.hide{display:none} .sr{position:absolute;left:-10000px} @media (min-width:1px){.maybe{display:none}}', '<p class="hide" id="a">a</p><p class="sr" id="b">b</p><p class="maybe" id="c">c</p>');
    assert.equal(ctx.isIncluded(ctx.byId('a')!), false);
    assert.equal(ctx.isIncluded(ctx.byId('b')!), true);
    assert.equal(ctx.isVisible(ctx.byId('b')!), false);
    assert.equal(ctx.isIncluded(ctx.byId('c')!), undefined);
  });
});
