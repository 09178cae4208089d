// The page's own CSS: cascade order (importance, specificity, inline), what stays undecidable,
// and the statement scanner that keeps large sheets cheap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../src/audit/page.ts';
import { WcagContext } from '../../../src/audit/wcag/context.ts';
import { parseLegacyColor, toHex } from '../../../src/audit/wcag/colors.ts';
import { legacyFontSize, mediaApplies, statements, UNKNOWN } from '../../../src/audit/wcag/styles.ts';

function context(css: string, body: string) {
  return new WcagContext(buildPage(`<!doctype html><html><head><style>${css}</style></head><body>${body}</body></html>`, 'https://e.example/'), { html: true });
}
function document(head: string, body: string, bodyAttributes = '') {
  return new WcagContext(buildPage(`<!doctype html><html><head>${head}</head><body${bodyAttributes}>${body}</body></html>`, 'https://e.example/'), { html: true });
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

describe('sheets as CSS Syntax parses them (issue 18)', () => {
  const preludes = (css: string, topLevel = true) => statements(css, topLevel).map((s) => s.prelude.trim());
  test('a sheet wrapped in <![CDATA[ … ]]> is one qualified rule without a block: nothing', () => {
    assert.deepEqual(statements('<![CDATA[ p{color:red} q{color:blue} ]]>', true), []);
    // What follows the markers joins their rule's prelude (a selector no element matches); later rules apply.
    assert.deepEqual(preludes('<![CDATA[ p{color:red} ]]> q{color:blue} s{color:green}'), ['<![CDATA[ p{color:red} ]]> q', 's']);
  });
  test('CDO and CDC are skipped between the statements of a sheet, not inside a block', () => {
    assert.deepEqual(preludes('<!-- p{color:red} --> <!-- q{color:blue} -->'), ['p', 'q']);
    assert.deepEqual(preludes('<!-- p{color:red}', false), ['<!-- p']);
  });
  test('an unclosed ( or [ swallows the rest of the sheet; an unclosed block is closed at its end', () => {
    assert.deepEqual(preludes('a[href {color:red} p{color:blue}'), []);
    assert.deepEqual(statements('p{background:url(a.png} q{color:blue}', true), [{ prelude: 'p', body: 'background:url(a.png} q{color:blue}' }]);
    assert.deepEqual(statements('p{color:rgb(1,2,3} q{color:blue}', true), [{ prelude: 'p', body: 'color:rgb(1,2,3} q{color:blue}' }]);
    assert.deepEqual(statements('p{color:red', true), [{ prelude: 'p', body: 'color:red' }]);
    // A closing token that no open block waits for stays inside: `)` does not close `[`.
    assert.deepEqual(preludes('a[x=")"] ) ]{color:red} q{}'), ['a[x=")"] ) ]', 'q']);
  });
  test('strings, escapes and comments hide braces', () => {
    assert.deepEqual(preludes('a[title="{"]{color:red} b\\{c{color:blue} /* { */ d{}'), ['a[title="{"]', 'b\\{c', 'd']);
  });

  const rows: [string, string, string, string, string | undefined][] = [
    ['CDATA-wrapped sheet: no rule applies', '<style><![CDATA[ #t{color:red} ]]></style>', '<p id="t">x</p>', 'color', undefined],
    ['comment-wrapped sheet: its rules apply', '<style><!-- #t{color:red} --></style>', '<p id="t">x</p>', 'color', 'red'],
    ['<style media="print"> never applies', '<style media="print">#t{display:none}</style>', '<p id="t">x</p>', 'display', undefined],
    ['<style media="screen"> applies', '<style media="screen">#t{display:none}</style>', '<p id="t">x</p>', 'display', 'none'],
    ['<style media="all and (min-width: 600px)"> is undecidable, as @media is', '<style media="all and (min-width: 600px)">#t{display:none}</style>', '<p id="t">x</p>', 'display', 'UNKNOWN'],
    ['@media print inside a screen sheet', '<style media="screen">@media print{#t{display:none}}</style>', '<p id="t">x</p>', 'display', undefined],
    ['<style type="text/less"> is not CSS', '<style type="text/less">#t{display:none}</style>', '<p id="t">x</p>', 'display', undefined],
    ['<style> inside <noscript> is no sheet', '<noscript><style>#t{display:none}</style></noscript>', '<p id="t">x</p>', 'display', undefined],
  ];
  for (const [name, head, body, property, expected] of rows) {
    test(name, () => assert.equal(value(document(head, body), property), expected));
  }

  test('media query lists: screen, print, malformed, viewport-dependent', () => {
    const cases: [string, boolean | undefined][] = [
      ['', true], ['all', true], ['screen', true], ['only screen', true], ['Screen, print', true], ['not print', true],
      ['print', false], ['speech', false], ['tv', false], ['not screen', false], ['not all', false], ['only print and (min-width: 1px)', false],
      ['screen and', false], ['nonsense-type', false], ['print, speech', false],
      ['(min-width: 600px)', undefined], ['screen and (max-width: 600px)', undefined], ['not screen and (color)', undefined], ['print, (orientation: portrait)', undefined],
    ];
    for (const [media, expected] of cases) assert.equal(mediaApplies(media), expected, media);
  });

  test('@import counts as CSS the page does not carry only where it applies', () => {
    assert.equal(document('<style>@import url(a.css);</style>', '').externalStyles, true);
    assert.equal(document('<style>@import url(a.css) print;</style>', '').externalStyles, false);
    assert.equal(document('<style media="print">@import "a.css";</style>', '').externalStyles, false);
    assert.equal(document('<style><![CDATA[ @import "a.css"; ]]></style>', '').externalStyles, false);
    assert.equal(document('<style>/* @import "a.css"; */ p{}</style>', '').externalStyles, false);
  });
});

describe('presentational hints (issue 18)', () => {
  test('HTML legacy colour values', () => {
    const cases: [string, string | undefined][] = [
      ['#333', '#333333'], [' #DDDDDD ', '#dddddd'], ['red', '#ff0000'], ['RebeccaPurple', '#663399'], ['chucknorris', '#c00000'],
      ['ffffff', '#ffffff'], ['#abcd', '#abcd00'], ['#1234567890', '#125690'], ['rgb(255,0,0)', '#002500'], ['', undefined], ['transparent', undefined],
    ];
    for (const [input, expected] of cases) {
      const parsed = parseLegacyColor(input);
      assert.equal(parsed === undefined ? undefined : toHex(parsed), expected, input);
    }
  });

  test('HTML legacy font sizes', () => {
    const cases: [string, string | undefined][] = [['1', 'x-small'], ['3', 'medium'], ['7', 'xxx-large'], ['9', 'xxx-large'], ['+2', 'x-large'], ['-1', 'small'], ['-5', 'x-small'], [' 4px', 'large'], ['x', undefined], ['', undefined]];
    for (const [input, expected] of cases) assert.equal(legacyFontSize(input), expected, input);
  });

  const rows: [string, string, string, string, string, string | undefined][] = [
    ['bgcolor on a cell', '', '', '<table><tr><td id="t" bgcolor="#fff">x</td></tr></table>', 'background-color', '#ffffff'],
    ['a universal rule beats a hint (author CSS above hints)', '<style>*{background-color:red}</style>', '', '<table><tr><td id="t" bgcolor="#fff">x</td></tr></table>', 'background-color', 'red'],
    ['a style attribute beats a hint', '', '', '<font id="t" color="#ddd" style="color:#222">x</font>', 'color', '#222'],
    ['font color', '', '', '<font id="t" color="#ddd">x</font>', 'color', '#dddddd'],
    ['font size', '', '', '<font id="t" size="+1">x</font>', 'font-size', 'large'],
    ['body text', '', ' id="t" text="navy"', '', 'color', '#000080'],
    ['body background is an image', '', ' id="t" background="a.png"', '', 'background-image', 'url("a.png")'],
    ['a link takes the UA :link colour', '', '', '<a id="t" href="/">x</a>', 'color', '#0000ee'],
    ['a link takes the body link colour', '', ' link="#ff0"', '<a id="t" href="/">x</a>', 'color', '#ffff00'],
    ['near-miss: an anchor without href is no link', '', ' link="#ff0"', '<a id="t">x</a>', 'color', undefined],
    ['near-miss: an SVG link keeps no link colour (its text is painted with fill)', '', '', '<svg><a id="t" href="/"><text>x</text></a></svg>', 'color', undefined],
    ['an undecidable rule makes a hinted property undecidable', '<style>@media (min-width:1px){td{background-color:red}}</style>', '', '<table><tr><td id="t" bgcolor="#fff">x</td></tr></table>', 'background-color', 'UNKNOWN'],
    ['near-miss: bgcolor on a div is no hint', '', '', '<div id="t" bgcolor="#fff">x</div>', 'background-color', undefined],
  ];
  for (const [name, head, bodyAttributes, body, property, expected] of rows) {
    test(name, () => assert.equal(value(document(head, body, bodyAttributes), property), expected));
  }
});
