// Identity of failed occurrences (src/audit/identity.ts): a table of pairs that must keep one
// identity (what changes without the element changing) and near misses that must not (two
// different elements, or one element that changed), then the same through the real WCAG engine.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Finding } from '../../src/audit/findings.ts';
import {
  compareOccurrences,
  failedOccurrences,
  identityOf,
  normaliseSelector,
  normaliseSnippet,
  type FailedOccurrence,
} from '../../src/audit/identity.ts';
import { buildPage } from '../../src/audit/page.ts';
import { analyseWcag } from '../../src/audit/wcag/index.ts';

type Where = [rule: string | null, selector: string | null, snippet: string | null];
const IMG = 'html > body > main > img:nth-of-type(2)';

/** [name, first, second] with control 1.1.1 unless a `control` is given. */
const SAME: [string, Where, Where][] = [
  ['identical input', ['image-alt', IMG, '<img src="a.png">'], ['image-alt', IMG, '<img src="a.png">']],
  ['a re-indented snippet', ['link-name', 'nav > a', '<a href="/cart">\n    <img src="cart.svg">\n  </a>'], ['link-name', 'nav > a', '<a href="/cart"><img src="cart.svg"></a>']],
  ['tabs and runs of spaces between attributes', ['image-alt', IMG, '<img  src="a.png"\tclass="x">'], ['image-alt', IMG, '<img src="a.png" class="x">']],
  ['leading and trailing whitespace', ['image-alt', IMG, '  <img src="a.png">\n'], ['image-alt', IMG, '<img src="a.png">']],
  ['one trailing space', ['image-alt', IMG, '<img src="a.png"> '], ['image-alt', IMG, '<img src="a.png">']],
  ['a space before a child tag', ['link-name', 'nav > a', '<a href="/"> <img src="a.png"></a>'], ['link-name', 'nav > a', '<a href="/"><img src="a.png"></a>']],
  ['a tab in a selector', ['image-alt', 'main >\timg', '<img src="a.png">'], ['image-alt', 'main > img', '<img src="a.png">']],
  ['a selector written without spaces around >', ['image-alt', 'main>img:nth-of-type(2)', '<img src="a.png">'], ['image-alt', 'main > img:nth-of-type(2)', '<img src="a.png">']],
  ['a cache-busting ?v= build number', ['image-alt', IMG, '<img src="/logo.png?v=171">'], ['image-alt', IMG, '<img src="/logo.png?v=172">']],
  ['a dotted ?ver= version', ['image-alt', IMG, '<img src="/logo.png?ver=6.4.2">'], ['image-alt', IMG, '<img src="/logo.png?ver=6.5.0">']],
  ['a hex ?rev= hash', ['image-alt', IMG, '<img src="/logo.png?rev=3f9a2c">'], ['image-alt', IMG, '<img src="/logo.png?rev=b81e07">']],
  ['jQuery’s &_= timestamp after an escaped &', ['image-alt', IMG, '<img src="/chart?id=7&amp;_=1700000000000">'], ['image-alt', IMG, '<img src="/chart?id=7&amp;_=1700000099999">']],
  ['a content-hashed file name', ['image-alt', IMG, '<img src="/static/hero.3f9a2c1b.png">'], ['image-alt', IMG, '<img src="/static/hero.a81c9e0d.png">']],
  ['a privacy finding without location', [null, null, null], [null, null, null]],
  ['a container whose children changed (an image fixed further down)', ['html-has-lang', 'html', '<html><head><title>Shop</title></head><body><main><img src="/team.jpg">'], ['html-has-lang', 'html', '<html><head><title>Shop</title></head><body><main><form action="/s">']],
  ['a link whose child image changed', ['link-name', 'nav > a', '<a href="/cart"><img src="cart.svg"></a>'], ['link-name', 'nav > a', '<a href="/cart"><svg aria-hidden="true"></svg></a>']],
  ['a > inside a quoted attribute value', ['image-alt', IMG, '<img src="a.png" title="1 > 0"><span>x</span>'], ['image-alt', IMG, '<img src="a.png" title="1 > 0"><span>y</span>']],
];

