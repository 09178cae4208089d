import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CLIENT_RENDERED_MAX_TEXT,
  SHELL_MAX_TEXT,
  blockAt,
  buildPage,
  hasVisibleText,
  isVisible,
  locate,
  lowerSameLength,
  noscriptContent,
  parseInlineVisibility,
  templateContent,
  type Page,
} from '../../src/audit/page.ts';
import { selectAll } from 'css-select';
import { render } from 'dom-serializer';
import { isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import * as DomUtils from 'domutils';
import { CORPORA, loadCorpusPages, median } from '../support/corpus-pages.ts';
import { sharedSuite } from '../support/shared.ts';

const URL_ = 'https://example.com/dir/page.html';
const build = (html: string, url: string = URL_): Page => buildPage(html, url);
const texts = (page: Page): string[] => page.textBlocks.map((b) => b.text);

describe('visible text', () => {
  test('keeps text in blocks with their element, joined and whitespace-collapsed', () => {
    const page = build(`<body><h1>Title  <b>bold</b>\n here</h1><p>One<br>two</p>
      <div>outer <p>inner</p> tail</div><ul><li>a</li><li>b&nbsp;c</li></ul></body>`);
    assert.deepEqual(texts(page), ['Title bold here', 'One two', 'outer', 'inner', 'tail', 'a', 'b c']);
    assert.deepEqual(page.textBlocks.map((b) => b.element?.name), ['h1', 'p', 'div', 'p', 'div', 'li', 'li']);
    assert.equal(page.text, texts(page).join('\n'));
    for (const block of page.textBlocks) assert.equal(page.text.slice(block.start, block.start + block.text.length), block.text);
    assert.equal(blockAt(page, page.text.indexOf('inner') + 2)?.text, 'inner');
  });

  test('text in never-rendered elements does not count', () => {
    const page = build(`<head><title>Tab title</title><style>p{}</style><script>var a = "script text"</script></head>
      <body><p>visible</p><template><p>template text</p></template><noscript>noscript text</noscript>
      <iframe>iframe fallback</iframe><svg><title>svg tooltip</title><text>svg text</text></svg>
      <dialog><p>closed dialog</p></dialog><dialog open><p>open dialog</p></dialog></body>`);
    assert.deepEqual(texts(page), ['visible', 'svg text', 'open dialog']);
    assert.equal(page.title, 'Tab title');
  });

  test('hidden, aria-hidden and inline display:none / visibility:hidden subtrees do not count', () => {
    const page = build(`<p>shown</p>
      <div hidden><p>hidden attribute <b>and child</b></p></div>
      <div hidden="until-found">until found</div>
      <div aria-hidden="TRUE">aria hidden</div>
      <div aria-hidden="false">aria not hidden</div>
      <div style="display:none">display none</div>
      <div style="COLOR: red ; Display : None !IMPORTANT">messy style</div>
      <div style="display: none; display: block">later wins</div>
      <div style="display: none !important; display: block">important wins</div>
      <div style="/* comment */ visibility : hidden">visibility hidden <span style="visibility:visible">re-shown</span></div>
      <div style="visibility:collapse">collapsed</div>
      <div style="display:none"><span style="visibility:visible">cannot re-show</span></div>
      <p>inline <span hidden>secret</span>text</p>`);
    assert.deepEqual(texts(page), ['shown', 'aria not hidden', 'later wins', 're-shown', 'inline text']);
  });

  test('isVisible answers for any element from the recorded marks', () => {
    const page = build(`<div id="a" style="visibility:hidden"><span id="b" style="visibility:visible"><i id="c">x</i></span></div>
      <section hidden><p id="d">y</p></section><p id="e">z</p>`);
    const el = (id: string) => page.ids.get(id)![0]!;
    assert.equal(isVisible(page, el('a')), false);
    assert.equal(isVisible(page, el('b')), true);
    assert.equal(isVisible(page, el('c')), true);
    assert.equal(isVisible(page, el('d')), false);
    assert.equal(isVisible(page, el('e')), true);
  });

  test('parses inline style declarations tolerantly', () => {
    assert.deepEqual(parseInlineVisibility('DISPLAY:NONE'), { display: 'none', visibility: null });
    assert.deepEqual(parseInlineVisibility(' visibility : hidden ! important ;color:red'), { display: null, visibility: 'hidden' });
    assert.deepEqual(parseInlineVisibility('display:none;;garbage;display:'), { display: 'none', visibility: null });
    assert.deepEqual(parseInlineVisibility('/* display:none */ color: red'), { display: null, visibility: null });
    assert.deepEqual(parseInlineVisibility('/* unterminated display:none'), { display: null, visibility: null });
  });

  test('the lower-cased text has the same length, so offsets are shared', () => {
    const page = build('<p>İstanbul ǅ STRASSE ẞ</p>');
    assert.equal(page.textLower.length, page.text.length);
    assert.equal(lowerSameLength('AbC'), 'abc');
    assert.equal(lowerSameLength('İx').length, 2);
  });

  test('soft hyphens and zero-width characters do not split words', () => {
    assert.deepEqual(texts(build('<p>arti\u00adficial intel\u200bligence</p>')), ['artificial intelligence']);
  });
});

describe('links', () => {
  test('resolves hrefs against <base href>, itself resolved against the page URL', () => {
    const page = build(`<head><base href="/other/"></head><body><a href="x">X</a><a href="../y?q=1#f">Y</a>
      <a href="https://elsewhere.test/z">Z</a><a href="mailto:a@b.c">mail</a><a href="http://[bad">bad</a><a>no href</a></body>`);
    assert.deepEqual(page.baseUrl.href, 'https://example.com/other/');
    assert.deepEqual(page.links.map((l) => l.href), [
      'https://example.com/other/x',
      'https://example.com/y?q=1#f',
      'https://elsewhere.test/z',
      'mailto:a@b.c',
      'http://[bad',
    ]);
    assert.equal(page.links[4]!.url, null);
    assert.equal(page.links[0]!.url?.pathname, '/other/x');
  });

  test('uses only the first <base href>, wherever it is, and ignores non-http(s) bases', () => {
    assert.equal(build('<a href="p">p</a><base href="https://cdn.test/a/"><base href="https://x.test/">').links[0]!.href, 'https://cdn.test/a/p');
    assert.equal(build('<base href="javascript:alert(1)"><a href="p">p</a>').links[0]!.href, 'https://example.com/dir/p');
    assert.equal(build('<a href="p">p</a>').links[0]!.href, 'https://example.com/dir/p');
  });

  test('names links like an accessible name: aria-label, content plus img alt, title; area alt', () => {
    const page = build(`<a href="1" aria-label=" Labelled  link ">content</a><a href="2"><img src="i.png" alt="Logo"> Home</a>
      <a href="3" title="Title only"></a><a href="4"><span aria-hidden="true">★</span>Rated</a>
      <map><area href="5" alt="Area alt"></map><a href="6"></a><a href="7"><svg><title>icon</title></svg></a>`);
    assert.deepEqual(page.links.map((l) => [l.text, l.nameFrom]), [
      ['Labelled link', 'aria-label'],
      ['Logo Home', 'content'],
      ['Title only', 'title'],
      ['Rated', 'content'],
      ['Area alt', 'alt'],
      ['', 'none'],
      ['', 'none'],
    ]);
  });

  test('records rel, visibility and reading position', () => {
    const page = build(`<p>intro</p><p><a href="/a" rel="Nofollow  NOOPENER">a</a></p><div hidden><a href="/h">h</a></div>
      <nav style="display:none"><a href="/n">n</a></nav><p>after</p><a href="/last">last</a>`);
    assert.deepEqual(page.links.map((l) => [l.rawHref, l.visible, l.blockIndex]), [
      ['/a', true, 1],
      ['/h', false, 2],
      ['/n', false, 2],
      ['/last', true, 3],
    ]);
    assert.deepEqual(page.links[0]!.rel, ['nofollow', 'noopener']);
    assert.equal(page.textBlocks[3]?.text, 'last');
  });

  test('collects <link href> separately', () => {
    const page = build('<head><link rel="stylesheet" href="/s.css"><link rel="Canonical" href="https://example.com/c"></head>');
    assert.deepEqual(page.headLinks.map((l) => [l.rel, l.href]), [
      [['stylesheet'], 'https://example.com/s.css'],
      [['canonical'], 'https://example.com/c'],
    ]);
    assert.equal(page.links.length, 0);
  });
});

describe('headings, title, meta, JSON-LD, scripts, forms', () => {
  test('headings are the visible h1–h6 with their visible text', () => {
    const page = build(`<h1>Main <span hidden>x</span>title</h1><h2 hidden>Hidden</h2><div aria-hidden="true"><h3>Also hidden</h3></div>
      <h4><img alt="Logo"> Brand</h4><h6>Six</h6>`);
    assert.deepEqual(page.headings.map((h) => [h.level, h.text]), [[1, 'Main title'], [4, 'Logo Brand'], [6, 'Six']]);
  });

  test('title is the first non-SVG <title>', () => {
    const page = build('<body><svg><title>icon</title></svg><title> Real \n title </title><title>second</title></body>');
    assert.equal(page.title, 'Real title');
    assert.equal(page.titleElement?.name, 'title');
    assert.equal(build('<p>none</p>').title, '');
  });

  test('meta: name, property, itemprop or http-equiv with content', () => {
    const page = build(`<meta charset="utf-8"><meta name="Description" content="Desc"><meta property="og:title" content="OG">
      <meta itemprop="name" content="Item"><meta http-equiv="X-UA-Compatible" content="IE=edge"><meta name="empty">`);
    assert.deepEqual(page.metas.map((m) => [m.key, m.content]), [
      ['description', 'Desc'],
      ['og:title', 'OG'],
      ['name', 'Item'],
      ['x-ua-compatible', 'IE=edge'],
    ]);
  });

  test('JSON-LD blocks are parsed; invalid ones are skipped; common wrappers are tolerated', () => {
    const page = build(`<script type="application/ld+json">{"@type":"Article","name":"A"}</script>
      <script type="Application/LD+JSON; charset=utf-8">[{"@type":"Person"}]</script>
      <script type="application/ld+json">{not json</script>
      <script type="application/ld+json"><!-- {"@type":"Wrapped"} --></script>
      <script type="application/ld+json"></script>
      <script>{"@type":"NotLd"}</script>`);
    assert.deepEqual(page.jsonLd.map((j) => j.data), [{ '@type': 'Article', name: 'A' }, [{ '@type': 'Person' }], { '@type': 'Wrapped' }]);
    assert.equal(page.scripts.length, 6);
    assert.deepEqual(page.text, '');
  });

  test('scripts record resolved src, type and inline content', () => {
    const page = build('<script src="/app.js" type="module"></script><script>init()</script>');
    assert.deepEqual(page.scripts.map((s) => [s.src, s.type, s.content]), [
      ['https://example.com/app.js', 'module', ''],
      [null, '', 'init()'],
    ]);
  });

  test('forms record action, fields and their block range', () => {
    const page = build(`<p>before</p><form action="/send" method="POST"><label>Email <input type="EMAIL" name="e"></label>
      <textarea name="m"></textarea><button>Send</button></form><form hidden></form>`);
    const [form, hidden] = page.forms;
    assert.equal(form?.action, 'https://example.com/send');
    assert.equal(form?.method, 'post');
    assert.deepEqual(form?.fields.map((f) => [f.tag, f.type, f.name]), [['input', 'email', 'e'], ['textarea', '', 'm'], ['button', '', '']]);
    assert.deepEqual(page.textBlocks.slice(form!.blockStart, form!.blockEnd).map((b) => b.text), ['Email', 'Send']);
    assert.equal(hidden?.visible, false);
    assert.equal(hidden?.action, null);
  });

  test('lang and ids', () => {
    const page = build('<html lang=" de-AT "><body><p id="x">1</p><p id="x">2</p><p id="y">3</p></body></html>');
    assert.equal(page.lang, 'de-AT');
    assert.equal(page.ids.get('x')?.length, 2);
    assert.equal(page.ids.get('y')?.length, 1);
  });
});

describe('script-rendered shells', () => {
  const filler = (n: number) => 'x'.repeat(n);
  test(`fewer than ${CLIENT_RENDERED_MAX_TEXT} visible characters, a script and a sign that script renders the content`, () => {
    const short = `<p>${filler(CLIENT_RENDERED_MAX_TEXT - 1)}</p>`;
    assert.equal(build('<div id="root"></div><script src="/main.js"></script>').likelyClientRendered, true);
    assert.equal(build(`${short}<div id="__next"></div><script>boot()</script>`).likelyClientRendered, true, 'empty mount point');
    assert.equal(build(`${short}<app-root></app-root><script src="/main.js"></script>`).likelyClientRendered, true, 'Angular root');
    assert.equal(build(`${short}<noscript>Please enable JavaScript to use this app.</noscript><script src="/a.js"></script>`).likelyClientRendered, true);
    assert.equal(build(`<p>${filler(SHELL_MAX_TEXT - 1)}</p><script>boot()</script>`).likelyClientRendered, true, 'almost no text');
  });
  test('a short page complete as served is not a shell, even with an analytics tag', () => {
    const landing = `<h1>Acme launches in May</h1><p>${filler(120)}</p><a href="/signup">Sign up</a>`;
    assert.equal(build(`${landing}<script src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>`).likelyClientRendered, false);
    assert.equal(build(`${landing}<div id="root"><p>rendered on the server</p></div><script src="/main.js"></script>`).likelyClientRendered, false);
  });
  test('enough text, no script, or only JSON-LD is not a shell', () => {
    assert.equal(build(`<p>${filler(CLIENT_RENDERED_MAX_TEXT)}</p><script src="/main.js"></script>`).likelyClientRendered, false);
    assert.equal(build('<p>Coming soon</p>').likelyClientRendered, false);
    assert.equal(build('<div id="app"></div><script type="application/ld+json">{}</script><script></script>').likelyClientRendered, false);
  });
});

describe('locations', () => {
  test('selector path with nth-of-type, anchored at a unique plain id', () => {
    const page = build(`<html><body><footer><a href="/1">1</a><a href="/2">2</a></footer>
      <div id="main"><p>a</p><p>b</p></div><div id="dup"><p>s</p></div><div id="dup"></div><div id="9x"><p>i</p></div></body></html>`);
    assert.equal(locate(page, page.links[1]!.element).selector, 'html > body > footer > a:nth-of-type(2)');
    const b = page.textBlocks.find((x) => x.text === 'b')!.element!;
    assert.equal(locate(page, b).selector, '#main > p:nth-of-type(2)');
    const s = page.textBlocks.find((x) => x.text === 's')!.element!;
    assert.equal(locate(page, s).selector, 'html > body > div:nth-of-type(2) > p');
    const i = page.textBlocks.find((x) => x.text === 'i')!.element!;
    assert.equal(locate(page, i).selector, 'html > body > div:nth-of-type(4) > p');
  });

  test('snippet is the outer HTML via dom-serializer, at most 200 characters', () => {
    const page = build(`<p class="x">Hello &amp; <b>world</b></p><div id="big">${'<span>word </span>'.repeat(1000)}</div>`);
    assert.equal(locate(page, page.textBlocks[0]!.element!).snippet, '<p class="x">Hello &amp; <b>world</b></p>');
    const big = locate(page, page.ids.get('big')![0]!);
    assert.equal(big.snippet.length, 200);
    assert.ok(big.snippet.startsWith('<div id="big"><span>word </span>'));
  });

  test('deeply nested elements get a bounded selector and snippet', () => {
    const page = build(`${'<div>'.repeat(2000)}<p>deep</p>`);
    const location = locate(page, page.textBlocks[0]!.element!);
    assert.equal(location.snippet, '<p>deep</p>');
    assert.equal(location.selector.split(' > ').length, 24);
    assert.ok(location.selector.endsWith('div > p'));
  });
});

describe("the browser's tree (HTML Standard tree construction)", () => {
  const names = (nodes: readonly AnyNode[]): string[] => nodes.filter(isTag).map((el) => el.name);
  const body = (page: Page): Element => DomUtils.findOne((el) => el.name === 'body', page.document.children)!;

  test('a link inside a table but outside a cell is foster-parented out, before the table', () => {
    const page = build('<table><a href=x>t</a><tr><td>c</td></tr></table>');
    assert.deepEqual(names(body(page).children), ['a', 'table']);
    assert.equal(page.links[0]!.element.parent, body(page));
    assert.deepEqual(texts(page), ['t', 'c']);
  });

  test('an unclosed li is closed by the next li: two sibling items', () => {
    const page = build('<ul><li>a<div>b</div><li>c</ul>');
    const ul = DomUtils.findOne((el) => el.name === 'ul', page.document.children)!;
    assert.deepEqual(names(ul.children), ['li', 'li']);
    assert.equal(DomUtils.textContent(ul.children[1]!), 'c');
  });

  test('rows written directly in a table get the implied tbody; its snippet is the tree, selector included', () => {
    const page = build('<table><tr><td>c</td></tr></table>');
    const table = DomUtils.findOne((el) => el.name === 'table', page.document.children)!;
    assert.deepEqual(names(table.children), ['tbody']);
    const td = page.textBlocks[0]!.element!;
    assert.equal(locate(page, td).selector, 'html > body > table > tbody > tr > td');
    assert.equal(locate(page, table.children[0] as Element).snippet, '<tbody><tr><td>c</td></tr></tbody>');
  });

  test('template contents are a separate fragment, not part of the document', () => {
    const page = build('<p>before</p><template><a href="/t">in template</a><p>t</p><h2>T</h2></template><p>after</p>');
    const template = DomUtils.findOne((el) => el.name === 'template', page.document.children)!;
    assert.equal(template.children.length, 0);
    assert.deepEqual(names(templateContent(template)!.children), ['a', 'p', 'h2']);
    assert.deepEqual(texts(page), ['before', 'after']);
    assert.deepEqual([page.links.length, page.headings.length], [0, 0]);
    assert.equal(selectAll('a, p', page.document).length, 2);
    assert.equal(DomUtils.findAll((el) => el.name === 'a', page.document.children).length, 0);
    assert.equal(locate(page, template).snippet, '<template><a href="/t">in template</a><p>t</p><h2>T</h2></template>');
  });

  test('noscript content is raw text, as a browser running scripts parses it; noscriptContent gives its markup', () => {
    const page = build('<body><noscript><a href="/nojs">Enable JavaScript</a><img src="https://px.test/p.gif"></noscript><p>x</p>');
    const noscript = DomUtils.findOne((el) => el.name === 'noscript', page.document.children)!;
    assert.equal(noscript.children.length, 1);
    assert.ok(isText(noscript.children[0]!));
    assert.equal((noscript.children[0] as Text).data, '<a href="/nojs">Enable JavaScript</a><img src="https://px.test/p.gif">');
    assert.deepEqual([page.links.length, texts(page)], [0, ['x']]);
    assert.deepEqual(names(noscriptContent(noscript).children), ['a', 'img']);
  });

  test('misnested formatting is repaired by the adoption agency', () => {
    const page = build('<p><b>1<i>2</b>3</i>4</p>');
    const p = page.textBlocks[0]!.element!;
    assert.equal(render(p), '<p><b>1<i>2</i></b><i>3</i>4</p>');
  });

  test('foreign attributes keep their qualified names; SVG names keep their case', () => {
    const page = build('<svg xml:lang="fr" lang="en"><use xlink:href="#a"/><foreignObject/></svg>');
    const svg = DomUtils.findOne((el) => el.name === 'svg', page.document.children)!;
    assert.deepEqual({ ...svg.attribs }, { lang: 'en', 'xml:lang': 'fr' });
    assert.deepEqual(names(svg.children), ['use', 'foreignObject']);
    assert.equal((svg.children[0] as Element).attribs['xlink:href'], '#a');
  });
});

describe('robustness', () => {
  const pathological: Array<[string, string]> = [
    ['empty', ''],
    ['whitespace', ' \n\t '],
    ['binary-ish', Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 7919) % 65536)).join('')],
    ['NUL bytes', '<p>\u0000a\u0000</p><a href="\u0000">\u0000</a>'],
    // Just inside MAX_ELEMENT_DEPTH (2048): deep enough that a recursive walk would overflow.
    ['2k nested divs', `${'<div>'.repeat(2000)}text${'</div>'.repeat(2000)}`],
    ['2k unclosed nested spans in a link', `<a href="/x">${'<span>'.repeat(2000)}deep`],
    ['1k nested hidden sections', `${'<section hidden><p>'.repeat(1000)}x`],
    ['unclosed everything', '<html><head><title>t<body><p><a href="/x"><b><i>text'],
    ['stray closers', '</div></p></a></html><p>after</p></body>'],
    ['huge attribute', `<p style="${'display:block;'.repeat(50_000)}" title="${'x'.repeat(500_000)}">y</p>`],
    ['broken entities', '<p>&amp &#xZZ; &#99999999; &unknown; &</p>'],
    ['JSON-LD nested 100k deep', `<script type="application/ld+json">${'['.repeat(100_000)}${']'.repeat(100_000)}</script>`],
    ['bad base', '<base href="http://[::1"><a href="x">x</a>'],
    ['CDATA and comments', '<![CDATA[ x ]]><!-- <p>comment</p> --><p>text</p>'],
  ];
  for (const [name, html] of pathological) {
    test(`does not throw: ${name}`, () => {
      const page = build(html);
      assert.equal(typeof page.text, 'string');
      for (const block of page.textBlocks) if (block.element) locate(page, block.element);
    });
  }

  test('does not throw on an invalid page URL', () => {
    assert.equal(buildPage('<a href="x">x</a>', 'not a url').url.href, 'about:blank');
  });

  test('does not throw on seeded random tag soup', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['<div>', '</div>', '<p hidden>', '<a href="/x">', '</a>', '<script>', '</script>', '<style>', 'text ', '&amp;', '<!--', '-->', '<template>', '<h2>', '"', "'", '<', '>', '=', '<base href=/b/>', '<img alt="a">', '<noscript>', ' '];
    for (let i = 0; i < 200; i++) {
      const html = Array.from({ length: 300 }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const page = build(html);
      for (const link of page.links) locate(page, link.element);
    }
  });

  // The WCAG branch asks hasVisibleText instead of reading page.text, so the extraction walk never
  // runs for it: the two must agree, near-misses included.
  const visibleTextCases: Array<[string, string]> = [
    ['plain text', '<p>Hello</p>'],
    ['only whitespace and a non-breaking space', '<p> \n\t&nbsp; </p>'],
    ['only zero-width and soft-hyphen characters', '<p>&#x200b;&shy;&#xfeff;</p>'],
    ['a zero-width space beside a letter', '<p>&#x200b;a</p>'],
    ['text only in the title', '<title>Title</title><body></body>'],
    ['text only in a script, style and noscript', '<script>var a</script><style>p{}</style><noscript>No script</noscript>'],
    ['text only under hidden', '<div hidden>Hidden</div>'],
    ['text only under aria-hidden=true', '<div aria-hidden=" TRUE ">Hidden</div>'],
    ['text under aria-hidden=false', '<div aria-hidden="false">Shown</div>'],
    ['text only under inline display:none', '<div style="display:none"><p>Hidden</p></div>'],
    ['text only under visibility:hidden', '<div style="visibility:hidden">Hidden</div>'],
    ['visibility:visible inside visibility:hidden', '<div style="visibility:hidden"><span style="visibility:visible">Shown</span></div>'],
    ['visibility:visible inside display:none', '<div style="display:none"><span style="visibility:visible">Hidden</span></div>'],
    ['text only in a closed dialog', '<dialog>Closed</dialog>'],
    ['text in an open dialog', '<dialog open>Open</dialog>'],
    ['text only in a template', '<template><p>Inert</p></template>'],
    ['text only as iframe fallback', '<iframe>Fallback</iframe>'],
    ['an empty document', ''],
  ];
  for (const [name, html] of visibleTextCases) {
    test(`hasVisibleText agrees with page.text: ${name}`, () => {
      const page = build(html);
      assert.equal(hasVisibleText(page.document), page.text !== '');
    });
  }

  test('hasVisibleText agrees with page.text on every corpus page', sharedSuite(...CORPORA), () => {
    for (const { name, html } of loadCorpusPages()) {
      const page = buildPage(html, `https://corpus.example/${name}`);
      assert.equal(hasVisibleText(page.document), page.text !== '', name);
    }
  });

  test('every corpus page builds without throwing', sharedSuite(...CORPORA), (t) => {
    const pages = loadCorpusPages();
    assert.ok(pages.length >= 380, `expected both corpora, found ${pages.length} pages`);
    const times: number[] = [];
    for (const { name, html } of pages) {
      const start = performance.now();
      const page = buildPage(html, `https://corpus.example/${name}`);
      times.push(performance.now() - start);
      assert.equal(page.textLower.length, page.text.length, name);
    }
    t.diagnostic(`${pages.length} corpus pages built, median ${median(times).toFixed(2)} ms, total ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms`);
  });
});

