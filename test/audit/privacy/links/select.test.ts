// The policy-link preference order as data (POLICY_PREFERENCE + comparePolicyCandidates), the
// wording classes, the path rules and the site approximation, tested in isolation from fixtures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Element } from 'domhandler';
import { buildPage } from '../../../../src/audit/page.ts';
import { comparePolicyCandidates, judge, POLICY_PREFERENCE, scanPolicyLinks, selectPolicyLink, siteOf, type PolicyCandidate } from '../../../../src/audit/privacy/links/policy-link.ts';
import { fold } from '../../../../src/audit/privacy/links/text.ts';

const url = (href: string): URL => new URL(href, 'https://shop.example/');

function candidate(overrides: Partial<PolicyCandidate>): PolicyCandidate {
  const href = overrides.href ?? 'https://shop.example/privacy';
  return { element: new Element('a', { href }), href, url: url(href), text: 'Privacy Policy', rel: false, wording: 'full', sameSite: true, inFooter: true, order: 0, ...overrides };
}

describe('POLICY_PREFERENCE', () => {
  test('is the documented order: rel, named, same site, wording, footer, document order', () => {
    assert.deepEqual(
      POLICY_PREFERENCE.map((p) => p.name),
      ['rel="privacy-policy"', 'named by its text', 'same site', 'wording', 'in footer', 'document order'],
    );
  });

  test('the README lists the same order', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../src/audit/privacy/links/README.md'), 'utf8');
    const positions = POLICY_PREFERENCE.map((p) => readme.indexOf(`**${p.name}**`));
    assert.ok(positions.every((at) => at >= 0), `README should name every criterion in bold: ${positions.join(', ')}`);
    assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'README order differs from POLICY_PREFERENCE');
  });

  // Each pair differs in the criterion under test, and the loser wins every later criterion, so
  // the pair passes only if that criterion is applied, and before the later ones.
  const pairs: Array<[criterion: string, winner: Partial<PolicyCandidate>, loser: Partial<PolicyCandidate>]> = [
    ['rel beats everything', { rel: true, wording: 'rel-only', sameSite: false, inFooter: false, order: 9 }, { rel: false, wording: 'full', sameSite: true, inFooter: true, order: 0 }],
    ['named beats href-only', { wording: 'phrase', sameSite: false, inFooter: false, order: 9 }, { wording: 'href', sameSite: true, inFooter: true, order: 0 }],
    ['same site beats third-party', { wording: 'short', sameSite: true, inFooter: false, order: 9 }, { wording: 'full', sameSite: false, inFooter: true, order: 0 }],
    ['full beats short', { wording: 'full', inFooter: false, order: 9 }, { wording: 'short', inFooter: true, order: 0 }],
    ['short beats part', { wording: 'short', inFooter: false, order: 9 }, { wording: 'part', inFooter: true, order: 0 }],
    ['part beats phrase', { wording: 'part', inFooter: false, order: 9 }, { wording: 'phrase', inFooter: true, order: 0 }],
    ['href beats rel-only among non-rel… (both unnamed)', { wording: 'href', inFooter: false, order: 9 }, { wording: 'rel-only', inFooter: true, order: 0 }],
    ['footer beats body', { inFooter: true, order: 9 }, { inFooter: false, order: 0 }],
    ['document order last', { order: 1 }, { order: 2 }],
  ];
  for (const [criterion, winner, loser] of pairs) {
    test(criterion, () => {
      const a = candidate(winner);
      const b = candidate(loser);
      assert.ok(comparePolicyCandidates(a, b) < 0, `${criterion}: winner should sort first`);
      assert.ok(comparePolicyCandidates(b, a) > 0, `${criterion}: antisymmetric`);
      assert.deepEqual([b, a].sort(comparePolicyCandidates)[0], a);
    });
  }

  test('equal candidates compare equal', () => {
    assert.equal(comparePolicyCandidates(candidate({}), candidate({})), 0);
  });
});

