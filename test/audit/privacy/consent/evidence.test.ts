// The shared evidence pass: memoised per privacy page, ordered, bounded on pathological input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../../src/audit/page.ts';
import type { PrivacyPage, ResponseCookie } from '../../../../src/audit/privacy/context.ts';
import { analyseConsentEvidence, consentControls } from '../../../../src/audit/privacy/consent/index.ts';
import { assertEvidenceShape } from '../../ai-governance/evidence-shape.ts';

const URL_ = 'https://shop.example/';
const privacyPage = (html: string, responseCookies: readonly ResponseCookie[] = []): PrivacyPage => ({ page: buildPage(html, URL_), responseCookies, policy: undefined });

describe('analyseConsentEvidence', () => {
  test('is computed once per privacy page and shared by the three controls', () => {
    const pp = privacyPage('<script src="https://www.google-analytics.com/analytics.js"></script>');
    const first = analyseConsentEvidence(pp);
    for (const control of consentControls) control.evaluate(pp);
    assert.equal(analyseConsentEvidence(pp), first);
    assert.notEqual(analyseConsentEvidence({ ...pp }), first);
  });

  test('header cookies come first, then element evidence in document order', () => {
    const pp = privacyPage(
      `<img src="https://www.facebook.com/tr?id=1" width="1" height="1">
       <script>document.cookie = "_gcl_au=1; path=/";</script>
       <script src="https://static.hotjar.com/c/hotjar-1.js"></script>`,
      [
        { url: 'http://shop.example/', header: '_ga=1; Path=/' },
        { url: URL_, header: 'IDE=abc; Domain=.doubleclick.net' },
      ],
    );
    const ev = analyseConsentEvidence(pp);
    assert.deepEqual(
      ev.confirmed.map((i) => [i.kind, i.subject.replace(/^https:\/\//, '').slice(0, 20), i.hop ?? null]),
      [
        ['set-cookie', '_ga', true],
        ['set-cookie', 'IDE', false],
        ['pixel', 'www.facebook.com/tr?', null],
        ['script-cookie', '_gcl_au', null],
        ['script', 'static.hotjar.com/c/', null],
      ],
    );
  });

  test('a Consent Mode default earlier in the same script as the gtag loader gates it; later does not', () => {
    const gtm = `(function(w,d,s,l,i){var j=d.createElement(s);j.src='https://www.googletagmanager.com/gtag/js?id='+i;d.head.appendChild(j)})(window,document,'script','dataLayer','G-X1');`;
    const before = analyseConsentEvidence(privacyPage(`<script>gtag('consent','default',{analytics_storage:'denied'});${gtm}</script>`));
    assert.equal(before.confirmed.length + before.unconfirmed.length, 0);
    assert.match(before.gated[0]?.gate ?? '', /Google Consent Mode \(analytics_storage denied/);
    const after = analyseConsentEvidence(privacyPage(`<script>${gtm}gtag('consent','default',{analytics_storage:'denied'});</script>`));
    assert.equal(after.confirmed.length, 1);
  });

  test('Consent Mode defaults passed in a variable count as denying both storages', () => {
    const ev = analyseConsentEvidence(privacyPage(`<script>var d = {ad_storage:'denied'}; gtag('consent', 'default', d);</script>`));
    assert.deepEqual([ev.consentMode?.analyticsDenied, ev.consentMode?.adDenied], [true, true]);
  });

  test('scripts that never run are not evidence: JSON, templates, noscript, text/plain without category', () => {
    const ev = analyseConsentEvidence(
      privacyPage(`
        <script type="application/json">{"src":"https://www.google-analytics.com/analytics.js"}</script>
        <script type="text/plain" src="https://www.google-analytics.com/analytics.js"></script>
        <template><script src="https://www.google-analytics.com/analytics.js"></script></template>
        <noscript><img src="https://www.facebook.com/tr?id=1&noscript=1" width="1" height="1"></noscript>`),
    );
    assert.equal(ev.confirmed.length, 0);
    assert.equal(ev.noscriptTrackers, 1);
    assert.deepEqual(ev.gated.map((g) => g.gate), ['type="text/plain" (not executed)']);
  });
});

describe('pathological pages stay bounded and well formed', () => {
  const n = 5000;
  const pages: Record<string, [string, ResponseCookie[]]> = {
    empty: ['', []],
    'many cookie writes': [`<script>${'document.cookie="_ga=1";'.repeat(n)}</script>`, []],
    'many tracker URLs in one loader': [`<script>var s=document.createElement('script');${"'https://www.google-analytics.com/x.js',".repeat(n)}</script>`, []],
    'many pixels': ['<img src="https://www.facebook.com/tr?id=1" width="1" height="1">'.repeat(n), []],
    'many candidates': ['<div class="cookie-x"><button>Accept</button></div>'.repeat(n), []],
    'huge banner': [`<div id="cookie-banner">${'<p><button>OK</button></p>'.repeat(n)}</div>`, []],
    'deep nesting': [`${'<div class="consent">'.repeat(2000)}<button>Accept all</button>`, []],
    'many headers': ['<p>x</p>', Array.from({ length: n }, (_, i) => ({ url: URL_, header: `_ga${i}=1; Path=/` }))],
    'unterminated strings': [`<script>document.cookie = "${'x'.repeat(n * 20)}</script><script>gtag('consent','default',{${'a:1,'.repeat(n)}</script>`, []],
  };
  for (const [name, [html, cookies]] of Object.entries(pages)) {
    test(name, (t) => {
      const start = performance.now();
      const pp = privacyPage(html, cookies);
      for (const control of consentControls) assertEvidenceShape(control.evaluate(pp), `${name} ${control.id}`);
      t.diagnostic(`${html.length} characters, ${(performance.now() - start).toFixed(0)} ms`);
    });
  }
});
