// Opt-out wordings: the CPRA titles and close variants are recognised as control names, near-miss
// names are not, and the plain-text pre-filter (PLAIN_TEXT_ANCHOR) never hides a wording.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../../src/audit/page.ts';
import { isOptOutName, PLAIN_TEXT_ANCHOR, scanOptOut } from '../../../../src/audit/privacy/links/opt-out.ts';
import { fold } from '../../../../src/audit/privacy/links/text.ts';
import { OPT_OUT_EXAMPLES, OPT_OUT_WHOLE_NAMES } from '../../../../src/audit/privacy/links/vocabulary.ts';

const WORDINGS = [
  ...OPT_OUT_EXAMPLES,
  'Do Not Sell or Share My Personal Information',
  'Do Not Sell My Personal Information',
  'Do Not Sell My Info',
  'Do not sell my personal info',
  'Do Not Sell or Share My Info',
  'Do Not Sell/Share My Personal Data',
  'do-not-sell-my-personal-information',
  'Don’t Sell My Personal Information',
  "Don't sell or share my data",
  'Do Not Share My Personal Information',
  'Limit the Use of My Sensitive Personal Information',
  'Limit Use of My Sensitive Personal Info',
  'Your Privacy Choices',
  'YOUR PRIVACY CHOICES',
  'Your California Privacy Choices',
  'California Privacy Choices',
  'Opt out of sale/sharing',
  'Opt-Out of the Sale or Sharing of Personal Information',
  'Optout of selling',
  'California Consumer Privacy Act (CCPA) Opt-Out Icon',
  'CCPA Opt-Out',
  'No vender mi información personal',
  'No vender ni compartir mi información personal',
  'Tus opciones de privacidad',
];

const NOT_WORDINGS = [
  'Cookie settings',
  'Cookie Settings & Preferences',
  'Consent preferences',
  'Manage consent',
  'Privacy settings',
  'Privacy Policy',
  'AdChoices',
  'Your Ad Choices',
  'Do Not Track',
  'California’s “Do Not Sell” law, explained',
  'Should you sell your personal data?',
  'Sell your car',
  'Share this article',
  'Opt out of emails',
  'Options',
  'Limit the use of cookies',
];

describe('opt-out names', () => {
  for (const name of WORDINGS) test(`"${name}" is an opt-out wording`, () => assert.ok(isOptOutName(name)));
  for (const name of NOT_WORDINGS) test(`"${name}" is not`, () => assert.equal(isOptOutName(name), false));
  for (const name of OPT_OUT_WHOLE_NAMES) {
    test(`"${name}" counts as a whole name only`, () => {
      assert.ok(isOptOutName(name));
      assert.equal(isOptOutName(`Read why we ${name} anything`), false);
    });
  }
});

describe('plain-text detection', () => {
  test('PLAIN_TEXT_ANCHOR is in every wording (lower case), so the pre-filter never hides one', () => {
    for (const name of WORDINGS) assert.ok(PLAIN_TEXT_ANCHOR.test(name.toLowerCase()), name);
  });

  for (const name of WORDINGS) {
    test(`"${name}" in a paragraph is reported as plain text`, () => {
      const page = buildPage(`<main><p>Lorem ipsum.</p><p>Residents may use ${name} by calling us.</p></main>`, 'https://shop.example/');
      const scan = scanOptOut(page);
      assert.equal(scan.control, undefined);
      assert.ok(scan.plainText !== undefined, fold(name));
      assert.ok(scan.plainText.text.includes(name));
    });
  }

  test('a visible control wins over hidden controls and text before it', () => {
    const page = buildPage('<p>Do Not Sell My Info</p><a hidden href="/a">Do Not Sell My Info</a><button>Your Privacy Choices</button>', 'https://shop.example/');
    const scan = scanOptOut(page);
    assert.equal(scan.control?.kind, 'button');
  });

  test('an <a> without href or role is not a control', () => {
    const scan = scanOptOut(buildPage('<footer><a>Do Not Sell My Personal Information</a></footer>', 'https://shop.example/'));
    assert.equal(scan.control, undefined);
    assert.ok(scan.plainText !== undefined);
  });

  test('a control name skips text hidden inside it', () => {
    const scan = scanOptOut(buildPage('<button><span hidden>Do Not Sell My Info</span>Menu</button>', 'https://shop.example/'));
    assert.equal(scan.control, undefined);
  });
});
