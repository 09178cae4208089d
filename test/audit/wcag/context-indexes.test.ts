// The WCAG context indexes ids and reads the title and the page's visible text itself, so the page
// model's extraction walk never runs for the WCAG branch (bench:axe, issue 18). Each must equal
// what the page model says, on fixtures with near-misses and on every corpus page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../src/audit/page.ts';
import { WcagContext } from '../../../src/audit/wcag/context.ts';
import { CORPORA, loadCorpusPages } from '../../support/corpus-pages.ts';
import { sharedSuite } from '../../support/shared.ts';

function agree(html: string, name: string): void {
  const page = buildPage(html, 'https://example.test/');
  const context = new WcagContext(buildPage(html, 'https://example.test/'), { html: true });
  // The two parses build different element objects: compare each id's elements by tag, in order.
  const tagsById = (ids: ReadonlyMap<string, readonly { name: string }[]>) => [...ids].map(([id, elements]) => [id, elements.map((el) => el.name)]);
  assert.deepEqual(tagsById(context.ids), tagsById(page.ids), `${name}: ids`);
  assert.equal(context.pageTitle, page.title, `${name}: title`);
  assert.equal(context.hasVisibleText, page.text !== '', `${name}: visible text`);
}

describe('WCAG context indexes equal the page model', () => {
  const cases: Array<[string, string]> = [
    ['ids, duplicated and empty', '<div id="a"><span id="a"></span><p id="">x</p><i id="b"></i></div>'],
    ['an SVG title before the page title', '<body><svg><title>Icon</title></svg></body><title> Page\n title </title>'],
    ['only an SVG title', '<svg><title>Icon</title></svg>'],
    ['a second title', '<title>One</title><title>Two</title>'],
    ['an empty title and hidden text', '<title> </title><p hidden>Text</p>'],
    ['a title in a template', '<template><title>Inert</title></template><p>x</p>'],
  ];
  for (const [name, html] of cases) test(name, () => agree(html, name));

  test('on every corpus page', sharedSuite(...CORPORA), () => {
    for (const { name, html } of loadCorpusPages()) agree(html, name);
  });
});
