// Control roles and category names, in the seven languages the banner analysis reads.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { categoryOf, controlRole, fold, isNecessaryLabel } from '../../../../src/audit/privacy/consent/wording.ts';

describe('controlRole', () => {
  const cases: Array<[name: string, role: ReturnType<typeof controlRole>]> = [
    // accept
    ['Accept all', 'accept'], ['Accept All Cookies', 'accept'], ['Allow all', 'accept'], ['I agree', 'accept'], ['Got it!', 'accept'], ['OK', 'accept'],
    ['Alle akzeptieren', 'accept'], ['Zustimmen', 'accept'], ['Tout accepter', 'accept'], ["J’accepte", 'accept'], ['Aceptar todas', 'accept'],
    ['Accetta tutti', 'accept'], ['Alles accepteren', 'accept'], ['Akkoord', 'accept'], ['Aceitar todos', 'accept'], ['Concordo', 'accept'],
    // reject
    ['Reject all', 'reject'], ['Decline', 'reject'], ['Deny', 'reject'], ['Only necessary', 'reject'], ['Necessary only', 'reject'],
    ['Accept only necessary cookies', 'reject'], ['Use necessary cookies only', 'reject'], ['Continue without accepting', 'reject'],
    ['Alle ablehnen', 'reject'], ['Nur notwendige Cookies akzeptieren', 'reject'], ['Tout refuser', 'reject'], ['Continuer sans accepter', 'reject'],
    ['Rechazar todas', 'reject'], ['Solo necesarias', 'reject'], ['Rifiuta tutti', 'reject'], ['Alles weigeren', 'reject'],
    ['Alleen noodzakelijke cookies', 'reject'], ['Rejeitar todos', 'reject'], ['Recusar', 'reject'],
    // both in one control
    ['Accept / Reject', 'both'], ['Accept or decline', 'both'], ['Akzeptieren oder ablehnen', 'both'],
    // settings and save
    ['Cookie settings', 'settings'], ['Manage preferences', 'settings'], ['Customize', 'settings'], ['Einstellungen', 'settings'],
    ['Paramétrer', 'settings'], ['Personnaliser', 'settings'], ['Configurar', 'settings'], ['Impostazioni', 'settings'], ['Voorkeuren', 'settings'],
    ['Consent preferences', 'settings'], ['Save my choices', 'save'], ['Auswahl speichern', 'save'], ['Accept selected', 'save'], ['Enregistrer', 'save'],
    // none
    ['Close', undefined], ['×', undefined], ['Learn more', undefined], ['Privacy policy', undefined], ['Bookmark', undefined], ['', undefined],
    ['By clicking accept you agree to our use of cookies for analytics and personalised advertising on this site', undefined],
  ];
  for (const [name, role] of cases) test(`${JSON.stringify(name)} → ${role}`, () => assert.equal(controlRole(name), role));
});

describe('categories', () => {
  for (const label of ['Statistics', 'Analytics cookies', 'Marketing', 'Advertising', 'Preferences', 'Statistik', "Mesure d'audience", 'Publicité', 'Analíticas', 'Statistiche', 'Statistieken', 'Estatísticas', 'cmplz_statistics', 'cookie-marketing']) {
    test(`${label} is a category`, () => assert.notEqual(categoryOf(label), undefined));
  }
  for (const label of ['Necessary', 'Strictly necessary', 'Notwendig', 'Nécessaires', 'Necesarias', 'Noodzakelijke']) {
    test(`${label} is necessary, not a choice`, () => {
      assert.equal(categoryOf(label), undefined);
      assert.ok(isNecessaryLabel(label));
    });
  }
  test('Subscribe to our newsletter is not a category', () => assert.equal(categoryOf('Subscribe to our newsletter'), undefined));
});

test('fold drops accents, case and punctuation', () => {
  assert.equal(fold('  Tout ACCEPTER ! '), 'tout accepter');
  assert.equal(fold('Préférences & Réglages'), 'preferences and reglages');
  assert.equal(fold('J’accepte'), "j'accepte");
});
