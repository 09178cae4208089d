// The link controls: exactly the three issue-3 ids, in spec order, in the privacy branch, with the
// spec's requirement text and the severities documented in the README table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PRIVACY_CONTROL_IDS } from '../../../../src/audit/privacy/ids.ts';
import { linkControls } from '../../../../src/audit/privacy/links/index.ts';

// Service interface, section 1, "Privacy branch"; ids from issue 3.
const SPEC: ReadonlyArray<[id: string, requirement: string]> = [
  ['privacy.do-not-sell-opt-out', 'The scanned page must contain a linked opt-out or privacy-choices control.'],
  ['privacy.privacy-policy-link', 'The scanned page must link to a privacy policy or privacy notice.'],
  ['privacy.privacy-policy-reachable', 'The selected policy link must resolve to a reachable, non-empty 2xx response.'],
];

test('linkControls holds the three controls in spec order, with their requirement', () => {
  assert.deepEqual(linkControls.map((c) => [c.id, c.requirement]), SPEC.map((row) => [...row]));
  for (const control of linkControls) {
    assert.ok((PRIVACY_CONTROL_IDS as readonly string[]).includes(control.id));
    assert.equal(control.branch, 'privacy');
    assert.ok(control.severity === 'error' || control.severity === 'warning');
  }
});

test('the README documents each control with its framework and severity', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../src/audit/privacy/links/README.md'), 'utf8');
  for (const control of linkControls) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${control.id}\``));
    assert.ok(row !== undefined, `README has no row for ${control.id}`);
    const cells = row.split('|').map((cell) => cell.trim());
    assert.equal(cells[2], control.framework, `${control.id} framework`);
    assert.equal(cells[3], control.severity, `${control.id} severity`);
    assert.ok(readme.includes(`\`${control.id}\` — **${control.severity}**`), `${control.id}: a one-line severity reason`);
  }
});