const DIFFERENT: [string, Where, Where, control?: string][] = [
  ['another element (the next image)', ['image-alt', IMG, '<img src="a.png">'], ['image-alt', 'html > body > main > img:nth-of-type(3)', '<img src="a.png">']],
  ['another image at the same place (a like-for-like swap)', ['image-alt', IMG, '<img src="a.png">'], ['image-alt', IMG, '<img src="b.png">']],
  ['another rule on the same element', ['image-alt', IMG, '<img src="a.png">'], ['role-img-alt', IMG, '<img src="a.png">']],
  ['changed text', ['link-name', 'nav > a', '<a href="/buy">Buy</a>'], ['link-name', 'nav > a', '<a href="/buy">Buy now</a>']],
  ['an attribute added', ['image-alt', IMG, '<img src="a.png">'], ['image-alt', IMG, '<img src="a.png" alt="">']],
  ['another ?id= (not a cache buster)', ['link-name', 'nav > a', '<a href="/p?id=1"></a>'], ['link-name', 'nav > a', '<a href="/p?id=2"></a>']],
  ['a ?v= that is content (a video id)', ['frame-title', 'iframe', '<iframe src="/watch?v=dQw4w9WgXcQ">'], ['frame-title', 'iframe', '<iframe src="/watch?v=9bZkp7q19f0">']],
  ['a cache buster added where there was no query', ['image-alt', IMG, '<img src="/logo.png">'], ['image-alt', IMG, '<img src="/logo.png?v=1">']],
  ['a file name that is only a hash', ['image-alt', IMG, '<img src="/3f9a2c1b.png">'], ['image-alt', IMG, '<img src="/a81c9e0d.png">']],
  ['a date stamp in a file name (another month’s document)', ['link-name', 'main > a', '<a href="/report.20240101.pdf"></a>'], ['link-name', 'main > a', '<a href="/report.20240201.pdf"></a>']],
  ['a selector under another unique id', ['image-alt', '#nav > img', '<img src="a.png">'], ['image-alt', '#aside > img', '<img src="a.png">']],
  ['a location against none', [null, 'footer > a', '<a href="/privacy">Privacy</a>'], [null, null, null]],
  ['the rule as a selector (fields never run together)', ['a', 'b', '<i>'], ['a b', null, '<i>']],
  ['a container whose own attributes changed', ['html-has-lang', 'html', '<html class="a"><head>'], ['html-has-lang', 'html', '<html class="b"><head>']],
  ['text before the first child changed', ['link-name', 'nav > a', '<a href="/x">Cart <img src="c.svg"></a>'], ['link-name', 'nav > a', '<a href="/x">Basket <img src="c.svg"></a>']],
  ['a start tag the cut ended, with different attributes after the cut', ['image-alt', IMG, '<img src="a.png" data-x="aaa'], ['image-alt', IMG, '<img src="a.png" data-x="bbb']],
];

describe('one identity for what changes without the element changing', () => {
  for (const [name, first, second] of SAME) {
    test(name, () => assert.equal(identityOf('1.1.1', ...first), identityOf('1.1.1', ...second)));
  }
});

describe('near misses: different identities', () => {
  for (const [name, first, second] of DIFFERENT) {
    test(name, () => assert.notEqual(identityOf('1.1.1', ...first), identityOf('1.1.1', ...second)));
  }
  test('the same occurrence under another control', () => {
    assert.notEqual(identityOf('1.1.1', ...SAME[0]![1]), identityOf('4.1.2', ...SAME[0]![1]));
  });
});

