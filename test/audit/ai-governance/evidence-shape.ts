// What every outcome's evidence must satisfy, whatever the control and page.
import assert from 'node:assert/strict';
import type { Outcome } from '../../../src/audit/control.ts';

export function assertEvidenceShape(outcome: Outcome, label: string): void {
  assert.ok(['pass', 'fail', 'inconclusive'].includes(outcome.status), `${label}: status ${outcome.status}`);
  assert.ok(outcome.evidence.trim().length > 0, `${label}: empty evidence`);
  assert.ok(outcome.evidence.length <= 200, `${label}: evidence is ${outcome.evidence.length} characters`);
  assert.ok(!/\s{2,}/.test(outcome.evidence), `${label}: evidence whitespace is not collapsed: ${outcome.evidence}`);
  if (outcome.location !== undefined) {
    assert.ok(outcome.location.selector.length > 0, `${label}: empty selector`);
    assert.ok(outcome.location.snippet.length > 0 && outcome.location.snippet.length <= 200, `${label}: snippet length ${outcome.location.snippet.length}`);
  }
}