describe('wording, paths and sections', () => {
  const named: Array<[text: string, href: string, wording: string]> = [
    ['Privacy Policy', '/x', 'full'],
    ['  privacy   POLICY ', '/x', 'full'],
    ['Privacy & Cookies', '/x', 'full'],
    ['Datenschutzerklärung', '/x', 'full'],
    ['DATENSCHUTZERKLÄRUNG', '/x', 'full'],
    ['Datenschutzhinweise', '/x', 'full'],
    ['Politique de confidentialité', '/x', 'full'],
    ['Politique de confidentialite', '/x', 'full'],
    ['Política de privacidad', '/x', 'full'],
    ['Aviso de privacidad', '/x', 'full'],
    ['Informativa sulla privacy', '/x', 'full'],
    ['Privacyverklaring', '/x', 'full'],
    ['Privacybeleid', '/x', 'full'],
    ['Política de privacidade', '/x', 'full'],
    ['Polityka prywatności', '/x', 'full'],
    ['プライバシーポリシー', '/x', 'full'],
    ['개인정보처리방침', '/x', 'full'],
    ['Privacy', '/x', 'short'],
    ['Datenschutz', '/x', 'short'],
    ['Confidentialité', '/x', 'short'],
    ['Données personnelles', '/x', 'short'],
    ['Privacidad', '/x', 'short'],
    ['Privacidade', '/x', 'short'],
    ['Terms of Use / Privacy Policy', '/x', 'part'],
    ['Privacy Policy (updated May 24, 2013)', '/x', 'part'],
    ['Terms, Conditions & Privacy Information', '/x', 'part'],
    ['Read how we use your data in our privacy policy', '/x', 'phrase'],
    ['Legal', '/legal/privacy-policy', 'href'],
    ['Your data', '/privacy', 'href'],
    ['Your data', '/privacy/en/', 'href'],
    ['Your data', '/privacy/policy.html', 'href'],
    ['Your data', '/PrivacyPolicy.aspx', 'href'],
    ['Your data', '/help/privacy_policy/', 'href'],
    ['Your data', '/datenschutz.html', 'href'],
    ['Your data', '/politique-de-confidentialite', 'href'],
    ['Your data', '/privacidad/', 'href'],
    ['Your data', '/privacidade', 'href'],
    ['Your data', '/privacybeleid', 'href'],
    ['Your data', '/privacy-notice', 'href'],
  ];
  for (const [text, href, wording] of named) {
    test(`"${text}" → ${href} is ${wording}`, () => {
      assert.deepEqual(judge(text, url(href), false), { kind: 'candidate', wording });
    });
  }

  const notCandidates: Array<[text: string, href: string, kind: string]> = [
    ['Our new privacy features', '/news/2024/privacy-update', 'none'],
    ['Privacy', '/news/2024/privacy', 'miss'],
    ['Privacy', '/blog/privacy', 'miss'],
    ['Read our privacy policy update', '/press/2024/policy-update', 'miss'],
    ['Privacy', '/2013/06/07/privacy', 'miss'],
    ['Cookie Policy', '/cookie-policy', 'miss'],
    ['Cookies', '/privacy/cookies', 'miss'],
    ['Cookie settings', '/privacy', 'miss'],
    ['Consent preferences', '#', 'miss'],
    ['Politique de cookies', '/cookies', 'miss'],
    ['Ad Choices', '/privacy/cookie-policy', 'none'],
    ['Anything', '/privacy/us/yahoo/relevantads.html', 'none'],
    ['Google execs talk China, privacy, betting big', '/s/article/123', 'none'],
    ['Privacy-preserving techniques', '/addon', 'none'],
    ['Internet Privacy', '/search?q=privacy', 'none'],
    ['Boston, privacy and the limits', '/2013/04/23/boston-privacy-and-the-limits', 'none'],
    ['cookiethepirate', '/users/cookiethepirate', 'none'],
    ['Privacy settings', '/settings', 'miss'],
  ];
  for (const [text, href, kind] of notCandidates) {
    test(`"${text}" → ${href} is not a candidate (${kind})`, () => {
      assert.equal(judge(text, url(href), false).kind, kind);
    });
  }

  test('a section link whose name is exactly a full policy name still counts', () => {
    assert.deepEqual(judge('Privacy Policy', url('/privacy-policy/2011/11/18/gIQASIiaiN_story.html'), false), { kind: 'candidate', wording: 'full' });
    assert.deepEqual(judge('Terms of use/privacy policy', url('/article/99999999/ABOUT04/709742840'), false), { kind: 'candidate', wording: 'part' });
  });

  test('rel="privacy-policy" makes anything a candidate, even a cookie-ish or section link', () => {
    assert.deepEqual(judge('Legal', url('/legal'), true), { kind: 'candidate', wording: 'rel-only' });
    assert.deepEqual(judge('Privacy', url('/news/privacy'), true), { kind: 'candidate', wording: 'short' });
    assert.deepEqual(judge('Cookies', url('/privacy/cookies'), true), { kind: 'candidate', wording: 'rel-only' });
  });

  test('fold: case, accents, apostrophes, ampersands, punctuation', () => {
    assert.equal(fold('  Datenschutz­erklärung '), 'datenschutzerklarung'); // with a soft hyphen
    assert.equal(fold('Don’t Sell/Share'), 'dont sell share');
    assert.equal(fold('Privacy & Cookies'), 'privacy and cookies');
    assert.equal(fold('Politique de confidentialité'), 'politique de confidentialite');
  });
});

