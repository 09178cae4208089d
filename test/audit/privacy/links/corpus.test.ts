// Selection and all three link controls over every real corpus page (read-only, ../shared): nothing
// throws and every outcome is well formed, with the policy not followed (undefined) and with each
// kind of follow result stubbed in. How many pages have a policy or opt-out link is printed as a
// diagnostic, never asserted; so are timings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPage } from '../../../../src/audit/page.ts';
import type { PolicyFollow, PrivacyPage } from '../../../../src/audit/privacy/context.ts';
import { linkControls, scanPolicyLinks, selectPolicyLink } from '../../../../src/audit/privacy/links/index.ts';
import { CORPORA, loadCorpusPages, median } from '../../../support/corpus-pages.ts';
import { sharedSuite } from '../../../support/shared.ts';
import { assertEvidenceShape } from './support.ts';

const STUB_FOLLOWS: readonly PolicyFollow[] = [
  { outcome: 'reachable', finalUrl: 'https://corpus.example/privacy', status: 200, textLength: 4096 },
  { outcome: 'empty', finalUrl: 'https://corpus.example/privacy', status: 200, scriptRendered: false },
  { outcome: 'unreachable', failure: 'http-status', status: 404 },
  { outcome: 'unreachable', failure: 'timeout' },
  { outcome: 'unreachable', failure: 'connection-failed', plainHttpLink: true },
  { outcome: 'unreachable', failure: 'redirect-to-blocked' },
];

test('selection and the three link controls run on every corpus page with well-formed outcomes', sharedSuite(...CORPORA), (t) => {
  const pages = loadCorpusPages();
  assert.ok(pages.length >= 380, `expected both corpora, found ${pages.length} pages`);
  const perPage: number[] = [];
  const statuses: Record<string, Record<string, number>> = {};
  const reasons: Record<string, number> = {};
  let withPolicy = 0;
  let withOptOut = 0;
  for (const { name, html } of pages) {
    const page = buildPage(html, `https://corpus.example/${name}`);
    const start = performance.now();
    const link = selectPolicyLink(page);
    const contexts: PrivacyPage[] = [{ page, responseCookies: [], policy: undefined }];
    if (link !== undefined) for (const follow of STUB_FOLLOWS) contexts.push({ page, responseCookies: [], policy: { link, follow } });
    const outcomes = contexts.flatMap((context) => linkControls.map((control) => [control.id, control.evaluate(context)] as const));
    perPage.push(performance.now() - start);
    for (const [id, outcome] of outcomes) assertEvidenceShape(outcome, `${name} ${id}`);
    for (const [id, outcome] of outcomes.slice(0, linkControls.length)) {
      const counts = (statuses[id] ??= {});
      counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
    }
    if (link !== undefined) {
      withPolicy++;
      assert.ok(/^https?:\/\//.test(link.href), `${name}: selected ${link.href}`);
      assert.ok(link.reason.length > 0);
      assert.equal(scanPolicyLinks(page).candidates[0]?.element, link.element);
      const key = link.reason.replace(/, (same site|third-party)/, '').replace(/, in footer/, '');
      reasons[key] = (reasons[key] ?? 0) + 1;
    }
    if (outcomes[0]![1].status === 'pass') withOptOut++;
  }
  t.diagnostic(`${pages.length} pages: ${withPolicy} with a policy link, ${withOptOut} with an opt-out link`);
  t.diagnostic(`statuses with the policy not followed: ${JSON.stringify(statuses)}`);
  t.diagnostic(`selected by: ${JSON.stringify(reasons)}`);
  t.diagnostic(`selection + controls (×${STUB_FOLLOWS.length + 1} contexts) median ${median(perPage).toFixed(2)} ms/page`);
});

test('selection and the controls stay well formed on pathological pages', (t) => {
  const n = 5000;
  const pages: Record<string, string> = {
    empty: '',
    'many policy links': '<a href="/privacy">Privacy</a>'.repeat(n),
    'many opt-out buttons': '<button>Your Privacy Choices</button>'.repeat(n),
    'many hidden links': '<a hidden href="/privacy-policy">Privacy Policy</a>'.repeat(n),
    'long link name': `<a href="/p">${'privacy policy '.repeat(n)}</a>`,
    'long path': `<a href="/${'privacy-'.repeat(n)}policy">x</a>`,
    'many path segments': `<a href="${'/privacy'.repeat(n)}">x</a>`,
    'deep nesting': `${'<div>'.repeat(2000)}<a href="/ccpa">Do Not Sell My Info</a><a href="/privacy">Privacy</a>`,
    'button wrapping a page': `<button>${'<span>text</span>'.repeat(n)} do not sell my info</button>`,
    'plain-text opt-out in a huge block': `<p>${'words '.repeat(n * 4)}Do Not Sell My Personal Information</p>`,
  };
  for (const [name, html] of Object.entries(pages)) {
    const start = performance.now();
    const page = buildPage(html, 'https://pathological.example/');
    const link = selectPolicyLink(page);
    const context: PrivacyPage = { page, responseCookies: [], policy: link === undefined ? undefined : { link, follow: STUB_FOLLOWS[0]! } };
    for (const control of linkControls) assertEvidenceShape(control.evaluate(context), `${name} ${control.id}`);
    t.diagnostic(`${name}: ${html.length} characters, ${(performance.now() - start).toFixed(0)} ms`);
  }
});