describe('normalisation, spelled out', () => {
  const snippets: [string, string][] = [
    ['<a href="/x">\n  <span>Go</span>\n</a>', '<a href="/x">'],
    ['<p>Two  words</p>', '<p>Two words'],
    ['<p>Lead text <b>bold</b> rest</p>', '<p>Lead text'],
    ['<!-- a comment -->', '<!-- a comment -->'],
    ['text, not markup', 'text, not markup'],
    ['<img src="/a.png?v=12&amp;id=3">', '<img src="/a.png?v=&amp;id=3">'],
    ['<img src="/a.png?id=3&v=1.2.3">', '<img src="/a.png?id=3&v=">'],
    ['<img src="/a.png?V=ABCDEF12">', '<img src="/a.png?V=">'],
    ['<img src="/a.png?v=abcDEF12">', '<img src="/a.png?v=abcDEF12">'],
    ['<img src="/a.png?version=beta">', '<img src="/a.png?version=beta">'],
    ['<img src="/app.3f9a2c1b.png">', '<img src="/app.#.png">'],
    ['<img src="/app.deadbeef.png">', '<img src="/app.deadbeef.png">'],
  ];
  for (const [input, expected] of snippets) test(`snippet ${JSON.stringify(input)}`, () => assert.equal(normaliseSnippet(input), expected));
  test('selectors', () => {
    assert.equal(normaliseSelector(' html>body  >\tmain > p:nth-of-type(2) '), 'html > body > main > p:nth-of-type(2)');
    assert.equal(normaliseSelector(':root'), ':root');
  });
  test('an identity is 32 hex characters', () => assert.match(identityOf('1.1.1', 'image-alt', IMG, '<img>'), /^[0-9a-f]{32}$/));
});

const finding = (control: string, extra: Partial<Finding> = {}): Finding => ({ control, status: 'fail', severity: 'error', evidence: `${control} failed`, ...extra });

describe('failed occurrences of a findings list', () => {
  test('each WCAG occurrence, a finding without occurrences as one, inconclusive findings left out', () => {
    const findings: Finding[] = [
      finding('privacy.privacy-policy-link'),
      finding('privacy.consent-banner', { location: { selector: '#banner', snippet: '<div id="banner">' } }),
      finding('ai-governance.ai-disclosure-notice', { status: 'inconclusive', severity: 'warning' }),
      finding('1.1.1', {
        occurrences: [
          { rule: 'image-alt', selector: 'main > img', snippet: '<img src="a.png">' },
          { rule: 'image-alt', selector: 'main > img:nth-of-type(2)', snippet: '<img src="b.png">' },
        ],
      }),
      finding('2.4.6', { severity: 'warning', occurrences: [{ rule: 'empty-heading', selector: 'h2', snippet: '<h2></h2>' }] }),
    ];
    const all = failedOccurrences(findings);
    assert.deepEqual(
      all.map(({ control, rule, selector, finding: index, severity }) => [control, rule, selector, index, severity]),
      [
        ['privacy.privacy-policy-link', null, null, 0, 'error'],
        ['privacy.consent-banner', null, '#banner', 1, 'error'],
        ['1.1.1', 'image-alt', 'main > img', 3, 'error'],
        ['1.1.1', 'image-alt', 'main > img:nth-of-type(2)', 3, 'error'],
        ['2.4.6', 'empty-heading', 'h2', 4, 'warning'],
      ],
    );
  });

  test('stored identities are used when there is one per occurrence, and ignored otherwise', () => {
    const findings = [finding('1.1.1', { occurrences: [{ rule: 'image-name', selector: 'img', snippet: '<img>' }] }), finding('privacy.privacy-policy-link')];
    const computed = failedOccurrences(findings).map((o) => o.identity);
    assert.deepEqual(failedOccurrences(findings, ['s1', 's2']).map((o) => o.identity), ['s1', 's2']);
    assert.deepEqual(failedOccurrences(findings, ['s1']).map((o) => o.identity), computed);
    assert.deepEqual(failedOccurrences(findings, []).map((o) => o.identity), computed);
  });

  test('an identity met twice is compared once', () => {
    const twice = { rule: 'image-alt', selector: 'img', snippet: '<img>' };
    const listed = failedOccurrences([finding('1.1.1', { occurrences: [twice, { ...twice, snippet: ' <img> ' }] })]);
    assert.equal(listed.length, 2, 'listed as the findings list them (the stored positions follow this list)');
    assert.equal(compareOccurrences(listed, []).occurrences.new.length, 1);
    assert.deepEqual(compareOccurrences(listed, listed).occurrences, { new: [], fixed: [], persisting: [listed[0]] });
  });
});