test('nesting beyond MAX_ELEMENT_DEPTH is refused quickly instead of parsed quadratically', async () => {
  const { MAX_ELEMENT_DEPTH, PageTooComplexError } = await import('../../src/audit/page.ts');
  assert.throws(() => buildPage('<span>x'.repeat(300_000), 'https://a.test/'), PageTooComplexError);
  // At the bound itself the page is still analysed; implicitly closed elements never count.
  assert.ok(buildPage('<div>'.repeat(MAX_ELEMENT_DEPTH), 'https://a.test/'));
  assert.ok(buildPage('<li>x'.repeat(300_000), 'https://a.test/'));
});

test('tree construction cannot multiply elements beyond a budget linear in the input', async () => {
  const { PageTooComplexError } = await import('../../src/audit/page.ts');
  // Reconstructing 500 different open formatting elements in every new paragraph: 500 elements per `<p>x`.
  const bomb = `<p>${Array.from({ length: 500 }, (_, i) => `<b id=${i}>`).join('')}${'<p>x'.repeat(200)}`;
  assert.throws(() => buildPage(bomb, 'https://a.test/'), PageTooComplexError);
  // The same formatting reconstructed a few times, and tables that do not nest, are ordinary pages.
  assert.equal(buildPage(`<p><b><i>${'<p>x'.repeat(1000)}`, 'https://a.test/').elementCount, 3 + 3 + 1000 * 3);
  assert.ok(buildPage('<table>'.repeat(10_000), 'https://a.test/'));
});
