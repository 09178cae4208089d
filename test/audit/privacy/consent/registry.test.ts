// The consent registry: the spec's three privacy checks, in spec order, with the spec's
// requirement text and the severities documented in the README.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PRIVACY_CONTROL_IDS } from '../../../../src/audit/privacy/ids.ts';
import { CONSENT_CONTROL_IDS, consentControls } from '../../../../src/audit/privacy/consent/index.ts';

// Service interface, section 1, "Privacy branch"; ids from issue 3.
const SPEC: ReadonlyArray<[id: string, requirement: string]> = [
  ['privacy.consent-before-nonessential-cookies', 'Consent must be visible before confirmed marketing or analytics evidence.'],
  ['privacy.nonessential-cookies', 'Known non-essential cookies must not appear in the initial response or before consent.'],
  ['privacy.consent-banner-structure', 'A visible static banner must expose category controls plus separate accept and reject/decline controls.'],
];

test('consentControls holds the three consent controls in spec order', () => {
  assert.deepEqual(consentControls.map((c) => [c.id, c.requirement]), SPEC.map((row) => [...row]));
  assert.deepEqual([...CONSENT_CONTROL_IDS], SPEC.map(([id]) => id));
  assert.deepEqual(PRIVACY_CONTROL_IDS.slice(0, 3), SPEC.map(([id]) => id));
  for (const control of consentControls) {
    assert.equal(control.branch, 'privacy');
    assert.ok(control.framework.length > 0);
  }
});

test('the cookie and consent-ordering failures are errors (issue 3)', () => {
  assert.equal(consentControls[0]!.severity, 'error');
  assert.equal(consentControls[1]!.severity, 'error');
});

test('the README documents each control with its severity', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../src/audit/privacy/consent/README.md'), 'utf8');
  for (const control of consentControls) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${control.id}\``));
    assert.ok(row !== undefined, `README has no row for ${control.id}`);
    assert.equal(row.split('|').map((cell) => cell.trim())[2], control.severity, `${control.id} severity`);
  }
});
