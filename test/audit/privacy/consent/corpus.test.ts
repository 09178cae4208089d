// The three consent controls over every real corpus page: nothing throws, every outcome is well
// formed. Each page is evaluated twice: as crawled (no Set-Cookie headers), and with a redirect
// hop and a final response that set cookies. Timings are logged for information only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPage } from '../../../../src/audit/page.ts';
import type { ResponseCookie } from '../../../../src/audit/privacy/context.ts';
import { consentControls } from '../../../../src/audit/privacy/consent/index.ts';
import { CORPORA, loadCorpusPages, median } from '../../../support/corpus-pages.ts';
import { sharedSuite } from '../../../support/shared.ts';
import { assertEvidenceShape } from '../../ai-governance/evidence-shape.ts';

test('all three consent controls run on every corpus page with well-formed outcomes', sharedSuite(...CORPORA), (t) => {
  const pages = loadCorpusPages();
  assert.ok(pages.length >= 380, `expected both corpora, found ${pages.length} pages`);
  const parse: number[] = [];
  const analyse: number[] = [];
  const counts: Record<string, Record<string, number>> = {};
  for (const { name, html } of pages) {
    const url = `https://corpus.example/${name}`;
    const start = performance.now();
    const page = buildPage(html, url);
    const parsed = performance.now();
    const withHeaders: ResponseCookie[] = [
      { url: 'http://corpus.example/', header: 'sessionid=1; Path=/; HttpOnly' },
      { url, header: '_ga=GA1.2.3.4; Domain=.corpus.example; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT' },
    ];
    for (const responseCookies of [[], withHeaders]) {
      const privacyPage = { page, responseCookies, policy: undefined };
      for (const control of consentControls) {
        const outcome = control.evaluate(privacyPage);
        assertEvidenceShape(outcome, `${name} ${control.id}`);
        if (responseCookies.length > 0) {
          if (control.id === 'privacy.consent-banner-structure') continue;
          assert.equal(outcome.status, 'fail', `${name} ${control.id}: a _ga Set-Cookie always fails: ${outcome.evidence}`);
        } else {
          const byStatus = (counts[control.id] ??= {});
          byStatus[outcome.status] = (byStatus[outcome.status] ?? 0) + 1;
        }
      }
    }
    parse.push(parsed - start);
    analyse.push(performance.now() - parsed);
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  t.diagnostic(
    `${pages.length} pages: buildPage median ${median(parse).toFixed(2)} ms, consent analysis (both variants) median ${median(analyse).toFixed(2)} ms; totals ${sum(parse).toFixed(0)} / ${sum(analyse).toFixed(0)} ms`,
  );
  t.diagnostic(`outcomes without headers: ${JSON.stringify(counts)}`);
});