describe('siteOf', () => {
  const cases: Array<[string, string]> = [
    ['www.example.com', 'example.com'],
    ['legal.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['www.bbc.co.uk', 'bbc.co.uk'],
    ['news.abc.net.au', 'abc.net.au'],
    ['shop.example.de', 'example.de'],
    ['WWW.Example.COM.', 'example.com'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['localhost', 'localhost'],
  ];
  for (const [host, site] of cases) test(`${host} → ${site}`, () => assert.equal(siteOf(host), site));
});

describe('selectPolicyLink on small pages', () => {
  const page = (body: string, head = '') => buildPage(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, 'https://www.shop.example/p/1');

  test('reason names rel, wording, site and footer', () => {
    const chosen = selectPolicyLink(page('<footer><a href="https://legal.shop.example/privacy">Privacy Policy</a></footer>'));
    assert.equal(chosen?.reason, 'exact policy name, same site, in footer');
    assert.equal(chosen?.text, 'Privacy Policy');
    assert.equal(chosen?.element.name, 'a');
  });

  test('role=contentinfo and id/class "footer" count as footer', () => {
    for (const wrapper of ['<div role="contentinfo">', '<div id="page-footer">', '<div class="global-footer links">']) {
      const chosen = selectPolicyLink(page(`<p><a href="/a">Privacy</a></p>${wrapper}<a href="/b">Privacy</a></div>`));
      assert.equal(chosen?.href, 'https://www.shop.example/b', wrapper);
    }
  });

  test('a <link rel="privacy-policy"> inside <template> or <noscript> does not count', () => {
    assert.equal(selectPolicyLink(page('<template><link rel="privacy-policy" href="/p"></template>')), undefined);
    assert.equal(selectPolicyLink(page('', '<noscript><link rel="privacy-policy" href="/p"></noscript>')), undefined);
  });

  test('non-http schemes never count, even with rel', () => {
    assert.equal(selectPolicyLink(page('<a rel="privacy-policy" href="javascript:void(0)">Privacy Policy</a><a href="ftp://shop.example/privacy.txt">Privacy Policy</a>')), undefined);
    assert.equal(scanPolicyLinks(page('<a href="mailto:dpo@shop.example">Privacy</a>')).nearMiss?.kind, 'scheme');
  });

  test('candidates are all kept, best first', () => {
    const scan = scanPolicyLinks(page('<a href="/privacy">Privacy</a><footer><a href="/privacy-policy">Privacy Policy</a></footer><a href="https://other.example/privacy">Privacy Policy</a>'));
    assert.deepEqual(scan.candidates.map((c) => c.href), ['https://www.shop.example/privacy-policy', 'https://www.shop.example/privacy', 'https://other.example/privacy']);
  });
});
