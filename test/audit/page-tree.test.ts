// Differential test: the page model's tree is the browser's tree. On every page of both corpora
// and every W3C ACT test case, Page.document (parse5 into domhandler nodes, with its own adapter
// tweaks: template contents kept aside, qualified foreign attribute names, the depth and element
// bounds) equals parse5's own default-tree-adapter parse of the same string: element names and
// namespaces, attributes with their values, text, comments and child order. A template's contents
// are compared as its content fragment on both sides, and must not appear as its children in ours.
// Skips without the shared folder (fails in CI without it).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse, type DefaultTreeAdapterTypes as P } from 'parse5';
import { isComment, isTag, isText, type AnyNode } from 'domhandler';
import { buildPage, templateContent } from '../../src/audit/page.ts';
import { CORPORA, loadCorpusPages } from '../support/corpus-pages.ts';
import { sharedPath, sharedSuite } from '../support/shared.ts';

const ACT = 'corpus/act-rules';

/** One line per node, in document order: `<ns name attrs>`, `</name>`, `#text`, `#comment`. */
function ours(nodes: readonly AnyNode[], out: string[]): string[] {
  for (const node of nodes) {
    if (isTag(node)) {
      const attrs = Object.entries(node.attribs)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .sort();
      out.push(`<${node.namespace} ${node.name} ${attrs.join(' ')}>`);
      const content = templateContent(node);
      if (content !== undefined) {
        assert.equal(node.children.length, 0, 'a template element has no children in the document');
        out.push('#content');
        ours(content.children, out);
      } else {
        ours(node.children, out);
      }
      out.push(`</${node.name}>`);
    } else if (isText(node)) {
      out.push(`#text ${JSON.stringify(node.data)}`);
    } else if (isComment(node)) {
      out.push(`#comment ${JSON.stringify(node.data)}`);
    }
  }
  return out;
}

function reference(nodes: readonly P.ChildNode[], out: string[]): string[] {
  for (const node of nodes) {
    if ('tagName' in node) {
      const attrs = node.attrs.map((a) => `${a.prefix ? `${a.prefix}:` : ''}${a.name}=${JSON.stringify(a.value)}`).sort();
      out.push(`<${node.namespaceURI} ${node.tagName} ${attrs.join(' ')}>`);
      if (node.tagName === 'template' && 'content' in node) {
        out.push('#content');
        reference((node as P.Template).content.childNodes, out);
      } else {
        reference(node.childNodes, out);
      }
      out.push(`</${node.tagName}>`);
    } else if (node.nodeName === '#text') {
      out.push(`#text ${JSON.stringify((node as P.TextNode).value)}`);
    } else if (node.nodeName === '#comment') {
      out.push(`#comment ${JSON.stringify((node as P.CommentNode).data)}`);
    }
  }
  return out;
}

/** Undefined when the trees agree, else where they first differ. */
function difference(html: string): string | undefined {
  const mine = ours(buildPage(html, 'https://tree.test/').document.children, []);
  const theirs = reference(parse(html).childNodes, []);
  const length = Math.max(mine.length, theirs.length);
  for (let i = 0; i < length; i++) {
    if (mine[i] !== theirs[i]) return `node ${i}: ours ${mine[i]?.slice(0, 200)} / parse5 ${theirs[i]?.slice(0, 200)}`;
  }
  return undefined;
}

function actCases(): Array<{ name: string; html: string }> {
  const root = sharedPath(ACT);
  const cases: Array<{ name: string; html: string }> = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.join(entry.parentPath, entry.name);
    cases.push({ name: path.relative(root, file), html: readFileSync(file, 'utf8') });
  }
  return cases.sort((a, b) => a.name.localeCompare(b.name));
}

test('every corpus page: the page model is the tree parse5 builds', sharedSuite(...CORPORA), (t) => {
  const pages = loadCorpusPages();
  assert.ok(pages.length >= 380, `expected both corpora, found ${pages.length} pages`);
  const differing = pages.flatMap(({ name, html }) => {
    const diff = difference(html);
    return diff === undefined ? [] : [`${name}: ${diff}`];
  });
  assert.deepEqual(differing, []);
  t.diagnostic(`${pages.length} corpus pages, identical trees`);
});

test('every ACT test case: the page model is the tree parse5 builds', sharedSuite(ACT), (t) => {
  const cases = actCases();
  assert.ok(cases.length > 1000, `expected the ACT cases, found ${cases.length}`);
  const differing = cases.flatMap(({ name, html }) => {
    const diff = difference(html);
    return diff === undefined ? [] : [`${name}: ${diff}`];
  });
  assert.deepEqual(differing, []);
  t.diagnostic(`${cases.length} ACT cases, identical trees`);
});