describe('comparing two lists', () => {
  const occ = (control: string, selector: string, severity: 'error' | 'warning' = 'error'): FailedOccurrence => ({
    identity: identityOf(control, 'r', selector, '<x>'),
    control,
    severity,
    rule: 'r',
    selector,
    snippet: '<x>',
    finding: 0,
  });

  test('new, fixed and persisting, for occurrences and for controls', () => {
    const earlier = [occ('1.1.1', 'a'), occ('1.1.1', 'b'), occ('2.4.2', 'c'), occ('3.1.1', 'd', 'warning')];
    const current = [occ('1.1.1', 'b'), occ('1.1.1', 'e'), occ('4.1.2', 'f'), occ('3.1.1', 'd', 'warning'), occ('3.1.1', 'g')];
    const changes = compareOccurrences(current, earlier);
    const selectors = (list: FailedOccurrence[]) => list.map((o) => o.selector);
    assert.deepEqual(selectors(changes.occurrences.new), ['e', 'f', 'g']);
    assert.deepEqual(selectors(changes.occurrences.fixed), ['a', 'c']);
    assert.deepEqual(selectors(changes.occurrences.persisting), ['b', 'd']);
    assert.deepEqual(changes.controls, {
      new: [{ control: '4.1.2', severity: 'error' }],
      fixed: [{ control: '2.4.2', severity: 'error' }],
      // A control keeps the highest severity it failed with on its side.
      persisting: [{ control: '1.1.1', severity: 'error' }, { control: '3.1.1', severity: 'error' }],
    });
  });

  test('no earlier audit: everything is new', () => {
    const current = [occ('1.1.1', 'a'), occ('2.4.2', 'b')];
    const changes = compareOccurrences(current, []);
    assert.deepEqual(changes.occurrences.new, current);
    assert.deepEqual([changes.occurrences.fixed, changes.occurrences.persisting, changes.controls.fixed, changes.controls.persisting], [[], [], [], []]);
  });
});

describe('through the real WCAG engine', () => {
  const PAGE = `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<nav><a href="/"><img src="/logo.png?v=101"></a><a href="/cart"></a></nav>
<main><h1>Shop</h1><img src="/static/hero.3f9a2c1b.jpg"><img src="/b.png" alt="A basket"><button></button></main></body></html>`;
  const identities = (html: string) => failedOccurrences(analyseWcag(buildPage(html, 'https://shop.test/'), 'WCAG21AA', true).findings);

  test('the page audited twice has the same identities', () => {
    const first = identities(PAGE);
    assert.ok(first.length >= 3, 'the page has failures');
    assert.deepEqual(identities(PAGE), first);
  });

  test('re-indented, with a new cache buster and a rebuilt hero: the same identities', () => {
    const changed = PAGE.replace('<a href="/"><img', '<a href="/">\n      <img')
      .replace('"></a><a href="/cart">', '">\n    </a><a href="/cart">')
      .replace('?v=101', '?v=102')
      .replace('3f9a2c1b', '77e0aa41');
    const [before, after] = [identities(PAGE), identities(changed)];
    assert.ok(after.some((o) => o.snippet?.includes('\n      <img src="/logo.png?v=102">')), 'the re-indented link is among the occurrences');
    assert.deepEqual(after.map((o) => o.identity), before.map((o) => o.identity));
  });

  test('a like-for-like swap (alt moves from one image to the other): one fixed, one new', () => {
    const swapped = PAGE.replace('<img src="/static/hero.3f9a2c1b.jpg">', '<img src="/static/hero.3f9a2c1b.jpg" alt="Baskets">').replace(' alt="A basket"', '');
    const changes = compareOccurrences(identities(swapped), identities(PAGE));
    assert.deepEqual(changes.occurrences.fixed.map((o) => o.snippet), ['<img src="/static/hero.3f9a2c1b.jpg">']);
    assert.deepEqual(changes.occurrences.new.map((o) => o.snippet), ['<img src="/b.png">']);
    assert.ok(changes.occurrences.persisting.length >= 2);
    assert.deepEqual(changes.controls.new, []);
    assert.deepEqual(changes.controls.fixed, []);
  });
});
